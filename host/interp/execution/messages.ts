// Where the running code is and the messages that say so: the line number of a position as bash
// counts it (lineOf, with the shifts of `$( )` bodies and abandoned commands), the source the
// shell runs (setSource), bash's `name: line N: ` prefix of error messages, and writes to the
// shell's fds. Apart from the evaluator because every part of it (and the builtins) reports
// through these; Shell keeps one-line methods for them.
import type { Shell } from './runner.ts';
import { tryWriteSync, writeAll } from './io.ts';
import { errnoMsg } from './errno-message.ts';

export function lineOf(sh: Shell, pos: number): number {
  const c = sh.source.comsub;
  if (c && pos >= c.lo && pos <= c.hi) {
    let k = -1;
    for (let i = 0; i < c.at.length && c.at[i]![0] <= pos; i++) k = i;
    if (k >= 0) return c.base + c.at[k]![1];
  }
  const l = sh.source.lines;
  let lo = 0, hi = l.length - 1;
  while (lo < hi) { const m = (lo + hi + 1) >> 1; if (l[m]! <= pos) lo = m; else hi = m - 1; }
  let shift = 0;
  for (const [at, d] of sh.source.shifts ?? []) { if (at > pos) break; shift += d; }
  return lo + 1 + (sh.source.base ?? 0) + shift;
}

export function setSource(sh: Shell, src: string, name: string, file = sh.source.file): void {
  const lines = [0];
  for (let i = 0; i < src.length; i++) if (src.charCodeAt(i) === 10) lines.push(i + 1);
  sh.source = { src, lines, name, file };
}

/** Writes an error message like bash: `name: line N: msg`. */
export async function err(sh: Shell, msg: string): Promise<void> {
  await writeFd(sh, 2, errLine(sh, msg)).catch(() => undefined);
}

export function errLine(sh: Shell, msg: string): string {
  // (an eval string's lines count from the eval's line, in a script file and under -c alike)
  const line = lineOf(sh, sh.curPos);
  return `${errSourceName(sh)}: line ${line}: ${msg}\n`;
}

/**
 * The name bash's errors start with: BASH_SOURCE[0], the file the running code is from — a
 * function's is the file that defined it (a sourced file, or the script); bash names the source
 * of functions defined in a -c string "environment".
 */
export function errSourceName(sh: Shell): string {
  if (sh.funcFiles.length === 0) return sh.errName;
  const f = sh.funcFiles[sh.funcFiles.length - 1]!;
  return f !== '' ? f : sh.cMode ? 'environment' : sh.arg0;
}

/**
 * writeFd for a builtin run without a promise (SyncBuiltin), as its status: 0 when written,
 * undefined when nothing was (the builtin then runs the ordinary way), 1 when output stopped part
 * way (a full disk) — the write error reported as callArgs does, as far as stderr takes it at once.
 */
export function writeFdSync(sh: Shell, n: number, data: string, name: string): number | undefined {
  const r = tryWriteSync(sh.fds.get(n), data);
  if (typeof r === 'boolean') return r ? 0 : undefined;
  tryWriteSync(sh.fds.get(2), errLine(sh, `${name}: write error: ${errnoMsg(r)}`));
  return 1;
}

export async function writeFd(sh: Shell, n: number, data: string | Buffer): Promise<void> {
  await writeAll(sh.fds.get(n), data);
}
