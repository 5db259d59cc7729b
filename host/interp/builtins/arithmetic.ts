// `let`: arithmetic expressions as a command (the arithmetic itself is words/arith.ts).
import { ArithError } from '../words/arith.ts';
import { def } from './table.ts';
import { errOut } from './builtin-io.ts';

def(['let'], async (sh, args) => {
  if (args.length < 2) { await errOut(sh, 'let', 'expression expected'); return 1; }
  let v = 0n;
  for (const a of args.slice(1)) {
    try { v = sh.arith.evalString(a); } catch (e) {
      // (like the `let` clause: the error names `let` and only fails the command, save in a subscript)
      if (!(e instanceof ArithError) || e.subscript || !e.expr) throw e;
      e.expr = 'let: ' + e.expr.replace(/^\s+/, '');
      await sh.err(e.report());
      return 1;
    }
  }
  return v !== 0n ? 0 : 1;
});
