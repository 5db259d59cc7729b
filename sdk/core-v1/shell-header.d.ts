import { type ArgvLimits, type InterpreterIdentity } from './interpreter.js';
export interface Interpreter {
    /** Normalized selector fields: executable (bare name or unchanged path) then its arguments; ['bash'] when implicit. */
    readonly fields: string[];
    readonly identity: InterpreterIdentity;
    /** True when there was no shebang (implicit Bash). */
    readonly implicit: boolean;
}
export type ShellInput = {
    readonly ok: true;
    readonly kind: 'script';
    readonly interpreter: Interpreter;
    /** The #!cmd= template (trimmed, non-empty, exactly one `{.}`). */
    readonly command?: string;
    /** The #!params= object (no `cmd`; `login`, when present, is false). */
    readonly params?: Record<string, unknown>;
    /** Every input character after the removed header lines, exactly. */
    readonly body: string;
} | {
    readonly ok: true;
    readonly kind: 'scriptRef';
    /** `@shell/<artifactId>` exactly as written. */
    readonly scriptRef: string;
    readonly artifactId: string;
} | {
    readonly ok: false;
    readonly error: string;
};
export type ShellHeaderLimits = ArgvLimits;
/** An artifact id is one safe filename component (REQ-SHELL-001 retention rules). */
export declare function isSafeArtifactId(id: string): boolean;
/**
 * Parses built-in shell input into interpreter, directives and exact body (REQ-SHELL-001):
 * - NUL anywhere, or a lone surrogate (not encodable as UTF-8), rejects.
 * - Line 1 (trimmed of ASCII spaces/tabs) starting with `#!` is the shebang, unless it is a directive;
 *   see parseShebangSelector for the selector rules. Without a shebang the interpreter is implicit bash.
 * - Then a leading directive block: consecutive lines that (trimmed) are `#!cmd=…`, `#!params=…` or the
 *   tolerated `#!params …` / `# !params …`; at most one of each, any order. Any other `#!` line there
 *   rejects as an unsupported directive. The first other line (a blank line too) starts the body;
 *   later directive-like lines are body.
 * - `#!script=@shell/<id>` is accepted only as the sole line of the input (optional final terminator).
 * - Removed lines take their complete LF or CRLF terminator with them; the body is the rest, exactly.
 * - Limits: interpreter fields + body ≤ maxArgvValues values, each ≤ maxArgvValueBytes UTF-8 bytes.
 */
export declare function parseShellInput(input: string, limits?: ShellHeaderLimits): ShellInput;
