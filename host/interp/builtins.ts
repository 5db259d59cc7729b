// Builtin commands. Each takes the shell and argv (byte strings) and returns a status.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Assign } from './ast.ts';
import type { Job, Shell, Var } from './runner.ts';
import { errnoMsg, fromBytes, optionLetters } from './runner.ts';
import { ExitSignal, LoopSignal, ReturnSignal, ShellError } from './errors.ts';
import { readSome, readByteSync, AGAIN, TIMEOUT } from './io.ts';
import { ansiC, shellQuote } from './expand.ts';
import { testArgs } from './test.ts';
import { lookPath, runExternal } from './exec.ts';
import { parse, ParseError } from './parser.ts';
import { getPrivateCommand } from './registry.ts';

export type Builtin = (sh: Shell, args: string[]) => Promise<number>;
export const builtins = new Map<string, Builtin>();
export const specialBuiltins = new Set(['break', ':', '.', 'continue', 'eval', 'exec', 'exit', 'export', 'readonly', 'return', 'set', 'shift', 'times', 'trap', 'unset', 'source']);
const keywords = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc']);

const out = (sh: Shell, s: string): Promise<void> => sh.writeFd(1, s);
async function errOut(sh: Shell, name: string, msg: string): Promise<void> { await sh.err(`${name}: ${msg}`); }

function def(names: string[], fn: Builtin): void { for (const n of names) builtins.set(n, fn); }

def(['true', ':'], async () => 0);
def(['false'], async () => 1);

def(['echo'], async (sh, args) => {
  let i = 1, nl = true, esc = false;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (!/^-[neE]+$/.test(a)) break;
    for (const c of a.slice(1)) { if (c === 'n') nl = false; else if (c === 'e') esc = true; else esc = false; }
  }
  let s = args.slice(i).join(' ');
  if (esc) {
    const c = s.indexOf('\\c');
    let stop = false;
    if (c >= 0) { s = s.slice(0, c); stop = true; }
    s = echoEscapes(s);
    if (stop) nl = false;
  }
  await out(sh, nl ? s + '\n' : s);
  return 0;
});

function echoEscapes(s: string): string {
  // like $'...' but \0nnn is octal with a leading 0
  return ansiC(s.replace(/\\0([0-7]{0,3})/g, (_m, d: string) => '\\x' + parseInt(d || '0', 8).toString(16).padStart(2, '0')));
}

// ---- printf -----------------------------------------------------------------------------------
function numArg(s: string | undefined, errs: string[]): bigint {
  if (s === undefined || s === '') return 0n;
  if (/^['"]/.test(s)) return BigInt(s.length > 1 ? s.charCodeAt(1) : 0);
  const t = s.trim();
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.exec(t);
  if (m) {
    let v: bigint;
    const d = m[2]!;
    if (/^0[xX]/.test(d)) v = BigInt(d);
    else if (d.length > 1 && d[0] === '0') v = BigInt('0o' + d.slice(1));
    else v = BigInt(d);
    return m[1] === '-' ? -v : v;
  }
  const lead = /^([+-]?\d+)/.exec(t);
  errs.push(`${s}: invalid number`);
  return lead ? BigInt(lead[1]!) : 0n;
}

function floatArg(s: string | undefined, errs: string[]): number {
  if (s === undefined || s === '') return 0;
  if (/^['"]/.test(s)) return s.length > 1 ? s.charCodeAt(1) : 0;
  const n = Number(s.trim());
  if (Number.isNaN(n)) { errs.push(`${s}: invalid number`); return parseFloat(s) || 0; }
  return n;
}

function pad(s: string, width: number | undefined, left: boolean, zero = false): string {
  if (width === undefined || s.length >= width) return s;
  if (left) return s + ' '.repeat(width - s.length);
  if (zero) {
    const sign = /^[+-]/.test(s) ? s[0]! : '';
    const body = sign ? s.slice(1) : s;
    const pre = /^0[xX]/.test(body) ? body.slice(0, 2) : '';
    return sign + pre + '0'.repeat(width - s.length) + body.slice(pre.length);
  }
  return ' '.repeat(width - s.length) + s;
}

/** Exact test: is |v| * 10^p exactly halfway between two integers? */
function isExactTie(v: number, p: number): boolean {
  if (!Number.isFinite(v) || v === 0) return false;
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, Math.abs(v));
  const hi = dv.getUint32(0), lo = dv.getUint32(4);
  const expBits = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e = expBits - 1075;
  if (expBits === 0) e = -1074; else mant |= 1n << 52n;
  if (e >= 0) return false;
  const den = 1n << BigInt(-e);
  const num = mant * 10n ** BigInt(p);
  return (num * 2n) % den === 0n && num % den !== 0n;
}

function toFixedEven(v: number, p: number): string {
  const scaled = Math.abs(v) * 10 ** p;
  if (p <= 20 && scaled < 2 ** 52 && isExactTie(v, p)) {
    let n = Math.floor(scaled);
    if (n % 2 === 1) n += 1;
    const str = n.toString().padStart(p + 1, '0');
    const r = p ? str.slice(0, -p) + '.' + str.slice(-p) : str;
    return (v < 0 ? '-' : '') + r;
  }
  return v.toFixed(p);
}

function cFloat(v: number, conv: string, prec: number | undefined, flags: string): string {
  const p = prec ?? 6;
  let s: string;
  const lc = conv.toLowerCase();
  if (!Number.isFinite(v)) s = Number.isNaN(v) ? 'nan' : v < 0 ? '-inf' : 'inf';
  else if (lc === 'f') s = toFixedEven(v, p);
  else if (lc === 'e') s = v.toExponential(p).replace(/e([+-])(\d)$/, 'e$10$2');
  else {
    const P = p === 0 ? 1 : p;
    if (v === 0) s = '0';
    else {
      const exp = Math.floor(Math.log10(Math.abs(v)));
      if (exp < -4 || exp >= P) s = v.toExponential(P - 1).replace(/e([+-])(\d)$/, 'e$10$2');
      else s = v.toFixed(Math.max(0, P - 1 - exp));
      if (!flags.includes('#')) s = s.replace(/(\.\d*?)0+(e|$)/, '$1$2').replace(/\.(e|$)/, '$1');
    }
  }
  if (conv === conv.toUpperCase()) s = s.toUpperCase();
  if (v >= 0 && flags.includes('+')) s = '+' + s;
  else if (v >= 0 && flags.includes(' ')) s = ' ' + s;
  return s;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** strftime(3) in the C locale for `printf '%(fmt)T'`; `tz` is the shell's TZ (IANA names and UTC). */
export function strftime(fmt: string, secs: number, tz: string | undefined): string {
  let zone: string | undefined = tz;
  if (tz !== undefined && /^(UTC|GMT|UCT)?0?$/i.test(tz)) zone = 'UTC';
  let fields: Record<string, string>;
  try {
    const f = new Intl.DateTimeFormat('en-US', { timeZone: zone || undefined, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short', timeZoneName: 'short' });
    fields = Object.fromEntries(f.formatToParts(new Date(secs * 1000)).map((p) => [p.type, p.value]));
  } catch {
    return strftime(fmt, secs, 'UTC');
  }
  const Y = Number(fields['year']), mo = Number(fields['month']) - 1, d = Number(fields['day']);
  const H = Number(fields['hour']) % 24, M = Number(fields['minute']), S = Number(fields['second']);
  const offMin = Math.round((Date.UTC(Y, mo, d, H, M, S) - secs * 1000) / 60000);
  const wd = new Date(Date.UTC(Y, mo, d)).getUTCDay();
  const yday = Math.round((Date.UTC(Y, mo, d) - Date.UTC(Y, 0, 1)) / 86400000);
  let zname = fields['timeZoneName'] ?? 'UTC';
  if (zname === 'GMT' && (zone === 'UTC' || zone === undefined)) zname = 'UTC';
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const sp2 = (n: number): string => String(n).padStart(2, ' ');
  const isoWeek = (): [number, number] => {
    const wdm = (wd + 6) % 7; // Monday = 0
    const thu = Date.UTC(Y, mo, d) + (3 - wdm) * 86400000;
    const ty = new Date(thu).getUTCFullYear();
    return [ty, Math.floor((thu - Date.UTC(ty, 0, 1)) / 86400000 / 7) + 1];
  };
  const conv = (c: string): string => {
    switch (c) {
      case 'a': return DAYS[wd]!.slice(0, 3);
      case 'A': return DAYS[wd]!;
      case 'b': case 'h': return MONTHS[mo]!.slice(0, 3);
      case 'B': return MONTHS[mo]!;
      case 'c': return `${conv('a')} ${conv('b')} ${sp2(d)} ${conv('T')} ${Y}`;
      case 'C': return p2(Math.floor(Y / 100));
      case 'd': return p2(d);
      case 'D': return `${p2(mo + 1)}/${p2(d)}/${p2(Y % 100)}`;
      case 'e': return sp2(d);
      case 'F': return `${Y}-${p2(mo + 1)}-${p2(d)}`;
      case 'g': return p2(isoWeek()[0] % 100);
      case 'G': return String(isoWeek()[0]);
      case 'H': return p2(H);
      case 'I': return p2(H % 12 || 12);
      case 'j': return String(yday + 1).padStart(3, '0');
      case 'k': return sp2(H);
      case 'l': return sp2(H % 12 || 12);
      case 'm': return p2(mo + 1);
      case 'M': return p2(M);
      case 'n': return '\n';
      case 'p': return H < 12 ? 'AM' : 'PM';
      case 'P': return H < 12 ? 'am' : 'pm';
      case 'r': return `${p2(H % 12 || 12)}:${p2(M)}:${p2(S)} ${conv('p')}`;
      case 'R': return `${p2(H)}:${p2(M)}`;
      case 's': return String(secs);
      case 'S': return p2(S);
      case 't': return '\t';
      case 'T': return `${p2(H)}:${p2(M)}:${p2(S)}`;
      case 'u': return String(wd || 7);
      case 'U': return p2(Math.floor((yday + 7 - wd) / 7));
      case 'V': return p2(isoWeek()[1]);
      case 'w': return String(wd);
      case 'W': return p2(Math.floor((yday + 7 - ((wd + 6) % 7)) / 7));
      case 'x': return conv('D');
      case 'X': return conv('T');
      case 'y': return p2(Y % 100);
      case 'Y': return String(Y);
      case 'z': { const a = Math.abs(offMin); return (offMin < 0 ? '-' : '+') + p2(Math.floor(a / 60)) + p2(a % 60); }
      case 'Z': return zname;
      case '%': return '%';
      default: return '%' + c;
    }
  };
  return fmt.replace(/%[EO]?(.)/gs, (_, c: string) => conv(c));
}

export function formatPrintf(fmt: string, args: string[], errs: string[], tz?: string, startTime?: number): { out: string; stop: boolean } {
  let o = '';
  let ai = 0;
  let stop = false;
  const next = (): string | undefined => args[ai++];
  const once = (): void => {
    for (let i = 0; i < fmt.length; i++) {
      const c = fmt[i]!;
      if (c === '\\') {
        const m = /^\\(?:[0-7]{1,3}|x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|c|.)/s.exec(fmt.slice(i));
        const tok = m ? m[0] : '\\';
        if (tok === '\\c') { o += tok; i += 1; continue; }
        o += /^\\[0-7]/.test(tok) ? String.fromCharCode(parseInt(tok.slice(1), 8) & 255) : ansiC(tok);
        i += tok.length - 1;
        continue;
      }
      if (c !== '%') { o += c; continue; }
      const t = /^%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?\(([^)]*)\)T/.exec(fmt.slice(i));
      if (t) {
        i += t[0].length - 1;
        let width: number | undefined = t[2] === '*' ? Number(numArg(next(), errs)) : t[2] ? Number(t[2]) : undefined;
        let left = t[1]!.includes('-');
        if (width !== undefined && width < 0) { left = true; width = -width; }
        const prec: number | undefined = t[3] === undefined ? undefined : t[3] === '*' ? Number(numArg(next(), errs)) : Number(t[3] || '0');
        const arg = next();
        let secs = arg === undefined || arg === '' ? -1 : Number(numArg(arg, errs));
        if (secs === -1) secs = Math.floor(Date.now() / 1000);
        else if (secs === -2) secs = Math.floor((startTime ?? Date.now()) / 1000);
        let s = strftime(t[4]!, secs, tz);
        if (prec !== undefined && prec >= 0) s = s.slice(0, prec);
        o += pad(s, width, left);
        continue;
      }
      const m = /^%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?([hlLjzt]*)([diouxXeEfFgGcsbq%])?/.exec(fmt.slice(i));
      if (!m || !m[5]) { errs.push(`\`${fmt[i + (m ? m[0].length : 1)] ?? ''}': invalid format character`); stop = true; return; }
      i += m[0].length - 1;
      const flags = m[1]!;
      const conv = m[5];
      if (conv === '%') { o += '%'; continue; }
      let width: number | undefined = m[2] === '*' ? Number(numArg(next(), errs)) : m[2] ? Number(m[2]) : undefined;
      let left = flags.includes('-');
      if (width !== undefined && width < 0) { left = true; width = -width; }
      let prec: number | undefined = m[3] === undefined ? undefined : m[3] === '*' ? Number(numArg(next(), errs)) : Number(m[3] || '0');
      if (prec !== undefined && prec < 0) prec = undefined;
      const arg = next();
      switch (conv) {
        case 's': { let s = arg ?? ''; if (prec !== undefined) s = s.slice(0, prec); o += pad(s, width, left); break; }
        case 'b': {
          let s = arg ?? '';
          const ci = s.indexOf('\\c');
          if (ci >= 0) { s = s.slice(0, ci); stop = true; }
          s = echoEscapes(s);
          if (prec !== undefined) s = s.slice(0, prec);
          o += pad(s, width, left);
          if (stop) return;
          break;
        }
        case 'q': o += pad(arg === undefined ? "''" : bashQuote(arg), width, left); break;
        case 'c': o += pad(arg === undefined ? '' : arg === '' ? '\0' : arg.slice(0, 1), width, left); break;
        case 'd': case 'i': {
          const v = BigInt.asIntN(64, numArg(arg, errs));
          let s = (v < 0n ? -v : v).toString();
          if (prec === 0 && v === 0n) s = '';
          if (prec !== undefined) s = s.padStart(prec, '0');
          s = (v < 0n ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '') + s;
          o += pad(s, width, left, flags.includes('0') && prec === undefined);
          break;
        }
        case 'o': case 'u': case 'x': case 'X': {
          let v = numArg(arg, errs);
          v = BigInt.asUintN(64, v);
          let s = v.toString(conv === 'o' ? 8 : conv === 'u' ? 10 : 16);
          if (conv === 'X') s = s.toUpperCase();
          if (prec !== undefined) s = s.padStart(prec, '0');
          if (flags.includes('#') && v !== 0n) s = (conv === 'o' ? '0' : conv === 'x' ? '0x' : conv === 'X' ? '0X' : '') + s;
          o += pad(s, width, left, flags.includes('0') && prec === undefined);
          break;
        }
        default: {
          const v = floatArg(arg, errs);
          o += pad(cFloat(v, conv, prec, flags), width, left, flags.includes('0'));
        }
      }
    }
  };
  once();
  while (!stop && ai > 0 && ai < args.length) once();
  return { out: o, stop };
}

function bashQuote(s: string): string {
  if (s === '') return "''";
  if (/^[a-zA-Z0-9_@%+=:,./-]+$/.test(s)) return s;
  if (/[\x00-\x1f\x7f]/.test(s)) return shellQuote(s);
  return s.replace(/([^a-zA-Z0-9_@%+=:,./-])/g, '\\$1');
}

def(['printf'], async (sh, args) => {
  let i = 1;
  let varName: string | undefined;
  if (args[i] === '-v') { varName = args[i + 1]; i += 2; }
  if (args[i] === '--') i++;
  const fmt = args[i];
  if (fmt === undefined) { await sh.writeFd(2, 'printf: usage: printf [-v var] format [arguments]\n'); return 2; }
  const errs: string[] = [];
  const r = formatPrintf(fmt, args.slice(i + 1), errs, sh.getVar('TZ'), sh.startTime);
  if (varName) {
    if (/\[/.test(varName)) { const m = /^(.*?)\[(.*)\]$/.exec(varName)!; sh.setElem(m[1]!, m[2]!, r.out); }
    else sh.setVar(varName, r.out);
  } else await out(sh, r.out);
  for (const e of errs) await errOut(sh, 'printf', e);
  return errs.length ? 1 : 0;
});

// ---- test -------------------------------------------------------------------------------------
def(['test'], async (sh, args) => {
  try { return testArgs(sh, args.slice(1)) ? 0 : 1; } catch (e) {
    if (e instanceof ShellError) { await errOut(sh, 'test', e.message); return 2; }
    throw e;
  }
});
def(['['], async (sh, args) => {
  if (args[args.length - 1] !== ']') { await errOut(sh, '[', "missing `]'"); return 2; }
  try { return testArgs(sh, args.slice(1, -1)) ? 0 : 1; } catch (e) {
    if (e instanceof ShellError) { await errOut(sh, '[', e.message); return 2; }
    throw e;
  }
});

// ---- cd / pwd / dirs ---------------------------------------------------------------------------
async function chdir(sh: Shell, dir: string, name = 'cd'): Promise<number> {
  const target = path.resolve(sh.cwd, dir);
  let st: fs.Stats;
  try { st = fs.statSync(Buffer.from(target, 'latin1')); } catch (e) { await errOut(sh, name, `${dir}: ${errnoMsg(e)}`); return 1; }
  if (!st.isDirectory()) { await errOut(sh, name, `${dir}: Not a directory`); return 1; }
  try { fs.accessSync(Buffer.from(target, 'latin1'), fs.constants.X_OK); } catch { await errOut(sh, name, `${dir}: Permission denied`); return 1; }
  sh.setVar('OLDPWD', sh.getVar('PWD') ?? sh.cwd);
  sh.cwd = target;
  sh.setVar('PWD', target);
  return 0;
}

def(['cd'], async (sh, args) => {
  const physical = args.slice(1).some((x) => /^-[LPe@]*P[LPe@]*$/.test(x));
  let a = args.slice(1).filter((x) => !/^-[LPe@]+$/.test(x));
  if (a[0] === '--') a = a.slice(1);
  if (a.length > 1) { await errOut(sh, 'cd', 'too many arguments'); return 1; }
  let dir = a[0];
  let print = false;
  if (dir === undefined) {
    dir = sh.getVar('HOME');
    if (dir === undefined) { await errOut(sh, 'cd', 'HOME not set'); return 1; }
  } else if (dir === '-') {
    dir = sh.getVar('OLDPWD');
    if (dir === undefined) { await errOut(sh, 'cd', 'OLDPWD not set'); return 1; }
    print = true;
  } else if (!dir.startsWith('/') && !dir.startsWith('./') && !dir.startsWith('../') && dir !== '.' && dir !== '..') {
    const cdpath = sh.getVar('CDPATH');
    if (cdpath) {
      for (const p of cdpath.split(':')) {
        if (p === '') continue;
        const cand = path.resolve(sh.cwd, p, dir);
        try { if (fs.statSync(Buffer.from(cand, 'latin1')).isDirectory()) { dir = cand; print = true; break; } } catch { /* */ }
      }
    }
  }
  if (dir === '') return 0;
  const st = await chdir(sh, dir);
  if (st === 0 && physical) {
    try { sh.cwd = (fs.realpathSync(Buffer.from(sh.cwd, 'latin1'), { encoding: 'buffer' }) as Buffer).toString('latin1'); sh.setVar('PWD', sh.cwd); } catch { /* keep */ }
  }
  if (st === 0 && print) await out(sh, sh.cwd + '\n');
  return st;
});

def(['pwd'], async (sh, args) => {
  if (args.includes('-P')) { try { await out(sh, (fs.realpathSync(Buffer.from(sh.cwd, 'latin1'), { encoding: 'buffer' }) as Buffer).toString('latin1') + '\n'); return 0; } catch { /* */ } }
  await out(sh, sh.cwd + '\n');
  return 0;
});

def(['pushd'], async (sh, args) => {
  const dir = args[1];
  if (dir === undefined) {
    const top = sh.dirStack.shift();
    if (top === undefined) { await errOut(sh, 'pushd', 'no other directory'); return 1; }
    const cur = sh.cwd;
    const st = await chdir(sh, top, 'pushd');
    if (st) return st;
    sh.dirStack.unshift(cur);
  } else {
    const cur = sh.cwd;
    const st = await chdir(sh, dir, 'pushd');
    if (st) return st;
    sh.dirStack.unshift(cur);
  }
  await out(sh, [sh.cwd, ...sh.dirStack].map((d) => tildeHome(sh, d)).join(' ') + '\n');
  return 0;
});
def(['popd'], async (sh) => {
  const top = sh.dirStack.shift();
  if (top === undefined) { await errOut(sh, 'popd', 'directory stack empty'); return 1; }
  const st = await chdir(sh, top, 'popd');
  if (st) return st;
  await out(sh, [sh.cwd, ...sh.dirStack].map((d) => tildeHome(sh, d)).join(' ') + '\n');
  return 0;
});
def(['dirs'], async (sh, args) => {
  if (args.includes('-c')) { sh.dirStack = []; return 0; }
  const list = [sh.cwd, ...sh.dirStack].map((d) => (args.includes('-l') ? d : tildeHome(sh, d)));
  if (args.includes('-v')) await out(sh, list.map((d, i) => ` ${i}  ${d}\n`).join(''));
  else if (args.includes('-p')) await out(sh, list.map((d) => d + '\n').join(''));
  else await out(sh, list.join(' ') + '\n');
  return 0;
});
function tildeHome(sh: Shell, d: string): string {
  const h = sh.getVar('HOME');
  if (h && h !== '/' && (d === h || d.startsWith(h + '/'))) return '~' + d.slice(h.length);
  return d;
}

// ---- exit / return / loops ---------------------------------------------------------------
function statusArg(sh: Shell, a: string | undefined, name: string): number | string {
  if (a === undefined) return sh.status;
  if (!/^[+-]?\d+$/.test(a.trim())) return `${name}: ${a}: numeric argument required`;
  return Number(BigInt.asUintN(8, BigInt(a.trim())));
}

def(['exit'], async (sh, args) => {
  const v = statusArg(sh, args[1], 'exit');
  if (typeof v === 'string') { await sh.err(v); throw new ExitSignal(2); }
  if (args.length > 2) { await errOut(sh, 'exit', 'too many arguments'); return 1; }
  throw new ExitSignal(v);
});
def(['return'], async (sh, args) => {
  const v = statusArg(sh, args[1], 'return');
  if (typeof v === 'string') { await sh.err(v); throw new ReturnSignal(2); }
  if (sh.funcDepth === 0 && !sh.sourcing) { await errOut(sh, 'return', "can only `return' from a function or sourced script"); return 2; }
  throw new ReturnSignal(v);
});
for (const kind of ['break', 'continue'] as const) {
  def([kind], async (sh, args) => {
    let n = 1;
    if (args[1] !== undefined) {
      if (!/^\d+$/.test(args[1])) { await errOut(sh, kind, `${args[1]}: numeric argument required`); throw new ExitSignal(128); }
      n = Number(args[1]);
      if (n < 1) { await errOut(sh, kind, `${args[1]}: loop count out of range`); return 1; }
    }
    if (sh.loopDepth === 0) { await errOut(sh, kind, "only meaningful in a `for', `while', or `until' loop"); return 0; }
    throw new LoopSignal(kind, Math.min(n, sh.loopDepth));
  });
}

def(['shift'], async (sh, args) => {
  const n = args[1] === undefined ? 1 : Number(args[1]);
  if (!Number.isInteger(n) || n < 0) { await errOut(sh, 'shift', `${args[1]}: numeric argument required`); return 1; }
  if (n > sh.params.length) return 1;
  sh.params = sh.params.slice(n);
  return 0;
});

// ---- variables -----------------------------------------------------------------------------
export interface DeclItem { flag?: string; name?: string; index?: string; value?: string; append?: boolean; arrayAssign?: Assign; assoc?: boolean }

function names_(items: DeclItem[]): DeclItem[] { return items.filter((i) => i.name !== undefined); }

function parseDeclArgs(args: string[]): DeclItem[] {
  const items: DeclItem[] = [];
  let flagsDone = false;
  for (const a of args) {
    if (!flagsDone && a === '--') { flagsDone = true; continue; }
    if (!flagsDone && /^[-+][a-zA-Z]+$/.test(a)) { items.push({ flag: a }); continue; }
    flagsDone = true;
    const m = /^([a-zA-Z_][a-zA-Z0-9_]*)(\[[^\]]*\])?(\+?=)?(.*)$/s.exec(a);
    if (!m || (!m[3] && m[4] !== '')) { items.push({ name: a }); continue; }
    const it: DeclItem = { name: m[1]! };
    if (m[2]) it.index = m[2].slice(1, -1);
    if (m[3]) { it.value = m[4]!; it.append = m[3] === '+='; }
    items.push(it);
  }
  return items;
}

/** declare/typeset/local/export/readonly over evaluated items. */
export async function declare(sh: Shell, variant: string, items: DeclItem[]): Promise<number> {
  const on = new Set<string>(), off = new Set<string>();
  for (const it of items) if (it.flag) for (const c of it.flag.slice(1)) (it.flag[0] === '-' ? on : off).add(c);
  if (variant === 'export') {
    if (on.has('n')) { on.delete('n'); off.add('x'); } else on.add('x');
    if (on.has('p')) { on.delete('p'); if (names_(items).length === 0) on.add('p'); }
  }
  if (variant === 'readonly') on.add('r');
  const local = variant === 'local' || ((variant === 'declare' || variant === 'typeset') && sh.funcDepth > 0 && !on.has('g'));
  if (variant === 'local' && sh.funcDepth === 0) { await errOut(sh, 'local', 'can only be used in a function'); return 1; }
  const names = items.filter((i) => i.name !== undefined);
  if (on.has('f') || on.has('F')) {
    let st = 0;
    if (names.length === 0) { for (const f of [...sh.funcs.keys()].sort()) await out(sh, on.has('F') ? `declare -f ${f}\n` : `${sh.functionText(f)}\n`); return 0; }
    for (const n of names) { if (sh.funcs.has(n.name!)) await out(sh, on.has('F') ? n.name + '\n' : `${sh.functionText(n.name!)}\n`); else st = 1; }
    return st;
  }
  if (names.length === 0 || on.has('p')) {
    if (variant === 'export' || variant === 'readonly') {
      const flag = variant === 'export' ? 'x' : 'r';
      for (const n of sh.varNames().sort()) {
        const v = sh.getVarRaw(n)!;
        if (flag === 'x' ? v.exported : v.readonly) await out(sh, sh.declareLine(n) + '\n');
      }
      return 0;
    }
    if (names.length === 0) {
      for (const n of sh.varNames().sort()) {
        const attrs = sh.attrString(n);
        if (on.size && ![...on].filter((c) => c !== 'p').every((c) => attrs.includes(c))) continue;
        const v = sh.getVarRaw(n)!;
        if (on.has('p') || on.size) await out(sh, sh.declareLine(n) + '\n');
        else await out(sh, `${n}=${v.arr || v.assoc ? sh.declareLine(n).replace(/^declare -\S+ [^=]+=/, '') : shQuoteValue(v.str ?? '')}\n`);
      }
      return 0;
    }
    let st = 0;
    for (const n of names) {
      const line = sh.declareLine(n.name!);
      if (!line) { await errOut(sh, variant, `${n.name}: not found`); st = 1; } else await out(sh, line + '\n');
    }
    return st;
  }
  let st = 0;
  for (const it of names) {
    const name = it.name!;
    if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name)) { await errOut(sh, variant, `\`${name}${it.value !== undefined ? '=' + it.value : ''}': not a valid identifier`); st = 1; continue; }
    let v: Var | undefined;
    if (local) {
      const top = sh.scopes[sh.scopes.length - 1]!;
      v = top.get(name);
      if (!v) {
        const outer = sh.getVarRaw(name);
        v = { local: true };
        if (outer && variant !== 'local' && false) v = outer;
        top.set(name, v);
        if (outer && (on.has('a') || on.has('A')) === false && it.value === undefined && !it.arrayAssign) {
          // `local x` leaves x unset (declared)
        }
      }
    } else {
      v = on.has('n') ? sh.getVarRaw(name) : sh.resolveVar(name);
      if (!v) { v = {}; sh.scopes[0]!.set(on.has('n') ? name : sh.resolveName(name), v); }
    }
    if (v.readonly && (it.value !== undefined || it.arrayAssign || off.has('r'))) { await errOut(sh, variant, `${name}: readonly variable`); st = 1; continue; }
    if (on.has('a') && !v.arr && !v.assoc) { v.arr = new Map(); if (v.str !== undefined) v.arr.set(0, v.str); v.str = undefined; }
    if (on.has('A') && !v.assoc) {
      if (v.arr) { await errOut(sh, variant, `${name}: cannot convert indexed to associative array`); st = 1; continue; }
      v.assoc = new Map(); if (v.str !== undefined) v.assoc.set('0', v.str); v.str = undefined;
    }
    if (on.has('i')) v.integer = true; if (off.has('i')) v.integer = false;
    if (on.has('l')) { v.lower = true; v.upper = false; } if (off.has('l')) v.lower = false;
    if (on.has('u')) { v.upper = true; v.lower = false; } if (off.has('u')) v.upper = false;
    if (on.has('x')) v.exported = true; if (off.has('x')) v.exported = false;
    if (on.has('n')) v.nameref = true; if (off.has('n')) v.nameref = false;
    try {
      if (it.arrayAssign) {
        if (local || on.has('n')) {
          // assign directly into this scope's variable
          const saved = sh.scopes;
          sh.scopes = [...saved.slice(0, -1), new Map([[name, v]])];
          if (!local) sh.scopes = saved;
          try { await sh.assignArray(name, it.arrayAssign, on.has('A')); } finally { sh.scopes = saved; }
        } else await sh.assignArray(name, it.arrayAssign, on.has('A'));
      } else if (it.value !== undefined) {
        if (v.nameref && on.has('n')) { v.str = it.value; }
        else if (local) {
          const saved = sh.scopes;
          sh.scopes = [new Map([[name, v]])];
          try {
            if (it.index !== undefined) sh.setElem(name, it.index, it.value, it.append);
            else sh.setVar(name, it.value, it.append);
          } finally { sh.scopes = saved; }
        } else if (it.index !== undefined) sh.setElem(name, it.index, it.value, it.append);
        else sh.setVar(name, it.value, it.append);
      }
    } catch (e) {
      if (e instanceof ShellError) { await errOut(sh, variant, e.message); st = 1; continue; }
      throw e;
    }
    if (on.has('r')) v.readonly = true;
  }
  return st;
}

function shQuoteValue(v: string): string {
  if (/^[a-zA-Z0-9_@%+=:,./-]*$/.test(v) && v !== '') return v;
  return shellQuote(v);
}

for (const variant of ['declare', 'typeset', 'local', 'export', 'readonly']) {
  def([variant], async (sh, args) => declare(sh, variant, parseDeclArgs(args.slice(1))));
}

/** Evaluates a DeclClause from the AST (keeps array literals and assignment words intact). */
export async function declClause(sh: Shell, variant: string, assigns: Assign[]): Promise<number> {
  const items: DeclItem[] = [];
  for (const a of assigns) {
    if (a.Naked && !a.Name) {
      for (const f of await sh.ex.fields([a.Value!])) items.push(...parseDeclArgs([f]));
      continue;
    }
    if (!a.Name) continue;
    const it: DeclItem = { name: a.Name.Value, append: a.Append };
    if (a.Index) it.index = await sh.subscriptText(a.Name.Value, a.Index);
    if (a.Array) it.arrayAssign = a;
    else if (!a.Naked) it.value = a.Value ? await sh.ex.literal(a.Value, 'assign') : '';
    items.push(it);
  }
  return declare(sh, variant, items);
}

def(['unset'], async (sh, args) => {
  let mode = 'v';
  let st = 0;
  for (const a of args.slice(1)) {
    if (a === '-f') { mode = 'f'; continue; }
    if (a === '-v') { mode = 'v'; continue; }
    if (a === '-n') { mode = 'n'; continue; }
    if (mode === 'f') { sh.funcs.delete(a); continue; }
    const m = /^([a-zA-Z_][a-zA-Z0-9_]*)\[(.*)\]$/s.exec(a);
    try {
      if (m) {
        const v = sh.resolveVar(m[1]!);
        if (v?.readonly) throw new ShellError(`${m[1]}: cannot unset: readonly variable`, 1);
        if (m[2] === '@' || m[2] === '*') sh.unsetVar(m[1]!);
        else if (v?.assoc) v.assoc.delete(m[2]!);
        else if (v?.arr) {
          let i = Number(sh.arith.evalString(m[2]!));
          if (i < 0) { const keys = [...v.arr.keys()]; i = (keys.length ? Math.max(...keys) + 1 : 0) + i; }
          v.arr.delete(i);
        } else if (v && Number(sh.arith.evalString(m[2]!)) === 0) v.str = undefined;
        continue;
      }
      if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(a)) { sh.funcs.delete(a); continue; }
      if (mode === 'n') { for (let i = sh.scopes.length - 1; i >= 0; i--) if (sh.scopes[i]!.delete(a)) break; continue; }
      if (!sh.getVarRaw(a) && sh.funcs.has(a) && mode === 'v' && false) sh.funcs.delete(a);
      sh.unsetVar(a);
    } catch (e) {
      if (e instanceof ShellError) { await errOut(sh, 'unset', e.message); st = 1; continue; }
      throw e;
    }
  }
  return st;
});

// ---- set / shopt --------------------------------------------------------------------------
const longOpts: Record<string, string> = {
  errtrace: 'errtrace', errexit: 'errexit', nounset: 'nounset', xtrace: 'xtrace', pipefail: 'pipefail', noglob: 'noglob', noexec: 'noexec',
  noclobber: 'noclobber', allexport: 'allexport', verbose: 'verbose', posix: 'posix',
};
const fakeOpts = ['braceexpand', 'emacs', 'functrace', 'hashall', 'histexpand', 'history', 'ignoreeof', 'interactive-comments', 'keyword', 'monitor', 'nolog', 'notify', 'onecmd', 'physical', 'privileged', 'vi'];
const fakeState = new Map<string, boolean>([['braceexpand', true], ['hashall', true], ['interactive-comments', true]]);

def(['set'], async (sh, args) => {
  if (args.length === 1) {
    for (const n of sh.varNames().sort()) {
      const v = sh.getVarRaw(n)!;
      await out(sh, `${n}=${v.arr || v.assoc ? sh.declareLine(n).replace(/^declare -\S+ [^=]+=/, '') : shQuoteValue(v.str ?? '')}\n`);
    }
    return 0;
  }
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; sh.params = args.slice(i); return 0; }
    if (a === '-') { sh.opts.xtrace = false; sh.opts.verbose = false; i++; break; }
    if (!/^[-+]/.test(a)) break;
    const enable = a[0] === '-';
    for (let k = 1; k < a.length; k++) {
      const c = a[k]!;
      if (c === 'o') {
        const name = args[++i];
        if (name === undefined) {
          const all = [...Object.keys(longOpts), ...fakeOpts].sort();
          for (const o of all) {
            const on = o in longOpts ? (sh.opts as unknown as Record<string, boolean>)[longOpts[o]!] : fakeState.get(o) ?? false;
            await out(sh, enable ? `${o.padEnd(15)}\t${on ? 'on' : 'off'}\n` : `set ${on ? '-' : '+'}o ${o}\n`);
          }
          continue;
        }
        if (name in longOpts) (sh.opts as unknown as Record<string, boolean>)[longOpts[name]!] = enable;
        else if (fakeOpts.includes(name)) fakeState.set(name, enable);
        else { await errOut(sh, 'set', `${name}: invalid option name`); return 2; }
        continue;
      }
      const o = optionLetters[c];
      if (o) { sh.opts[o] = enable; continue; }
      if ('hBHmbkpPtT'.includes(c)) continue;
      await errOut(sh, 'set', `${a[0]}${c}: invalid option`);
      return 2;
    }
  }
  if (i < args.length || args[i - 1] === '-') sh.params = args.slice(i);
  return 0;
});

const shoptNames = ['autocd', 'assoc_expand_once', 'cdable_vars', 'cdspell', 'checkhash', 'checkjobs', 'checkwinsize', 'cmdhist', 'compat31', 'compat32', 'compat40', 'compat41', 'compat42', 'compat43', 'compat44', 'complete_fullquote', 'direxpand', 'dirspell', 'dotglob', 'execfail', 'expand_aliases', 'extdebug', 'extglob', 'extquote', 'failglob', 'force_fignore', 'globasciiranges', 'globskipdots', 'globstar', 'gnu_errfmt', 'histappend', 'histreedit', 'histverify', 'hostcomplete', 'huponexit', 'inherit_errexit', 'interactive_comments', 'lastpipe', 'lithist', 'localvar_inherit', 'localvar_unset', 'login_shell', 'mailwarn', 'no_empty_cmd_completion', 'nocaseglob', 'nocasematch', 'noexpand_translation', 'nullglob', 'patsub_replacement', 'progcomp', 'progcomp_alias', 'promptvars', 'restricted_shell', 'shift_verbose', 'sourcepath', 'varredir_close', 'xpg_echo'];
def(['shopt'], async (sh, args) => {
  let mode: 's' | 'u' | '' = '', quiet = false, print = false, oMode = false;
  const names: string[] = [];
  for (const a of args.slice(1)) {
    if (/^-[supqo]+$/.test(a)) { for (const c of a.slice(1)) { if (c === 's') mode = 's'; else if (c === 'u') mode = 'u'; else if (c === 'q') quiet = true; else if (c === 'p') print = true; else oMode = true; } continue; }
    names.push(a);
  }
  if (oMode) {
    let st = 0;
    for (const n of names) {
      if (!(n in longOpts)) { await errOut(sh, 'shopt', `${n}: invalid option name`); st = 1; continue; }
      if (mode) (sh.opts as unknown as Record<string, boolean>)[longOpts[n]!] = mode === 's';
    }
    return st;
  }
  const list = names.length ? names : shoptNames;
  let st = 0;
  for (const n of list) {
    if (!shoptNames.includes(n)) { await errOut(sh, 'shopt', `${n}: invalid shell option name`); st = 1; continue; }
    if (mode && names.length) { if (mode === 's') sh.shopt.add(n); else sh.shopt.delete(n); continue; }
    const on = sh.shopt.has(n);
    if (mode && !names.length && (mode === 's') !== on) continue;
    if (quiet) { if (!on) st = 1; continue; }
    await out(sh, print ? `shopt ${on ? '-s' : '-u'} ${n}\n` : `${n.padEnd(15)}\t${on ? 'on' : 'off'}\n`);
    if (!on && names.length) st = 1;
  }
  return st;
});

// ---- read / mapfile -----------------------------------------------------------------------
class ReadTimeout extends Error { constructor(readonly partial: string) { super('timeout'); } }

/** Reads one record ending in `delim` from fd n, byte by byte. Null at EOF with nothing read. */
export async function readLine(sh: Shell, n: number, delim: string, max = -1, raw = true, deadline?: number): Promise<{ text: string; eof: boolean } | null> {
  const f = sh.fds.get(n);
  if (!f) throw new ShellError(`${n}: invalid file descriptor: Bad file descriptor`, 1);
  let text = '';
  let count = 0;
  for (;;) {
    if (max >= 0 && count >= max) return { text, eof: false };
    let byte = readByteSync(f);
    if (byte === AGAIN) {
      const r = await readSome(f, 1, deadline);
      if (r === TIMEOUT) throw new ReadTimeout(text);
      byte = r ? r[0]! : null;
    }
    const b = byte === null ? null : [byte];
    if (!b) return text === '' ? null : { text, eof: true };
    const c = String.fromCharCode(b[0]!);
    if (!raw && c === '\\') {
      let b2n = readByteSync(f);
      if (b2n === AGAIN) { const r2 = await readSome(f, 1); b2n = r2 ? r2[0]! : null; }
      const b2 = b2n === null ? null : [b2n];
      if (!b2) return { text, eof: true };
      const c2 = String.fromCharCode(b2[0]!);
      if (c2 === delim && delim === '\n') continue;
      text += '\\' + c2;
      count++;
      continue;
    }
    if (c === delim && max < 0) return { text, eof: false };
    if (c === delim && delim !== '' ) return { text, eof: false };
    text += c;
    count++;
  }
}

function ifsSplit(s: string, ifs: string, n: number): string[] {
  // splits into at most n fields; the last gets the rest (trailing IFS whitespace removed)
  const isWs = (c: string): boolean => ifs.includes(c) && ' \t\n'.includes(c);
  const isIfs = (c: string): boolean => ifs.includes(c);
  const fields: string[] = [];
  let i = 0;
  while (i < s.length && isWs(s[i]!)) i++;
  while (i < s.length) {
    if (fields.length === n - 1) {
      let rest = s.slice(i);
      // strip trailing IFS whitespace
      let e = rest.length;
      while (e > 0 && isWs(rest[e - 1]!)) e--;
      rest = rest.slice(0, e);
      // a single trailing non-ws IFS char is removed if it ends the line (bash semantics)
      if (rest.length && isIfs(rest[rest.length - 1]!) && !isWs(rest[rest.length - 1]!) && !(rest.length >= 2 && rest[rest.length - 2] === '\\')) {
        const stripped = rest.slice(0, -1);
        // only when no other IFS separators are present would it become part of the field
        if (![...stripped].some((c) => isIfs(c))) rest = stripped;
      }
      fields.push(rest);
      return fields;
    }
    let j = i;
    while (j < s.length && !isIfs(s[j]!)) j++;
    fields.push(s.slice(i, j));
    // skip delimiter: ws* [nonws] ws*
    while (j < s.length && isWs(s[j]!)) j++;
    if (j < s.length && isIfs(s[j]!) && !isWs(s[j]!)) { j++; while (j < s.length && isWs(s[j]!)) j++; }
    i = j;
  }
  return fields;
}

function unbackslash(s: string): string { return s.replace(/\\(.)/gs, '$1'); }

def(['read'], async (sh, args) => {
  let raw = false, delim = '\n', max = -1, fd = 0, arr: string | undefined, prompt: string | undefined, exact = false;
  let deadline: number | undefined;
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (!a.startsWith('-') || a === '-') break;
    for (let k = 1; k < a.length; k++) {
      const c = a[k]!;
      const val = (): string => { const rest = a.slice(k + 1); k = a.length; return rest !== '' ? rest : args[++i] ?? ''; };
      if (c === 'r') raw = true;
      else if (c === 's' || c === 'e') { /* no terminal handling */ }
      else if (c === 'd') { const v = val(); delim = v === '' ? '\0' : v[0]!; }
      else if (c === 'n') max = Number(val());
      else if (c === 'N') { max = Number(val()); exact = true; }
      else if (c === 'u') fd = Number(val());
      else if (c === 'a') arr = val();
      else if (c === 'p') prompt = val();
      else if (c === 't') {
        const t = Number(val());
        if (!(t >= 0)) { await errOut(sh, 'read', `${t}: invalid timeout specification`); return 1; }
        if (t === 0) return sh.fds.get(fd) ? 0 : 1;
        deadline = Date.now() + t * 1000;
      }
      else if (c === 'i') val();
      else { await errOut(sh, 'read', `-${c}: invalid option`); return 2; }
    }
  }
  const names = args.slice(i);
  if (prompt !== undefined) await sh.writeFd(2, prompt);
  let line: { text: string; eof: boolean } | null;
  try { line = await readLine(sh, fd, exact ? '' : delim, max, raw, deadline); } catch (e) {
    if (e instanceof ShellError) { await errOut(sh, 'read', e.message); return 1; }
    if (e instanceof ReadTimeout) {
      // bash assigns what was read so far and returns > 128
      const text = e.partial;
      if (names.length === 0 && !arr) sh.setVar('REPLY', text); else if (names[0]) sh.setVar(names[0], text);
      return 142;
    }
    throw e;
  }
  const text = line?.text ?? '';
  const ifs = sh.getVar('IFS') ?? ' \t\n';
  if (exact) {
    sh.setVar(names[0] ?? 'REPLY', text);
  } else if (arr) {
    const fields = ifsSplit(text, ifs, Infinity).map((f) => (raw ? f : unbackslash(f)));
    const m = sh.lvalueArray(arr);
    m.clear();
    fields.forEach((f, k) => m.set(k, f));
  } else if (names.length === 0) {
    sh.setVar('REPLY', raw ? text : unbackslash(text));
  } else {
    const fields = ifsSplit(text, ifs, names.length);
    names.forEach((n, k) => sh.setVar(n, raw ? (fields[k] ?? '') : unbackslash(fields[k] ?? '')));
  }
  return line === null || line.eof ? 1 : 0;
});

def(['mapfile', 'readarray'], async (sh, args) => {
  let strip = false, delim = '\n', count = 0, origin = 0, skip = 0, fd = 0;
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) break;
    const c = a[1];
    const val = (): string => (a.length > 2 ? a.slice(2) : args[++i] ?? '');
    if (c === 't') strip = true;
    else if (c === 'd') { const v = val(); delim = v === '' ? '\0' : v[0]!; }
    else if (c === 'n') count = Number(val());
    else if (c === 'O') origin = Number(val());
    else if (c === 's') skip = Number(val());
    else if (c === 'u') fd = Number(val());
    else if (c === 'C' || c === 'c') val();
  }
  const name = args[i] ?? 'MAPFILE';
  const m = sh.lvalueArray(name);
  if (!args.some((a) => a.startsWith('-O'))) m.clear();
  let k = origin, n = 0;
  for (;;) {
    if (count && n >= count) break;
    const line = await readLine(sh, fd, delim, -1, true);
    if (!line) break;
    if (skip > 0) { skip--; continue; }
    m.set(k++, strip || line.eof ? line.text : line.text + delim);
    n++;
  }
  return 0;
});

// ---- eval / source / exec / command -------------------------------------------------------
def(['eval'], async (sh, args) => {
  const src = args.slice(1).join(' ');
  if (src.trim() === '') return 0;
  return sh.evalString(src, 'eval');
});

def(['source', '.'], async (sh, args) => {
  const file = args[1];
  if (file === undefined) { await errOut(sh, args[0]!, 'filename argument required'); return 2; }
  let p: string | undefined;
  if (!file.includes('/')) {
    for (const dir of (sh.getVar('PATH') ?? '').split(':')) {
      const c = path.resolve(sh.cwd, dir || '.', file);
      try { if (fs.statSync(Buffer.from(c, 'latin1')).isFile()) { p = c; break; } } catch { /* */ }
    }
  }
  p ??= path.resolve(sh.cwd, file);
  let src: string;
  try { src = fs.readFileSync(Buffer.from(p, 'latin1')).toString('latin1'); } catch (e) {
    await errOut(sh, file, errnoMsg(e));
    return 1;
  }
  let f;
  try { f = parse(fromBytes(src), sh.posix); } catch (e) {
    if (e instanceof ParseError) { await sh.writeFd(2, `${file}: line ${e.line}: ${e.text}\n`); return 2; }
    throw e;
  }
  const savedSrc = sh.source, savedParams = sh.params, savedErr = sh.errName;
  const hasArgs = args.length > 2;
  if (hasArgs) sh.params = args.slice(2);
  sh.setSource(src, file);
  sh.errName = file;
  sh.sourcing++;
  try {
    let st: number;
    try {
      st = await sh.stmts(f.Stmts);
    } catch (e) {
      if (e instanceof ReturnSignal) st = e.status;
      else throw e;
    }
    await sh.returnTrap();
    return st;
  } finally {
    sh.sourcing--;
    sh.source = savedSrc;
    sh.errName = savedErr;
    if (hasArgs) sh.params = savedParams;
  }
});

def(['exec'], async (sh, args) => {
  let i = 1;
  while (args[i]?.startsWith('-') && args[i] !== '--') { if (args[i] === '-a') i++; i++; }
  if (args[i] === '--') i++;
  const rest = args.slice(i);
  if (rest.length === 0) return 0;
  const found = lookPath(sh, rest[0]!);
  if (found.error) {
    await sh.err(`${rest[0]}: ${found.error === 'command not found' ? 'not found' : found.error}`);
    throw new ExitSignal(found.status);
  }
  const st = await runExternal(sh, found.path!, rest);
  throw new ExitSignal(st);
});

async function describe(sh: Shell, name: string, mode: 'v' | 'V' | 't' | 'p' | 'P', all = false): Promise<boolean> {
  let found = false;
  const emit = async (kind: string, text: string): Promise<void> => {
    found = true;
    if (mode === 't') await out(sh, kind + '\n');
    else if (mode === 'v') await out(sh, (kind === 'file' ? text : name) + '\n');
    else if (mode === 'V') await out(sh, kind === 'file' ? `${name} is ${text}\n` : kind === 'function' ? (all || mode === 'V' ? `${name} is a function\n${sh.functionText(name)}\n` : '') : kind === 'alias' ? `${name} is aliased to \`${text}'\n` : `${name} is a shell ${kind}\n`);
    else if (kind === 'file') await out(sh, text + '\n');
  };
  if (mode !== 'P') {
    if (sh.aliases.has(name)) { await emit('alias', sh.aliases.get(name)!); if (!all) return true; }
    if (keywords.has(name)) { await emit('keyword', name); if (!all) return true; }
    if (sh.funcs.has(name)) { await emit('function', name); if (!all) return true; }
    if (builtins.has(name) || getPrivateCommand(name)) { await emit('builtin', name); if (!all) return true; }
  }
  const f = lookPath(sh, name);
  if (f.path) { await emit('file', f.path); }
  return found;
}

def(['type'], async (sh, args) => {
  let mode: 'V' | 't' | 'p' | 'P' = 'V';
  let all = false;
  let st = 0;
  for (const a of args.slice(1)) {
    if (/^-[atpPf]+$/.test(a)) { for (const c of a.slice(1)) { if (c === 'a') all = true; else if (c === 't') mode = 't'; else if (c === 'p') mode = 'p'; else if (c === 'P') mode = 'P'; } continue; }
    if (!(await describe(sh, a, mode, all))) { if (mode === 'V') await errOut(sh, 'type', `${a}: not found`); st = 1; }
  }
  return st;
});

def(['command'], async (sh, args) => {
  let i = 1, mode: 'v' | 'V' | '' = '';
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (!/^-[pvV]+$/.test(a)) break;
    if (a.includes('v')) mode = 'v';
    if (a.includes('V')) mode = 'V';
  }
  const rest = args.slice(i);
  if (rest.length === 0) return 0;
  if (mode) {
    let st = 0;
    for (const n of rest) if (!(await describe(sh, n, mode))) { if (mode === 'V') await errOut(sh, 'command', `${n}: not found`); st = 1; }
    return st;
  }
  return sh.callArgs(rest, undefined, { noFunc: true });
});

def(['builtin'], async (sh, args) => {
  if (args.length < 2) return 0;
  const b = builtins.get(args[1]!);
  if (!b) { await errOut(sh, 'builtin', `${args[1]}: not a shell builtin`); return 1; }
  return b(sh, args.slice(1));
});

def(['let'], async (sh, args) => {
  if (args.length < 2) { await errOut(sh, 'let', 'expression expected'); return 1; }
  let v = 0n;
  for (const a of args.slice(1)) v = sh.arith.evalString(a);
  return v !== 0n ? 0 : 1;
});

def(['wait'], async (sh, args) => {
  const ids = args.slice(1).filter((a) => !a.startsWith('-'));
  if (args.includes('-n')) {
    const pending = sh.jobs.filter((j) => !j.reaped && j.pid > 0);
    if (pending.length === 0) return 127;
    const first = await Promise.race(pending.map((j) => j.done.then((st) => ({ j, st }))));
    first.j.reaped = true;
    return first.st;
  }
  if (ids.length === 0) { await sh.waitAll(); return 0; }
  let st = 0;
  for (const id of ids) {
    const j = id.startsWith('%') ? findJob(sh, id) : sh.jobs.find((x) => String(x.pid) === id);
    if (!j) { await errOut(sh, 'wait', `pid ${id} is not a child of this shell`); st = 127; continue; }
    st = await j.done;
  }
  return st;
});

/** A job spec (`%n`, `%%`, `%+`, `%-`, `%string`) → job; running jobs first, like bash's table. */
function findJob(sh: Shell, spec: string): Job | undefined {
  const all = sh.jobs.filter((j) => j.num !== undefined);
  const running = all.filter((j) => j.status === undefined).sort((a, b) => a.num! - b.num!);
  const s = spec.slice(1);
  if (s === '' || s === '%' || s === '+') return running[running.length - 1];
  if (s === '-') return running[running.length - 2];
  if (/^\d+$/.test(s)) {
    const n = Number(s);
    return running.find((j) => j.num === n) ?? all.filter((j) => j.num === n).pop() ?? sh.jobs.find((j) => j.id === n);
  }
  return running.find((j) => j.cmd?.startsWith(s));
}

const sigNames = ['EXIT', 'HUP', 'INT', 'QUIT', 'ILL', 'TRAP', 'ABRT', 'BUS', 'FPE', 'KILL', 'USR1', 'SEGV', 'USR2', 'PIPE', 'ALRM', 'TERM'];
function normSig(s: string): string | undefined {
  const u = s.toUpperCase().replace(/^SIG/, '');
  if (/^\d+$/.test(u)) return sigNames[Number(u)];
  if (['EXIT', 'ERR', 'DEBUG', 'RETURN'].includes(u) || sigNames.includes(u) || ['CHLD', 'CONT', 'STOP', 'TSTP', 'TTIN', 'TTOU', 'WINCH', 'URG', 'XCPU', 'XFSZ', 'VTALRM', 'PROF', 'IO', 'SYS'].includes(u)) return u;
  return undefined;
}

def(['trap'], async (sh, args) => {
  let a = args.slice(1);
  if (a[0] === '--') a = a.slice(1);
  if (a.length === 0 || a[0] === '-p') {
    const which = a.slice(1).map(normSig);
    for (const [k, v] of sh.traps) if (!which.length || which.includes(k)) await out(sh, `trap -- ${shellQuote(v)} ${['EXIT', 'ERR', 'DEBUG', 'RETURN'].includes(k) ? k : 'SIG' + k}\n`);
    return 0;
  }
  if (a[0] === '-l') { await out(sh, sigNames.slice(1).map((s, i) => `${i + 1}) SIG${s}`).join(' ') + '\n'); return 0; }
  let action: string | undefined = a[0]!;
  let sigs = a.slice(1);
  if (sigs.length === 0 || /^\d+$/.test(action)) { sigs = a; action = undefined; }
  if (action === '-') action = undefined;
  let st = 0;
  for (const s of sigs) {
    const n = normSig(s);
    if (!n) { await errOut(sh, 'trap', `${s}: invalid signal specification`); st = 1; continue; }
    if (action === undefined) sh.traps.delete(n); else sh.traps.set(n, action);
    sh.onTrapChange?.(n);
  }
  return st;
});

def(['getopts'], async (sh, args) => {
  const spec = args[1];
  const name = args[2];
  if (spec === undefined || name === undefined) { await errOut(sh, 'getopts', 'usage: getopts optstring name [arg ...]'); return 2; }
  const argv = args.length > 3 ? args.slice(3) : sh.params;
  const silent = spec.startsWith(':');
  const opts = silent ? spec.slice(1) : spec;
  let ind = Number(sh.getVar('OPTIND') ?? '1') || 1;
  if (ind !== sh.optind) { sh.optind = ind; sh.optchar = 0; }
  const arg = argv[ind - 1];
  if (arg === undefined || !arg.startsWith('-') || arg === '-' ) { sh.setVar(name, '?'); return 1; }
  if (arg === '--') { sh.optind = ind + 1; sh.setVar('OPTIND', String(ind + 1)); sh.setVar(name, '?'); return 1; }
  let ci = sh.optchar || 1;
  const c = arg[ci]!;
  ci++;
  const advance = (): void => {
    if (ci >= arg.length) { ind++; ci = 0; }
    sh.optchar = ci;
    sh.setVar('OPTIND', String(ind));
    sh.optind = ind;
    sh.optchar = ci;
  };
  const k = opts.indexOf(c);
  if (k < 0 || c === ':') {
    advance();
    if (silent) { sh.setVar(name, '?'); sh.setVar('OPTARG', c); }
    else { await sh.writeFd(2, `${sh.errName}: illegal option -- ${c}\n`); sh.setVar(name, '?'); sh.unsetVar('OPTARG'); }
    return 0;
  }
  if (opts[k + 1] === ':') {
    let val: string | undefined;
    if (ci < arg.length) { val = arg.slice(ci); ind++; ci = 0; }
    else { val = argv[ind]; ind += 2; ci = 0; }
    sh.setVar('OPTIND', String(ind)); sh.optind = ind; sh.optchar = 0;
    if (val === undefined) {
      if (silent) { sh.setVar(name, ':'); sh.setVar('OPTARG', c); }
      else { await sh.writeFd(2, `${sh.errName}: option requires an argument -- ${c}\n`); sh.setVar(name, '?'); sh.unsetVar('OPTARG'); }
      return 0;
    }
    sh.setVar('OPTARG', val);
    sh.setVar(name, c);
    return 0;
  }
  advance();
  sh.unsetVar('OPTARG');
  sh.setVar(name, c);
  return 0;
});

def(['alias'], async (sh, args) => {
  let st = 0;
  const a = args.slice(1).filter((x) => x !== '-p');
  if (a.length === 0) { for (const [k, v] of [...sh.aliases].sort()) await out(sh, `alias ${k}=${shellQuote(v)}\n`); return 0; }
  for (const x of a) {
    const eq = x.indexOf('=');
    if (eq > 0) sh.aliases.set(x.slice(0, eq), x.slice(eq + 1));
    else if (sh.aliases.has(x)) await out(sh, `alias ${x}=${shellQuote(sh.aliases.get(x)!)}\n`);
    else { await errOut(sh, 'alias', `${x}: not found`); st = 1; }
  }
  return st;
});
def(['unalias'], async (sh, args) => {
  if (args[1] === '-a') { sh.aliases.clear(); return 0; }
  let st = 0;
  for (const x of args.slice(1)) if (!sh.aliases.delete(x)) { await errOut(sh, 'unalias', `${x}: not found`); st = 1; }
  return st;
});

def(['umask'], async (sh, args) => {
  const a = args.filter((x, i) => i > 0 && !x.startsWith('-'));
  if (a.length === 0) {
    const m = process.umask();
    if (args.includes('-S')) {
      const p = (sh2: number): string => ['r', 'w', 'x'].filter((_, i) => !(m & (sh2 << (2 - i)))).join('');
      await out(sh, `u=${p(0o100 * 4 / 4 * 1 === 64 ? 64 : 64)},g=${p(8)},o=${p(1)}\n`.replace(/u=[rwx]*/, 'u=' + ['r', 'w', 'x'].filter((_, i) => !(m & (0o400 >> i))).join('')).replace(/g=[rwx]*/, 'g=' + ['r', 'w', 'x'].filter((_, i) => !(m & (0o40 >> i))).join('')).replace(/o=[rwx]*/, 'o=' + ['r', 'w', 'x'].filter((_, i) => !(m & (0o4 >> i))).join('')));
    } else await out(sh, m.toString(8).padStart(4, '0') + '\n');
    return 0;
  }
  if (/^[0-7]+$/.test(a[0]!)) { process.umask(parseInt(a[0]!, 8)); return 0; }
  await errOut(sh, 'umask', `${a[0]}: invalid symbolic mode operator`);
  return 1;
});

def(['caller'], async (sh, args) => {
  const f = sh.callStack('FUNCNAME')!, l = sh.callStack('BASH_LINENO')!, src = sh.callStack('BASH_SOURCE')!;
  if (args.length < 2) {
    if (l[0] === undefined) return 1;
    await out(sh, `${l[0]} ${src[1] ?? 'NULL'}\n`);
    return 0;
  }
  const a = args[1]!;
  if (!/^\d+$/.test(a)) {
    if (l[0] === undefined) return 1;
    await errOut(sh, 'caller', `${a}: invalid number`);
    await sh.writeFd(2, 'caller: usage: caller [expr]\n');
    return 2;
  }
  const n = Number(a);
  if (f[n + 1] === undefined) return 1;
  await out(sh, `${l[n]} ${f[n + 1]} ${src[n + 1]}\n`);
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
  const big = (x: string): bigint => (x === 'unlimited' ? 1n << 64n : BigInt(x));
  const setSoft = soft || !hard, setHard = hard || !soft;
  if (big(v) > big(cur[1]) || (c === 'p' && v !== cur[0])) { await fail(`${r[1]}: cannot modify limit: Operation not permitted`); return 1; }
  const next: [string, string] = [setSoft ? v : cur[0], setHard ? v : cur[1]];
  if (big(next[0]) > big(next[1])) { await fail(`${r[1]}: cannot modify limit: Invalid argument`); return 1; }
  sh.ulimits.set(c, next);
  return 0;
});

// Job control is off in a non-interactive shell: `fg`/`bg` fail like bash's, `jobs` lists running jobs.
def(['fg', 'bg'], async (sh, args) => { await errOut(sh, args[0]!, 'no job control'); return 1; });

def(['jobs'], async (sh, args) => {
  let mode = '';
  for (const a of args.slice(1)) {
    if (/^-[lprsn]+$/.test(a)) { mode += a.slice(1); continue; }
    if (a.startsWith('-') && a !== '-') {
      await errOut(sh, 'jobs', `${a.slice(0, 2)}: invalid option`);
      await sh.writeFd(2, 'jobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]\n');
      return 2;
    }
  }
  if (mode.includes('s')) return 0;
  const running = [...sh.inheritedJobs, ...sh.jobs].filter((j) => j.num !== undefined && j.status === undefined).sort((a, b) => a.num! - b.num!);
  const n = running.length;
  for (let i = 0; i < n; i++) {
    const j = running[i]!;
    const mark = i === n - 1 ? '+' : i === n - 2 ? '-' : ' ';
    if (mode.includes('p')) await out(sh, `${j.pid}\n`);
    else await out(sh, `[${j.num}]${mark} ${mode.includes('l') ? `${String(j.pid).padStart(5)} ` : ' '}${'Running'.padEnd(24)}${j.cmd} &\n`);
  }
  return 0;
});

def(['enable'], async () => 0);

def(['disown'], async (sh, args) => {
  const specs = args.slice(1).filter((a) => !/^-[ahr]+$/.test(a));
  const all = args.slice(1).some((a) => /^-[hr]*a/.test(a));
  let st = 0;
  if (specs.length === 0) {
    const run = sh.jobs.filter((j) => j.num !== undefined && j.status === undefined).sort((a, b) => a.num! - b.num!);
    for (const j of all ? run : run.slice(-1)) j.num = undefined;
    return 0;
  }
  for (const p of specs) {
    const j = p.startsWith('%') ? findJob(sh, p) : sh.jobs.find((x) => String(x.pid) === p);
    if (!j) { await errOut(sh, 'disown', `${p}: no such job`); st = 1; continue; }
    j.num = undefined;
  }
  return st;
});

// Non-interactive bash: no history, no line editing, no completion, no job control.
def(['history'], async () => 0);
def(['suspend'], async (sh) => { await errOut(sh, 'suspend', 'cannot suspend: no job control'); return 1; });
def(['logout'], async (sh) => { await errOut(sh, 'logout', "not login shell: use `exit'"); return 1; });
def(['bind'], async (sh) => { await errOut(sh, 'bind', 'warning: line editing not enabled'); return 0; });
def(['complete', 'compopt'], async () => 0);

def(['compgen'], async (sh, args) => {
  let words: string[] = [];
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (!a.startsWith('-') || a === '-') break;
    const o = a.slice(1);
    if (o === 'W') { const w = args[++i] ?? ''; const ifs = sh.getVar('IFS') ?? ' \t\n'; words.push(...w.split(new RegExp(`[${ifs.replace(/[\]\\^-]/g, '\\$&')}]+`)).filter((x) => x !== '')); continue; }
    if (o === 'A') { const k = args[++i] ?? ''; words.push(...compgenKind(sh, k)); continue; }
    for (const c of o) {
      const k = ({ v: 'variable', a: 'alias', b: 'builtin', k: 'keyword', e: 'export' } as Record<string, string>)[c];
      if (k) words.push(...compgenKind(sh, k));
    }
  }
  const prefix = args[i] ?? '';
  const hits = words.filter((w) => w.startsWith(prefix));
  for (const w of hits) await out(sh, w + '\n');
  return hits.length ? 0 : 1;
});

function compgenKind(sh: Shell, kind: string): string[] {
  switch (kind) {
    case 'function': return [...sh.funcs.keys()].sort();
    case 'alias': return [...sh.aliases.keys()].sort();
    case 'builtin': return [...builtins.keys()].sort();
    case 'keyword': return ['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc'];
    case 'variable': case 'export': {
      const names = new Set<string>();
      for (const sc of sh.scopes) for (const [k, v] of sc) if (kind === 'variable' || v.exported) names.add(k);
      return [...names].sort();
    }
    default: return [];
  }
}
def(['hash'], async (sh, args) => { if (args.length === 1) await out(sh, 'hash: hash table empty\n'); return 0; });
def(['times'], async (sh) => { await out(sh, '0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n'); return 0; });

def(['kill'], async (sh, args) => {
  let sig = 'SIGTERM';
  let i = 1;
  if (args[1] === '-l') { await out(sh, sigNames.slice(1).join(' ') + '\n'); return 0; }
  if (args[1] === '-s' || args[1] === '-n') { sig = args[2] ?? 'TERM'; i = 3; }
  else if (args[1]?.startsWith('-') && args[1] !== '--') { sig = args[1].slice(1); i = 2; }
  if (args[i] === '--') i++;
  const name = /^\d+$/.test(sig) ? (Number(sig) === 0 ? 0 : 'SIG' + (sigNames[Number(sig)] ?? sig)) : 'SIG' + sig.toUpperCase().replace(/^SIG/, '');
  let st = 0;
  if (i >= args.length) { await errOut(sh, 'kill', 'usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]'); return 2; }
  for (const p of args.slice(i)) {
    let pid: number;
    if (p.startsWith('%')) { const j = findJob(sh, p); if (!j) { await errOut(sh, 'kill', `${p}: no such job`); st = 1; continue; } pid = j.pid; }
    else pid = Number(p);
    if (!Number.isInteger(pid)) { await errOut(sh, 'kill', `${p}: arguments must be process or job IDs`); st = 1; continue; }
    if (pid === process.pid && sh.subshell === 0 && typeof name === 'string') {
      // a trapped signal sent to the shell itself: bash runs the trap before the next command
      const trap = sh.traps.get(name.slice(3));
      if (trap !== undefined) {
        if (trap !== '') { sh.status = 0; await sh.evalString(trap, 'trap'); }
        continue;
      }
    }
    try { process.kill(pid, name as NodeJS.Signals | number); } catch (e: any) {
      await errOut(sh, 'kill', `(${p}) - ${e.code === 'ESRCH' ? 'No such process' : e.code === 'EPERM' ? 'Operation not permitted' : errnoMsg(e)}`);
      st = 1;
    }
  }
  return st;
});

