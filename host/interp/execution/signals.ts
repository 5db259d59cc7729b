// Signal names, numbers and descriptions as bash on Linux shows them (`kill -l`, `trap -l`,
// `trap -p`, job status messages). Names are kept without the `SIG` prefix.

const BASE = ['EXIT', 'HUP', 'INT', 'QUIT', 'ILL', 'TRAP', 'ABRT', 'BUS', 'FPE', 'KILL', 'USR1', 'SEGV', 'USR2', 'PIPE',
  'ALRM', 'TERM', 'STKFLT', 'CHLD', 'CONT', 'STOP', 'TSTP', 'TTIN', 'TTOU', 'URG', 'XCPU', 'XFSZ', 'VTALRM', 'PROF',
  'WINCH', 'IO', 'PWR', 'SYS'];

/** Signal number → name (without SIG); undefined for 32, 33 (no name) and out of range. */
export const SIGNAMES: (string | undefined)[] = [...BASE, undefined, undefined];
for (let n = 34; n <= 64; n++) SIGNAMES.push(n === 34 ? 'RTMIN' : n === 64 ? 'RTMAX' : n < 50 ? `RTMIN+${n - 34}` : `RTMAX-${64 - n}`);

/** Pseudo-signals of `trap`, numbered after the real ones for bash's listing order. */
export const PSEUDO_SIGS: Record<string, number> = { DEBUG: 65, ERR: 66, RETURN: 67 };

const byName = new Map<string, number>();
SIGNAMES.forEach((s, i) => { if (s) byName.set(s, i); });
byName.set('IOT', 6); byName.set('POLL', 29); byName.set('CLD', 17);

/** bash's decode_signal: a number 0..64, or a name (any case, SIG prefix optional). */
export function sigNumber(spec: string, pseudo = false): number | undefined {
  const s = spec;
  if (/^\d+$/.test(s)) {
    const n = Number(s);
    return n <= 64 && SIGNAMES[n] ? n : undefined;
  }
  let u = spec.toUpperCase();
  if (pseudo && PSEUDO_SIGS[u] !== undefined) return PSEUDO_SIGS[u];
  if (u.startsWith('SIG')) u = u.slice(3);
  return byName.get(u);
}

/** Trap key for a signal number (EXIT, INT, …, DEBUG, ERR, RETURN). */
export function sigKey(n: number): string {
  for (const [k, v] of Object.entries(PSEUDO_SIGS)) if (v === n) return k;
  return SIGNAMES[n]!;
}

/** Number of a trap key, for ordering. */
export function keyNumber(k: string): number {
  return PSEUDO_SIGS[k] ?? byName.get(k) ?? 99;
}

/** `kill -l` / `trap -l` table: five `NN) SIGNAME` entries per line, tab-separated. */
export function signalTable(): string {
  let o = '';
  let i = 0;
  for (let n = 1; n <= 64; n++) {
    const s = SIGNAMES[n];
    if (!s) continue;
    i++;
    o += `${String(n).padStart(2)}) SIG${s}${i % 5 === 0 ? '\n' : '\t'}`;
  }
  return o.endsWith('\n') ? o : o + '\n';
}

const DESCRIPTIONS: Record<number, string> = {
  1: 'Hangup', 2: 'Interrupt', 3: 'Quit', 4: 'Illegal instruction', 5: 'Trace/breakpoint trap', 6: 'Aborted', 7: 'Bus error',
  8: 'Floating point exception', 9: 'Killed', 10: 'User defined signal 1', 11: 'Segmentation fault', 12: 'User defined signal 2',
  13: 'Broken pipe', 14: 'Alarm clock', 15: 'Terminated', 16: 'Stack fault', 17: 'Child exited', 18: 'Continued',
  19: 'Stopped (signal)', 20: 'Stopped', 21: 'Stopped (tty input)', 22: 'Stopped (tty output)', 23: 'Urgent I/O condition',
  24: 'CPU time limit exceeded', 25: 'File size limit exceeded', 26: 'Virtual timer expired', 27: 'Profiling timer expired',
  28: 'Window changed', 29: 'I/O possible', 30: 'Power failure', 31: 'Bad system call',
};

/** strsignal() text, as in bash's job status messages. */
export function sigDescription(n: number): string {
  return DESCRIPTIONS[n] ?? (n >= 34 && n <= 64 ? `Real-time signal ${n - 34}` : `Unknown signal ${n}`);
}
