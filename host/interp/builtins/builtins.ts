// Builtin commands. Each takes the shell and argv (byte strings) and returns a status.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isatty } from 'node:tty';
import type { Assign, Word } from '../syntax/ast.ts';
import type { Job, Shell } from '../execution/runner.ts';
import { maxKey, savedOpts, type Var } from '../variables/var.ts';
import { errnoMsg } from '../execution/errno-message.ts';
import { optionLetters } from '../execution/options.ts';
import { scriptRunner } from '../execution/script-runner.ts';
import { declWords, parseScript } from '../syntax/reparse.ts';
import { DiscardError, ExitSignal, LoopSignal, ReturnSignal, ShellError } from '../execution/errors.ts';
import { readSome, readByteSync, readPath, AGAIN, TIMEOUT } from '../execution/io.ts';
import { ansiC, ansicQuote, needsAnsiC, shellQuote, singleQuote, traceWord } from '../words/quoting.ts';
import { testArgs } from '../words/conditional.ts';
import { formatHashTable } from '../execution/command-hash.ts';
import { CompletionSpecs } from './completion-specs.ts';
import { isExecFile, lookPath, noShebangScript, reportSignal, reportsSignal, runExternal, signalDescriptions, signalName } from '../execution/external.ts';
import { getPrivateCommand } from '../private/registry.ts';
import { ArithError } from '../words/arith.ts';
import { PSEUDO_SIGS, SIGNAMES, keyNumber, sigDescription, sigKey, sigNumber, signalTable } from '../execution/signals.ts';
import { HELP_LIST, HELP_TOPICS, HELP_VERSION } from './help-text.ts';
import { hasMeta, matchPattern } from '../words/pattern.ts';
import { isVirtualPid } from '../execution/virtual-pids.ts';
import { sequenceLength } from '../words/utf8-chars.ts';
import { isName } from '../syntax/names.ts';
import { isRestricted, restrictedMsg, setRestrictedShell } from '../execution/restricted.ts';
import { defineHistoryBuiltins } from './history-builtins.ts';
import { zoneAt } from './tzinfo.ts';
import { formatLongDouble, fromNumber, parseLongDouble, type LongDouble } from './longdouble.ts';

export type Builtin = (sh: Shell, args: string[]) => Promise<number>;
export const builtins = new Map<string, Builtin>();
export const specialBuiltins = new Set(['break', ':', '.', 'continue', 'eval', 'exec', 'exit', 'export', 'readonly', 'return', 'set', 'shift', 'times', 'trap', 'unset', 'source']);
const keywords = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc']);

export const out = (sh: Shell, s: string): Promise<void> => sh.writeFd(1, s);
export async function errOut(sh: Shell, name: string, msg: string): Promise<void> { await sh.err(`${name}: ${msg}`); }

function def(names: string[], fn: Builtin): void { for (const n of names) builtins.set(n, fn); }

const USAGES: Record<string, string> = {
  eval: 'eval [arg ...]', source: 'source filename [arguments]', '.': '. filename [arguments]',
  builtin: 'builtin [shell-builtin [arg ...]]', alias: 'alias [-p] [name[=value] ... ]', unalias: 'unalias [-a] name [name ...]',
  umask: 'umask [-p] [-S] [mode]', pushd: 'pushd [-n] [+N | -N | dir]', popd: 'popd [-n] [+N | -N]', dirs: 'dirs [-clpv] [+N] [-N]',
  history: 'history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]', getopts: 'getopts optstring name [arg ...]',
};
/** bash's builtin usage error: `NAME: MSG` then `NAME: usage: …` (no script/line prefix); status 2. */
export async function usageErr(sh: Shell, name: string, msg: string | undefined): Promise<number> {
  if (msg !== undefined) await errOut(sh, name, msg);
  await sh.writeFd(2, `${name}: usage: ${USAGES[name] ?? HELP_TOPICS.find((t) => t[0] === name)?.[1] ?? name}\n`);
  sh.usageFailed = true;
  return 2;
}
/**
 * bash's internal_getopt for builtins whose options are letters without arguments: the letters
 * given before the first operand (or `--`), in order, and the index of the first operand; a
 * usage error's status for a letter not in `allowed`.
 */
async function flagOptions(sh: Shell, name: string, args: string[], allowed: string): Promise<{ flags: string; next: number } | number> {
  let flags = '', i = 1;
  for (; i < args.length; i++) {
    const o = args[i]!;
    if (o === '--') { i++; break; }
    if (!/^-./.test(o)) break;
    for (const c of o.slice(1)) {
      if (!allowed.includes(c)) return usageErr(sh, name, `-${c}: invalid option`);
      flags += c;
    }
  }
  return { flags, next: i };
}
/**
 * Leading options of a builtin that takes only the flags in `allowed` (internal_getopt-like):
 * `--` ends them, a lone `-` is an operand. Returns the flags and the index of the first operand,
 * or the usage-error status (2) after printing `-X: invalid option`.
 */
async function simpleOpts(sh: Shell, args: string[], allowed: string): Promise<{ flags: Set<string>; i: number } | number> {
  const flags = new Set<string>();
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (a.length < 2 || a[0] !== '-') break;
    for (const c of a.slice(1)) {
      if (!allowed.includes(c)) return usageErr(sh, args[0]!, `-${c}: invalid option`);
      flags.add(c);
    }
  }
  return { flags, i };
}

/**
 * Builtins that loops run most, without a promise (Shell.stmtSync): the status, or undefined when
 * they have to run the ordinary way — having done nothing, so the builtin of the same name runs
 * next with the same arguments.
 */
export type SyncBuiltin = (sh: Shell, args: string[]) => number | undefined;
export const syncBuiltins = new Map<string, SyncBuiltin>();
/** A variable name without a subscript (what the SyncBuiltins that assign accept). */

def(['true', ':'], async () => 0);
def(['false'], async () => 1);
syncBuiltins.set('true', () => 0).set(':', () => 0).set('false', () => 1);

def(['echo'], async (sh, args) => {
  await out(sh, echoText(sh, args));
  return 0;
});
syncBuiltins.set('echo', (sh, args) => sh.writeFdSync(1, echoText(sh, args), 'echo'));

function echoText(sh: Shell, args: string[]): string {
  let i = 1, nl = true, esc = sh.shopt.has('xpg_echo');
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (!/^-[neE]+$/.test(a)) break;
    for (const c of a.slice(1)) { if (c === 'n') nl = false; else if (c === 'e') esc = true; else esc = false; }
  }
  let s = args.slice(i).join(' ');
  if (esc) {
    const c = escapeCIndex(s);
    let stop = false;
    if (c >= 0) { s = s.slice(0, c); stop = true; }
    s = echoEscapes(s, false, sh.vars.utf8Escapes());
    if (stop) nl = false;
  }
  return nl ? s + '\n' : s;
}

/** Where an unescaped `\c` starts in `s` (-1: none); `\\` is one escaped backslash. */
function escapeCIndex(s: string): number {
  for (let i = s.indexOf('\\'); i >= 0 && i < s.length - 1; i = s.indexOf('\\', i + 2)) if (s[i + 1] === 'c') return i;
  return -1;
}

function echoEscapes(s: string, bareOctal: boolean, utf8: boolean): string {
  // like $'...' but octal needs a leading 0 (\0nnn, mod 256), and \' \" \? \1-\7 stay as they are
  let o = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i + 1 >= s.length) { o += c; continue; }
    const n = s[i + 1]!;
    if (n === '0') {
      const m = /^[0-7]{0,3}/.exec(s.slice(i + 2))![0];
      o += String.fromCharCode(parseInt(m || '0', 8) & 255);
      i += 1 + m.length;
    } else if (bareOctal && n >= '1' && n <= '7') {
      // printf %b: \nnn (1-3 digits) without the leading 0 too
      const m = /^[0-7]{1,3}/.exec(s.slice(i + 1))![0];
      o += String.fromCharCode(parseInt(m, 8) & 255);
      i += m.length;
    } else if (/[abeEfnrtv\\]/.test(n)) { o += ansiC(c + n, utf8); i++; }
    else if (n === 'x' || n === 'u' || n === 'U') {
      const m = (n === 'x' ? /^[0-9a-fA-F]{1,2}/ : n === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(s.slice(i + 2));
      if (m) { o += ansiC(c + n + m[0], utf8); i += 1 + m[0].length; } else { o += c + n; i++; }
    } else { o += c + n; i++; }
  }
  return o;
}

// ---- printf -----------------------------------------------------------------------------------
/** bash's getintmax/getuintmax: strtoimax/strtoumax (base 0) that saturates, plus its messages. */
function numArg(s: string | undefined, errs: string[], unsigned = false): bigint {
  if (s === undefined || s === '') return 0n;
  if (/^['"]/.test(s)) return BigInt(s.length > 1 ? s.charCodeAt(1) : 0);
  const t = s.replace(/^[ \t\n\v\f\r]+/, '');
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)/.exec(t);
  let v = 0n;
  if (m) {
    const d = m[2]!;
    if (/^0[xX]/.test(d)) v = BigInt(d);
    else if (d.length > 1 && d[0] === '0') v = BigInt('0o' + d.slice(1));
    else v = BigInt(d);
    const max = unsigned ? (1n << 64n) - 1n : (1n << 63n) - 1n;
    if (unsigned ? v > max : m[1] === '-' ? v > max + 1n : v > max) {
      errs.push(`warning: ${s}: Numerical result out of range`);
      v = unsigned ? max : m[1] === '-' ? -max - 1n : max;
    } else if (m[1] === '-') v = unsigned ? BigInt.asUintN(64, -v) : -v;
  }
  if (!m || m[0].length < t.length) errs.push(`${s}: ${s[0] === '0' && /[0-9]/.test(s[1] ?? '') ? 'invalid octal number' : s[0] === '0' && s[1] === 'x' ? 'invalid hex number' : 'invalid number'}`);
  return v;
}


function floatArgLd(s: string | undefined, errs: string[]): LongDouble {
  if (s === undefined || s === '') return fromNumber(0);
  if (/^['"]/.test(s)) return fromNumber(s.length > 1 ? s.charCodeAt(1) : 0);
  const v = parseLongDouble(s);
  if (v && 'special' in v && v.special === 'inf' && !/inf/i.test(s)) errs.push(`warning: ${s}: Numerical result out of range`);
  if (v) return v;
  errs.push(`${s}: invalid number`);
  // (strtold's value: the longest prefix that is a number)
  for (let k = s.length - 1; k > 0; k--) { const w = parseLongDouble(s.slice(0, k)); if (w) return w; }
  return fromNumber(0);
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


const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** TZ as the C library sees it: bash only passes an exported TZ to localtime(3). */
function exportedTz(sh: Shell): string | undefined {
  return sh.vars.resolve('TZ')?.exported ? sh.vars.get('TZ') : undefined;
}

/** strftime(3) in the C locale for `printf '%(fmt)T'`; `tz` is the shell's TZ (IANA names and UTC). */
export function strftime(fmt: string, secs: number, tz: string | undefined): string {
  let Y: number, mo: number, d: number, H: number, M: number, S: number, offMin: number, zname: string;
  // the zone as glibc finds it (zone files, POSIX TZ strings); else ICU's
  const z = zoneAt(tz, secs);
  if (z) {
    const t = new Date((secs + z.off) * 1000);
    Y = t.getUTCFullYear(); mo = t.getUTCMonth(); d = t.getUTCDate(); H = t.getUTCHours(); M = t.getUTCMinutes(); S = t.getUTCSeconds();
    offMin = Math.round(z.off / 60); zname = z.abbr;
  } else {
    let zone: string | undefined = tz;
    if (tz !== undefined && /^(UTC|GMT|UCT)?0?$/i.test(tz)) zone = 'UTC';
    let fields: Record<string, string>;
    try {
      const f = new Intl.DateTimeFormat('en-US', { timeZone: zone || undefined, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short', timeZoneName: 'short' });
      fields = Object.fromEntries(f.formatToParts(new Date(secs * 1000)).map((p) => [p.type, p.value]));
    } catch {
      return strftime(fmt, secs, 'UTC');
    }
    Y = Number(fields['year']); mo = Number(fields['month']) - 1; d = Number(fields['day']);
    H = Number(fields['hour']) % 24; M = Number(fields['minute']); S = Number(fields['second']);
    offMin = Math.round((Date.UTC(Y, mo, d, H, M, S) - secs * 1000) / 60000);
    zname = fields['timeZoneName'] ?? 'UTC';
    if (zname === 'GMT' && (zone === 'UTC' || zone === undefined)) zname = 'UTC';
  }
  const wd = new Date(Date.UTC(Y, mo, d)).getUTCDay();
  const yday = Math.round((Date.UTC(Y, mo, d) - Date.UTC(Y, 0, 1)) / 86400000);
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
  // glibc's flags (`-` no padding, `_` blanks, `0` zeros, `^` upper case, `#` swapped case) and widths
  let tooLong = false;
  const out = (fmt === '' ? '%X' : fmt).replace(/%([-_0^#]*)(\d*)([EO]?)(.)/gs, (all, flags: string, w: string, _m: string, c: string) => {
    let r = conv(c);
    if (r === '%' + c && c !== '%') return all;
    const nat = NUM_WIDTH[c];
    const width = w === '' ? 0 : Number(w);
    // (glibc takes the last of the padding flags; `-` and `_` drop a number's natural zeros, and
    // any width pads: with blanks, zeros for `0`, or a number's own padding)
    let f = '';
    for (const ch of flags) if (ch === '-' || ch === '_' || ch === '0') f = ch;
    // (padding past the buffer: the result is empty whatever it is, so it is never built)
    if (width >= 128) { tooLong = true; return ''; }
    if (nat !== undefined && /^\s*\d+$/.test(r)) {
      const n = r.trim().replace(/^0+(?=\d)/, '');
      r = f === '-' ? n.padStart(width, ' ') : n.padStart(Math.max(nat[0], width), f === '_' ? ' ' : f === '0' ? '0' : nat[1]);
    } else if (width > r.length) r = r.padStart(width, f === '0' ? '0' : ' ');
    if (flags.includes('^')) r = r.toUpperCase();
    else if (flags.includes('#')) r = 'pPZ'.includes(c) ? r.toLowerCase() : 'aAbBh'.includes(c) ? r.toUpperCase() : r;
    return r;
  });
  // (bash formats into a 128-byte buffer: a longer result is empty)
  return tooLong || out.length >= 128 ? '' : out;
}
/** strftime's numeric conversions: natural width and padding. */
const NUM_WIDTH: Record<string, [number, string]> = {
  d: [2, '0'], e: [2, ' '], H: [2, '0'], I: [2, '0'], j: [3, '0'], k: [2, ' '], l: [2, ' '], m: [2, '0'], M: [2, '0'], S: [2, '0'],
  U: [2, '0'], V: [2, '0'], W: [2, '0'], y: [2, '0'], C: [2, '0'], g: [2, '0'], G: [1, '0'], Y: [1, '0'], s: [1, '0'], u: [1, '0'], w: [1, '0'],
};

/** A printf format, parsed once: literal text (escapes decoded), conversions, and where it is invalid. */
type FmtPart =
  | string
  | { conv: string; flags: string; width: string | undefined; prec: string | undefined; strftime?: string }
  | { invalid: string };

// (formats come from scripts, mostly literal and reused in loops: bounded, cleared when full)
const parsedFormats = [new Map<string, FmtPart[]>(), new Map<string, FmtPart[]>()] as const;

function parseFormat(fmt: string, utf8: boolean): FmtPart[] {
  const cache = parsedFormats[utf8 ? 1 : 0];
  let parts = cache.get(fmt);
  if (parts !== undefined) return parts;
  parts = [];
  let text = '';
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c === '\\') {
      const m = /^\\(?:[0-7]{1,3}|x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|c|.)/s.exec(fmt.slice(i));
      const tok = m ? m[0] : '\\';
      text += tok === '\\c' ? tok : /^\\[0-7]/.test(tok) ? String.fromCharCode(parseInt(tok.slice(1), 8) & 255) : ansiC(tok, utf8);
      i += tok.length - 1;
      continue;
    }
    if (c !== '%') { text += c; continue; }
    if (text !== '') { parts.push(text); text = ''; }
    const t = /^%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?\(([^)]*)\)T/.exec(fmt.slice(i));
    if (t) {
      i += t[0].length - 1;
      parts.push({ conv: 'T', flags: t[1]!, width: t[2], prec: t[3], strftime: t[4]! });
      continue;
    }
    // (`'`, digit grouping, groups nothing in the locales we run in: C and C.UTF-8)
    const m = /^%([-+ #0']*)(\*|\d+)?(?:\.(\*|\d*))?([hlLjzt]*)([diouxXeEfFgGcsbq%])?/.exec(fmt.slice(i));
    if (m && m[5] === '%' && m[0] !== '%%') {
      parts.push({ invalid: `\`%': invalid format character` });
      break;
    }
    if (!m || !m[5]) {
      const at = i + (m ? m[0].length : 1);
      parts.push({ invalid: at >= fmt.length ? `\`${fmt.slice(i)}': missing format character` : `\`${fmt[at]}': invalid format character` });
      break;
    }
    i += m[0].length - 1;
    if (m[5] === '%') { text += '%'; continue; }
    parts.push({ conv: m[5], flags: m[1]!, width: m[2], prec: m[3] });
  }
  if (text !== '') parts.push(text);
  if (cache.size >= 256) cache.clear();
  cache.set(fmt, parts);
  return parts;
}

const INT_MAX = 2147483647;
/**
 * What one conversion may pad or zero-fill to, and what one printf may make in all. bash pads
 * through the C library up to INT_MAX bytes (gigabytes, streamed); here the output is one string,
 * so past these a printf stops as bash stops at a write error: `printf: write error: Cannot
 * allocate memory`, status 1, after the output before that conversion.
 */
// (a conversion's pad added to the output so far stays below V8's longest string, 2^29 - 24)
const PRINTF_PAD_MAX = 1 << 27, PRINTF_OUT_MAX = 1 << 28;
const TOO_LONG = 'write error: Cannot allocate memory';
class PrintfTooLong extends Error {}

/**
 * A literal width or precision as bash's conversion reads it: glibc's printf (`undefined` past
 * INT_MAX: EOVERFLOW, the conversion prints nothing) or, for %b, %q and %(…)T, bash's own
 * printstr (digits accumulated in an intmax_t, then INT_MAX when negative or above it).
 */
function literalNum(digits: string, own: boolean): number | undefined {
  if (digits.length < 10) return Number(digits);
  const v = BigInt(digits);
  if (!own) return v > BigInt(INT_MAX) ? undefined : Number(v);
  const w = BigInt.asIntN(64, v);
  return w < 0n || w > BigInt(INT_MAX) ? INT_MAX : Number(w);
}

/** `tz`: the zone for `%(…)T`, asked only when the format has one (reading it costs two variable lookups per call). */
export function formatPrintf(fmt: string, args: string[], errs: string[], tz: () => string | undefined, startTime?: number, utf8 = false, errAt?: number[]): { out: string; stop: boolean } {
  const parts = parseFormat(fmt, utf8);
  let o = '';
  let ai = 0;
  let stop = false;
  const next = (): string | undefined => args[ai++];
  // bash's getint for a `*`: strtoimax's value, then INT_MAX/INT_MIN with a warning naming the
  // argument after it (bash's), or, when it was the last argument, cut to an int
  const starArg = (): number => {
    const v = numArg(next(), errs);
    if (ai >= args.length) return Number(BigInt.asIntN(32, v));
    if (v > BigInt(INT_MAX) || v < -BigInt(INT_MAX) - 1n) { errs.push(`warning: ${args[ai]}: Numerical result out of range`); return v > 0n ? INT_MAX : -INT_MAX - 1; }
    return Number(v);
  };
  /** Refuses a width or zero-fill past PRINTF_PAD_MAX. */
  const room = (n: number | undefined): void => { if (n !== undefined && n > PRINTF_PAD_MAX) throw new PrintfTooLong(); };
  const once = (): void => {
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k]!;
      if (typeof part === 'string') { o += part; continue; }
      if ('invalid' in part) { errs.push(part.invalid); stop = true; return; }
      const { conv, flags } = part;
      const own = conv === 'b' || conv === 'q' || part.strftime !== undefined;
      // (`overflow`: a literal past INT_MAX, which glibc refuses: nothing printed, the argument used)
      let overflow = false;
      let width: number | undefined = part.width === '*' ? starArg() : part.width ? literalNum(part.width, own) : undefined;
      if (part.width && part.width !== '*' && width === undefined) overflow = true;
      let left = flags.includes('-');
      if (width !== undefined && width < 0) { left = true; width = -width; }
      let prec: number | undefined = part.prec === undefined ? undefined : part.prec === '*' ? starArg() : literalNum(part.prec || '0', own);
      if (part.prec !== undefined && part.prec !== '*' && prec === undefined) overflow = true;
      if (overflow) {
        // (bash still reads the argument, with its complaints)
        const a = next();
        if (conv === 'd' || conv === 'i') numArg(a, errs);
        else if ('ouxX'.includes(conv)) numArg(a, errs, true);
        else if ('eEfFgG'.includes(conv)) floatArgLd(a, errs);
        continue;
      }
      room(width);
      if (part.strftime !== undefined) {
        const arg = next();
        let secs = arg === undefined || arg === '' ? -1 : Number(numArg(arg, errs));
        if (secs === -1) secs = Math.floor(Date.now() / 1000);
        else if (secs === -2) secs = Math.floor((startTime ?? Date.now()) / 1000);
        let s = strftime(part.strftime, secs, tz()); // ('' past bash's 128-byte buffer)
        if (prec !== undefined && prec >= 0) s = s.slice(0, prec);
        o += pad(s, width, left);
        continue;
      }
      if (prec !== undefined && prec < 0) prec = undefined;
      const arg = next();
      switch (conv) {
        case 's': { let s = arg ?? ''; if (prec !== undefined) s = s.slice(0, prec); o += pad(s, width, left); break; }
        case 'b': {
          let s = arg ?? '';
          const ci = escapeCIndex(s);
          if (ci >= 0) { s = s.slice(0, ci); stop = true; }
          s = echoEscapes(s, true, utf8);
          if (prec !== undefined) s = s.slice(0, prec);
          o += pad(s, width, left);
          if (stop) return;
          break;
        }
        case 'q': o += pad(arg === undefined ? "''" : bashQuote(arg, utf8), width, left); break;
        case 'c': o += pad(arg === undefined || arg === '' ? '\0' : arg.slice(0, 1), width, left); break;
        case 'd': case 'i': {
          room(prec);
          const v = BigInt.asIntN(64, numArg(arg, errs));
          let s = (v < 0n ? -v : v).toString();
          if (prec === 0 && v === 0n) s = '';
          if (prec !== undefined) s = s.padStart(prec, '0');
          s = (v < 0n ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '') + s;
          o += pad(s, width, left, flags.includes('0') && prec === undefined);
          break;
        }
        case 'o': case 'u': case 'x': case 'X': {
          room(prec);
          let v = numArg(arg, errs, true);
          v = BigInt.asUintN(64, v);
          let s = v.toString(conv === 'o' ? 8 : conv === 'u' ? 10 : 16);
          if (conv === 'X') s = s.toUpperCase();
          if (prec !== undefined) s = s.padStart(prec, '0');
          if (flags.includes('#') && v !== 0n) s = (conv === 'o' ? '0' : conv === 'x' ? '0x' : conv === 'X' ? '0X' : '') + s;
          o += pad(s, width, left, flags.includes('0') && prec === undefined);
          break;
        }
        default: {
          // (as the long double bash reads with strtold and prints with the C library's printf)
          room(prec);
          const v = floatArgLd(arg, errs);
          let f = formatLongDouble(v, conv, prec, flags.includes('#'));
          if (!v.neg && flags.includes('+')) f = '+' + f;
          else if (!v.neg && flags.includes(' ')) f = ' ' + f;
          o += pad(f, width, left, flags.includes('0') && !('special' in v));
        }
      }
      if (o.length > PRINTF_OUT_MAX) throw new PrintfTooLong();
    }
  };
  // (`errAt`: for each error, how much output its pass of the format came after)
  const pass = (): void => {
    const e0 = errs.length, o0 = o.length;
    try { once(); } catch (e) {
      if (!(e instanceof PrintfTooLong)) throw e;
      // (what the conversions before it made goes out, as bash's did before its write error)
      errs.push(TOO_LONG); stop = true;
    }
    if (errAt) for (let k = e0; k < errs.length; k++) errAt.push(o0);
  };
  pass();
  while (!stop && ai > 0 && ai < args.length) pass();
  return { out: o, stop };
}

function bashQuote(s: string, utf8: boolean): string {
  if (s === '') return "''";
  if (/^[a-zA-Z0-9_@%+=:./-]+$/.test(s)) return s;
  if (needsAnsiC(s, utf8)) return ansicQuote(s, utf8);
  // (sh_backslash_quote: characters of a multibyte UTF-8 sequence are not quoted; `~` only where
  // a tilde expansion could start, `#` only first)
  return s.replace(/[^a-zA-Z0-9_@%+=:./\x80-\xff-]/g, (c, i: number) =>
    (c === '~' && i > 0 && s[i - 1] !== '=' && s[i - 1] !== ':') || (c === '#' && i > 0) ? c : '\\' + c);
}

def(['printf'], async (sh, args) => {
  let i = 1;
  let varName: string | undefined;
  if (args[i] === '-v') {
    varName = args[i + 1];
    if (varName === undefined) { await errOut(sh, 'printf', '-v: option requires an argument'); await sh.writeFd(2, 'printf: usage: printf [-v var] format [arguments]\n'); return 2; }
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?$/s.test(varName)) { await errOut(sh, 'printf', `\`${varName}': not a valid identifier`); return 2; }
    i += 2;
  }
  if (args[i] === '--') i++;
  else if (args[i] !== undefined && /^-./.test(args[i]!)) { await errOut(sh, 'printf', `${args[i]!.slice(0, 2)}: invalid option`); await sh.writeFd(2, 'printf: usage: printf [-v var] format [arguments]\n'); return 2; }
  const fmt = args[i];
  if (fmt === undefined) { await sh.writeFd(2, 'printf: usage: printf [-v var] format [arguments]\n'); return 2; }
  const errs: string[] = [];
  const errAt: number[] = [];
  const r = formatPrintf(fmt, args.slice(i + 1), errs, () => exportedTz(sh), sh.startTime, sh.vars.utf8Escapes(), errAt);
  if (varName) {
    if (/\[/.test(varName)) { const m = /^(.*?)\[(.*)\]$/.exec(varName)!; sh.vars.setElem(m[1]!, await sh.refSubscriptAsync(m[1]!, m[2]!), r.out); }
    else sh.vars.set(varName, r.out);
    for (const e of errs) await errOut(sh, 'printf', e);
  } else {
    // (bash's messages go out at once, its output at the end of each pass of the format: with
    // 2>&1 a pass's errors come before its output)
    let at = 0;
    for (let k = 0; k < errs.length; k++) {
      if (errAt[k]! > at) { await out(sh, r.out.slice(at, errAt[k])); at = errAt[k]!; }
      await errOut(sh, 'printf', errs[k]!);
    }
    await out(sh, r.out.slice(at));
  }
  return errs.some((e) => !e.startsWith('warning: ')) ? 1 : 0;
});

// `printf [-v NAME] [--] FORMAT [ARG…]` when nothing is to be reported (no usage or conversion
// error) and the output goes out in one write or into a plain, writable variable.
syncBuiltins.set('printf', (sh, args) => {
  let i = 1, varName: string | undefined;
  if (args[1] === '-v') {
    varName = args[2];
    if (varName === undefined || !isName(varName) || sh.vars.resolve(varName)?.readonly) return undefined;
    i = 3;
  }
  const dashes = args[i] === '--';
  if (dashes) i++;
  const fmt = args[i];
  if (fmt === undefined || (!dashes && fmt.length > 1 && fmt.startsWith('-'))) return undefined;
  const errs: string[] = [];
  const r = formatPrintf(fmt, args.slice(i + 1), errs, () => exportedTz(sh), sh.startTime, sh.vars.utf8Escapes());
  if (errs.length !== 0) return undefined;
  if (varName === undefined) return sh.writeFdSync(1, r.out, 'printf');
  sh.vars.set(varName, r.out);
  return 0;
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
// (an error message needs the promise: the builtin runs again and reports it; testArgs only reads)
syncBuiltins.set('test', (sh, args) => testSync(sh, args.slice(1)));
syncBuiltins.set('[', (sh, args) => (args[args.length - 1] === ']' ? testSync(sh, args.slice(1, -1)) : undefined));
function testSync(sh: Shell, args: string[]): number | undefined {
  try { return testArgs(sh, args) ? 0 : 1; } catch (e) {
    if (e instanceof ShellError) return undefined;
    throw e;
  }
}

// ---- cd / pwd / dirs ---------------------------------------------------------------------------
async function chdir(sh: Shell, dir: string, name = 'cd', physical = false): Promise<number> {
  // (pushd/popd change directory through bash's cd, which refuses in a restricted shell)
  if (name !== 'cd' && isRestricted(sh)) { await sh.err(restrictedMsg(name)); return 1; }
  let target = path.resolve(sh.cwd, dir);
  let st: fs.Stats;
  // like bash: the logical path when each directory before a `..` exists, else (and for -P)
  // the path as the kernel resolves it, and then the physical working directory
  if (physical || !dotDotOk(sh.cwd, dir)) {
    const raw = Buffer.from(dir.startsWith('/') ? dir : sh.cwd + '/' + dir, 'latin1');
    try { target = (fs.realpathSync.native(raw, { encoding: 'buffer' }) as Buffer).toString('latin1'); } catch (e) { await errOut(sh, name, `${dir}: ${errnoMsg(e)}`); return 1; }
  }
  try { st = fs.statSync(Buffer.from(target, 'latin1')); } catch (e) { await errOut(sh, name, `${dir}: ${errnoMsg(e)}`); return 1; }
  if (!st.isDirectory()) { await errOut(sh, name, `${dir}: Not a directory`); return 1; }
  try { fs.accessSync(Buffer.from(target, 'latin1'), fs.constants.X_OK); } catch { await errOut(sh, name, `${dir}: Permission denied`); return 1; }
  sh.vars.set('OLDPWD', sh.vars.get('PWD') ?? sh.cwd);
  sh.cwd = target;
  sh.vars.set('PWD', target);
  return 0;
}

/** bash's PATH_CHECKDOTDOT: the logical path before each `..` of `dir` is a directory. */
function dotDotOk(cwd: string, dir: string): boolean {
  let p = dir.startsWith('/') ? '/' : cwd;
  for (const c of dir.split('/')) {
    if (c === '..') {
      try { if (!fs.statSync(Buffer.from(p, 'latin1')).isDirectory()) return false; } catch { return false; }
    }
    p = path.resolve(p, c);
  }
  return true;
}

def(['cd'], async (sh, args) => {
  if (isRestricted(sh)) { await sh.err(restrictedMsg('cd')); return 1; }
  // (the last of -L and -P counts; bash has no -@ without extended attributes)
  const o = await flagOptions(sh, 'cd', args, 'LPe');
  if (typeof o === 'number') return o;
  const physical = o.flags.replace(/e/g, '').endsWith('P');
  const a = args.slice(o.next);
  if (a.length > 1) { await errOut(sh, 'cd', 'too many arguments'); return 1; }
  let dir = a[0];
  let print = false;
  if (dir === undefined) {
    dir = sh.vars.get('HOME');
    if (dir === undefined) { await errOut(sh, 'cd', 'HOME not set'); return 1; }
  } else if (dir === '-') {
    dir = sh.vars.get('OLDPWD');
    if (dir === undefined) { await errOut(sh, 'cd', 'OLDPWD not set'); return 1; }
    print = true;
  } else if (!dir.startsWith('/') && !dir.startsWith('./') && !dir.startsWith('../') && dir !== '.' && dir !== '..') {
    const cdpath = sh.vars.get('CDPATH');
    if (cdpath) {
      for (const p of cdpath.split(':')) {
        if (p === '') continue;
        const cand = path.resolve(sh.cwd, p, dir);
        try { if (fs.statSync(Buffer.from(cand, 'latin1')).isDirectory()) { dir = cand; print = true; break; } } catch { /* */ }
      }
    }
  }
  if (dir === '') return 0;
  const st = await chdir(sh, dir, 'cd', physical);
  if (st === 0 && print) await out(sh, sh.cwd + '\n');
  return st;
});

def(['pwd'], async (sh, args) => {
  let phys = false;
  for (let i = 1; i < args.length && /^-./.test(args[i]!) && args[i] !== '--'; i++) {
    for (const c of args[i]!.slice(1)) {
      if (c === 'P') phys = true;
      else if (c === 'L') phys = false;
      else return usageErr(sh, 'pwd', `-${c}: invalid option`);
    }
  }
  if (phys) { try { await out(sh, (fs.realpathSync(Buffer.from(sh.cwd, 'latin1'), { encoding: 'buffer' }) as Buffer).toString('latin1') + '\n'); return 0; } catch { /* */ } }
  await out(sh, sh.cwd + '\n');
  return 0;
});

/** pushd/popd/dirs operands: leading `-n` (pushd/popd), `+N`/`-N`, `--`; bash's usage errors. */
async function dirArgs(sh: Shell, args: string[], name: string): Promise<{ n: boolean; flags: Set<string>; ops: string[] } | number> {
  const flags = new Set<string>();
  const ops: string[] = [];
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (/^[-+]\d+$/.test(a)) { ops.push(a); continue; }
    if (a.length > 1 && a[0] === '-') {
      const allowed = name === 'dirs' ? 'clpv' : 'n';
      if ([...a.slice(1)].every((c) => allowed.includes(c))) { for (const c of a.slice(1)) flags.add(c); continue; }
      return usageErr(sh, name, `${a}: invalid number`);
    }
    if (name === 'pushd') { ops.push(a); continue; }
    return usageErr(sh, name, name === 'popd' ? `${a}: invalid argument` : `${a}: invalid option`);
  }
  for (; i < args.length; i++) ops.push(args[i]!);
  return { n: flags.has('n'), flags, ops };
}
/** Index into [cwd, ...stack] of `+N`/`-N`, or an error status after printing bash's message. */
async function stackIndex(sh: Shell, name: string, a: string, shown = a): Promise<number | string> {
  const len = sh.dirStack.length + 1;
  const n = Number(a.slice(1));
  const idx = a[0] === '+' ? n : len - 1 - n;
  if (idx >= 0 && idx < len) return idx;
  return sh.dirStack.length === 0 ? 'directory stack empty' : `${shown}: directory stack index out of range`;
}
const printStack = (sh: Shell): Promise<void> => out(sh, [sh.cwd, ...sh.dirStack].map((d) => tildeHome(sh, d)).join(' ') + '\n');
def(['pushd'], async (sh, args) => {
  const o = await dirArgs(sh, args, 'pushd');
  if (typeof o === 'number') return o;
  if (o.ops.length > 1) { await errOut(sh, 'pushd', 'too many arguments'); return 1; }
  const dir = o.ops[0];
  if (dir === undefined && o.n) return 0;
  if (dir === undefined || /^[-+]\d+$/.test(dir)) {
    if (sh.dirStack.length === 0) { await errOut(sh, 'pushd', dir === undefined ? 'no other directory' : 'directory stack empty'); return 1; }
    const idx = dir === undefined ? 1 : await stackIndex(sh, 'pushd', dir);
    if (typeof idx === 'string') { await errOut(sh, 'pushd', idx); return 1; }
    // like bash, the stack changes before the cd, which may fail: the swap puts the current
    // directory on top; a rotation moves it to the bottom, and with -n the new top is dropped
    let to: string;
    if (dir === undefined) { to = sh.dirStack[0]!; sh.dirStack[0] = sh.cwd; } else if (idx === 0) to = sh.cwd;
    else {
      const rot = [...sh.dirStack.slice(idx - 1), sh.cwd, ...sh.dirStack.slice(0, idx - 1)];
      to = rot[0]!;
      sh.dirStack = rot.slice(1);
    }
    if (o.n && dir !== undefined) return 0;
    const st = await chdir(sh, to, 'pushd');
    if (st) return st;
  } else if (o.n) {
    sh.dirStack.unshift(dir); // (as typed)
  } else {
    const cur = sh.cwd;
    const st = await chdir(sh, dir, 'pushd');
    if (st) return st;
    sh.dirStack.unshift(cur);
  }
  await printStack(sh);
  return 0;
});
def(['popd'], async (sh, args) => {
  const o = await dirArgs(sh, args, 'popd');
  if (typeof o === 'number') return o;
  if (o.ops.length > 1) { await errOut(sh, 'popd', 'too many arguments'); return 1; }
  if (sh.dirStack.length === 0) { await errOut(sh, 'popd', 'directory stack empty'); return 1; }
  const idx = o.ops[0] === undefined ? 0 : await stackIndex(sh, 'popd', o.ops[0]);
  if (typeof idx === 'string') { await errOut(sh, 'popd', idx); return 1; }
  if (idx === 0) {
    if (o.n) sh.dirStack.shift();
    else {
      const st = await chdir(sh, sh.dirStack[0]!, 'popd');
      if (st) return st;
      sh.dirStack.shift();
    }
  } else sh.dirStack.splice(idx - 1, 1);
  await printStack(sh);
  return 0;
});
def(['dirs'], async (sh, args) => {
  const o = await dirArgs(sh, args, 'dirs');
  if (typeof o === 'number') return o;
  if (o.flags.has('c')) { sh.dirStack = []; return 0; }
  const long = o.flags.has('l');
  let list = [sh.cwd, ...sh.dirStack].map((d) => (long ? d : tildeHome(sh, d)));
  if (o.ops.length) {
    const idx = await stackIndex(sh, 'dirs', o.ops[0]!, o.ops[0]!.slice(1));
    if (typeof idx === 'string') { await errOut(sh, 'dirs', idx); return 1; }
    list = [list[idx]!];
    if (!o.flags.has('v')) { await out(sh, list[0] + '\n'); return 0; }
  }
  if (o.flags.has('v')) await out(sh, list.map((d, i) => ` ${i}  ${d}\n`).join(''));
  else if (o.flags.has('p')) await out(sh, list.map((d) => d + '\n').join(''));
  else await out(sh, list.join(' ') + '\n');
  return 0;
});
function tildeHome(sh: Shell, d: string): string {
  const h = sh.vars.get('HOME');
  if (h && h !== '/' && (d === h || d.startsWith(h + '/'))) return '~' + d.slice(h.length);
  return d;
}

// ---- exit / return / loops ---------------------------------------------------------------
function statusArg(sh: Shell, a: string | undefined, name: string): number | string {
  if (a === undefined) return sh.status;
  // (bash's legal_number: out of the 64-bit range is no number)
  if (int64Arg(a) === undefined) return `${name}: ${a}: numeric argument required`;
  return Number(BigInt.asUintN(8, BigInt(a.trim())));
}

def(['exit'], async (sh, args) => {
  const v = statusArg(sh, args[1], 'exit');
  if (typeof v === 'string') { await sh.err(v); throw new ExitSignal(2); }
  if (args.length > 2) throw new DiscardError('exit: too many arguments', 1, true);
  throw new ExitSignal(v);
});
def(['return'], async (sh, args) => {
  const v = statusArg(sh, args[1], 'return');
  if (typeof v === 'string') {
    await sh.err(v);
    if (sh.funcDepth === 0 && !sh.sourcing) { await errOut(sh, 'return', "can only `return' from a function or sourced script"); sh.usageFailed = true; return 2; }
    throw new ReturnSignal(2);
  }
  if (args.length > 2) throw new DiscardError('return: too many arguments', 1, true);
  if (sh.funcDepth === 0 && !sh.sourcing) { await errOut(sh, 'return', "can only `return' from a function or sourced script"); sh.usageFailed = true; return 2; }
  throw new ReturnSignal(v);
});
// `return [N]` in a function, `break [N]`/`continue [N]` in a loop, without a promise: they
// throw their signal at once (Shell.commandSync lets it through); anything to report declines.
syncBuiltins.set('return', (sh, args) => {
  const v = statusArg(sh, args[1], 'return');
  if (typeof v === 'string' || args.length > 2 || (sh.funcDepth === 0 && !sh.sourcing)) return undefined;
  throw new ReturnSignal(v);
});
for (const kind of ['break', 'continue'] as const) {
  syncBuiltins.set(kind, (sh, args) => {
    const n = args[1] === undefined ? 1 : /^\s*[-+]?\d+\s*$/.test(args[1]) ? Number(args[1]) : 0;
    if (sh.loopDepth === 0 || args.length > 2 || n < 1) return undefined;
    throw new LoopSignal(kind, Math.min(n, sh.loopDepth));
  });
}
for (const kind of ['break', 'continue'] as const) {
  def([kind], async (sh, args) => {
    let n = 1;
    // (POSIX mode says nothing)
    if (sh.loopDepth === 0) { if (!sh.posix) await errOut(sh, kind, "only meaningful in a `for', `while', or `until' loop"); return 0; }
    if (args[1] !== undefined) {
      if (!/^\s*[-+]?\d+\s*$/.test(args[1])) { await errOut(sh, kind, `${args[1]}: numeric argument required`); throw new ExitSignal(128); }
      if (args.length > 2) throw new DiscardError(`${kind}: too many arguments`, 1, true);
      n = Number(args[1]);
      // (bash then leaves every enclosing loop)
      if (n < 1) { await errOut(sh, kind, `${args[1]}: loop count out of range`); throw new LoopSignal('break', sh.loopDepth, 1); }
    }
    throw new LoopSignal(kind, Math.min(n, sh.loopDepth));
  });
}

def(['shift'], async (sh, args) => {
  const n = args[1] === undefined ? 1 : /^\s*[-+]?\d+\s*$/.test(args[1]) ? Number(args[1]) : NaN;
  if (!Number.isInteger(n)) { await errOut(sh, 'shift', `${args[1]}: numeric argument required`); return 1; }
  if (n < 0) { await errOut(sh, 'shift', `${args[1]}: shift count out of range`); return 1; }
  if (args.length > 2) throw new DiscardError('shift: too many arguments', 1, true);
  if (n > sh.params.length) {
    if (sh.shopt.has('shift_verbose')) await errOut(sh, 'shift', `${args[1] === undefined ? '' : `${args[1]}: `}shift count out of range`);
    return 1;
  }
  sh.params = sh.params.slice(n);
  return 0;
});

// ---- variables -----------------------------------------------------------------------------
export interface DeclItem { flag?: string; name?: string; index?: string; value?: string; append?: boolean; arrayAssign?: Assign; assoc?: boolean }

function names_(items: DeclItem[]): DeclItem[] { return items.filter((i) => i.name !== undefined); }

/** `st.done`: options ended (`--` or a name), across the words of one command. */
function parseDeclArgs(args: string[], st = { done: false }): DeclItem[] {
  const items: DeclItem[] = [];
  for (const a of args) {
    if (!st.done && a === '--') { st.done = true; continue; }
    // (any other character is an invalid option: `-@`)
    if (!st.done && /^[-+][^]+$/.test(a)) { items.push({ flag: a }); continue; }
    st.done = true;
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
  const allowed = variant === 'export' || variant === 'readonly' ? 'aAfnp' : 'aAcfFgiIlnprtux';
  if (variant === 'local' && sh.funcDepth === 0) { await errOut(sh, 'local', 'can only be used in a function'); return 1; }
  for (const it of items) for (const c of it.flag?.slice(1) ?? '') if (!allowed.includes(c)) return usageErr(sh, variant, `${it.flag![0]}${c}: invalid option`);
  for (const it of items) if (it.flag) for (const c of it.flag.slice(1)) (it.flag[0] === '-' ? on : off).add(c);
  if (variant === 'export') {
    if (on.has('n')) { on.delete('n'); off.add('x'); } else on.add('x');
  }
  // (with names, export -p and readonly -p set the attribute, like without -p)
  if ((variant === 'export' || variant === 'readonly') && on.has('p') && names_(items).length) on.delete('p');
  if (variant === 'readonly') on.add('r');
  // (`local -g`, like `declare -g`, works on the global variable)
  const local = (variant === 'local' || ((variant === 'declare' || variant === 'typeset') && sh.funcDepth > 0)) && !on.has('g');
  if (variant === 'local' && sh.funcDepth === 0) { await errOut(sh, 'local', 'can only be used in a function'); return 1; }
  if (variant === 'local' && items.some((i) => i.name === '-' && i.value === undefined)) {
    // `local -`: the shell options come back when the function returns
    const sc = sh.vars.localScope();
    if (!savedOpts.has(sc)) savedOpts.set(sc, { ...sh.opts });
    items = items.filter((i) => !(i.name === '-' && i.value === undefined));
    if (!items.some((i) => i.name !== undefined)) return 0;
  }
  const names = items.filter((i) => i.name !== undefined);
  if (on.has('f') || on.has('F')) {
    let st = 0;
    const attrs = ['r', 'x'].filter((c) => on.has(c));
    const attrLine = (f: string): string => `declare -f${sh.funcAttrs.get(f) ?? ''} ${f}\n`;
    if (names.length === 0) {
      // (listing: only the functions with the attributes asked for; definitions end with their attributes)
      for (const f of [...sh.funcs.keys()].sort()) {
        const a = sh.funcAttrs.get(f) ?? '';
        if (attrs.every((c) => a.includes(c))) await out(sh, on.has('F') ? attrLine(f) : `${sh.functionText(f)}\n${a ? attrLine(f) : ''}`);
      }
      return 0;
    }
    for (const n of names) {
      const f = n.name!;
      if (!sh.funcs.has(f)) {
        if (variant === 'export' || variant === 'readonly') await errOut(sh, variant, `${f}: not a function`);
        st = 1;
        continue;
      }
      if (attrs.length || off.has('x')) {
        const a = new Set(sh.funcAttrs.get(f) ?? '');
        for (const c of attrs) a.add(c);
        if (off.has('x')) a.delete('x');
        sh.funcAttrs.set(f, [...a].sort().join(''));
        continue;
      }
      await out(sh, on.has('F') ? (sh.shopt.has('extdebug') ? sh.funcWhere(f) : f) + '\n' : `${sh.functionText(f)}\n${on.has('p') && sh.funcAttrs.get(f) ? attrLine(f) : ''}`);
    }
    return st;
  }
  if (names.length === 0 || on.has('p')) {
    if (variant === 'export' || variant === 'readonly') {
      const flag = variant === 'export' ? 'x' : 'r';
      for (const n of sh.vars.names(true).sort()) {
        const v = sh.vars.raw(n);
        if (!v || !(flag === 'x' ? v.exported : v.readonly)) continue;
        // (POSIX mode: `export NAME="v"`, naming only the array attributes)
        const ax = sh.posix ? (v.arr ? 'a' : '') + (v.assoc ? 'A' : '') : '';
        await out(sh, (sh.posix ? sh.vars.declareLine(n).replace(/^declare \S+ /, `${variant} ${ax ? `-${ax} ` : ''}`) : sh.vars.declareLine(n)) + '\n');
      }
      return 0;
    }
    if (names.length === 0 && variant === 'local' && sh.funcDepth > 0) {
      // the current function's variables, set or not
      for (const n of sh.vars.innermostLocals().sort()) await out(sh, sh.vars.declareLine(n) + '\n');
      return 0;
    }
    if (names.length === 0) {
      for (const n of sh.vars.names(on.size > 0).sort()) {
        const attrs = sh.vars.attrString(n, true);
        // (-g only chooses the scope: `declare -g` lists like `declare`, `declare -pg` like `declare -p`)
        const want = [...on].filter((c) => c !== 'p' && c !== 'g');
        if (!want.every((c) => attrs.includes(c))) continue;
        const v = sh.vars.raw(n);
        if (!v) continue;
        if (on.has('p') || want.length) await out(sh, sh.vars.declareLine(n) + '\n');
        else await out(sh, `${n}=${v.arr || v.assoc ? sh.vars.declareLine(n).replace(/^declare -\S+ [^=]+=/, '') : shQuoteValue((n === 'SHELLOPTS' || n === 'BASHOPTS' ? sh.vars.param(n) : v.str) ?? '', sh.vars.utf8Locale())}\n`);
      }
      // (a bare `declare` lists the functions after the variables, as `set` does)
      if (on.size === 0 && off.size === 0) await listFunctions(sh);
      return 0;
    }
    let st = 0;
    for (const n of names) {
      // (local -p shows only the current function's variables)
      const line = variant === 'local' && !sh.vars.isInnermostLocal(n.name!) ? undefined : sh.vars.declareLine(n.name!);
      // (bash names the argument as written: `foo=bar: not found`)
      const arg = `${n.name}${n.index !== undefined ? `[${n.index}]` : ''}${n.value !== undefined ? `${n.append ? '+=' : '='}${n.value}` : ''}`;
      if (!line) { await errOut(sh, variant, `${arg}: not found`); st = 1; } else await out(sh, line + '\n');
    }
    return st;
  }
  let st = 0;
  for (const it of names) {
    const name = it.name!;
    if (name === '-' && variant === 'local' && it.value === undefined) { sh.saveLocalOpts(); continue; }
    if (!isName(name)) { await errOut(sh, variant, `\`${name}${it.value !== undefined ? '=' + it.value : ''}': not a valid identifier`); st = 1; continue; }
    if (it.index !== undefined && (variant === 'export' || variant === 'readonly')) { await errOut(sh, variant, `\`${name}[${it.index}]': not a valid identifier`); st = 1; continue; }
    if (it.index === '') { await sh.err(`${name}[]: bad array subscript`); st = 1; continue; }
    if (on.has('n') && !it.arrayAssign) {
      // bash checks the target name a nameref gets (its value, or the variable's current value)
      const tv = it.value !== undefined ? it.value : local ? undefined : sh.vars.raw(name)?.str;
      if (tv !== undefined && tv !== '' && !/^[a-zA-Z_][a-zA-Z0-9_]*(\[.*\])?$/s.test(tv)) { await errOut(sh, variant, `\`${tv}': invalid variable name for name reference`); st = 1; continue; }
      if (tv === name) { await errOut(sh, variant, `${name}: nameref variable self references not allowed`); st = 1; continue; }
    }
    let v: Var | undefined;
    // (the value goes to `v` itself: a local, or the global under -g)
    let pinned = local;
    if (local) {
      const top = sh.vars.localScope();
      v = top.get(name);
      if (!v) {
        if (sh.vars.raw(name)?.readonly) { await errOut(sh, variant, `${name}: readonly variable`); st = 1; continue; }
        v = newLocal(sh, top, name); // (`local x` leaves x unset: declared)
      }
    } else {
      const raw = on.has('n') || off.has('n');
      const g = on.has('g') && sh.vars.isNested() ? sh.vars.globalVar(name) : undefined;
      if (on.has('g') && sh.vars.isNested() && (!g || raw || !g.nameref)) {
        // (-g in a function: the global variable, even when a local one hides it)
        v = g;
        if (!v) { v = {}; sh.vars.putGlobal(name, v); }
        pinned = true;
      } else {
        v = raw ? sh.vars.raw(name) : sh.vars.resolve(name);
        if (!v) { v = {}; sh.vars.putGlobal(raw ? name : sh.vars.resolveName(name), v); }
      }
    }
    if (v.readonly && (it.value !== undefined || it.arrayAssign || off.has('r'))) {
      // (export and readonly report it like a plain assignment)
      if (variant === 'export' || variant === 'readonly') { await sh.err(`${name}: readonly variable`); sh.usageFailed = true; } // (POSIX mode: the shell exits)
      else await errOut(sh, variant, `${name}: readonly variable`);
      st = 1; continue;
    }
    // `export -a x` / `readonly -A x` without a value do not make x an array (bash)
    const bare = (variant === 'export' || variant === 'readonly') && it.value === undefined && !it.arrayAssign && v.str === undefined && !v.arr && !v.assoc;
    // with a compound assignment, bash abandons the rest of the line (the message has no `declare:`)
    const convErr = async (m: string): Promise<void> => { if (it.arrayAssign) throw new DiscardError(`${name}: ${m}`); await errOut(sh, variant, `${name}: ${m}`); st = 1; };
    if (on.has('a') && v.assoc) { await convErr('cannot convert associative to indexed array'); continue; }
    if (on.has('a') && !v.arr && !bare) { v.arr = new Map(); if (v.str !== undefined) v.arr.set(0, v.str); else v.declOnly = true; v.str = undefined; }
    if (on.has('A') && !v.assoc && !bare) {
      if (v.arr) { await convErr('cannot convert indexed to associative array'); continue; }
      v.assoc = new Map(); if (v.str !== undefined) v.assoc.set('0', v.str); else v.declOnly = true; v.str = undefined;
    }
    // a `name=(…)` argument that comes from an expansion is a compound assignment for an array
    const arrayAssign = it.arrayAssign ?? (it.value !== undefined && it.index === undefined && (v.arr || v.assoc) && /^\(.*\)$/s.test(it.value) ? textArrayAssign(name, it) : undefined);
    if (on.has('i')) v.integer = true; if (off.has('i')) v.integer = false;
    // (each of -l, -u and -c turns the other two off, as in bash: two together cancel out)
    if (on.has('l') || on.has('u') || on.has('c') || off.has('l') || off.has('u') || off.has('c')) {
      if (on.has('l')) v.lower = true; if (on.has('u')) v.upper = true; if (on.has('c')) v.capcase = true;
      if (off.has('l') || on.has('u') || on.has('c')) v.lower = false;
      if (off.has('u') || on.has('l') || on.has('c')) v.upper = false;
      if (off.has('c') || on.has('l') || on.has('u')) v.capcase = false;
    }
    if (on.has('t')) v.trace = true; if (off.has('t')) v.trace = false;
    if (on.has('x')) v.exported = true; if (off.has('x')) v.exported = false;
    if (on.has('n')) v.nameref = true; if (off.has('n')) v.nameref = false;
    try {
      if (arrayAssign) {
        const savedSrc = sh.source;
        if (arrayAssign !== it.arrayAssign) sh.setSource((arrayAssign as Assign & { src: string }).src, savedSrc.name);
        const assign = (): Promise<void> => sh.assignArray(name, arrayAssign, on.has('A'), sh.opts.xtrace && arrayAssign === it.arrayAssign, true);
        // `name` designates v; other names (in the values and subscripts) resolve as usual
        try { await (pinned ? sh.vars.withBindingAsync(name, v, assign) : assign()); } finally { sh.source = savedSrc; }
      } else if (it.value !== undefined) {
        if (v.nameref && on.has('n')) { v.str = it.value; }
        else if (pinned) {
          const value = it.value, index = it.index;
          sh.vars.withBinding(name, v, () => { if (index !== undefined) sh.vars.setElem(name, index, value, it.append); else sh.vars.set(name, value, it.append); });
        } else if (it.index !== undefined) sh.vars.setElem(name, it.index, it.value, it.append);
        else sh.vars.set(name, it.value, it.append);
      }
    } catch (e) {
      if (e instanceof ShellError) { await errOut(sh, variant, e.message); st = 1; continue; }
      throw e;
    }
    if (on.has('r')) v.readonly = true;
  }
  return st;
}

const textWords = new Map<string, Word | null>();
/** The shell word `text` spells (one word of source text), or undefined. */
export function wordOfText(text: string): Word | undefined {
  let w = textWords.get(text);
  if (w === undefined) {
    w = null;
    try {
      const r = parseScript(`: ${text}`, false);
      const c = !r.error && r.file.Stmts.length === 1 ? r.file.Stmts[0]!.Cmd : undefined;
      if (c?.type === 'CallExpr' && c.Args.length === 2) w = c.Args[1]!;
    } catch { /* left as it is */ }
    textWords.set(text, w);
  }
  return w ?? undefined;
}

const textAssigns = new Map<string, Assign | null>();
/** `declare -a "x=(1 2)"`: the argument's text parsed as a compound assignment (and its source text). */
function textArrayAssign(name: string, it: DeclItem): (Assign & { src: string }) | undefined {
  const src = `${name}${it.append ? '+=' : '='}${it.value}`;
  let a = textAssigns.get(src);
  if (a === undefined) {
    a = null;
    try {
      const r = parseScript(src, false);
      const f = r.file;
      const c = !r.error && f.Stmts.length === 1 ? f.Stmts[0]!.Cmd : undefined;
      if (c?.type === 'CallExpr' && c.Args.length === 0 && c.Assigns.length === 1 && c.Assigns[0]!.Array) a = c.Assigns[0]!;
    } catch { /* not an array literal: a plain value */ }
    if (textAssigns.size > 500) textAssigns.clear();
    textAssigns.set(src, a ?? null);
  }
  return a ? { ...a, src } : undefined;
}

/** The function definitions `set` and a bare `declare` print after the variables. */
async function listFunctions(sh: Shell): Promise<void> {
  for (const f of [...sh.funcs.keys()].sort()) await out(sh, `${sh.functionText(f)}\n`);
}

function shQuoteValue(v: string, utf8?: boolean): string {
  if (/^[a-zA-Z0-9_@%+=:,./-]*$/.test(v) && v !== '') return v;
  return shellQuote(v, utf8);
}

for (const variant of ['declare', 'typeset', 'local', 'export', 'readonly']) {
  def([variant], async (sh, args) => declare(sh, variant, parseDeclArgs(args.slice(1))));
}

/** Evaluates a DeclClause from the AST (keeps array literals and assignment words intact). */

/** A new local variable `name` in `top`; bash's local inherits only the export attribute. */
function newLocal(sh: Shell, top: Map<string, Var>, name: string): Var {
  const v: Var = { local: true };
  if (sh.vars.raw(name)?.exported) v.exported = true;
  top.set(name, v);
  return v;
}

/**
 * declare('local', items) without a promise for names (not all capitals: specials such as
 * RANDOM or SECONDS take values their own way) with or without a value, when it has nothing to
 * report: undefined, with nothing done, when a name is readonly or already local with an
 * attribute that changes how a value is taken (integer, nameref, array).
 */
export function localSync(sh: Shell, items: DeclItem[]): number | undefined {
  if (sh.funcDepth === 0 || items.length === 0) return undefined; // (`local` alone lists them)
  const top = sh.vars.localScope();
  for (const it of items) {
    const name = it.name;
    if (name === undefined || it.index !== undefined || it.append || !isName(name) || /^[A-Z0-9_]+$/.test(name)) return undefined;
    const own = top.get(name);
    if (own ? own.readonly || own.integer || own.nameref || own.arr || own.assoc : sh.vars.raw(name)?.readonly) return undefined;
  }
  for (const it of items) {
    const name = it.name!, value = it.value;
    const v = top.get(name) ?? newLocal(sh, top, name);
    if (value !== undefined) sh.vars.withBinding(name, v, () => sh.vars.set(name, value));
  }
  sh.vars.lastArg = declLastArg('local', items);
  return 0;
}

/** What a declaration leaves in `$_`: its last word as bash sees it (`declare a=(1 2)` leaves `a`). */
export function declLastArg(variant: string, items: DeclItem[]): string {
  const last = items[items.length - 1];
  return !last ? variant : last.flag ?? (last.value !== undefined ? `${last.name}${last.index !== undefined ? `[${last.index}]` : ''}${last.append ? '+=' : '='}${last.value}` : last.name!);
}

export async function declClause(sh: Shell, variant: string, assigns: Assign[]): Promise<number> {
  const items: DeclItem[] = [];
  const st = { done: false };
  for (const a of assigns) {
    if (a.Naked && !a.Name) {
      for (const f of await sh.ex.fields([a.Value!])) items.push(...parseDeclArgs([f], st));
      continue;
    }
    if (!a.Name) continue;
    if (a.Naked && declWords.size && declWords.has(a.Name.Value)) {
      // a word mvdan-sh rejected after an assignment (`local a=1 $name`), expanded now
      const w = wordOfText(declWords.get(a.Name.Value)!);
      if (w) { for (const f of await sh.ex.fields([w])) items.push(...parseDeclArgs([f], st)); continue; }
    }
    st.done = true;
    const it: DeclItem = { name: a.Name.Value, append: a.Append };
    if (a.Index) it.index = await sh.subscriptText(a.Name.Value, a.Index);
    if (a.Array) it.arrayAssign = a;
    else if (!a.Naked) it.value = a.Value ? await sh.ex.literal(a.Value, 'assign') : '';
    items.push(it);
  }
  sh.vars.lastArg = declLastArg(variant, items);
  // (bash expands an array value with the words, tracing it, before it traces the declaration)
  const arrays = sh.opts.xtrace && items.some((it) => it.arrayAssign);
  if (sh.opts.xtrace && !arrays) await traceDecl(sh, variant, items);
  const status = await declare(sh, variant, items);
  if (arrays) await traceDecl(sh, variant, items);
  return status;
}

/** bash's xtrace of a declaration: its expanded words; export and readonly show their assignments again. */
async function traceDecl(sh: Shell, variant: string, items: DeclItem[]): Promise<void> {
  const lhs = (it: DeclItem): string => it.name! + (it.index !== undefined ? `[${it.index}]` : '');
  await sh.trace([variant, ...items.map((it) => it.flag ?? (it.value === undefined ? lhs(it) : `${lhs(it)}${it.append ? '+=' : '='}${it.value}`))]);
  if (variant === 'export' || variant === 'readonly') {
    for (const it of items) if (it.name !== undefined && it.value !== undefined) await sh.traceRaw(`${lhs(it)}${it.append ? '+=' : '='}${traceWord(it.value, sh.vars.utf8Locale(), true)}`);
  }
}

async function unsetFunc(sh: Shell, name: string): Promise<boolean> {
  if (sh.funcAttrs.get(name)?.includes('r')) { await errOut(sh, 'unset', `${name}: cannot unset: readonly function`); return false; }
  sh.funcs.delete(name);
  sh.funcAttrs.delete(name);
  return true;
}

def(['unset'], async (sh, args) => {
  let mode = 'v';
  let st = 0;
  let explicitV = false;
  // (leading options as bash's internal_getopt reads them)
  const o = await flagOptions(sh, 'unset', args, 'fvn');
  if (typeof o === 'number') return o;
  const first = o.next, fv = o.flags;
  if (fv.includes('f') && fv.includes('v')) { await errOut(sh, 'unset', 'cannot simultaneously unset a function and a variable'); return 1; }
  for (let ai = 1; ai < args.length; ai++) {
    const a = args[ai]!;
    if (ai < first && a === '--') continue;
    if (ai < first) {
      for (const c of a.slice(1)) { if (c === 'v') explicitV = true; mode = c; }
      continue;
    }
    if (a === '-f') { mode = 'f'; continue; }
    if (a === '-v') { mode = 'v'; explicitV = true; continue; }
    if (a === '-n') { mode = 'n'; continue; }
    if (mode === 'f') { if (!await unsetFunc(sh, a)) st = 1; continue; }
    const m = /^([a-zA-Z_][a-zA-Z0-9_]*)\[(.+)\]$/s.exec(a);
    try {
      if (!m && explicitV && !isName(a)) { await errOut(sh, 'unset', `\`${a}': not a valid identifier`); st = 1; continue; }
      if (m) {
        const v = sh.vars.resolve(m[1]!);
        if (v?.readonly) throw new ShellError(`${m[1]}: cannot unset: readonly variable`, 1);
        if (v && !v.arr && !v.assoc && v.str !== undefined && (m[2] === '@' || m[2] === '*')) throw new ShellError(`${m[1]}: not an array variable`, 1);
        // (bash 5.2: of an associative array, `@` and `*` are keys like any other)
        if ((m[2] === '@' || m[2] === '*') && !v?.assoc) { if (v?.arr) v.arr.clear(); else sh.vars.unset(m[1]!); continue; }
        const sub = await sh.refSubscriptAsync(m[1]!, m[2]!);
        if (v?.assoc) v.assoc.delete(sub);
        else if (v?.arr) {
          let i = Number(sub);
          if (i < 0) {
            i = maxKey(v.arr) + 1 + i;
            if (i < 0) throw new ShellError(`[${sub}]: bad array subscript`, 1);
          }
          v.arr.delete(i);
        } else if (v) { // (a scalar, set or only declared)
          if (Number(sub) === 0) v.str = undefined; else throw new ShellError(`${m[1]}: not an array variable`, 1);
        }
        continue;
      }
      if (!isName(a)) { if (!await unsetFunc(sh, a)) st = 1; continue; }
      if (mode === 'n') { sh.vars.unsetRef(a); continue; }
      if (!explicitV && !sh.vars.raw(a) && sh.funcs.has(a)) { if (!await unsetFunc(sh, a)) st = 1; continue; } // no variable: a function
      sh.vars.unset(a);
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
export const longOptNames = [...Object.keys(longOpts), ...fakeOpts];
/** State of a `set -o` option by its long name. */
export function longOptOn(sh: Shell, name: string): boolean {
  return name in longOpts ? !!(sh.opts as unknown as Record<string, boolean>)[longOpts[name]!] : sh.setOpts.get(name) ?? false;
}
/** `$SHELLOPTS`: the enabled `set -o` options. */
export function shellOptsString(sh: Shell): string {
  return [...Object.keys(longOpts), ...fakeOpts].filter((n) => longOptOn(sh, n)).sort().join(':');
}
export function setLongOpt(sh: Shell, name: string, on: boolean): void {
  // (bash's posix mode turns expand_aliases on; leaving it turns it off in a non-interactive shell)
  if (name === 'posix' && !sh.opts.interactive) { if (on) sh.shopt.add('expand_aliases'); else sh.shopt.delete('expand_aliases'); }
  // (and inherit_errexit and shift_verbose on; leaving it turns shift_verbose off)
  if (name === 'posix') { if (on) sh.shopt.add('inherit_errexit').add('shift_verbose'); else sh.shopt.delete('shift_verbose'); }
  if (name in longOpts) { (sh.opts as unknown as Record<string, boolean>)[longOpts[name]!] = on; return; }
  sh.setOpts.set(name, on);
  if (name === 'history') sh.history.recording = on;
  if (on && name === 'vi') sh.setOpts.set('emacs', false); // the editing modes exclude each other
  if (on && name === 'emacs') sh.setOpts.set('vi', false);
}

def(['set'], async (sh, args) => {
  if (args.length === 1) {
    for (const n of sh.vars.names().sort()) {
      const v = sh.vars.raw(n)!;
      await out(sh, `${n}=${v.arr || v.assoc ? sh.vars.declareLine(n).replace(/^declare -\S+ [^=]+=/, '') : shQuoteValue((n === 'SHELLOPTS' || n === 'BASHOPTS' ? sh.vars.param(n) : v.str) ?? '', sh.vars.utf8Locale())}\n`);
    }
    if (!sh.opts.posix) await listFunctions(sh);
    return 0;
  }
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; sh.params = args.slice(i); sh.setParamsCount++; return 0; }
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
            const on = longOptOn(sh, o);
            await out(sh, enable ? `${o.padEnd(15)}\t${on ? 'on' : 'off'}\n` : `set ${on ? '-' : '+'}o ${o}\n`);
          }
          continue;
        }
        if (name in longOpts || fakeOpts.includes(name)) setLongOpt(sh, name, enable);
        else { await errOut(sh, 'set', `${name}: invalid option name`); sh.usageFailed = true; return 2; }
        continue;
      }
      const o = optionLetters[c];
      if (o) { sh.opts[o] = enable; continue; }
      if (c === 'r') {
        // (restricted mode is for good: `set +r` in it is an invalid option, status 1)
        if (enable) sh.setOpts.set('restricted', true);
        else if (isRestricted(sh)) { await usageErr(sh, 'set', '+r: invalid option'); return 1; }
        continue;
      }
      if (c === 'H') { setLongOpt(sh, 'histexpand', enable); continue; } // (history expansion: history-reader.ts)
      if ('hBmbkpPtT'.includes(c)) continue;
      return usageErr(sh, 'set', `${a[0]}${c}: invalid option`);
    }
  }
  if (i < args.length) { sh.params = args.slice(i); sh.setParamsCount++; }
  return 0;
});

export const shoptNames = ['autocd', 'assoc_expand_once', 'cdable_vars', 'cdspell', 'checkhash', 'checkjobs', 'checkwinsize', 'cmdhist', 'compat31', 'compat32', 'compat40', 'compat41', 'compat42', 'compat43', 'compat44', 'complete_fullquote', 'direxpand', 'dirspell', 'dotglob', 'execfail', 'expand_aliases', 'extdebug', 'extglob', 'extquote', 'failglob', 'force_fignore', 'globasciiranges', 'globskipdots', 'globstar', 'gnu_errfmt', 'histappend', 'histreedit', 'histverify', 'hostcomplete', 'huponexit', 'inherit_errexit', 'interactive_comments', 'lastpipe', 'lithist', 'localvar_inherit', 'localvar_unset', 'login_shell', 'mailwarn', 'no_empty_cmd_completion', 'nocaseglob', 'nocasematch', 'noexpand_translation', 'nullglob', 'patsub_replacement', 'progcomp', 'progcomp_alias', 'promptvars', 'restricted_shell', 'shift_verbose', 'sourcepath', 'varredir_close', 'xpg_echo'];
def(['shopt'], async (sh, args) => {
  let mode: 's' | 'u' | '' = '', quiet = false, print = false, oMode = false;
  const names: string[] = [];
  for (const a of args.slice(1)) {
    if (names.length === 0 && a === '--') continue;
    if (names.length === 0 && /^-./.test(a) && !/^-[supqo]+$/.test(a)) {
      const bad = [...a.slice(1)].find((c) => !'supqo'.includes(c))!;
      return usageErr(sh, 'shopt', `-${bad}: invalid option`);
    }
    if (/^-[supqo]+$/.test(a)) {
      for (const c of a.slice(1)) {
        if (c === 's' || c === 'u') {
          if (mode && mode !== c) { await errOut(sh, 'shopt', 'cannot set and unset shell options simultaneously'); return 1; }
          mode = c;
        } else if (c === 'q') quiet = true; else if (c === 'p') print = true; else oMode = true;
      }
      continue;
    }
    names.push(a);
  }
  if (oMode) {
    // `set -o` options: bash reports a bad name but -s/-u still succeed
    let st = 0;
    const list = names.length ? names : [...Object.keys(longOpts), ...fakeOpts].sort();
    for (const n of list) {
      if (!(n in longOpts) && !fakeOpts.includes(n)) { await errOut(sh, 'shopt', `${n}: invalid option name`); if (!mode) st = 1; continue; }
      if (mode && names.length) { setLongOpt(sh, n, mode === 's'); continue; }
      const on = longOptOn(sh, n);
      if (mode && !names.length && (mode === 's') !== on) continue;
      if (quiet) { if (!on) st = 1; continue; }
      await out(sh, print ? `set ${on ? '-' : '+'}o ${n}\n` : `${n.padEnd(15)}\t${on ? 'on' : 'off'}\n`);
      if (!on && names.length) st = 1;
    }
    return st;
  }
  const list = names.length ? names : shoptNames;
  let st = 0;
  for (const n of list) {
    if (!shoptNames.includes(n)) { await errOut(sh, 'shopt', `${n}: invalid shell option name`); st = 1; continue; }
    if (mode && names.length) { if (n === 'restricted_shell') setRestrictedShell(sh); else if (mode === 's') sh.shopt.add(n); else sh.shopt.delete(n); continue; }
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
export async function readLine(sh: Shell, n: number, delim: string, max = -1, raw = true, deadline?: number, skipNul = false): Promise<{ text: string; eof: boolean } | null> {
  const f = sh.fds.get(n);
  if (!f) throw new ShellError(`${n}: invalid file descriptor: Bad file descriptor`, 1);
  if (raw && max < 0 && delim.length === 1 && f.rbuf !== undefined) {
    // a whole line already read ahead (see OsFd.readAhead): the same as the loop below
    const t = f.takeLineAhead(delim.charCodeAt(0));
    if (t !== undefined) return { text: skipNul && delim !== '\0' && t.includes('\0') ? t.replace(/\0/g, '') : t, eof: false };
  }
  let text = '';
  let count = 0;
  // -n/-N count characters: in a UTF-8 locale the bytes that continue a multibyte one are not counted
  const utf8 = max >= 0 && sh.vars.utf8Locale();
  let cont = 0, sinceYield = 0;
  for (;;) {
    if (max >= 0 && count >= max && cont === 0) return { text, eof: false };
    // input that never runs dry (/dev/zero) is read without waiting: every 64 KiB, the deadline
    // of -t, and a turn of the event loop so that cancellation gets through
    if (++sinceYield >= 65536) {
      sinceYield = 0;
      if (deadline !== undefined && Date.now() >= deadline) throw new ReadTimeout(text);
      await new Promise((r) => setImmediate(r));
      if (sh.cancelStatus.value !== 0) throw new ExitSignal(sh.cancelStatus.value);
    }
    let byte = readByteSync(f);
    if (byte === AGAIN) {
      const r = await readSome(f, 1, deadline);
      if (r === TIMEOUT) throw new ReadTimeout(text);
      byte = r ? r[0]! : null;
    }
    const b = byte === null ? null : [byte];
    if (!b) return text === '' ? null : { text, eof: true };
    if (cont > 0) {
      // (a byte that does not continue the character still ends it, as in bash)
      cont = b[0]! >= 0x80 && b[0]! <= 0xbf ? cont - 1 : 0;
      text += String.fromCharCode(b[0]!);
      continue;
    }
    if (utf8) cont = sequenceLength(b[0]!) - 1;
    const c = String.fromCharCode(b[0]!);
    if (skipNul && c === '\0' && delim !== '\0') continue; // `read` drops NUL bytes (not counted by -n)
    if (!raw && c === '\\') {
      let b2n = readByteSync(f);
      if (b2n === AGAIN) { const r2 = await readSome(f, 1); b2n = r2 ? r2[0]! : null; }
      const b2 = b2n === null ? null : [b2n];
      if (!b2) return { text, eof: true };
      const c2 = String.fromCharCode(b2[0]!);
      if (c2 === '\n') continue;
      text += '\\' + c2;
      count++;
      if (utf8) cont = sequenceLength(b2[0]!) - 1;
      continue;
    }
    if (c === delim && max < 0) return { text, eof: false };
    if (c === delim && delim !== '' ) return { text, eof: false };
    text += c;
    count++;
  }
}

/**
 * read's field splitting: at most n fields, the last gets the rest (trailing IFS whitespace
 * removed). With `esc` (no -r), `\\c` pairs are literal characters that never split or get trimmed.
 */
function ifsSplit(s: string, ifs: string, n: number, esc = false): string[] {
  if (s === '') return [];
  if (!(esc && s.includes('\\')) && !hasIfsChar(s, ifs)) return [s]; // (the common case, without the arrays below)
  const ch: string[] = [], lit: boolean[] = [];
  for (let k = 0; k < s.length; k++) {
    if (esc && s[k] === '\\' && k + 1 < s.length) { ch.push(s[++k]!); lit.push(true); } else { ch.push(s[k]!); lit.push(false); }
  }
  const isIfs = (k: number): boolean => !lit[k] && ifs.includes(ch[k]!);
  const isWs = (k: number): boolean => isIfs(k) && ' \t\n'.includes(ch[k]!);
  const len = ch.length;
  const fields: string[] = [];
  const word = (i: number): [string, number] => {
    let j = i;
    while (j < len && !isIfs(j)) j++;
    const w = ch.slice(i, j).join('');
    // skip the delimiter: ws* [nonws] ws*
    while (j < len && isWs(j)) j++;
    if (j < len && isIfs(j) && !isWs(j)) { j++; while (j < len && isWs(j)) j++; }
    return [w, j];
  };
  let i = 0;
  while (i < len && isWs(i)) i++;
  while (i < len) {
    if (fields.length === n - 1) {
      // bash: the rest of the line, unless it is a single word followed only by delimiters
      const [w, j] = word(i);
      if (j >= len) { fields.push(w); return fields; }
      let e = len;
      while (e > i && isWs(e - 1)) e--;
      fields.push(ch.slice(i, e).join(''));
      return fields;
    }
    const [w, j] = word(i);
    fields.push(w);
    i = j;
  }
  return fields;
}

function hasIfsChar(s: string, ifs: string): boolean {
  for (let k = 0; k < s.length; k++) if (ifs.includes(s[k]!)) return true;
  return false;
}

function unbackslash(s: string): string { return s.replace(/\\(.)/gs, '$1'); }

def(['read'], async (sh, args) => {
  let raw = false, delim = '\n', max = -1, fd = 0, arr: string | undefined, prompt: string | undefined, exact = false, uGiven = false;
  let deadline: number | undefined;
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (!a.startsWith('-') || a === '-') break;
    for (let k = 1; k < a.length; k++) {
      const c = a[k]!;
      if ('dnNuapti'.includes(c) && k === a.length - 1 && i + 1 >= args.length) return usageErr(sh, 'read', `-${c}: option requires an argument`);
      const val = (): string => { const rest = a.slice(k + 1); k = a.length; return rest !== '' ? rest : args[++i] ?? ''; };
      if (c === 'r') raw = true;
      else if (c === 's' || c === 'e') { /* no terminal handling */ }
      else if (c === 'd') { const v = val(); delim = v === '' ? '\0' : v[0]!; }
      else if (c === 'n' || c === 'N') {
        const v = val();
        if (!/^\s*[-+]?[0-9]+$/.test(v) || Number(v) < 0) { await errOut(sh, 'read', `${v}: invalid number`); return 1; }
        max = Number(v);
        if (c === 'N') exact = true;
      }
      else if (c === 'u') {
        const v = val();
        if (!/^\s*[-+]?[0-9]+$/.test(v) || Number(v) < 0) { await errOut(sh, 'read', `${v}: invalid file descriptor specification`); return 1; }
        fd = Number(v);
        uGiven = true;
      }
      else if (c === 'a') arr = val();
      else if (c === 'p') prompt = val();
      else if (c === 't') {
        const tv = val();
        // (bash's uconvert: a sign, digits, a fraction; the sign applies to the whole seconds only)
        const tm = /^([-+]?)([0-9]*)(?:\.([0-9]*))?$/.exec(tv);
        const t = tm && !(tm[1] === '-' && Number(tm[2] || '0') > 0) ? Number(tm[2] || '0') + Number(`0.${tm[3] || '0'}`) : NaN;
        if (!(t >= 0)) { await errOut(sh, 'read', `${tv}: invalid timeout specification`); return 1; }
        if (t === 0) return sh.fds.get(fd) ? 0 : 1;
        deadline = Date.now() + t * 1000;
      }
      else if (c === 'i') val();
      else return usageErr(sh, 'read', `-${c}: invalid option`);
    }
  }
  const names = args.slice(i);
  if (prompt !== undefined) {
    // (bash shows the prompt only when reading from a terminal)
    const f = sh.fds.get(fd);
    let tty = false;
    try { tty = !!f && isatty(f.fd); } catch { /* */ }
    if (tty) await sh.writeFd(2, prompt);
  }
  let line: { text: string; eof: boolean } | null;
  // (bash checks an fd given with -u first; a closed stdin fails at read(2))
  if (!sh.fds.get(fd) && !uGiven) { await errOut(sh, 'read', `read error: ${fd}: Bad file descriptor`); return 1; }
  try { line = await readLine(sh, fd, exact ? '' : delim, max, raw, deadline, true); } catch (e) {
    if (e instanceof ShellError) { await errOut(sh, 'read', e.message); return 1; }
    if ((e as NodeJS.ErrnoException)?.code === 'EISDIR') { await errOut(sh, 'read', `read error: ${fd}: Is a directory`); return 1; }
    if (e instanceof ReadTimeout) {
      // bash assigns what was read so far and returns > 128
      const text = e.partial;
      if (names.length === 0 && !arr) sh.vars.set('REPLY', text); else if (names[0]) sh.vars.set(names[0], text);
      return 142;
    }
    throw e;
  }
  const text = line?.text ?? '';
  const ifs = sh.vars.get('IFS') ?? ' \t\n';
  const badName = async (n: string): Promise<boolean> => {
    if (/^[a-zA-Z_][a-zA-Z0-9_]*(\[[\s\S]*\])?$/.test(n)) return false;
    await errOut(sh, 'read', `\`${n}': not a valid identifier`);
    return true;
  };
  if (arr !== undefined && await badName(arr)) return 1;
  if (exact) {
    sh.vars.set(names[0] ?? 'REPLY', raw ? text : unbackslash(text));
    for (const n of names.slice(1)) sh.vars.set(n, '');
  } else if (arr) {
    const fields = ifsSplit(text, ifs, Infinity, !raw);
    const m = sh.vars.lvalueArray(arr);
    m.clear();
    fields.forEach((f, k) => m.set(k, f));
  } else if (names.length === 0) {
    sh.vars.set('REPLY', raw ? text : unbackslash(text));
  } else {
    const fields = ifsSplit(text, ifs, names.length, !raw);
    for (let k = 0; k < names.length; k++) {
      if (await badName(names[k]!)) return 1;
      const m = /^([a-zA-Z_][a-zA-Z0-9_]*)\[([\s\S]*)\]$/.exec(names[k]!);
      if (m) sh.vars.setElem(m[1]!, await sh.refSubscriptAsync(m[1]!, m[2]!), fields[k] ?? '');
      else sh.vars.set(names[k]!, fields[k] ?? '');
    }
  }
  return line === null || line.eof ? 1 : 0;
});

// `read [-r] [NAME…]` of a line already read ahead (a while-read loop's input, OsFd.readAhead):
// no waiting, nothing to report. Anything else — other options, subscripts, a readonly name, a
// line still to be read or one with backslashes to undo — runs the ordinary way.
syncBuiltins.set('read', (sh, args) => {
  let i = 1, raw = false;
  for (; i < args.length && args[i] === '-r'; i++) raw = true;
  for (let k = i; k < args.length; k++) if (!isName(args[k]!) || sh.vars.resolve(args[k]!)?.readonly) return undefined;
  if (i === args.length && sh.vars.resolve('REPLY')?.readonly) return undefined;
  const t = sh.fds.get(0)?.takeLineAhead(10, (l) => raw || !l.includes('\\'));
  if (t === undefined) return undefined;
  const text = t.includes('\0') ? t.replace(/\0/g, '') : t;
  if (i === args.length) sh.vars.set('REPLY', text);
  else {
    const fields = ifsSplit(text, sh.vars.get('IFS') ?? ' \t\n', args.length - i, false);
    for (let k = i; k < args.length; k++) sh.vars.set(args[k]!, fields[k - i] ?? '');
  }
  return 0;
});
def(['mapfile', 'readarray'], async (sh, args) => {
  let strip = false, delim = '\n', count = 0, origin = 0, skip = 0, fd = 0, hasOrigin = false;
  let callback: string | undefined, quantum = 5000;
  let i = 1;
  const num = (v: string): number | undefined => (/^\s*[-+]?[0-9]+\s*$/.test(v) ? Number(v) : undefined);
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (!a.startsWith('-') || a === '-') break;
    for (let k = 1; k < a.length; k++) {
      const c = a[k]!;
      if (!'dnOstuCc'.includes(c)) return usageErr(sh, args[0]!, `-${c}: invalid option`);
      if (c === 't') { strip = true; continue; }
      if (k === a.length - 1 && i + 1 >= args.length) return usageErr(sh, args[0]!, `-${c}: option requires an argument`);
      const v = k < a.length - 1 ? a.slice(k + 1) : args[++i]!;
      k = a.length;
      const n = num(v);
      if (c === 'd') delim = v === '' ? '\0' : v[0]!;
      else if (c === 'C') callback = v;
      else if (c === 'n' || c === 's') {
        if (n === undefined || n < 0) { await errOut(sh, args[0]!, `${v}: invalid line count`); return 1; }
        if (c === 'n') count = n; else skip = n;
      } else if (c === 'O') {
        if (n === undefined || n < 0) { await errOut(sh, args[0]!, `${v}: invalid array origin`); return 1; }
        origin = n; hasOrigin = true;
      } else if (c === 'u') {
        if (n === undefined || n < 0) { await errOut(sh, args[0]!, `${v}: invalid file descriptor specification`); return 1; }
        fd = n;
      } else {
        if (n === undefined || n <= 0) { await errOut(sh, args[0]!, `${v}: invalid callback quantum`); return 1; }
        quantum = n;
      }
    }
  }
  const name = args[i] ?? 'MAPFILE';
  if (!isName(name)) { await errOut(sh, args[0]!, `\`${name}': not a valid identifier`); return 1; }
  // (a closed fd named by -u is an error; a closed stdin only ends the input)
  if (!sh.fds.get(fd) && fd !== 0) { await errOut(sh, args[0]!, `${fd}: invalid file descriptor: Bad file descriptor`); return 1; }
  const m = sh.vars.lvalueArray(name);
  if (!hasOrigin) m.clear();
  if (!sh.fds.get(fd)) return 0;
  let k = origin, n = 0;
  for (;;) {
    if (count && n >= count) break;
    let line;
    try { line = await readLine(sh, fd, delim, -1, true); } catch (e) {
      if ((e as NodeJS.ErrnoException)?.code === 'EISDIR') break; // bash ignores read errors here
      throw e;
    }
    if (!line) break;
    if (skip > 0) { skip--; continue; }
    const nul = line.text.indexOf('\0'); // bash keeps each line as a C string: cut at a NUL
    const text = nul >= 0 ? line.text.slice(0, nul) : strip || line.eof || delim === '\0' ? line.text : line.text + delim;
    // (-C: every quantum-th line, `callback INDEX LINE` is evaluated before the line is stored)
    if (callback !== undefined && (n + 1) % quantum === 0) await sh.evalString(`${callback} ${k} ${singleQuote(text)}`, 'mapfile', sh.lineOf(sh.curPos));
    m.set(k++, text);
    n++;
  }
  return 0;
});

// ---- eval / source / exec / command -------------------------------------------------------
def(['eval'], async (sh, args) => {
  const o = await simpleOpts(sh, args, '');
  if (typeof o === 'number') return o;
  const src = args.slice(o.i).join(' ');
  if (src.trim() === '') {
    // (set -v: bash echoes what it reads of a blank string)
    if (sh.opts.verbose && src !== '') await sh.writeFd(2, src.endsWith('\n') ? src : src + '\n').catch(() => undefined);
    return 0;
  }
  sh.evalSyntaxError = false;
  // (xtrace shows the commands of an eval string one level deeper, as bash does)
  sh.traceLevel++;
  let st: number;
  try { st = await sh.evalString(src, 'eval', sh.lineOf(sh.curPos)); } finally { sh.traceLevel--; }
  // (a syntax error: in POSIX mode the shell exits, see Shell.callArgs)
  if (sh.evalSyntaxError) { sh.evalSyntaxError = false; sh.usageFailed = true; }
  return st;
});

def(['source', '.'], async (sh, args) => {
  const o = await simpleOpts(sh, args, '');
  if (typeof o === 'number') return o;
  if (o.i > 1) args = [args[0]!, ...args.slice(o.i)];
  const file = args[1];
  if (file === undefined) return usageErr(sh, args[0]!, 'filename argument required');
  if (isRestricted(sh) && file.includes('/')) { await errOut(sh, args[0]!, restrictedMsg(file)); return 1; }
  let p: string | undefined;
  if (!file.includes('/')) {
    for (const dir of (sh.vars.get('PATH') ?? '').split(':')) {
      const c = path.resolve(sh.cwd, dir || '.', file);
      try { if (fs.statSync(Buffer.from(c, 'latin1')).isFile()) { p = c; break; } } catch { /* */ }
    }
  }
  // (POSIX mode does not look in the current directory for a name without a slash)
  if (p === undefined && sh.posix && !file.includes('/') && file !== '') { await errOut(sh, args[0]!, `${file}: file not found`); sh.usageFailed = true; return 1; }
  p ??= path.resolve(sh.cwd, file);
  let src: string;
  try {
    if (file === '') throw Object.assign(new Error(), { code: 'ENOENT' });
    // (`/dev/stdin`, `/dev/fd/N`: the shell's own fds, a here-document or pipe)
    src = (await readPath(sh.openBuf(p))).toString('latin1');
  } catch (e) {
    await ((e as NodeJS.ErrnoException).code === 'EISDIR' ? errOut(sh, args[0]!, `${file}: is a directory`) : errOut(sh, file, errnoMsg(e)));
    await sh.returnTrap(); // bash runs the RETURN trap even when the file cannot be read
    sh.usageFailed = true; // (POSIX mode: the shell exits)
    return 1;
  }
  const parsed = parseScript(src, sh.posix);
  const f = parsed.file;
  const savedSrc = sh.source, savedParams = sh.params, savedErr = sh.errName;
  const hasArgs = args.length > 2;
  if (hasArgs) sh.params = args.slice(2);
  const setCount = sh.setParamsCount;
  const line = sh.lineOf(sh.curPos);
  sh.setSource(parsed.src, file, file);
  sh.errName = file;
  sh.sourcing++;
  sh.traceLevel++; // (xtrace: a sourced file's commands one level deeper)
  // a call frame, as bash shows it in FUNCNAME, BASH_SOURCE and BASH_LINENO
  sh.funcNames.push('source'); sh.funcLines.push(line); sh.funcFiles.push(file);
  try {
    let st: number;
    try {
      // (bash warns of a here-document that runs to the end of the file as it reads its command)
      const w = parsed.warning;
      let top = f.Stmts[0];
      if (w) for (const s of f.Stmts) if (s.Position <= w.at) top = s;
      st = await sh.topLevel(f.Stmts, undefined, w ? Object.assign(parsed, { hdocWarning: { fromLine: top ? sh.lineOf(top.Position) : 1, text: `${file}: line ${w.line}: ${w.message}\n` } }) : parsed);
      if (parsed.error) {
        // bash ran the lines before the syntax error
        await sh.syntaxError(parsed.error, `${file}: line ${parsed.error.line}: `);
        st = parsed.error.status ?? 2;
        // (POSIX mode: the shell exits; not after bash's parse_matched_pair errors)
        if (!parsed.error.matchedPair) sh.usageFailed = true;
      }
    } catch (e) {
      if (e instanceof ReturnSignal) st = e.status;
      else throw e;
    }
    await sh.returnTrap();
    return st;
  } finally {
    sh.sourcing--;
    sh.traceLevel--;
    sh.funcNames.pop(); sh.funcLines.pop(); sh.funcFiles.pop();
    sh.source = savedSrc;
    sh.errName = savedErr;
    // bash keeps the parameters `set` gave a file sourced with arguments outside any function
    if (hasArgs && !(sh.funcDepth === 0 && sh.setParamsCount !== setCount)) sh.params = savedParams;
  }
});

def(['exec'], async (sh, args) => {
  let i = 1;
  let argv0: string | undefined;
  let login = false;
  while (args[i]?.startsWith('-') && args[i] !== '--' && args[i] !== '-') {
    const bad = args[i] === '-a' ? undefined : [...args[i]!.slice(1)].find((c) => c !== 'c' && c !== 'l');
    if (bad !== undefined) return usageErr(sh, 'exec', `-${bad}: invalid option`);
    if (args[i] === '-a') { argv0 = args[++i]; } else if (args[i]!.includes('l')) login = true;
    i++;
  }
  if (args[i] === '--') i++;
  const rest = args.slice(i);
  if (rest.length === 0) return 0;
  if (isRestricted(sh)) { await errOut(sh, 'exec', restrictedMsg()); return 1; }
  if (argv0 !== undefined || login) rest[0] = (login ? '-' : '') + (argv0 ?? rest[0]!);
  const found = lookPath(sh, args[i]!);
  if (found.error) {
    const name = args[i]!;
    if (found.error === 'command not found') await errOut(sh, 'exec', `${name}: not found`);
    else {
      // (bash names the file by its full path here)
      const full = name.includes('/') ? path.resolve(sh.cwd, name) : found.path ?? name;
      await sh.err(`${full}: ${found.error}`);
      if (found.status === 126) await errOut(sh, 'exec', `${full}: cannot execute: ${found.error}`);
    }
    throw new ExitSignal(found.status);
  }
  // a `#!`-less script runs in place, its $0 the full path (as in bash); posix_spawn would refuse it
  const script = noShebangScript(found.path!);
  if (script === 'binary') {
    // (bash names it by its full path, then reports errno 0 as well)
    await sh.err(`${found.path}: cannot execute binary file: Exec format error`);
    await sh.err(`${found.path}: Success`);
    throw new ExitSignal(126);
  }
  // (the command replaces the shell: no EXIT trap runs after it, in a subshell neither)
  sh.traps.delete('EXIT');
  if (script && scriptRunner) throw new ExitSignal(await scriptRunner(sh, script, [found.path!, ...rest.slice(1)]));
  const st = await runExternal(sh, found.path!, rest);
  throw new ExitSignal(st);
});

async function describe(sh: Shell, name: string, mode: 'v' | 'V' | 't' | 'p' | 'P', all = false, noFunc = false): Promise<boolean> {
  let found = false;
  const emit = async (kind: string, text: string): Promise<void> => {
    found = true;
    if (mode === 't') await out(sh, kind + '\n');
    else if (mode === 'v') await out(sh, (kind === 'file' ? text : kind === 'alias' ? `alias ${name}=${singleQuote(text)}` : name) + '\n');
    else if (mode === 'V') await out(sh, kind === 'file' ? `${name} is ${text}\n` : kind === 'function' ? (all || mode === 'V' ? `${name} is a function\n${sh.functionText(name)}\n` : '') : kind === 'alias' ? `${name} is aliased to \`${text}'\n` : `${name} is a ${kind === 'builtin' && sh.posix && specialBuiltins.has(name) ? 'special ' : ''}shell ${kind}\n`);
    else if (kind === 'file') await out(sh, text + '\n');
  };
  if (mode !== 'P' && !noFunc) {
    if (sh.aliases.has(name) && sh.shopt.has('expand_aliases')) { await emit('alias', sh.aliases.get(name)!); if (!all) return true; }
    if (keywords.has(name)) { await emit('keyword', name); if (!all) return true; }
    if (sh.funcs.has(name)) { await emit('function', name); if (!all) return true; }
  }
  if (mode !== 'P' && ((builtins.has(name) && !sh.disabled?.has(name)) || getPrivateCommand(name))) { await emit('builtin', name); if (!all) return true; }
  if (all && !name.includes('/')) {
    // -a: every executable NAME along PATH
    for (const dir of pathDirs(sh)) {
      const d = dir || '.';
      if (isExecFile(path.resolve(sh.cwd, d, name))) await emit('file', d + (d.endsWith('/') ? '' : '/') + name);
    }
    return found;
  }
  const f = lookPath(sh, name);
  if (f.path && (!f.error || !all)) await emit('file', mode === 'V' && !all && sh.commandHash.has(name) ? `hashed (${f.path})` : displayPath(sh, name, f.path));
  return found;
}
/** PATH's directories ('' for the current one); none when PATH is empty or unset (bash then runs a name from the current directory, and shows its full path). */
function pathDirs(sh: Shell): string[] {
  const p = sh.vars.get('PATH') ?? '';
  return p === '' ? [] : p.split(':');
}
/** The path as bash shows it: the name itself if it has a `/`, else PATH's entry (kept relative) + `/name`. */
function displayPath(sh: Shell, name: string, abs: string): string {
  if (name.includes('/')) return name;
  if (sh.commandHash.has(name)) return abs;
  for (const dir of pathDirs(sh)) {
    if (path.resolve(sh.cwd, dir || '.', name) !== abs) continue;
    const d = dir || '.';
    return d + (d.endsWith('/') ? '' : '/') + name;
  }
  return abs;
}

def(['type'], async (sh, args) => {
  let mode: 'V' | 't' | 'p' | 'P' = 'V';
  let all = false, noFunc = false;
  let st = 0;
  // (bash also takes the long spellings -type, -path and -all)
  const argv = args.map((a, i) => (i === 0 ? a : a === '-type' ? '-t' : a === '-path' ? '-p' : a === '-all' ? '-a' : a));
  const o = await simpleOpts(sh, argv, 'afptP');
  if (typeof o === 'number') return o;
  for (const c of o.flags) { if (c === 'a') all = true; else if (c === 'f') noFunc = true; }
  for (const c of argv.slice(1, o.i).join('')) if ('tpP'.includes(c)) mode = c === 'p' && o.flags.has('P') ? 'P' : c as 't' | 'p' | 'P';
  for (const a of argv.slice(o.i)) {
    if (!(await describe(sh, a, mode, all, noFunc))) { if (mode === 'V') await errOut(sh, 'type', `${a}: not found`); st = 1; }
  }
  return st;
});

def(['command'], async (sh, args) => {
  let i = 1, mode: 'v' | 'V' | '' = '', std = false;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (!/^-[pvV]+$/.test(a)) {
      if (/^-./.test(a)) return usageErr(sh, 'command', `-${[...a.slice(1)].find((c) => !'pvV'.includes(c))}: invalid option`);
      break;
    }
    if (a.includes('v')) mode = 'v';
    if (a.includes('V')) mode = 'V';
    if (a.includes('p')) std = true;
  }
  const rest = args.slice(i);
  if (rest.length === 0) return 0;
  if (std && isRestricted(sh)) { await errOut(sh, 'command', restrictedMsg('-p')); return 1; }
  // -p: search bash's standard path (confstr _CS_PATH) instead of $PATH
  if (mode) {
    let any = false;
    const savedPath = sh.vars.get('PATH');
    for (const n of rest) {
      let ok: boolean;
      if (std) sh.vars.set('PATH', '/bin:/usr/bin');
      try { ok = await describe(sh, n, mode); } finally { if (std) { if (savedPath === undefined) sh.vars.unset('PATH'); else sh.vars.set('PATH', savedPath); } }
      if (ok) any = true; else if (mode === 'V') await errOut(sh, 'command', `${n}: not found`);
    }
    return any ? 0 : 1;
  }
  if (std && !rest[0]!.includes('/') && !builtins.has(rest[0]!) && !getPrivateCommand(rest[0]!)) {
    const p = ['/bin', '/usr/bin'].map((d) => `${d}/${rest[0]}`).find((c) => { try { fs.accessSync(c, fs.constants.X_OK); return fs.statSync(c).isFile(); } catch { return false; } });
    if (p === undefined) { await sh.err(`${rest[0]}: command not found`); return 127; }
    return runExternal(sh, p, rest);
  }
  sh.commandBuiltin++;
  try { return await sh.callArgs(rest, undefined, { noFunc: true }); } finally { sh.commandBuiltin--; }
});

def(['builtin'], async (sh, args) => {
  const o = await simpleOpts(sh, args, '');
  if (typeof o === 'number') return o;
  if (o.i > 1) args = [args[0]!, ...args.slice(o.i)];
  if (args.length < 2) return 0;
  const b = sh.disabled?.has(args[1]!) ? undefined : builtins.get(args[1]!);
  if (!b) { await errOut(sh, 'builtin', `${args[1]}: not a shell builtin`); return 1; }
  return b(sh, args.slice(1));
});

def(['let'], async (sh, args) => {
  if (args.length < 2) { await errOut(sh, 'let', 'expression expected'); return 1; }
  let v = 0n;
  for (const a of args.slice(1)) {
    try { v = sh.arith.evalString(a); } catch (e) {
      // (like the `let` clause: the error names `let` and only fails the command, save in a subscript)
      if (!(e instanceof ArithError) || e.subscript || !e.expr) throw e;
      e.expr = 'let: ' + e.expr.replace(/^\s+/, '');
      await sh.err(e.report());
      return 1;
    }
  }
  return v !== 0n ? 0 : 1;
});

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
});

// bash's sh_getopt: sh.optind is its sh_optind (argv[0] is $0), sh.optchar the offset of
// `nextchar` inside argv[optind] (0: none). Assigning OPTIND resets both (VarStore.set).
def(['getopts'], async (sh, args) => {
  const spec = args[1];
  const name = args[2];
  if (spec === undefined || name === undefined) return usageErr(sh, 'getopts', undefined);
  const argv = [sh.arg0, ...(args.length > 3 ? args.slice(3) : sh.params)];
  const argc = argv.length;
  // (OPTERR=0 silences the messages as bash's atoi reads it; unset, they are on)
  const opterr = sh.vars.get('OPTERR');
  const silent = spec.startsWith(':'), quiet = silent || (opterr !== undefined && !(parseInt(opterr.trim(), 10) || 0));
  const opts = silent ? spec.slice(1) : spec;
  let ind = sh.optind, ci = sh.optchar;
  const v = sh.vars.get('OPTIND');
  if (v !== String(ind)) { ind = Number(v) || 1; ci = 0; }
  const bind = async (val: string): Promise<number> => {
    if (!isName(name)) { await errOut(sh, 'getopts', `\`${name}': not a valid identifier`); return 1; }
    sh.vars.set(name, val);
    return 0;
  };
  const finish = (): void => { sh.vars.set('OPTIND', String(ind)); sh.optind = ind; sh.optchar = ci; };
  const eof = async (): Promise<number> => { finish(); sh.vars.unset('OPTARG'); await bind('?'); return 1; };
  if (ind >= argc || ind < 0) { ind = argc; ci = 0; return eof(); }
  if (ind === 0) { ind = 1; ci = 0; }
  if (!ci) {
    const a = argv[ind]!;
    if (a[0] !== '-' || a.length === 1) return eof();
    if (a === '--') { ind++; return eof(); }
    ci = 1;
  }
  const el = argv[ind]!;
  const c = el[ci++]!;
  if (ci >= el.length) { ind++; ci = 0; }
  const k = opts.indexOf(c);
  if (k < 0 || c === ':') {
    finish();
    if (silent) { sh.vars.set('OPTARG', c); }
    else { if (!quiet) await sh.writeFd(2, `${sh.arg0}: illegal option -- ${c}\n`); sh.vars.unset('OPTARG'); }
    return bind('?');
  }
  if (opts[k + 1] === ':') {
    let val: string | undefined;
    if (ci) { val = el.slice(ci); ind++; }
    else if (ind < argc) val = argv[ind++];
    ci = 0;
    finish();
    if (val === undefined) {
      if (silent) { sh.vars.set('OPTARG', c); return bind(':'); }
      if (!quiet) await sh.writeFd(2, `${sh.arg0}: option requires an argument -- ${c}\n`);
      sh.vars.unset('OPTARG');
      return bind('?');
    }
    sh.vars.set('OPTARG', val);
    return bind(c);
  }
  finish();
  sh.vars.unset('OPTARG');
  return bind(c);
});

def(['alias'], async (sh, args) => {
  let st = 0;
  const o = await simpleOpts(sh, args, 'p');
  if (typeof o === 'number') return o;
  const a = args.slice(o.i);
  if (a.length === 0 || o.flags.has('p')) { for (const [k, v] of [...sh.aliases].sort()) await out(sh, `alias ${k}=${singleQuote(v)}\n`); if (a.length === 0) return 0; }
  for (const x of a) {
    const eq = x.indexOf('=');
    if (eq > 0) {
      // (bash's legal_alias_name: no blank, metacharacter, quote, `$` or `/`)
      const name = x.slice(0, eq);
      if (/[ \t\n()<>;&|"'`\\$/]/.test(name)) { await errOut(sh, 'alias', `\`${name}': invalid alias name`); st = 1; } else sh.aliases.set(name, x.slice(eq + 1));
    } else if (sh.aliases.has(x)) await out(sh, `alias ${x}=${singleQuote(sh.aliases.get(x)!)}\n`);
    else { await errOut(sh, 'alias', `${x}: not found`); st = 1; }
  }
  return st;
});
def(['unalias'], async (sh, args) => {
  const o = await simpleOpts(sh, args, 'a');
  if (typeof o === 'number') return o;
  if (o.flags.has('a')) { sh.aliases.clear(); return 0; }
  if (o.i >= args.length) return usageErr(sh, 'unalias', undefined);
  let st = 0;
  for (const x of args.slice(o.i)) if (!sh.aliases.delete(x)) { await errOut(sh, 'unalias', `${x}: not found`); st = 1; }
  return st;
});

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

/** bash 5.2's builtins, in the order `enable` lists them. */
const ENABLE_LIST = ['.', ':', '[', 'alias', 'bg', 'bind', 'break', 'builtin', 'caller', 'cd', 'command', 'compgen', 'complete', 'compopt', 'continue', 'declare', 'dirs', 'disown', 'echo', 'enable', 'eval', 'exec', 'exit', 'export', 'false', 'fc', 'fg', 'getopts', 'hash', 'help', 'history', 'jobs', 'kill', 'let', 'local', 'logout', 'mapfile', 'popd', 'printf', 'pushd', 'pwd', 'read', 'readarray', 'readonly', 'return', 'set', 'shift', 'shopt', 'source', 'suspend', 'test', 'times', 'trap', 'true', 'type', 'typeset', 'ulimit', 'umask', 'unalias', 'unset', 'wait'];
// enable [-a] [-dnps] [name ...]: turns builtins off (-n) and on, or lists them (no loadable builtins here)
def(['enable'], async (sh, args) => {
  const o = await simpleOpts(sh, args, 'adnpsf');
  if (typeof o === 'number') return o;
  const names = args.slice(o.i);
  if ((o.flags.has('f') || o.flags.has('d')) && isRestricted(sh)) { await errOut(sh, 'enable', restrictedMsg()); return 1; }
  if (o.flags.has('f') || o.flags.has('d')) { await errOut(sh, 'enable', 'cannot open shared object: dynamic loading not available'); return 1; }
  const off = o.flags.has('n');
  if (names.length === 0 || o.flags.has('p')) {
    for (const n of ENABLE_LIST) {
      const dis = !!sh.disabled?.has(n);
      if (o.flags.has('s') && !specialBuiltins.has(n)) continue;
      if (!o.flags.has('a') && dis !== off) continue;
      await out(sh, `enable ${dis ? '-n ' : ''}${n}\n`);
    }
    return 0;
  }
  let st = 0;
  for (const n of names) {
    if (!ENABLE_LIST.includes(n) || !builtins.has(n)) { await errOut(sh, 'enable', `${n}: not a shell builtin`); st = 1; continue; }
    // (restricted: a disabled builtin stays disabled)
    if (!off && sh.disabled?.has(n) && isRestricted(sh)) { await errOut(sh, 'enable', restrictedMsg()); st = 1; continue; }
    if (off) (sh.disabled ??= new Set()).add(n); else sh.disabled?.delete(n);
  }
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

// help [-dms] [pattern ...]: bash's synopses and one-line descriptions (help-text.ts). Each pattern selects the topics it
// matches as a glob or equals; failing that, the topics it is a prefix of.
def(['help'], async (sh, args) => {
  const o = await simpleOpts(sh, args, 'dms');
  if (typeof o === 'number') return o;
  const pats = args.slice(o.i);
  if (pats.length === 0) { await out(sh, `${HELP_VERSION}\n${HELP_LIST}`); return 0; }
  let text = '';
  if (hasMeta(pats[0]!)) text += `Shell commands matching keyword${pats.length > 1 ? 's' : ''} \`${pats.join(', ')}'\n\n`;
  let found = 0, pat = '';
  for (pat of pats) {
    for (let pass = 1; pass < 3; pass++) {
      let hit = false;
      for (const [name, syn, short] of HELP_TOPICS) {
        if (!(pass === 1 ? name === pat || matchPattern(pat, name, { extglob: true }) : name.startsWith(pat))) continue;
        hit = true; found++;
        // only bash's short forms ship with us (help-text.ts); the long text is bash's own
        const more = `    (bash's full text: bash -c 'help ${name}')\n`;
        if (o.flags.has('d')) text += `${name} - ${short}\n`;
        else if (o.flags.has('m')) text += `NAME\n    ${name} - ${short}\n\nSYNOPSIS\n    ${syn}\n\nDESCRIPTION\n${more}\n`;
        else text += `${name}: ${syn}\n` + (o.flags.has('s') ? '' : `    ${short}\n${more}`);
      }
      if (hit) break;
    }
  }
  await out(sh, text);
  if (found === 0) { await errOut(sh, 'help', `no help topics match \`${pat}'.  Try \`help help' or \`man -k ${pat}' or \`info ${pat}'.`); return 1; }
  return 0;
});

/** A number argument as bash's legal_number takes it (64 bits, blanks around), else undefined. */
export function int64Arg(a: string): number | undefined {
  if (!/^\s*[-+]?\d+\s*$/.test(a)) return undefined;
  const n = BigInt(a);
  return BigInt.asIntN(64, n) === n ? Number(n) : undefined;
}

// Non-interactive bash: no line editing, no completion, no job control.
def(['suspend'], async (sh) => { await errOut(sh, 'suspend', 'cannot suspend: no job control'); return 1; });
def(['logout'], async (sh) => { await errOut(sh, 'logout', "not login shell: use `exit'"); return 1; });
def(['bind'], async (sh) => { await errOut(sh, 'bind', 'warning: line editing not enabled'); return 0; });
def(['compopt'], async () => 0);
def(['complete'], async (sh, args) => {
  const r = (sh.completionSpecs ??= new CompletionSpecs()).run(args.slice(1));
  if (r.out) await out(sh, r.out);
  for (const e of r.errors) await errOut(sh, 'complete', e);
  if (r.usage !== undefined) return usageErr(sh, 'complete', undefined);
  return r.status;
});

def(['compgen'], async (sh, args) => {
  let words: string[] = [];
  let func: string | undefined;
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (!a.startsWith('-') || a === '-') break;
    const o = a.slice(1);
    if (o === 'W') { const w = args[++i] ?? ''; const ifs = sh.vars.get('IFS') ?? ' \t\n'; words.push(...w.split(new RegExp(`[${ifs.replace(/[\]\\^-]/g, '\\$&')}]+`)).filter((x) => x !== '')); continue; }
    if (o === 'A') { const k = args[++i] ?? ''; words.push(...compgenKind(sh, k)); continue; }
    if (o === 'F') { func = args[++i] ?? ''; continue; }
    for (const c of o) {
      const k = ({ v: 'variable', a: 'alias', b: 'builtin', k: 'keyword', e: 'export' } as Record<string, string>)[c];
      if (k) words.push(...compgenKind(sh, k));
    }
  }
  const prefix = args[i] ?? '';
  const hits = words.filter((w) => w.startsWith(prefix));
  if (func !== undefined) hits.push(...await compgenFunction(sh, func, prefix));
  for (const w of hits) await out(sh, w + '\n');
  return hits.length ? 0 : 1;
});

/**
 * `compgen -F func`: bash calls the function as for completing an empty command line (the COMP_*
 * variables say so) and takes COMPREPLY as it is, unfiltered; then unsets them all.
 */
async function compgenFunction(sh: Shell, func: string, word: string): Promise<string[]> {
  await errOut(sh, 'compgen', 'warning: -F option may not work as you expect');
  const body = sh.funcs.get(func);
  if (!body) { await sh.err(`completion: function \`${func}' not found`); return []; }
  const vars = ['COMP_WORDS', 'COMP_CWORD', 'COMP_LINE', 'COMP_POINT', 'COMP_TYPE', 'COMP_KEY'];
  sh.vars.lvalueArray('COMP_WORDS').clear();
  sh.vars.set('COMP_CWORD', '-1'); sh.vars.set('COMP_LINE', ''); sh.vars.set('COMP_POINT', '0'); sh.vars.set('COMP_TYPE', '0'); sh.vars.set('COMP_KEY', '0');
  try {
    await sh.callFunc(func, body, ['compgen', word, '']);
    return sh.vars.arrayValues('COMPREPLY');
  } finally {
    for (const n of [...vars, 'COMPREPLY']) { try { sh.vars.unset(n); } catch { /* readonly */ } }
  }
}

function compgenKind(sh: Shell, kind: string): string[] {
  switch (kind) {
    case 'function': return [...sh.funcs.keys()].sort();
    case 'alias': return [...sh.aliases.keys()].sort();
    case 'builtin': return [...builtins.keys()].sort();
    case 'keyword': return ['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc'];
    case 'variable': case 'export': {
      const names = new Set<string>();
      for (const k of sh.vars.names(true, kind === 'export')) names.add(k);
      return [...names].sort();
    }
    default: return [];
  }
}
def(['hash'], async (sh, args) => {
  const h = sh.commandHash;
  let i = 1, del = false, print = false, reusable = false, setPath: string | undefined;
  for (; i < args.length && /^-./.test(args[i]!); i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === 'r') h.clear();
      else if (c === 'd') del = true;
      else if (c === 't') print = true;
      else if (c === 'l') reusable = true;
      else if (c === 'p') {
        setPath = a.slice(j + 1) || args[++i];
        if (setPath === undefined) { await errOut(sh, 'hash', '-p: option requires an argument'); return 2; }
        break;
      } else {
        await errOut(sh, 'hash', `-${c}: invalid option`);
        await sh.writeFd(2, 'hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]\n');
        return 2;
      }
    }
  }
  const names = args.slice(i);
  if (names.length === 0) {
    if (del || print || setPath !== undefined) return 0;
    if (args.length > 1 && args.slice(1).every((a) => /^-r+$/.test(a))) return 0;
    await out(sh, h.size ? formatHashTable(h, reusable) : 'hash: hash table empty\n');
    return 0;
  }
  if (setPath !== undefined && isRestricted(sh)) {
    // (restricted: the file must be one a PATH search finds)
    if (setPath.includes('/')) { await errOut(sh, 'hash', restrictedMsg(setPath)); return 1; }
    if (!lookPath(sh, setPath).path) { await errOut(sh, 'hash', `${setPath}: not found`); return 1; }
  }
  let st = 0;
  for (const n of names) {
    if (setPath !== undefined) { h.set(n, { path: setPath, hits: 0 }); continue; }
    if (del) { if (!h.delete(n)) { await errOut(sh, 'hash', `${n}: not found`); st = 1; } continue; }
    if (print) {
      const e = h.get(n);
      if (!e) { await errOut(sh, 'hash', `${n}: not found`); st = 1; continue; }
      await out(sh, reusable ? `builtin hash -p ${e.path} ${n}\n` : names.length > 1 ? `${n}\t${e.path}\n` : `${e.path}\n`);
      continue;
    }
    if (n.includes('/') || builtins.has(n) || sh.funcs.has(n)) continue;
    const f = lookPath(sh, n);
    if (f.path && !f.error) { if (!h.has(n)) h.set(n, { path: f.path, hits: 0 }); } else { await errOut(sh, 'hash', `${n}: not found`); st = 1; }
  }
  return st;
});
def(['times'], async (sh, args) => {
  if (args[1] !== undefined && /^-./.test(args[1]) && args[1] !== '--') return usageErr(sh, 'times', `${args[1].slice(0, 2)}: invalid option`); await out(sh, '0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n'); return 0; });

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

defineHistoryBuiltins(def);
