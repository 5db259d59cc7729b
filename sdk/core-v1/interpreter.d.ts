/** Quotes model input inside a diagnostic, cut to 40 bytes so diagnostics stay bounded. Internal. */
export declare function excerpt(s: string): string;
/** 'bash' → mvdan/sh LangBash, 'posix' → mvdan/sh LangPOSIX, 'external' → a real interpreter via PATH or path. */
export type InterpreterIdentity = 'bash' | 'posix' | 'external';
/**
 * Identity of one executable field by its case-insensitive basename: `bash`/`bash.exe` → 'bash',
 * `sh`/`sh.exe` → 'posix', anything else → 'external'. Works for bare names and direct paths
 * (`/usr/bin/bash`, `/bin/sh`, `C:\Git\bin\bash.exe`). Pass the executable, not a whole selector line.
 */
export declare function interpreterIdentity(executable: string): InterpreterIdentity;
/** Bounds on the translated argv: the interpreter fields plus the body as the final value. */
export interface ArgvLimits {
    /** Maximum number of argv values including the body (default 64). */
    readonly maxArgvValues?: number;
    /** Maximum UTF-8 bytes of any single argv value, body included (default 131071 = Linux MAX_ARG_STRLEN − 1). */
    readonly maxArgvValueBytes?: number;
}
export declare const DEFAULT_MAX_ARGV_VALUES = 64;
export declare const DEFAULT_MAX_ARGV_VALUE_BYTES = 131071;
export type SelectorResult = {
    readonly ok: true;
    readonly fields: string[];
    readonly identity: InterpreterIdentity;
} | {
    readonly ok: false;
    readonly error: string;
};
/**
 * Normalizes a shebang selector (the text after `#!`): trims ASCII spaces/tabs, splits at them,
 * removes a leading `env` or `/usr/bin/env` and an optional following `-S`. The remaining fields are
 * the executable (bare name or direct path, unchanged) and its arguments.
 * Rejects: an empty selector; env without an executable; env followed by another option or by a
 * NAME=value assignment (neither is supported, and running them as an executable would only fail later);
 * a NUL; more than maxArgvValues − 1 fields (the body takes one value); a field over maxArgvValueBytes.
 */
export declare function parseShebangSelector(selector: string, limits?: ArgvLimits): SelectorResult;
