// Control flow and error signals of the evaluator (thrown, caught by the runner).

/** A shell error message to print; `fatal` errors (expansion errors) exit a non-interactive shell. */
export class ShellError extends Error {
  constructor(message: string, readonly status = 1, readonly fatal = false) { super(message); }
}
/**
 * An error after which bash (non-interactive, not POSIX mode) abandons the rest of the current
 * top-level line — arithmetic errors, assigning a readonly variable, failglob, bad substring —
 * and goes on with the next one (its jump_to_top_level(DISCARD)). A subshell exits instead.
 */
export class DiscardError extends ShellError {
  /**
   * `hard`: bash's top_level_cleanup() first (builtins given too many arguments): see DiscardSignal.
   * `exitsUnderErrexit`: with `set -e` the shell exits instead, even where errexit is suspended
   * (a failed assignment to a readonly variable).
   */
  constructor(message: string, status = 1, readonly hard = false, readonly exitsUnderErrexit = false) { super(message, status, false); }
}
/**
 * Unwinds to the nearest top-level line (file, `source`, `eval`, trap) or subshell. A `hard`
 * one also ends `eval`, `source` and a `-c` string, and only a script file goes on with its next line.
 */
export class DiscardSignal { constructor(readonly status: number, readonly hard = false) {} }
export class ExitSignal { constructor(readonly status: number) {} }
export class ReturnSignal { constructor(readonly status: number) {} }
export class LoopSignal { constructor(readonly kind: 'break' | 'continue', public levels: number, readonly status = 0) {} }
