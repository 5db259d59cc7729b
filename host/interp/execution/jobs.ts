// Background jobs and coprocesses: `cmd &` runs in a subshell of its own (a virtual pid unless it
// execs one external command), `coproc` with its two pipes, what a signal does to a job that runs
// in this process, and the job table's upkeep after foreground commands and at the end.
import * as fs from 'node:fs';
import type { Job, Shell } from './runner.ts';
import { Tok, type CoprocClause, type Stmt } from '../syntax/ast.ts';
import { makePipe, openFile } from './io.ts';
import { sigKey } from './signals.ts';
import { endsProcess, nextJobSeq } from './virtual-pids.ts';
import { dropCoprocFds, runSubshell } from './subshells.ts';
import { redirectsStdin } from './redirections.ts';
import { builtinTable } from '../builtins/table.ts';

/**
 * Background jobs that are a lone builtin wait for the shell to go on (as a forked child usually
 * lets its parent's next builtin run first) but finish before any external command starts, as
 * bash's child does while the parent forks and execs (`echo x > f & cat f`).
 */
export const loneJobs = new Set<{ start: () => void; done: Promise<number> }>();

export async function settleLoneJobs(): Promise<void> {
  for (const p of [...loneJobs]) { loneJobs.delete(p); p.start(); await p.done.catch(() => 0); }
}

export async function background(sh: Shell, st: Stmt, coproc = false): Promise<void> {
  const sub = coproc ? sh.clone() : dropCoprocFds(sh, sh.clone());
  sub.inBackground = true;
  // bash without job control: an async command reads /dev/null, unless its stdin is redirected
  // (by the command itself, by a compound command around it, or a pipe into its pipeline
  // stage); an async pipeline keeps the shell's stdin
  const pipeline = st.Cmd?.type === 'BinaryCmd' && (st.Cmd.Op === Tok.or || st.Cmd.Op === Tok.orAnd);
  if (sh.stdinRedirected === 0 && !pipeline && !st.Redirs.some(redirectsStdin)) sub.fds.set(0, openFile('/dev/null', fs.constants.O_RDONLY));
  sub.jobKill = { sig: 0 };
  const inner: Stmt = { ...st, Background: false };
  if (st.Cmd?.type === 'CallExpr') sub.noErrTrap = inner; // bash execs an async simple command: no ERR trap
  let spawnedPid = 0;
  let spawned: (pid: number) => void = () => undefined;
  const first = new Promise<number>((res) => { spawned = res; });
  sub.onSpawn = (pid) => { spawnedPid = pid; spawned(pid); sub.onSpawn = undefined; };
  const job: Job = { id: nextJobSeq(), pid: 0, done: Promise.resolve(0) };
  // a lone builtin (no process to wait for, for `$!`) starts after the shell went on, like a forked child usually does
  const a0 = inner.Cmd?.type === 'CallExpr' && inner.Cmd.Args[0]?.Parts.length === 1 ? inner.Cmd.Args[0].Parts[0] : undefined;
  // (it still runs before the shell's next external command: see settleLoneJobs)
  const lone = a0?.type === 'Lit' && builtinTable.has(a0.Value) && !sh.disabled?.has(a0.Value) && !sh.funcs.has(a0.Value) && !sh.handlers.privateCommand(a0.Value) && !['eval', 'source', '.', 'command', 'builtin', 'exec', 'trap', 'wait', 'kill', 'jobs', 'fg', 'bg', 'disown', 'read', 'mapfile', 'readarray'].includes(a0.Value);
  // bash forks once for the job: a simple command is exec'd there (its pid is `$!`); anything
  // else runs in that subshell, `( list ) &` too (not in a subshell of it)
  const external = inner.Cmd?.type === 'CallExpr' && inner.Cmd.Args.length > 0 && !lone && !(a0?.type === 'Lit' && (sh.funcs.has(a0.Value) || (builtinTable.has(a0.Value) && !sh.disabled?.has(a0.Value))));
  const list = inner.Cmd?.type === 'Subshell' && inner.Redirs.length === 0 ? inner.Cmd.Stmts : undefined;
  let pending: { start: () => void; done: Promise<number> } | undefined;
  const body = lone ? async (s: Shell) => {
    await new Promise<void>((r) => { pending = { start: r, get done() { return job.done; } }; loneJobs.add(pending); setImmediate(r); });
    loneJobs.delete(pending!);
    return s.stmt(inner);
  } : list ? (s: Shell) => s.stmts(list) : (s: Shell) => s.stmt(inner);
  let killed: (status: number) => void = () => undefined;
  const ran = runSubshell(sh, body, sub);
  job.done = Promise.race([ran, new Promise<number>((r) => { killed = r; })])
    .then((x) => { job.status = x; if (sub.killedBy && x === 128 + sub.killedBy) job.signal = sub.killedBy; return x; });
  job.done.catch(() => undefined);
  const pid = lone ? 0 : await Promise.race([first, ran.then(() => 0), new Promise<number>((r) => setTimeout(() => r(0), 30))]);
  job.pid = external && pid ? pid : sub.bashpid;
  if (job.pid === sub.bashpid) {
    // an in-process job (its pid is virtual): a signal ends it like a forked subshell (it stops
    // before its next statement, its status is 128+n at once; a command it is running goes on,
    // as bash's children do) unless it traps or ignores the signal
    job.kill = (sig) => {
      if (job.status !== undefined) return false;
      if (external && spawnedPid) { try { process.kill(spawnedPid, sig); } catch { /* gone */ } return true; }
      if (!signalEnds(sub, sig)) return true;
      sub.jobKill.sig = sig;
      sub.killedBy = sig;
      killed(128 + sig);
      return true;
    };
  }
  // bash's job number: one more than the highest job still in its table (finished jobs are dropped)
  job.num = 1 + Math.max(0, ...sh.jobs.filter((j) => j.num !== undefined).map((j) => j.num!));
  job.cmd = sh.source.src.slice(st.Position, st.Semicolon).trimEnd();
  sh.jobs.push(job);
  sh.lastBgPid = job.pid;
}

/** `coproc [NAME] cmd`: a background job whose stdin and stdout are pipes to the shell, at the
 * fds in NAME[1] and NAME[0] (bash's: the highest free ones below 64, 63 and 60 at first). */
export async function coproc(sh: Shell, c: CoprocClause): Promise<number> {
  const name = c.Name ? await sh.ex.literal(c.Name) : 'COPROC';
  const toCo = makePipe(), fromCo = makePipe();
  const saved = sh.fds, t = saved.clone();
  t.set(0, toCo.r); t.set(1, fromCo.w);
  sh.fds = t;
  sh.stdinRedirected++; // (its stdin is the pipe, not background()'s /dev/null)
  try { await background(sh, { ...c.Stmt, Background: true }, true); } finally { sh.fds = saved; t.releaseAll(); sh.stdinRedirected--; }
  // bash opens both pipes at high fds, then closes the coprocess's ends (the 2nd and 3rd)
  const free: number[] = [];
  for (let n = 63; n > 2 && free.length < 4; n--) if (!sh.fds.get(n)) free.push(n);
  const rfd = free[0] ?? 63, wfd = free[3] ?? 60;
  sh.fds.set(rfd, fromCo.r);
  sh.fds.set(wfd, toCo.w);
  sh.vars.unset(name);
  sh.vars.setElem(name, '0', String(rfd));
  sh.vars.setElem(name, '1', String(wfd));
  sh.vars.set(`${name}_PID`, String(sh.lastBgPid));
  sh.coprocFds = new Map([[rfd, fromCo.r], [wfd, toCo.w]]);
  return 0;
}

/**
 * A signal sent to this in-process shell (a job or subshell, whose pid is virtual): a trapped
 * one runs its trap before the next statement, an ignored or non-terminating one does nothing;
 * true when it ends the shell instead.
 */
export function signalEnds(sh: Shell, sig: number): boolean {
  const trap = sh.traps.get(sigKey(sig));
  if (trap !== undefined) { if (trap !== '') sh.pendingSigs.push(sigKey(sig)); return false; }
  return endsProcess(sig);
}

/**
 * bash's cleanup_dead_jobs, after the shell waited for a foreground command: finished jobs
 * leave the job table (until then `jobs` lists them as Done, and their numbers stay taken).
 */
export function cleanupDeadJobs(sh: Shell): void {
  for (let i = 0; i < sh.jobs.length; i++) { const j = sh.jobs[i]!; if (j.status !== undefined) j.num = undefined; }
}

export async function waitAll(sh: Shell): Promise<void> {
  for (const j of sh.jobs) await j.done.catch(() => undefined);
}
