export type QuotedWord = {
    readonly ok: true;
    readonly quoted: string;
} | {
    readonly ok: false;
    readonly error: string;
};
/**
 * Quotes one value as one Bash word for a `template`, exactly as the exec wrapper quotes each argv
 * value: bare when only `[A-Za-z0-9_@%+,:./-]` (and not a reserved word), `''` when empty,
 * single-quoted otherwise, `$'…'` when it holds a control character. One addition: a `{.}` in the
 * value is split (`'a{'.'}b'`), since a template must hold the placeholder exactly once. A NUL or a
 * lone surrogate cannot be carried in a command argument: `{ ok: false, error }`.
 */
export declare function shellQuote(word: string): QuotedWord;
/** shellQuote with `label` naming the value in the error (the exec wrapper says `argv[2]`). */
export declare function quoteWordAs(word: string, label: string): QuotedWord;
