// Jobs and signals: wait, jobs, fg/bg, disown, suspend, kill and trap (and times), as a
// non-interactive bash has them: no job control.
import type { Job, Shell } from '../execution/runner.ts';
import { errnoMsg } from '../execution/errno-message.ts';
import { ExitSignal } from '../execution/errors.ts';
import { reportSignal, reportsSignal, signalDescriptions, signalName } from '../execution/external.ts';
import { PSEUDO_SIGS, SIGNAMES, keyNumber, sigDescription, sigKey, sigNumber, signalTable } from '../execution/signals.ts';
import { isVirtualPid } from '../execution/virtual-pids.ts';
import { def } from './table.ts';
import { errOut, out, usageErr } from './builtin-io.ts';

def(['wait'], async (sh, args) => {
  const a = args.slice(1);
  let any = false;
  let pvar: string | undefined;
  while (a.length && a[0]!.startsWith('-') && a[0] !== '-') {
    const o = a.shift()!;
    if (o === '--') break;
    if (o === '-p') { pvar = a.shift(); continue; }
    if (/^-[nf]+$/.test(o)) { if (o.includes('n')) any = true; continue; }
    await errOut(sh, 'wait', `${o}: invalid option`);
    await sh.writeFd(2, 'wait: usage: wait [-fn] [-p var] [id ...]\n');
    return 2;
  }
  // bash drops a waited-for job from its job table (its pid stays known to `wait PID`)
  const reap = (j: Job): void => { j.reaped = true; j.num = undefined; };
  const lookup = async (id: string): Promise<Job | number> => {
    if (id.startsWith('%')) {
      const j = findJob(sh, id, true);
      if (!j) { await errOut(sh, 'wait', `${id}: no such job`); return 127; }
      return j;
    }
    if (!/^\d+$/.test(id)) {
      if (any) { await errOut(sh, 'wait', `${id}: no such job`); return 127; }
      await errOut(sh, 'wait', `\`${id}': not a pid or valid job spec`);
      return 1;
    }
    const j = sh.jobs.find((x) => String(x.pid) === id);
    if (!j) { await errOut(sh, 'wait', any ? `${id}: no such job` : `pid ${id} is not a child of this shell`); return 127; }
    return j;
  };
  if (any) {
    let pending: Job[];
    if (a.length) {
      pending = [];
      for (const id of a) { const j = await lookup(id); if (typeof j !== 'number' && !j.reaped) pending.push(j); }
    } else pending = sh.jobs.filter((j) => !j.reaped && j.pid > 0 && !j.procsub);
    if (pending.length === 0) return 127;
    const first = await Promise.race(pending.map((j) => j.done.then((st) => ({ j, st }))));
    reap(first.j);
    if (pvar !== undefined) sh.vars.set(pvar, String(first.j.pid));
    await reportSignaled(sh, first.j);
    return first.st;
  }
  if (a.length === 0) {
    await sh.waitAll();
    for (const j of sh.jobs) { if (!j.reaped) await reportSignaled(sh, j); reap(j); }
    return 0;
  }
  let st = 0;
  for (const id of a) {
    const j = await lookup(id);
    if (typeof j === 'number') { st = j; continue; }
    st = await j.done;
    if (!j.reaped) await reportSignaled(sh, j);
    reap(j);
    if (pvar !== undefined) sh.vars.set(pvar, String(j.pid));
  }
  return st;
});

/**
 * bash reports a background job killed by a signal (other than INT, TERM, PIPE, or one the
 * shell traps) once, when it is waited for: `NAME: line N: PID Hangup   command`.
 */
export async function reportSignaled(sh: Shell, j: Job): Promise<void> {
  const n = j.signal;
  if (!n || j.notified || n === 2 || n === 13 || n === 15 || sh.traps.has(sigKey(n))) return;
  j.notified = true;
  await sh.err(`${String(j.pid).padStart(5)} ${sigDescription(n).padEnd(24)}${j.cmd ?? ''}`);
}

/** A job spec (`%n`, `%%`, `%+`, `%-`, `%string`) → job; running jobs first, like bash's table. */
function findJob(sh: Shell, spec: string, withDone = false): Job | undefined {
  const all = sh.jobs.filter((j) => j.num !== undefined);
  const running = all.filter((j) => withDone || j.status === undefined).sort((a, b) => a.num! - b.num!);
  const s = spec.slice(1);
  if (s === '' || s === '%' || s === '+') return running[running.length - 1];
  if (s === '-') return running[running.length - 2];
  if (/^\d+$/.test(s)) {
    const n = Number(s);
    return running.find((j) => j.num === n) ?? all.filter((j) => j.num === n).pop() ?? (withDone ? undefined : sh.jobs.find((j) => j.id === n));
  }
  return running.find((j) => j.cmd?.startsWith(s));
}

/** A trap condition (signal name/number, EXIT, DEBUG, ERR, RETURN) → its key in `sh.traps`. */
function normSig(s: string): string | undefined {
  const n = sigNumber(s, true);
  return n === undefined ? undefined : sigKey(n);
}

/** bash's trap listing: single-quoted actions, EXIT first, then by signal number, then DEBUG/ERR/RETURN. */
function trapLine(k: string, v: string | undefined, posix = false): string {
  // (POSIX mode: names without SIG, and `-` for a condition without a trap)
  return `trap -- ${v === undefined ? '-' : `'${v.replace(/'/g, "'\\''")}'`} ${k in PSEUDO_SIGS || k === 'EXIT' || posix ? k : 'SIG' + k}\n`;
}

def(['trap'], async (sh, args) => {
  let a = args.slice(1);
  let list = false, print = false;
  while (a.length && a[0]!.startsWith('-') && a[0] !== '-') {
    const o = a.shift()!;
    if (o === '--') break;
    if (!/^-[lp]+$/.test(o)) {
      await errOut(sh, 'trap', `${o}: invalid option`);
      await sh.writeFd(2, 'trap: usage: trap [-lp] [[arg] signal_spec ...]\n');
      sh.usageFailed = true;
      return 2;
    }
    if (o.includes('l')) list = true;
    if (o.includes('p')) print = true;
  }
  if (list) { await out(sh, signalTable()); return 0; }
  // a subshell lists its parent's traps until it changes one (so `$(trap -p)` works)
  const shown = sh.shownTraps ?? sh.traps;
  const visible = (k: string): boolean => !(k === 'ERR' && sh.funcDepth > 0 && !sh.opts.errtrace && sh.shownTraps === undefined);
  if (a.length === 0 || print) {
    let st = 0;
    if (a.length === 0 && print && sh.posix) {
      // (POSIX mode: `trap -p` lists every condition, those without a trap too)
      for (let n = 0; n <= 67; n++) {
        const k = n === 32 || n === 33 ? String(n) : sigKey(n);
        if (k === undefined) continue;
        const v = shown.get(k);
        await out(sh, trapLine(k, v !== undefined && visible(k) ? v : undefined, true));
      }
      return 0;
    }
    if (a.length === 0) {
      const keys = [...shown.keys()].filter(visible).sort((x, y) => keyNumber(x) - keyNumber(y));
      for (const k of keys) await out(sh, trapLine(k, shown.get(k)!, sh.posix));
      return 0;
    }
    for (const s of a) {
      const k = normSig(s);
      if (k === undefined) { await errOut(sh, 'trap', `${s}: invalid signal specification`); st = 1; continue; }
      const v = shown.get(k);
      if (v !== undefined && visible(k)) await out(sh, trapLine(k, v, sh.posix));
      else if (sh.posix) await out(sh, trapLine(k, undefined, true));
    }
    return st;
  }
  let action: string | undefined = a[0]!;
  let sigs = a.slice(1);
  // `trap N …` with N a signal number, or a lone signal: reset
  // (POSIX mode: only a number; a lone name is a usage error)
  if ((/^\d+$/.test(action) && normSig(action) !== undefined) || (sigs.length === 0 && normSig(action) !== undefined && !sh.posix)) { sigs = a; action = undefined; }
  else if (sigs.length === 0) { await sh.writeFd(2, 'trap: usage: trap [-lp] [[arg] signal_spec ...]\n'); sh.usageFailed = true; return 2; }
  if (action === '-') action = undefined;
  let st = 0;
  for (const s of sigs) {
    const n = normSig(s);
    if (!n) { await errOut(sh, 'trap', `${s}: invalid signal specification`); st = 1; continue; }
    if (sh.shownTraps) { sh.shownTraps = undefined; }
    if (action === undefined) sh.traps.delete(n); else sh.traps.set(n, action);
    sh.onTrapChange?.(n);
  }
  return st;
}, { special: true });

// Job control is off in a non-interactive shell: `fg`/`bg` fail like bash's, `jobs` lists running jobs.
def(['fg', 'bg'], async (sh, args) => { await errOut(sh, args[0]!, 'no job control'); return 1; });

def(['jobs'], async (sh, args) => {
  let mode = '';
  const specs: string[] = [];
  let operands = false;
  for (const a of args.slice(1)) {
    if (operands || !a.startsWith('-') || a === '-') { operands = true; specs.push(a); continue; }
    if (a === '--') { operands = true; continue; }
    if (/^-[lprsn]+$/.test(a)) { mode += a.slice(1); continue; }
    if (a.startsWith('-') && a !== '-') {
      await errOut(sh, 'jobs', `${a.slice(0, 2)}: invalid option`);
      await sh.writeFd(2, 'jobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]\n');
      return 2;
    }
  }
  if (mode.includes('s')) return 0;
  // the job table: running jobs, and finished ones no foreground command was waited for since
  // (bash lists those as Done, then forgets them)
  const table = [...sh.inheritedJobs, ...sh.jobs].filter((j) => j.num !== undefined).sort((a, b) => a.num! - b.num!);
  const n = table.length;
  // (jobspecs: those jobs, in that order; an unknown one is an error, the others still listed)
  let st = 0;
  const chosen: number[] = [];
  for (const spec of specs) {
    const t = spec.replace(/^%/, '');
    const i = t === '' || t === '%' || t === '+' ? n - 1 : t === '-' ? n - 2 : /^\d+$/.test(t) ? table.findIndex((j) => j.num === Number(t))
      : t.startsWith('?') ? table.findIndex((j) => j.cmd?.includes(t.slice(1))) : table.findIndex((j) => j.cmd?.startsWith(t));
    if (i < 0) { await errOut(sh, 'jobs', `${spec}: no such job`); st = 1; } else chosen.push(i);
  }
  for (const i of specs.length ? chosen : table.keys()) {
    const j = table[i]!;
    const mark = i === n - 1 ? '+' : i === n - 2 ? '-' : ' ';
    const state = j.status === undefined ? 'Running' : j.signal ? signalDescriptions[signalName(j.signal)] ?? 'Killed' : j.status === 0 ? 'Done' : `Exit ${j.status}`;
    if (mode.includes('p')) await out(sh, `${j.pid}\n`);
    else await out(sh, `[${j.num}]${mark} ${mode.includes('l') ? `${String(j.pid).padStart(5)} ` : ' '}${state.padEnd(24)}${j.cmd}${j.status === undefined ? ' &' : ''}\n`);
  }
  for (const j of sh.jobs) if (j.status !== undefined && j.num !== undefined && !mode.includes('n')) j.num = undefined;
  return st;
});

def(['disown'], async (sh, args) => {
  const specs = args.slice(1).filter((a) => !/^-[ahr]+$/.test(a));
  const all = args.slice(1).some((a) => /^-[hr]*a/.test(a));
  // (-h only marks the job: no SIGHUP is sent at exit here anyway; it stays in the table)
  const keep = args.slice(1).some((a) => /^-[ar]*h/.test(a));
  let st = 0;
  if (specs.length === 0) {
    // -a: every job, -r: every running job, else the current one (finished or not)
    if (all || args.slice(1).some((a) => /^-[ah]*r/.test(a))) {
      if (!keep) for (const j of sh.jobs) if (j.num !== undefined && (all || j.status === undefined)) j.num = undefined;
      return 0;
    }
    const cur = findJob(sh, '%+', true);
    if (!cur) { await errOut(sh, 'disown', 'current: no such job'); return 1; }
    if (!keep) cur.num = undefined;
    return 0;
  }
  for (const p of specs) {
    const j = p.startsWith('%') ? findJob(sh, p) : sh.jobs.find((x) => String(x.pid) === p);
    if (!j) { await errOut(sh, 'disown', `${p}: no such job`); st = 1; continue; }
    if (!keep) j.num = undefined;
  }
  return st;
});

def(['suspend'], async (sh) => { await errOut(sh, 'suspend', 'cannot suspend: no job control'); return 1; });

def(['times'], async (sh, args) => {
  if (args[1] !== undefined && /^-./.test(args[1]) && args[1] !== '--') return usageErr(sh, 'times', `${args[1].slice(0, 2)}: invalid option`); await out(sh, '0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n'); return 0; }, { special: true });

/** Signals bash handles as "terminating signals" (EXIT trap first): HUP INT ILL TRAP ABRT BUS FPE USR1 SEGV USR2 PIPE ALRM TERM XCPU XFSZ VTALRM SYS. */
const TERMINATING_SIGS = new Set([1, 2, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 24, 25, 26, 31]);

def(['kill'], async (sh, args) => {
  const usage = async (): Promise<number> => { await sh.writeFd(2, 'kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n'); return 2; };
  let sig: number | undefined = 15;
  let sigSpec = 'TERM';
  let i = 1;
  const a1 = args[1];
  if (a1 === '-l' || a1 === '-L') {
    // (POSIX mode: the names on one line, without SIG)
    if (args.length <= 2) { await out(sh, sh.posix && a1 === '-l' ? SIGNAMES.filter((n, k) => n && k > 0).join(' ') + '\n' : signalTable()); return 0; }
    let st = 0;
    for (const x of args.slice(2)) {
      if (/^\d+$/.test(x)) {
        let n = Number(x);
        if (n > 128) n -= 128;
        const name = n <= 64 ? sigNumber(String(n)) : undefined;
        if (name === undefined) { await errOut(sh, 'kill', `${x}: invalid signal specification`); st = 1; continue; }
        await out(sh, sigKey(name) + '\n');
      } else {
        const n = sh.posix && /^sig/i.test(x) ? undefined : sigNumber(x);
        if (n === undefined) { await errOut(sh, 'kill', `${x}: invalid signal specification`); st = 1; continue; }
        await out(sh, n + '\n');
      }
    }
    return st;
  }
  if (a1 === '-s' || a1 === '-n') {
    if (args.length < 3) { await errOut(sh, 'kill', `${a1}: option requires an argument`); return 1; }
    sigSpec = args[2]!; i = 3;
  } else if (a1 !== undefined && /^-s./.test(a1)) { sigSpec = a1.slice(2); i = 2; }
  else if (a1 !== undefined && a1.startsWith('-') && a1 !== '--' && a1 !== '-') { sigSpec = a1.slice(1); i = 2; }
  if (args[i] === '--') i++;
  // (POSIX mode takes no SIG prefix)
  sig = sh.posix && /^sig/i.test(sigSpec) ? undefined : sigNumber(sigSpec);
  if (sig === undefined && i > 1) { await errOut(sh, 'kill', `${sigSpec}: invalid signal specification`); return 1; }
  if (i >= args.length) return usage();
  if (sig === undefined) { await errOut(sh, 'kill', `${sigSpec}: invalid signal specification`); return 1; }
  let st = 0;
  for (const p of args.slice(i)) {
    let pid: number;
    let job: Job | undefined;
    if (p.startsWith('%')) { job = findJob(sh, p); if (!job) { await errOut(sh, 'kill', `${p}: no such job`); st = 1; continue; } pid = job.pid; }
    else pid = /^-?\d+$/.test(p) ? Number(p) : NaN;
    if (!Number.isInteger(pid)) { await errOut(sh, 'kill', `${p}: arguments must be process or job IDs`); st = 1; continue; }
    if (isVirtualPid(Math.abs(pid))) {
      // an in-process job or subshell: never a process.kill (no real process has this pid)
      if (pid === sh.bashpid && sh.subshell > 0) {
        if (!sh.signalEnds(sig)) continue;
        const name = `SIG${SIGNAMES[sig]}`;
        if (reportsSignal(sh, name)) await reportSignal(sh, name, pid, 'kill', sh.ownCmd);
        throw new ExitSignal(128 + sig);
      }
      job ??= [...sh.jobs, ...sh.inheritedJobs].find((j) => j.pid === Math.abs(pid));
      if (job?.kill?.(sig)) continue;
      await errOut(sh, 'kill', `(${p}) - No such process`);
      st = 1;
      continue;
    }
    if (pid === process.pid && sh.subshell === 0 && sig !== 0) {
      // a signal sent to the shell itself: bash runs a trap before the next command
      const trap = sh.traps.get(sigKey(sig));
      if (trap !== undefined) {
        if (trap !== '') { sh.status = 0; await sh.evalTrap(trap); }
        continue;
      }
      if (sig === 3) continue; // bash ignores SIGQUIT
      // bash catches these fatal signals: it runs the EXIT trap, then dies by the signal
      if (TERMINATING_SIGS.has(sig)) { sh.fatalSignal = sig; throw new ExitSignal(128 + sig); }
    }
    try { process.kill(pid, sig); } catch (e: any) {
      await errOut(sh, 'kill', `(${p}) - ${e.code === 'ESRCH' ? 'No such process' : e.code === 'EPERM' ? 'Operation not permitted' : errnoMsg(e)}`);
      st = 1;
    }
  }
  return st;
});
