// `test` and `[` (bash's test.def): the builtins and their fast path; the expression itself is
// evaluated by words/conditional.ts (shared with `[[ ]]`).
import type { Shell } from '../execution/runner.ts';
import { ShellError } from '../execution/errors.ts';
import { testArgs } from '../words/conditional.ts';
import { def } from './table.ts';
import { errOut } from './builtin-io.ts';

// (the fast path: an error message needs the promise, so the builtin runs again and reports it;
// testArgs only reads)
def(['test'], async (sh, args) => {
  try { return testArgs(sh, args.slice(1)) ? 0 : 1; } catch (e) {
    if (e instanceof ShellError) { await errOut(sh, 'test', e.message); return 2; }
    throw e;
  }
}, { sync: (sh, args) => testSync(sh, args.slice(1)) });
def(['['], async (sh, args) => {
  if (args[args.length - 1] !== ']') { await errOut(sh, '[', "missing `]'"); return 2; }
  try { return testArgs(sh, args.slice(1, -1)) ? 0 : 1; } catch (e) {
    if (e instanceof ShellError) { await errOut(sh, '[', e.message); return 2; }
    throw e;
  }
}, { sync: (sh, args) => (args[args.length - 1] === ']' ? testSync(sh, args.slice(1, -1)) : undefined) });
function testSync(sh: Shell, args: string[]): number | undefined {
  try { return testArgs(sh, args) ? 0 : 1; } catch (e) {
    if (e instanceof ShellError) return undefined;
    throw e;
  }
}
