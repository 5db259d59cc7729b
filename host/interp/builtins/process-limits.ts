// The limits a shell sets for itself and its commands: umask (the file-creation mask) and
// ulimit (resource limits).
import * as fs from 'node:fs';
import type { Shell } from '../execution/runner.ts';
import { def } from './table.ts';
import { errOut, out } from './builtin-io.ts';
import { simpleOpts } from './argument-parsing.ts';

/** bash's parse_symbolic_mode over the complement of the umask; an error message on failure. */
function symbolicMode(mode: string, bits: number): number | string {
  let i = 0;
  for (;;) {
    let who = 0, perm = 0;
    while ('agou'.includes(mode[i] ?? '-') && i < mode.length) {
      const c = mode[i++]!;
      who |= c === 'u' ? 0o700 : c === 'g' ? 0o70 : c === 'o' ? 0o7 : 0o777;
    }
    const op = mode[i++];
    if (op !== '+' && op !== '-' && op !== '=') return `\`${op ?? ''}': invalid symbolic mode operator`;
    while (i < mode.length && 'rwx'.includes(mode[i]!)) { const c = mode[i++]!; perm |= c === 'r' ? 0o444 : c === 'w' ? 0o222 : 0o111; }
    if (i < mode.length && mode[i] !== ',') return `\`${mode[i]}': invalid symbolic mode character`;
    if (who) perm &= who;
    if (op === '+') bits |= perm;
    else if (op === '-') bits &= ~perm;
    else { bits &= ~(who || 0o777); bits |= perm; }
    if (i >= mode.length) return bits;
    i++;
  }
}
def(['umask'], async (sh, args) => {
  const o = await simpleOpts(sh, args, 'pS');
  if (typeof o === 'number') return o;
  const mode = args[o.i];
  sh.applyUmask();
  if (mode === undefined) {
    const m = process.umask();
    const sym = (): string => (['u', 'g', 'o'] as const).map((w, k) => `${w}=${['r', 'w', 'x'].filter((_, i) => !(m & ((0o400 >> i) >> (3 * k)))).join('')}`).join(',');
    const pre = o.flags.has('p') ? 'umask ' : '';
    await out(sh, o.flags.has('S') ? `${pre}${o.flags.has('p') ? '-S ' : ''}${sym()}\n` : `${pre}${m.toString(8).padStart(4, '0')}\n`);
    return 0;
  }
  let m: number;
  if (/^[0-9]/.test(mode)) {
    if (!/^[0-7]+$/.test(mode) || parseInt(mode, 8) > 0o777) { await errOut(sh, 'umask', `${mode}: octal number out of range`); return 1; }
    m = parseInt(mode, 8);
  } else {
    const r = symbolicMode(mode, ~process.umask() & 0o777);
    if (typeof r === 'string') { await errOut(sh, 'umask', r); return 1; }
    m = ~r & 0o777;
  }
  process.umask(m);
  sh.umask = m;
  if (o.flags.has('S')) {
    const sym = (['u', 'g', 'o'] as const).map((w, k) => `${w}=${['r', 'w', 'x'].filter((_, i) => !(m & ((0o400 >> i) >> (3 * k)))).join('')}`).join(',');
    await out(sh, sym + '\n');
  }
  return 0;
});

// letter, description, units, /proc/self/limits row, divisor
const ulimitTable: [string, string, string, string, number][] = [
  ['R', 'real-time non-blocking time', 'microseconds', 'Max realtime timeout', 1],
  ['c', 'core file size', 'blocks', 'Max core file size', 1024],
  ['d', 'data seg size', 'kbytes', 'Max data size', 1024],
  ['e', 'scheduling priority', '', 'Max nice priority', 1],
  ['f', 'file size', 'blocks', 'Max file size', 1024],
  ['i', 'pending signals', '', 'Max pending signals', 1],
  ['l', 'max locked memory', 'kbytes', 'Max locked memory', 1024],
  ['m', 'max memory size', 'kbytes', 'Max resident set', 1024],
  ['n', 'open files', '', 'Max open files', 1],
  ['p', 'pipe size', '512 bytes', '', 1],
  ['q', 'POSIX message queues', 'bytes', 'Max msgqueue size', 1],
  ['r', 'real-time priority', '', 'Max realtime priority', 1],
  ['s', 'stack size', 'kbytes', 'Max stack size', 1024],
  ['t', 'cpu time', 'seconds', 'Max cpu time', 1],
  ['u', 'max user processes', '', 'Max processes', 1],
  ['v', 'virtual memory', 'kbytes', 'Max address space', 1024],
  ['x', 'file locks', '', 'Max file locks', 1],
];

function readLimit(sh: Shell, letter: string): [string, string] {
  const set = sh.ulimits.get(letter);
  if (set) return set;
  const row = ulimitTable.find((r) => r[0] === letter)!;
  if (letter === 'p') return ['8', '8'];
  let text = '';
  try { text = fs.readFileSync('/proc/self/limits', 'latin1'); } catch { /* not Linux */ }
  for (const line of text.split('\n')) {
    if (!line.startsWith(row[3] + ' ')) continue;
    const f = line.slice(row[3].length).trim().split(/\s+/);
    const conv = (v: string | undefined): string => (v === undefined || v === 'unlimited' ? 'unlimited' : String(BigInt(v) / BigInt(row[4])));
    return [conv(f[0]), conv(f[1])];
  }
  return ['unlimited', 'unlimited'];
}

def(['ulimit'], async (sh, args) => {
  const fail = (msg: string): Promise<void> => errOut(sh, 'ulimit', msg);
  let soft = false, hard = false, all = false;
  const letters: string[] = [];
  let value: string | undefined;
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { value = args[i + 1]; break; }
    if (a.startsWith('-') && a.length > 1) {
      for (const c of a.slice(1)) {
        if (c === 'S') soft = true;
        else if (c === 'H') hard = true;
        else if (c === 'a') all = true;
        else if (ulimitTable.some((r) => r[0] === c)) letters.push(c);
        else {
          await fail(`-${c}: invalid option`);
          await sh.writeFd(2, 'ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]\n');
          return 2;
        }
      }
      continue;
    }
    value = a;
  }
  const label = (r: [string, string, string, string, number]): string =>
    r[1].padEnd(20) + ' ' + (r[2] ? `(${r[2]}, -${r[0]}) ` : `(-${r[0]}) `).padStart(20);
  if (all) {
    for (const r of ulimitTable) { const l = readLimit(sh, r[0]); await out(sh, label(r) + (hard ? l[1] : l[0]) + '\n'); }
    return 0;
  }
  if (letters.length === 0) letters.push('f');
  if (value === undefined) {
    for (const c of letters) {
      const r = ulimitTable.find((x) => x[0] === c)!;
      const l = readLimit(sh, c);
      await out(sh, (letters.length > 1 ? label(r) : '') + (hard ? l[1] : l[0]) + '\n');
    }
    return 0;
  }
  const c = letters[letters.length - 1]!;
  const r = ulimitTable.find((x) => x[0] === c)!;
  const cur = readLimit(sh, c);
  let v: string;
  if (value === 'unlimited') v = 'unlimited';
  else if (value === 'hard') v = cur[1];
  else if (value === 'soft') v = cur[0];
  else if (/^\d+$/.test(value)) v = String(BigInt(value));
  else { await fail(`${value}: invalid number`); return 1; }
  // bash multiplies by the unit into a signed 64-bit value
  const lim = /^\d+$/.test(value) ? (BigInt(value) < 1n << 63n ? BigInt(value) : (1n << 63n) - 1n) : 0n; // strtoimax saturates
  if (lim * BigInt(r[4]) >= 1n << 64n) { await fail(`${value}: limit out of range`); return 1; }
  const big = (x: string): bigint => (x === 'unlimited' ? 1n << 64n : BigInt(x));
  const setSoft = soft || !hard, setHard = hard || !soft;
  if (big(v) > big(cur[1]) || (c === 'p' && v !== cur[0])) { await fail(`${r[1]}: cannot modify limit: Operation not permitted`); return 1; }
  const next: [string, string] = [setSoft ? v : cur[0], setHard ? v : cur[1]];
  if (big(next[0]) > big(next[1])) { await fail(`${r[1]}: cannot modify limit: Invalid argument`); return 1; }
  sh.ulimits.set(c, next);
  return 0;
});
