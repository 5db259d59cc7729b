// Subshells: the copy of the shell a `( … )`, a pipeline stage, a background job or a substitution
// runs in (runSubshell: its errors and EXIT trap end it, not the parent), and the two
// substitutions that read or feed one — `$( )` (its output, bash's line numbers inside it) and
// `<( )`/`>( )` (a named FIFO, removed when the statement ends).
import * as fs from 'node:fs';
import type { Job, Shell } from './runner.ts';
import { Tok, type ProcSubst, type Stmt, type Subshell, type Word } from '../syntax/ast.ts';
import { DiscardSignal, ExitSignal, LoopSignal, ReturnSignal, ShellError } from './errors.ts';
import { OsFd, isSigPipe, makeFifoPath, makePipe, readAll, readPath } from './io.ts';
import { errnoMsg } from './errno-message.ts';
import { stmtLines } from '../syntax/printer.ts';
import { virtualPid, nextJobSeq } from './virtual-pids.ts';
import { runExitTrap } from './traps.ts';

/**
 * bash closes the coprocess's fds in a subshell (`( )`, an async command, a pipeline stage) of
 * the shell that started it, so a job there cannot hold its stdin open; not in command or
 * process substitutions or another coprocess, which also forget it (their subshells keep them).
 */
export function dropCoprocFds(sh: Shell, s: Shell): Shell {
  if (sh.coprocFds) for (const [n, f] of sh.coprocFds) if (s.fds.get(n) === f) s.fds.set(n, undefined);
  return s;
}

export async function runSubshell(sh: Shell, fn: (s: Shell) => number | Promise<number>, sub?: Shell): Promise<number> {
  const s = sub ?? sh.clone();
  let st: number;
  try {
    st = await fn(s);
  } catch (e) {
    st = handleTopError(s, e);
  }
  st = await runExitTrap(s, st);
  s.fds.releaseAll();
  return st;
}

export function handleTopError(sh: Shell, e: unknown): number {
  if (e instanceof ExitSignal || e instanceof DiscardSignal) return e.status;
  if (e instanceof ReturnSignal) return e.status;
  if (e instanceof LoopSignal) return sh.status;
  if (isSigPipe(e)) return 141;
  if (e instanceof ShellError) {
    // message already printed by the statement runner
    return e.status;
  }
  throw e;
}

/** `( … )` (cmd()'s case): its statements in a subshell. */
export async function subshell(sh: Shell, c: Subshell): Promise<number> {
  // (a pipeline stage that is a `( … )` is that subshell itself: no second level)
  if (sh.stageSubshell === c) { sh.stageSubshell = undefined; return sh.stmts(c.Stmts); }
  const sub = dropCoprocFds(sh, sh.clone());
  // (a `( … )` that kills itself is reported by the parent, as this command at its line)
  if (sh.subshellStmt?.Cmd === c) sub.ownCmd = { stmt: sh.subshellStmt, src: sh.source.src, line: sh.lineOf(sh.curPos) };
  const r = await runSubshell(sh, (s) => s.stmts(c.Stmts), sub); sh.cleanupDeadJobs(); return r;
}

export async function cmdSubst(sh: Shell, stmts: Stmt[], right?: number, inHeredoc = false): Promise<string> {
  // $(< file)
  if (stmts.length === 1 && stmts[0]!.Cmd === null && stmts[0]!.Redirs.length === 1 && stmts[0]!.Redirs[0]!.Op === Tok.rdrIn) {
    const p = await sh.ex.literal(stmts[0]!.Redirs[0]!.Word);
    let text: string;
    try { text = (await readPath(sh.openBuf(p))).toString('latin1'); } catch (e: any) {
      if (e?.code === 'EISDIR') { sh.status = sh.lastSubstStatus = 0; return ''; } // (opens; reading fails quietly)
      await sh.err(`${p}: ${errnoMsg(e)}`);
      sh.status = sh.lastSubstStatus = 1;
      return '';
    }
    sh.status = sh.lastSubstStatus = 0;
    if (text.includes('\0')) {
      text = text.replace(/\0/g, '');
      await sh.err('warning: command substitution: ignored null byte in input').catch(() => undefined);
    }
    return text.replace(/\n+$/, '');
  }
  const p = makePipe();
  const sub = sh.clone();
  if (!sh.posix && !sh.shopt.has('inherit_errexit')) sub.opts.errexit = false;
  sub.traceLevel++;
  sub.quietSignals = true;
  sub.fds.set(1, p.w);
  p.w.retain(); p.w.release();
  p.r.retain();
  // (a `$( )` spanning lines or holding compound commands: bash's line numbers, see SourceInfo)
  if (right !== undefined && stmts.length && sh.source.src.charCodeAt(right) === 41) {
    // (in a here-document bash parses the text as it expands the body: lines from the command's)
    const lo = stmts[0]!.Position;
    if (inHeredoc) sub.source = { ...sh.source, comsub: { lo, hi: right, base: sh.lineOf(sh.curPos), at: stmts.map((s) => [s.Position, sh.lineOf(s.Position) - sh.lineOf(lo)]) } };
    else if (stmts.length > 1 || (stmts[0]!.Cmd && stmts[0]!.Cmd.type !== 'CallExpr') || sh.source.src.slice(lo, right).includes('\n')) {
      sub.source = { ...sh.source, comsub: { lo, hi: right, base: sh.lineOf(right), at: stmtLines(sh.source.src, stmts) } };
    }
  }
  const reading = readAll(p.r);
  const st = await runSubshell(sh, (s) => s.stmts(stmts), sub);
  let out = (await reading).toString('latin1');
  p.r.release();
  sh.cleanupDeadJobs();
  sh.status = st;
  sh.lastSubstStatus = st;
  if (out.includes('\0')) {
    // like bash: variables are C strings
    out = out.replace(/\0/g, '');
    await sh.err('warning: command substitution: ignored null byte in input').catch(() => undefined);
  }
  return out.replace(/\n+$/, '');
}

/** `<(<file)`: like `$(<file)`, the file's contents (bash does this for process substitution too). */
async function catFile(sh: Shell, w: Word): Promise<number> {
  const p = await sh.ex.literal(w);
  let data: Buffer;
  try { data = await readPath(sh.openBuf(p)); } catch (e: any) {
    await sh.err(`${p}: ${errnoMsg(e)}`);
    return 1;
  }
  await sh.writeFd(1, data);
  return 0;
}

/**
 * `<(cmd)` / `>(cmd)`: a named FIFO (Node cannot make anonymous pipes, and a reopened
 * unlinked FIFO would block once its writer is gone). The subshell opens its end
 * asynchronously, so it cannot finish before the consumer opened the path; when the
 * statement ends, an end nobody opened is unblocked and the FIFO is unlinked.
 */
export async function procSubst(sh: Shell, p: ProcSubst): Promise<string> {
  const fifo = makeFifoPath();
  const out = p.Op === Tok.cmdOut;
  const sub = sh.clone();
  sub.quietSignals = true;
  let opened = false;
  // (the cleanup's end of a FIFO nobody opened, held until the subshell's open is through)
  let partner: number | undefined;
  const done = new Promise<number>((resolve) => {
    fs.open(fifo, out ? 'r' : 'w', (err, fd) => {
      opened = true;
      if (partner !== undefined) { try { fs.closeSync(partner); } catch { /* */ } partner = undefined; }
      if (err) { resolve(1); return; }
      sub.fds.set(out ? 0 : 1, new OsFd(fd, undefined, true, 'procsubst'));
      resolve(runSubshell(sh, (s) => (!out && isFileRead(p.Stmts) ? catFile(s, p.Stmts[0]!.Redirs[0]!.Word!) : s.stmts(p.Stmts)), sub));
    });
  });
  const job: Job = { id: nextJobSeq(), pid: virtualPid(), done, procsub: true };
  sh.jobs.push(job);
  sh.lastBgPid = job.pid; // bash sets $! to the process substitution (`wait $!` waits for it)
  sh.procSubstCleanups.push(() => {
    if (!opened) {
      // nobody opened the other end: the subshell's open, waiting in a libuv thread (or still
      // queued for one), gets a partner. Both ends at once (O_RDWR never blocks, never fails
      // for want of a reader), kept until that open returns: a partner closed sooner, or a
      // writer-only one refused (ENXIO) while the thread had found the FIFO but not yet joined
      // it as a reader, left it waiting on an unlinked FIFO for ever, and `wait` with it.
      try { partner = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK); } catch { /* */ }
    }
    try { fs.unlinkSync(fifo); } catch { /* */ }
  });
  return fifo;
}

export function releaseProcSubst(sh: Shell, from: number): void {
  while (sh.procSubstCleanups.length > from) sh.procSubstCleanups.pop()!();
}

/** `< file` alone (the `$(<file)` idiom). */
function isFileRead(stmts: Stmt[]): boolean {
  return stmts.length === 1 && stmts[0]!.Cmd === null && stmts[0]!.Redirs.length === 1 && stmts[0]!.Redirs[0]!.Op === Tok.rdrIn;
}
