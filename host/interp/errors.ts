// Control flow and error signals of the evaluator (thrown, caught by the runner).

/** A shell error message to print; `fatal` errors (expansion errors) exit a non-interactive shell. */
export class ShellError extends Error {
  constructor(message: string, readonly status = 1, readonly fatal = false) { super(message); }
}
export class ExitSignal { constructor(readonly status: number) {} }
export class ReturnSignal { constructor(readonly status: number) {} }
export class LoopSignal { constructor(readonly kind: 'break' | 'continue', public levels: number) {} }
