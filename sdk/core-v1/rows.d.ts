/** xxHash32 (Yann Collet's XXH32) of `bytes` with `seed`, as an unsigned 32-bit integer. */
export declare function xxHash32(bytes: Uint8Array, seed?: number): number;
/** xxHash32 of `bytes[start, end)` (host fast paths hash lines in place; not part of the module's API). */
export declare function xxHash32Range(bytes: Uint8Array, start: number, end: number, seed?: number): number;
/**
 * The row hash of one line's content (no terminator): xxHash32 (seed 0) of its exact UTF-8 bytes,
 * folded to 16 bits as `(h ^ (h >>> 16)) & 0xffff`, as 4 lowercase hex digits.
 * Nothing is normalized: indentation, trailing spaces and a lone CR are all significant.
 */
export declare function rowHash(line: string): string;
/** Whole-content tag (e.g. for an hread header): xxHash32 (seed 0) of the exact bytes, 8 lowercase hex. */
export declare function contentTag(content: string | Uint8Array): string;
/** `LINE:HASH|text`. Throws RangeError unless lineNumber is a positive safe integer. */
export declare function formatRow(lineNumber: number, text: string): string;
export interface Anchor {
    readonly line: number;
    readonly hash: string;
}
export interface Row extends Anchor {
    readonly text: string;
}
/** Strict `LINE:HASH`: LINE positive without leading zeros (≤ 2^53−1), HASH exactly 4 lowercase hex. */
export declare function parseAnchor(s: string): Anchor | null;
/**
 * Inverse of formatRow: `LINE:HASH|text` → { line, hash, text }, or null. The text is everything after
 * the first `|` (it may itself contain `|`). The hash is not checked against the text: compare with rowHash.
 */
export declare function parseRow(s: string): Row | null;
/**
 * True when `text` starts with what looks like a pasted row prefix: decimal digits, ':', 4 hex digits
 * (either case), '|'. Looser than parseRow on purpose (leading zeros, uppercase), because it guards
 * new text against echoed anchors; column 0 only, since hread output puts the prefix there.
 */
export declare function looksLikeRowPrefix(text: string): boolean;
