/** The 25 Go keywords. */
export declare const GO_KEYWORDS: readonly string[];
/** A Go identifier: a Unicode letter (category L) or `_`, then letters, `_` or decimal digits (Nd); not a keyword. */
export declare function isGoIdentifier(s: string): boolean;
/**
 * The bytes a Go string literal denotes, or null when `lit` is not exactly one valid literal.
 * Raw `…`: the characters between the backquotes with every CR removed (Go spec).
 * Interpreted "…": no newline; escapes \a \b \f \n \r \t \v \\ \", \NNN (octal ≤ 377), \xHH (one byte each),
 * \uHHHH and \UHHHHHHHH (a code point, not a surrogate, ≤ 10FFFF, as UTF-8); \' and anything else → null.
 */
export declare function goStringLiteralBytes(lit: string): Uint8Array | null;
/** The string value of a Go string literal, or null when invalid or when its bytes are not valid UTF-8 (e.g. "\xff"). */
export declare function goStringLiteral(lit: string): string | null;
export type GoDeclarationKind = 'func' | 'method' | 'type' | 'var' | 'const';
export interface GoDeclaration {
    readonly name: string;
    readonly kind: GoDeclarationKind;
    /** 1-based line of the declared name. */
    readonly line: number;
    /** 1-based line where the declaration (func body, spec) ends. */
    readonly endLine: number;
    /** For methods: the receiver's base type name (`T` for `(r *T[K])`). */
    readonly receiver?: string;
}
/**
 * Top-level declarations of a Go source file in source order: functions, methods, and every name of
 * type/var/const specs, grouped or not. Blank (`_`) names are omitted. Comments, strings, raw strings
 * and runes are skipped lexically; declarations inside function bodies are not top-level.
 * Never throws: on invalid Go it reports what it can recognize.
 */
export declare function scanGoDeclarations(source: string): GoDeclaration[];
