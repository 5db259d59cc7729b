// What the shell reports about the commands it runs on stderr: `set -x` lines (PS4 expanded,
// repeated per level, to BASH_XTRACEFD or before a declaration's own redirections) and the
// `time` keyword's report.
import type { Shell } from './runner.ts';
import type { TimeClause } from '../syntax/ast.ts';
import { traceWord } from '../words/quoting.ts';
import { writeAll } from './io.ts';

export async function trace(sh: Shell, words: string[]): Promise<void> {
  const utf8 = sh.vars.utf8Locale();
  await traceRaw(sh, words.map((w) => traceWord(w, utf8)).join(' '));
}

export async function traceRaw(sh: Shell, line: string): Promise<void> {
  let ps4 = sh.vars.get('PS4') ?? '+ ';
  if (/[$`\\]/.test(ps4)) ps4 = await sh.ex.promptString(ps4);
  const prefix = ps4 ? ps4[0]!.repeat(Math.max(0, sh.traceLevel - 1)) + ps4 : '';
  // (only the command's own line: what the builtin traces as it assigns comes after the redirections)
  const pre = sh.traceStderr;
  if (pre) { sh.traceStderr = undefined; await writeAll(pre, `${prefix}${line}\n`); return; }
  // (BASH_XTRACEFD names an open fd for the trace; otherwise it goes to stderr)
  const xfd = sh.vars.get('BASH_XTRACEFD');
  const fd = xfd !== undefined && /^[0-9]{1,4}$/.test(xfd) && sh.fds.get(Number(xfd)) ? Number(xfd) : 2;
  await sh.writeFd(fd, `${prefix}${line}\n`);
}

/** `time PIPELINE` (cmd()'s case): runs it and reports the real time on stderr, in TIMEFORMAT's format or bash's own. */
export async function timeClause(sh: Shell, c: TimeClause): Promise<number> {
  const t0 = process.hrtime.bigint();
  const st = c.Stmt ? await sh.stmt(c.Stmt) : 0;
  const dt = Number(process.hrtime.bigint() - t0) / 1e9;
  const fmt = (x: number): string => `${Math.floor(x / 60)}m${(x % 60).toFixed(3)}s`;
  const tf = c.PosixFormat ? undefined : sh.vars.get('TIMEFORMAT');
  if (tf !== undefined) {
    const bad = /%(.?)/.exec(tf.replace(/%(?:[0-9]?l?[RUS]|P|%)/g, ''));
    if (bad) await sh.err(`TIMEFORMAT: \`${bad[1]}': invalid format character`);
    else if (tf !== '') await sh.writeFd(2, timeFormat(tf, dt) + '\n');
    return st;
  }
  await sh.writeFd(2, c.PosixFormat ? `real ${dt.toFixed(2)}\nuser 0.00\nsys 0.00\n` : `\nreal\t${fmt(dt)}\nuser\t0m0.000s\nsys\t0m0.000s\n`);
  return st;
}

/**
 * bash's TIMEFORMAT for `time`: `%[p][l]R`, `U`, `S` (seconds, `p` fraction digits, 3 by default,
 * truncated; `l`: MMmSS.FFs), `%P` (CPU percentage), `%%`. User and system times are not measured (0).
 */
function timeFormat(f: string, real: number): string {
  return f.replace(/%(?:([0-9]?)(l?)([RUS])|(P)|%)/g, (m, p: string, l: string, k: string, pc: string) => {
    if (m === '%%') return '%';
    if (pc) return real > 0 ? '0.00' : '100.00';
    const secs = k === 'R' ? real : 0;
    const digits = p === '' ? 3 : Math.min(Number(p), 3);
    const ms = Math.floor(secs * 1000);
    const whole = l ? Math.floor(ms / 1000) % 60 : Math.floor(ms / 1000);
    const frac = digits ? '.' + String(ms % 1000).padStart(3, '0').slice(0, digits) : '';
    return l ? `${Math.floor(ms / 60000)}m${whole}${frac}s` : `${whole}${frac}`;
  });
}
