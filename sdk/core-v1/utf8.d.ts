/** UTF-8 bytes of `s`. A lone surrogate encodes as U+FFFD (EF BF BD), exactly like TextEncoder. */
export declare function utf8Encode(s: string): Uint8Array;
/** Number of bytes `utf8Encode(s)` produces (a lone surrogate counts 3, as U+FFFD). */
export declare function utf8ByteLength(s: string): number;
/**
 * Decodes UTF-8 like the WHATWG decoder with replacement (`new TextDecoder('utf-8', { ignoreBOM: true })`):
 * each maximal invalid subpart becomes one U+FFFD, and a leading BOM is kept (it is content).
 */
export declare function utf8Decode(bytes: Uint8Array): string;
/**
 * Scans `bytes`: `validPrefix` is the length of the longest well-formed prefix; `incompleteTail` says
 * the rest is only the start of a valid sequence cut off by the end (as in a truncated sample).
 * Internal: shared by isValidUtf8 and classifySource.
 */
export declare function scanUtf8(bytes: Uint8Array): {
    validPrefix: number;
    incompleteTail: boolean;
};
/** True when `bytes` is well-formed UTF-8 (no overlongs, surrogates, or code points above U+10FFFF). */
export declare function isValidUtf8(bytes: Uint8Array): boolean;
/** True when `s` has no lone surrogate, i.e. it encodes to UTF-8 and back unchanged. */
export declare function isWellFormed(s: string): boolean;
/**
 * The longest prefix of `s` whose UTF-8 encoding fits in `maxBytes` (a lone surrogate counts 3).
 * Never ends inside a surrogate pair, so the result is well-formed whenever `s` is.
 */
export declare function utf8TruncateToBytes(s: string, maxBytes: number): string;
