// Running traps: EXIT (as a shell or subshell ends), the pending signal traps (before the next
// command), ERR, RETURN and DEBUG, each with $?, PIPESTATUS and the command position kept as bash
// keeps them. Setting and listing traps is the `trap` builtin's; the signals' delivery is cli.ts's.
import type { Shell } from './runner.ts';
import { ExitSignal } from './errors.ts';

export async function runExitTrap(sh: Shell, st: number): Promise<number> {
  const t = sh.traps.get('EXIT');
  if (t === undefined) return st;
  sh.traps.delete('EXIT');
  sh.status = st;
  sh.trapDepth++;
  try {
    await sh.evalString(t, 'trap'); // bash: $LINENO counts from 1 in the EXIT trap
  } catch (e) {
    if (e instanceof ExitSignal) return e.status;
  } finally { sh.trapDepth--; }
  return st;
}

/** Runs the traps of pending signals, before the next command as bash does; $? is preserved. */
export async function runPendingTraps(sh: Shell): Promise<void> {
  while (sh.pendingSigs.length > 0) {
    const t = sh.traps.get(sh.pendingSigs.shift()!);
    if (!t) continue;
    const saved = sh.status;
    sh.trapDepth++;
    try { await evalTrap(sh, t); } finally { sh.trapDepth--; sh.status = saved; }
  }
}

/** A trap other than EXIT: like `eval`, bash traces its commands one level deeper. */
export async function evalTrap(sh: Shell, t: string, line?: number): Promise<number> {
  sh.traceLevel++;
  try { return await sh.evalString(t, 'trap', line); } finally { sh.traceLevel--; }
}

/** Runs the ERR trap; `pos`: the failed command ($LINENO in the trap is its line). */
export async function errTrap(sh: Shell, pos?: number): Promise<void> {
  const t = sh.traps.get('ERR');
  if (t === undefined || sh.inErrTrap) return;
  sh.inErrTrap = true;
  const saved = sh.status;
  const savedPos = sh.curPos;
  if (pos !== undefined) sh.curPos = pos;
  sh.trapDepth++;
  const ps = pipestatusNow(sh);
  try { await evalTrap(sh, t, sh.lineOf(sh.curPos)); } finally { sh.inErrTrap = false; sh.status = saved; sh.curPos = savedPos; sh.trapDepth--; sh.setPipestatus(ps); }
}

/** PIPESTATUS's values now: bash keeps them across the ERR and DEBUG traps. */
function pipestatusNow(sh: Shell): number[] {
  const v = sh.vars.globalVar('PIPESTATUS');
  return v?.arr ? [...v.arr.values()].map(Number) : [sh.status];
}

/** Runs the RETURN trap (end of a function or a sourced file); $? is preserved. */
export async function returnTrap(sh: Shell): Promise<void> {
  const t = sh.traps.get('RETURN');
  if (t === undefined || sh.inReturnTrap) return;
  sh.inReturnTrap = true;
  const saved = sh.status;
  sh.trapDepth++;
  try { await evalTrap(sh, t, sh.lineOf(sh.curPos)); } finally { sh.inReturnTrap = false; sh.status = saved; sh.trapDepth--; }
}

/** Runs the DEBUG trap before a simple command, `[[`, `((`; $? is preserved. */
export async function debugTrap(sh: Shell): Promise<void> {
  const t = sh.traps.get('DEBUG');
  if (t === undefined || sh.inDebugTrap) return;
  sh.inDebugTrap = true;
  const saved = sh.status;
  const savedPos = sh.curPos;
  sh.trapDepth++;
  const ps = pipestatusNow(sh);
  try { await evalTrap(sh, t, sh.lineOf(sh.curPos)); } finally { sh.inDebugTrap = false; sh.status = saved; sh.curPos = savedPos; sh.trapDepth--; sh.setPipestatus(ps); }
}
