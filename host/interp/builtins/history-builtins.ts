// The `history` and `fc` builtins over the shell's history list (history.ts), as bash's
// history.def and fc.def behave in a non-interactive shell.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Shell } from '../execution/runner.ts';
import { errOut, out, usageErr } from './builtin-io.ts';
import { int64Arg } from './argument-parsing.ts';
import { strftime } from './strftime.ts';
import { DiscardError } from '../execution/errors.ts';
import { historyExpand, type HistoryList } from '../syntax/history.ts';
import { historyEnv } from '../execution/history-reader.ts';
import { isRestricted, restrictedMsg } from '../execution/restricted.ts';
import { def } from './table.ts';

const historyOn = (sh: Shell): boolean => sh.history.recording;

/** bash_delete_last_history. */
function deleteLast(h: HistoryList): boolean {
  if (!h.length) return false;
  h.remove(h.length - 1);
  return true;
}

/** The `#<seconds>` line bash writes before an entry when HISTTIMEFORMAT is set, and reads back. */
const TIMESTAMP = /^#\d/;

def(['history'], historyBuiltin);
def(['fc'], fcBuiltin);

async function historyBuiltin(sh: Shell, args: string[]): Promise<number> {
  const h = sh.history;
  const env = historyEnv(sh);
  h.stifle(env);
  const flags = new Set<string>();
  let del: string | undefined, i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (a.length < 2 || a[0] !== '-') break;
    for (let k = 1; k < a.length; k++) {
      const c = a[k]!;
      if (!'acdnprsw'.includes(c)) return usageErr(sh, 'history', `-${c}: invalid option`);
      flags.add(c);
      if (c === 'd') {
        if (k < a.length - 1) del = a.slice(k + 1); else if (i + 1 < args.length) del = args[++i]!;
        else return usageErr(sh, 'history', '-d: option requires an argument');
        break;
      }
    }
  }
  const list = args.slice(i);
  if ([...'anrw'].filter((c) => flags.has(c)).length > 1) { await errOut(sh, 'history', 'cannot use more than one of -anrw'); return 1; }
  if (flags.has('c')) { h.entries = []; h.base = 1; h.thisSession = 0; if (!list.length) return 0; }
  if (flags.has('s')) {
    if (!list.length) return 0;
    // (the `history -s` line itself, or the command holding it, gives way to the arguments)
    if (historyOn(sh) && !h.lastLinePushed && (h.lastLineAdded || (h.lineCount > 0 && h.firstLineSaved && sh.shopt.has('cmdhist'))) && !deleteLast(h)) return 0;
    h.checkAdd(list.join(' '), env);
    h.lastLinePushed = true;
    return 0;
  }
  if (flags.has('p')) {
    if (!list.length) return 0;
    if (!h.lastLinePushed && h.lastLineAdded && !deleteLast(h)) return 1;
    let st = 0;
    for (const w of list) {
      const r = historyExpand(h, w, env);
      if (r.status < 0) { await errOut(sh, 'history', `${w}: history expansion failed`); st = 1; } else await out(sh, r.text + '\n');
    }
    return st;
  }
  if (del !== undefined) return deleteEntries(sh, h, del);
  if (!['a', 'n', 'r', 'w', 'c'].some((c) => flags.has(c))) {
    let from = 0;
    if (list.length) {
      const n = int64Arg(list[0]!);
      if (n === undefined) { await errOut(sh, 'history', `${list[0]}: numeric argument required`); return 1; }
      if (list.length > 1) throw new DiscardError('history: too many arguments', 1, true);
      from = Math.max(0, h.length - Math.abs(n));
    }
    const fmt = sh.vars.get('HISTTIMEFORMAT');
    let text = '';
    for (let k = from; k < h.length; k++) {
      const e = h.entries[k]!;
      text += `${String(k + h.base).padStart(5)}  ${fmt ? (e.time ? strftime(fmt, e.time, sh.vars.get('TZ')) : '??') : ''}${e.line}\n`;
    }
    await out(sh, text);
    return 0;
  }
  if (list[0]?.includes('/') && isRestricted(sh)) { await errOut(sh, 'history', restrictedMsg(list[0])); return 1; }
  // (restricted, HISTFILE readonly and unset: no default file, the operation fails quietly)
  if (list[0] === undefined && isRestricted(sh) && sh.vars.get('HISTFILE') === undefined) return 1;
  // (readline's default file: ~/.history)
  const name = list[0] ?? sh.vars.get('HISTFILE') ?? path.join(sh.vars.get('HOME') ?? '', '.history');
  const p = Buffer.from(path.resolve(sh.cwd, name), 'latin1');
  const stamps = sh.vars.get('HISTTIMEFORMAT') !== undefined;
  const text = (from: number): Buffer => Buffer.from(h.entries.slice(from).map((e) => (stamps && e.time ? `#${e.time}\n` : '') + e.line + '\n').join(''), 'latin1');
  try {
    if (flags.has('r') || flags.has('n')) {
      // (readline reads regular files only; -n the lines after those read so far)
      if (!(await fs.promises.stat(p)).isFile()) return 1;
      const lines = (await fs.promises.readFile(p)).toString('latin1').split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      const old = h.linesInFile, obase = h.base;
      const skip = flags.has('n') ? old : 0;
      let time = 0;
      for (let k = 0; k < lines.length; k++) {
        const l = lines[k]!;
        if (TIMESTAMP.test(l)) { time = parseInt(l.slice(1), 10); continue; }
        if (k >= skip) h.pushRead(l, time, env);
        time = 0;
      }
      h.linesInFile = lines.length;
      if (flags.has('n')) h.thisSession += h.linesInFile - old + h.base - obase;
    } else if (flags.has('w')) await fs.promises.writeFile(p, text(0));
    else if (flags.has('a')) {
      // (the lines added since the last -a; none after -c)
      if (h.thisSession > 0) {
        const n = Math.min(h.thisSession, h.length);
        await fs.promises.appendFile(p, text(h.length - n));
        h.linesInFile += n;
      }
      h.thisSession = 0;
    }
  } catch { return 1; }
  return 0;
}

/** `history -d N`, `-d -N` (from the end) and, in bash 5.2, `-d FIRST-LAST`. */
async function deleteEntries(sh: Shell, h: HistoryList, del: string): Promise<number> {
  const range = (del[0] === '-' ? del.slice(1) : del).indexOf('-');
  const bad = async (what: string): Promise<number> => { await errOut(sh, 'history', `${what}: history position out of range`); return 1; };
  const index = (arg: string, n: number): number => (arg[0] === '-' && n < 0 ? n + h.length : n > 0 ? n - h.base : n);
  if (range >= 0) {
    const cut = range + (del[0] === '-' ? 1 : 0);
    const a = del.slice(0, cut), b = del.slice(cut + 1);
    const s = int64Arg(a), e = int64Arg(b);
    if (s === undefined || e === undefined) return bad(del);
    const from = index(a, s);
    if (from < 0 || from >= h.length) return bad(a);
    const to = index(b, e);
    if (to < 0 || to >= h.length) return bad(b);
    if (to < from) return 1;
    h.remove(from, to - from + 1);
  } else {
    const n = int64Arg(del);
    if (n === undefined) return bad(del);
    let at: number;
    if (del.trimStart()[0] === '-' && n < 0) { at = h.length + n; if (at < 0) return bad(del); }
    else if (n < h.base || n >= h.base + h.length) return bad(del);
    else at = n - h.base;
    h.remove(at);
  }
  return 0;
}

// ---- fc -------------------------------------------------------------------------------------
const INVALID = -2, NOTFOUND = -3;

/** fc_gethnum: the index a FIRST/LAST argument names (out-of-range numbers are clamped as bash does). */
function hnum(sh: Shell, spec: string | undefined, listing: boolean, first: boolean): number {
  const h = sh.history, n = h.length;
  let last = n - (historyOn(sh) ? 1 : 0) - (h.lastLineAdded ? 1 : 0);
  if (last === n) last = n - 1;
  if (last < 0) return -1;
  const realLast = Math.max(0, n - 1);
  const i = last;
  if (spec === undefined) return i;
  let s = spec, sign = 1;
  if (s[0] === '-') { sign = -1; s = s.slice(1); }
  if (/^\d/.test(s)) {
    let v = parseInt(s, 10) * sign; // (atoi: leading digits)
    if (v < 0) { v += i + 1; return v < 0 ? 0 : v; }
    if (v === 0) return sign < 0 ? (listing ? realLast : INVALID) : i;
    v -= h.base;
    if (v < 0 || v >= i) return first ? 0 : i;
    return v;
  }
  for (let j = i; j >= 0; j--) if (h.entries[j]!.line.startsWith(spec)) return j;
  return NOTFOUND;
}

async function fcBuiltin(sh: Shell, args: string[]): Promise<number> {
  const h = sh.history;
  let numbering = true, reverse = false, listing = false, execute = false, ename: string | undefined;
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    // (a negative number is an operand, not options)
    if (a[0] !== '-' || a.length < 2 || int64Arg(a.slice(1)) !== undefined) break;
    for (let k = 1; k < a.length; k++) {
      const c = a[k]!;
      if (c === 'n') numbering = false;
      else if (c === 'l') listing = true;
      else if (c === 'r') reverse = true;
      else if (c === 's') execute = true;
      else if (c === 'e') {
        ename = k < a.length - 1 ? a.slice(k + 1) : args[++i];
        if (ename === undefined) return usageErr(sh, 'fc', '-e: option requires an argument');
        break;
      } else return usageErr(sh, 'fc', `-${c}: invalid option`);
    }
  }
  let list = args.slice(i);
  if (ename === '-') execute = true;
  const env = historyEnv(sh);
  if (execute) {
    // fc -s [pat=rep ...] [command]: re-run with each pat replaced by rep everywhere
    const subs: Array<[string, string]> = [];
    while (list.length && list[0]!.includes('=')) { const w = list.shift()!; const eq = w.indexOf('='); subs.push([w.slice(0, eq), w.slice(eq + 1)]); }
    const at = h.length ? hnum(sh, list[0], false, false) : -1;
    let command = at >= 0 ? h.entries[at]!.line : undefined;
    if (command === undefined) { await errOut(sh, 'fc', 'no command found'); return 1; }
    for (const [pat, rep] of subs) if (pat !== '') command = command.split(pat).join(rep);
    await sh.writeFd(2, command + '\n').catch(() => undefined);
    // (the command replaces `fc -s` in the history)
    const line = command.endsWith('\n') ? command.slice(0, -1) : command;
    if (line !== '') { deleteLast(h); h.lineCount = 1; h.checkAdd(line, env); }
    return sh.evalString(command, 'fc');
  }
  if (!h.length) return 0;
  const n = h.length;
  let lastHist = n - (historyOn(sh) ? 1 : 0) - (h.lastLineAdded ? 1 : 0);
  if (lastHist === n) lastHist = n - 1;
  if (lastHist < 0) lastHist = 0;
  const realLast = n - 1;
  let beg: number, end: number;
  if (list.length) {
    beg = hnum(sh, list[0], listing, true);
    list = list.slice(1);
    if (list.length) end = hnum(sh, list[0], listing, false);
    else end = beg === realLast ? (listing ? realLast : beg) : listing ? lastHist : beg;
  } else if (listing) { end = lastHist; beg = Math.max(0, end - 15); } else beg = end = lastHist;
  const failed = async (): Promise<number | undefined> => {
    if (beg === INVALID || end === INVALID) { await errOut(sh, 'fc', 'history specification out of range'); return 1; }
    if (beg === NOTFOUND || end === NOTFOUND) { await errOut(sh, 'fc', 'no command found'); return 1; }
    return undefined;
  };
  let f = await failed();
  if (f !== undefined) return f;
  beg = Math.max(0, beg); end = Math.max(0, end);
  if (!listing && h.lastLineAdded) {
    // (the editing `fc` is not kept in the history)
    deleteLast(h);
    if (lastHist >= h.length) lastHist = h.length - 1;
    if (end >= lastHist) end = lastHist; else if (beg >= lastHist) beg = lastHist;
    f = await failed();
    if (f !== undefined) return f;
    beg = Math.max(0, beg); end = Math.max(0, end);
  }
  if (end < beg) { [beg, end] = [end, beg]; reverse = true; }
  const lines: string[] = [];
  for (let k = reverse ? end : beg; reverse ? k >= beg : k <= end; k += reverse ? -1 : 1) {
    const e = h.entries[k];
    if (!e) continue;
    lines.push(listing ? `${numbering ? k + h.base : ''}\t${sh.posix ? '' : ' '}${e.line}\n` : `${e.line}\n`);
  }
  if (listing) { await out(sh, lines.join('')); return 0; }
  // edit in $FCEDIT (or -e ENAME), then run what the file holds, echoed and recorded as read
  const file = path.join(sh.vars.get('TMPDIR') || os.tmpdir(), `bash-fc.${process.pid}${Math.random().toString(36).slice(2, 8)}`);
  const fb = Buffer.from(file, 'latin1');
  fs.writeFileSync(fb, Buffer.from(lines.join(''), 'latin1'));
  try {
    const editor = ename ?? (sh.vars.get('FCEDIT') || sh.vars.get('EDITOR') || (sh.posix ? 'ed' : 'vi'));
    if (await sh.evalString(`${editor} ${file}`, 'fc') !== 0) return 1;
    let text: string;
    try { text = fs.readFileSync(fb).toString('latin1'); } catch { return 1; }
    for (const l of text.split('\n')) {
      if (l === '') continue;
      await sh.writeFd(2, l + '\n').catch(() => undefined);
      if (historyOn(sh)) { h.lineCount = 1; h.checkAdd(l, env); }
    }
    return await sh.evalString(text, 'fc');
  } finally {
    fs.rmSync(fb, { force: true });
  }
}
