// How `set` and a bare `declare` list the shell's state: values quoted the way bash quotes them
// there, and the function definitions after the variables.
import type { Shell } from '../execution/runner.ts';
import { shellQuote } from '../words/quoting.ts';
import { out } from './builtin-io.ts';

/** The function definitions `set` and a bare `declare` print after the variables. */
export async function listFunctions(sh: Shell): Promise<void> {
  for (const f of [...sh.funcs.keys()].sort()) await out(sh, `${sh.functionText(f)}\n`);
}

export function shQuoteValue(v: string, utf8?: boolean): string {
  if (/^[a-zA-Z0-9_@%+=:,./-]*$/.test(v) && v !== '') return v;
  return shellQuote(v, utf8);
}
