// printf's formatting (bash's printf.def): formats parsed once and cached, numeric arguments as
// strtoimax/strtold read them, conversions as the C library's printf makes them, bash's own %b,
// %q and %(…)T; and the backslash escapes that `echo -e` shares with %b.
import { ansiC, ansicQuote, needsAnsiC } from '../words/quoting.ts';
import { formatLongDouble, fromNumber, parseLongDouble, type LongDouble } from './longdouble.ts';
import { strftime } from './strftime.ts';

/** Where an unescaped `\c` starts in `s` (-1: none); `\\` is one escaped backslash. */
export function escapeCIndex(s: string): number {
  for (let i = s.indexOf('\\'); i >= 0 && i < s.length - 1; i = s.indexOf('\\', i + 2)) if (s[i + 1] === 'c') return i;
  return -1;
}

export function echoEscapes(s: string, bareOctal: boolean, utf8: boolean): string {
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
