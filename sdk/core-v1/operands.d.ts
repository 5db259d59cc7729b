/** Decimal positive integer: digits only, no sign, no leading zero, ≤ Number.MAX_SAFE_INTEGER; else null. */
export declare function parsePositiveInt(s: string): number | null;
/** An inclusive 1-based line range; `end` null means "through the last line". */
export interface LineRange {
    readonly start: number;
    readonly end: number | null;
}
/**
 * `N` (line N), `N-M` (N through M, M ≥ N) or `N-` (N through the end), each number as parsePositiveInt.
 * No spaces, no `:`, no open start: anything else is null. Whether N exists in a file is the caller's check.
 */
export declare function parseLineRange(s: string): LineRange | null;
/**
 * Decodes exactly one operand:
 * - bare word: non-empty, no whitespace, no `'`, `"` or `\`; taken literally (no `$`, glob or other expansion);
 * - '…': everything between the quotes, verbatim (no escapes; cannot contain `'`);
 * - "…": `\"` `\\` `\n` `\t` are decoded, any other `\x` stays as the two characters `\x`.
 * Null for an unterminated quote, a trailing backslash inside "…", text after the closing quote,
 * an empty bare word, a backslash or quote in a bare word, surrounding whitespace, or a NUL in the value.
 */
export declare function decodeQuotedOperand(s: string): string | null;
/**
 * Splits `s` into operands separated by runs of ASCII spaces/tabs, each decoded as decodeQuotedOperand.
 * Leading/trailing spaces and tabs are ignored; '' or only blanks → []; any malformed operand → null.
 * Other whitespace (newline, CR, …) is not a separator and makes a bare word malformed.
 */
export declare function splitQuotedOperands(s: string): string[] | null;
