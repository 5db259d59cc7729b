// The placeholder names parseScript's source fixes write (`__hpA<n>`, `__hpB<n>`…) and what each
// stands for: the run-time tables the evaluator, the expander, arith.ts and the declaration
// builtins read, and the marks the steps after the parse (reparse-after-parse.ts) take off again.
// Apart because every fix and the steps after the parse share them, and one count numbers them all.
import type { ArrayElem } from './ast.ts';

/** Placeholder name (`__hpA<n>`) → original arithmetic text. */
export const rawArith = new Map<string, string>();
/** Placeholder name (`__hpB<n>`) → original `${…}` text bash rejects when it expands it. */
export const badSubst = new Map<string, string>();

/** Placeholder name (`__hpD<n>`) → original text of a declaration builtin's argument word. */
export const declWords = new Map<string, string>();

/**
 * Placeholder name (`__hpE<n>`) of an assignment bash rejects only when it runs → its message:
 * `a[0]=(1 2)` ("cannot assign list to array member", the rest of the line is abandoned) and
 * `a[0]=1 cmd` ("not a valid identifier", the command still runs).
 */
export const badAssigns = new Map<string, { message: string; discard: boolean; prefix?: string }>();

/** Placeholder function name (`__hpF<n>`) → the word bash rejects when it defines the function ("not a valid identifier"). */
export const badFuncNames = new Map<string, string>();

/** Elements of array literals written `[k]+=v` (bash appends to the element); see fixElemAppend. */
export const appendElems = new WeakSet<ArrayElem>();

/** Op codes (not mvdan-sh's) of bash's case toggles `${x~pat}` and `${x~~pat}`. */
export const TOGGLE_FIRST = 1080, TOGGLE_ALL = 1081;

// ---- marks for the steps after the parse ----------------------------------------------------

/** The placeholder command of a bare `!` (fixBang): a statement without a command. */
export const NO_CMD = '__hpN';
/** The `__hpP<n>_` prefixes fixElemAppend put before an element's value. */
export const appendMarks = new Set<string>();
/** The `__hpS<n>` names fixNumParams gave `$#`. */
export const numParams = new Set<string>();
/** `${…}` (by the offset of its `$`, in the current parseScript) whose operator fixParamOps replaced: `~`, `~~`, or `k` (for `@k`). */
export const paramOps = new Map<number, string>();
/** Offsets (in the current parseScript) of the `@()` that fixEmptyExtglob wrote `@(|)`: their pattern is made empty again. */
export const emptyGlobs = new Set<number>();

// ---- names ----------------------------------------------------------------------------------

let counter = 0;

/** The number of a new placeholder name (one count for every kind). */
export function nextPlaceholderNumber(): number { return ++counter; }

export function placeholder(text: string): string {
  const name = `__hpA${++counter}`;
  rawArith.set(name, text);
  return ` ${name} ` + '\n'.repeat(text.split('\n').length - 1);
}

/** A placeholder name for `text`, a `${…}` bash rejects when it expands it. */
export function newBadSubst(text: string): string {
  const name = `__hpB${++counter}`;
  badSubst.set(name, text);
  return name;
}
