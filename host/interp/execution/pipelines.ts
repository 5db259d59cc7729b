// Pipelines: the stages of `a | b |& c` each in a subshell joined by pipes (the last in this shell
// under lastpipe), $BASH_COMMAND and the DEBUG trap for each stage as bash sets them in the parent,
// PIPESTATUS and pipefail.
import type { Shell } from './runner.ts';
import { Tok, type Command, type Stmt } from '../syntax/ast.ts';
import { ExitSignal } from './errors.ts';
import { makePipe } from './io.ts';
import { errTrap, debugTrap } from './traps.ts';
import { dropCoprocFds, runSubshell } from './subshells.ts';
import { subshellCommand } from './statements.ts';

export async function pipeline(sh: Shell, c: Extract<Command, { type: 'BinaryCmd' }>): Promise<number> {
  const stages: { st: Stmt; all: boolean }[] = [];
  const flatten = (s: Stmt, all: boolean): void => {
    if (s.Cmd && s.Cmd.type === 'BinaryCmd' && (s.Cmd.Op === Tok.or || s.Cmd.Op === Tok.orAnd) && !s.Negated && s.Redirs.length === 0 && !s.Background) {
      flatten(s.Cmd.X, s.Cmd.Op === Tok.orAnd);
      stages.push({ st: s.Cmd.Y, all });
      return;
    }
    stages.unshift({ st: s, all });
  };
  flatten(c.X, c.Op === Tok.orAnd);
  stages.push({ st: c.Y, all: false });
  // stages[i].all: stderr of stage i also goes into the pipe
  const n = stages.length;
  // bash sets $BASH_COMMAND and runs the DEBUG trap in the parent before forking each stage
  // (only for simple commands: a stage that is `((…))` or `[[…]]` does both in its subshell; a
  // `( … )` stage sets $BASH_COMMAND when an ERR trap is set, as one outside a pipeline does)
  for (let i = 0; i < (sh.shopt.has('lastpipe') ? n - 1 : n); i++) {
    const sst = stages[i]!.st;
    if (sh.trapDepth > 0) continue;
    if (sst.Cmd?.type === 'Subshell') { subshellCommand(sh, sst); continue; }
    if (sst.Cmd && !simpleCmd.has(sst.Cmd.type)) continue;
    sh.curCmd = sst; sh.curCmdSrc = sh.source.src;
    sh.curPos = sst.Position;
    if (sh.traps.has('DEBUG')) await debugTrap(sh);
  }
  const pipes = [];
  for (let i = 0; i < n - 1; i++) pipes.push(makePipe());
  const subs: Shell[] = [];
  for (let i = 0; i < n; i++) {
    const s = dropCoprocFds(sh, sh.clone());
    if (i > 0) { s.fds.set(0, pipes[i - 1]!.r); s.stdinRedirected++; }
    const sst = stages[i]!.st;
    if (i > 0 && sst.Cmd?.type === 'WhileClause' && sst.Redirs.length === 0 && !sst.Background && !(i === n - 1 && sh.shopt.has('lastpipe'))) s.stageStdin = pipes[i - 1]!.r;
    // bash runs a simple command in its pipeline child and exits: its failure runs no ERR trap there
    // (nor does a `( … )` stage there: the shell runs ERR for the last stage when it waits for it)
    if (sst.Cmd && (simpleCmd.has(sst.Cmd.type) || sst.Cmd.type === 'Subshell') && !(i === n - 1 && sh.shopt.has('lastpipe'))) s.noErrTrap = sst;
    if (sst.Cmd?.type === 'Subshell' && !(i === n - 1 && sh.shopt.has('lastpipe'))) s.stageSubshell = sst.Cmd;
    if (i < n - 1) {
      s.quietSignals = true;
      s.fds.set(1, pipes[i]!.w);
      if (stages[i]!.all) s.fds.set(2, pipes[i]!.w);
    }
    subs.push(s);
  }
  let results: number[];
  if (sh.shopt.has('lastpipe')) {
    // the last stage runs in the current shell
    const last = subs[n - 1]!;
    const others = stages.slice(0, -1).map((stg, i) => runSubshell(sh, (s) => s.stmt(stg.st), subs[i]!));
    const saved = sh.fds;
    sh.fds = last.fds;
    let lastSt: number;
    try { lastSt = await sh.stmt(stages[n - 1]!.st); } finally { sh.fds = saved; last.fds.releaseAll(); }
    results = [...(await Promise.all(others)), lastSt];
  } else {
    results = await Promise.all(stages.map((stg, i) => runSubshell(sh, (s) => s.stmt(stg.st), subs[i]!)));
  }
  sh.setPipestatus(results);
  sh.cleanupDeadJobs();
  const lastSt = stages[n - 1]!.st;
  if (lastSt.Cmd?.type === 'Subshell' && !lastSt.Negated && !sh.shopt.has('lastpipe') && results[n - 1] !== 0 && sh.noErrexit === 0) {
    // bash waits for a last stage that is a `( … )` as for one outside a pipeline: its failure
    // runs the ERR trap, and exits under errexit, before the pipeline's own status is looked at
    sh.status = results[n - 1]!;
    await errTrap(sh, lastSt.Position);
    if (sh.opts.errexit) throw new ExitSignal(results[n - 1]!);
  }
  let st = results[n - 1]!;
  if (sh.opts.pipefail) { for (let i = n - 1; i >= 0; i--) if (results[i] !== 0) { st = results[i]!; break; } }
  return st;
}

/** bash's simple commands among them (`((…))` and `[[…]]` are compound). */
const simpleCmd = new Set(['CallExpr', 'DeclClause', 'LetClause']);
