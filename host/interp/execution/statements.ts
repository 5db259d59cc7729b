// Statements: stmtSync, the fast path that runs the statements loops run most without a promise
// (assignments, `((…))`, `[[ ]]`, simple commands of functions and SyncBuiltins, `case`, `local`,
// blocks, `if` and `&&`/`||`, which are here), and a statement's own redirections (stmtInner).
// stmt(), stmts() and cmd() — the dispatch every statement goes through — stay on Shell.
import type { Shell } from './runner.ts';
import { Tok, type BinaryCmd, type IfClause, type Stmt, type Word } from '../syntax/ast.ts';
import { ExitSignal, ShellError } from './errors.ts';
import { evalTest, testSyncable } from '../words/conditional.ts';
import { caseSync } from './compound-commands.ts';
import { withRedirs, applyRedirs, redirectsStdin } from './redirections.ts';
import { assignOnlySync, assignsOnlySync, localSync } from './assignments.ts';
import { call, commandSync } from './simple-commands.ts';
import { arithCmdError, arithSync } from './arithmetic.ts';

/**
 * stmt() without a promise for the statements loops run most — assignments whose words expand
 * synchronously, and `((…))` whose expression does — taking the same steps as stmt() when
 * nothing around them waits (no pending signal or cancellation, no DEBUG trap, no xtrace; for
 * `((…))`, no errexit or ERR trap that its status could set off). undefined: nothing was done,
 * run stmt(). An error is handed to stmt() (`replayError`), which reports it like its own.
 * Keep in step with stmt().
 */
export function stmtSync(sh: Shell, st: Stmt): number | Promise<number> | undefined {
  const c = st.Cmd;
  if (!c || st.Redirs.length !== 0 || st.Negated || st.Background) return undefined;
  if (sh.pendingSigs.length > 0 || sh.traps.has('DEBUG') || sh.opts.xtrace || sh.cancelStatus.value !== 0 || sh.jobKill.sig !== 0) return undefined;
  // (a declined statement's error or arguments wait for the stmt() that runs it next)
  if (sh.replayError !== undefined || sh.replayArgs !== undefined || sh.replayDecl !== undefined) return undefined;
  switch (c.type) {
    case 'CallExpr':
      if (c.Args.length !== 0) return commandSync(sh, st, c);
      // (assignments without command substitution have status 0: no ERR trap, no errexit)
      if (!assignsOnlySync(sh, c)) return undefined;
      sh.startSync(st);
      try { return sh.endSync(assignOnlySync(sh, c, true)!); } catch (e) { sh.replayError = { e }; return undefined; }
    case 'ArithmCmd':
      if (!c.X || !sh.arith.canSync(c.X) || sh.errexitArmed()) return undefined;
      sh.startSync(st);
      try { return sh.endSync(arithSync(sh, c.X, c.Left + 2, c.Right) !== 0n ? 0 : 1); } catch (e) { sh.replayError = { e: arithCmdError(e) }; return undefined; }
    case 'TestClause':
      if (!testSyncable(sh, c.X) || sh.errexitArmed()) return undefined;
      sh.startSync(st);
      try {
        const r = evalTest(sh, c.X);
        // (a promise only after an arithmetic error it reports)
        return typeof r === 'number' ? sh.endSync(r) : r.then((v) => sh.endSync(v));
      } catch (e) { sh.replayError = { e }; return undefined; }
    case 'BinaryCmd':
      if (c.Op !== Tok.andAnd && c.Op !== Tok.orOr) return undefined;
      sh.curPos = st.Position;
      return andOr(sh, c);
    case 'CaseClause':
      return caseSync(sh, st, c);
    case 'Block':
      sh.curPos = st.Position;
      return sh.stmts(c.Stmts);
    case 'DeclClause':
      return localSync(sh, st, c);
    case 'IfClause': {
      sh.curPos = st.Position;
      const r = ifFrom(sh, c);
      return typeof r === 'number' ? (sh.status = r) : r.then((v) => (sh.status = v));
    }
    default:
      return undefined;
  }
}

/**
 * `x && y` / `x || y` (cmd() and stmtSync): each side through stmtSync, else stmt(); a promise
 * only once a side needs one. errexit is off while `x` runs.
 */
export function andOr(sh: Shell, c: BinaryCmd): number | Promise<number> {
  let x: number | Promise<number>;
  sh.noErrexit++;
  try { x = stmtSync(sh, c.X) ?? sh.stmt(c.X); } finally { sh.noErrexit--; }
  if (typeof x !== 'number') return andOrRest(sh, c, x);
  if ((c.Op === Tok.andAnd) !== (x === 0)) return x;
  return stmtSync(sh, c.Y) ?? sh.stmt(c.Y);
}

/** andOr once `x` went on with a promise (errexit stays off until it ends). */
async function andOrRest(sh: Shell, c: BinaryCmd, pending: Promise<number>): Promise<number> {
  let x: number;
  sh.noErrexit++;
  try { x = await pending; } finally { sh.noErrexit--; }
  if ((c.Op === Tok.andAnd) !== (x === 0)) return x;
  return stmtSync(sh, c.Y) ?? sh.stmt(c.Y);
}

/** `if`/`elif`/`else` from clause `cl` on: without a promise while its conditions and branch need none. */
export function ifFrom(sh: Shell, cl: IfClause | null): number | Promise<number> {
  for (; cl; cl = cl.Else) {
    if (cl.Cond.length === 0) return sh.stmts(cl.Then); // else branch
    let cond: number | Promise<number>;
    sh.noErrexit++;
    try { cond = sh.stmts(cl.Cond); } finally { sh.noErrexit--; }
    if (typeof cond !== 'number') return ifAfter(sh, cl, cond);
    if (cond === 0) return sh.stmts(cl.Then);
  }
  return 0;
}

/** ifFrom once a condition went on with a promise (errexit stays off while it runs). */
async function ifAfter(sh: Shell, cl: IfClause, pending: Promise<number>): Promise<number> {
  let cond: number;
  sh.noErrexit++;
  try { cond = await pending; } finally { sh.noErrexit--; }
  return cond === 0 ? sh.stmts(cl.Then) : ifFrom(sh, cl.Else);
}

/** A `( … )` about to run: bash shows it in $BASH_COMMAND then, but only while an ERR trap is set. */
export function subshellCommand(sh: Shell, st: Stmt): void {
  if (sh.trapDepth === 0 && sh.traps.has('ERR')) { sh.curCmd = st; sh.curCmdSrc = sh.source.src; }
}

/** A statement with redirections, or of redirections alone (stmt() sends the rest straight to call() or cmd()). */
export async function stmtInner(sh: Shell, st: Stmt): Promise<number> {
  if (!st.Cmd) {
    return withRedirs(sh, st.Redirs, async () => 0, true);
  }
  if (st.Redirs.length === 0) return sh.cmd(st.Cmd);
  // `exec` with only redirections makes them permanent
  const dashes = (w: Word | undefined): boolean => w === undefined || (w.Parts.length === 1 && w.Parts[0]!.type === 'Lit' && w.Parts[0]!.Value === '--');
  const a0 = st.Cmd.type === 'CallExpr' && st.Cmd.Args.length <= 2 && dashes(st.Cmd.Args[1]) && st.Cmd.Args[0]?.Parts.length === 1 ? st.Cmd.Args[0]!.Parts[0] : undefined;
  if (a0 && a0.type === 'Lit' && a0.Value === 'exec' && st.Cmd.type === 'CallExpr') {
    if (sh.opts.xtrace && st.Cmd.Assigns.length === 0) await sh.trace(st.Cmd.Args.length > 1 ? ['exec', '--'] : ['exec']);
    if (!sh.posix) await applyRedirs(sh, st.Redirs, sh.fds);
    else {
      // (a POSIX special builtin's failed redirection exits the shell)
      try { await applyRedirs(sh, st.Redirs, sh.fds); } catch (e) {
        if (!(e instanceof ShellError)) throw e;
        await sh.err(e.message);
        throw new ExitSignal(e.status);
      }
    }
    // (prefix assignments: as for any special builtin, kept only in POSIX mode)
    return st.Cmd.Assigns.length === 0 ? 0 : call(sh, st.Cmd);
  }
  // a simple command expands its words before its redirections (bash order)
  if (st.Cmd.type === 'CallExpr') return call(sh, st.Cmd, st.Redirs);
  let ran = false;
  const inRedir = st.Redirs.some(redirectsStdin);
  if (inRedir) sh.stdinRedirected++;
  // (a declaration is a simple command too: its xtrace line goes to the stderr before its redirections)
  const traced = st.Cmd.type === 'DeclClause' && sh.opts.xtrace && sh.traceStderr === undefined;
  if (traced) sh.traceStderr = sh.fds.get(2);
  let r: number;
  try { r = await withRedirs(sh, st.Redirs, () => { ran = true; return sh.cmd(st.Cmd!); }); } finally { if (inRedir) sh.stdinRedirected--; if (traced) sh.traceStderr = undefined; }
  if (!ran && r !== 0) sh.redirFailed = st; // a compound command's failed redirection: set -e/ERR apply
  return r;
}
