// The C library's view of a TZ value, for `printf '%(fmt)T'`: the UTC offset and the zone
// abbreviation (`%Z`) at a moment, as glibc's tzset/localtime find them — a TZif file under
// /usr/share/zoneinfo (or an absolute path, or /etc/localtime when TZ is unset), else a POSIX TZ
// string (`EST5EDT,M3.2.0,M11.1.0`, `<+05>-5`, `JST-9`), whose name alone is offset 0.
import * as fs from 'node:fs';

export interface ZoneAt { /** seconds east of UTC */ off: number; abbr: string }

interface TzFile { times: number[]; idx: number[]; types: { off: number; dst: boolean; abbr: string }[]; footer: string | undefined }

const files = new Map<string, TzFile | null>();

function readTzFile(p: string): TzFile | null {
  let r = files.get(p);
  if (r !== undefined) return r;
  r = null;
  try {
    // (/etc/localtime is read each time: nothing of the machine that built a startup snapshot may stay)
    const b = fs.readFileSync(p);
    if (b.length >= 44 && b.toString('latin1', 0, 4) === 'TZif') r = parseTzif(b);
  } catch { /* not a zone file */ }
  if (p !== '/etc/localtime') files.set(p, r);
  return r;
}

function parseTzif(b: Buffer): TzFile | null {
  const counts = (at: number): number[] => [0, 1, 2, 3, 4, 5].map((k) => b.readUInt32BE(at + 20 + 4 * k));
  let at = 0;
  let [isut, isstd, leap, timecnt, typecnt, charcnt] = counts(0) as [number, number, number, number, number, number];
  let wide = false;
  if (b[4]! >= 0x32) {
    // skip the 32-bit block to the version 2+ header and its 64-bit data
    at = 44 + timecnt * 5 + typecnt * 6 + charcnt + leap * 8 + isstd + isut;
    if (b.length < at + 44 || b.toString('latin1', at, at + 4) !== 'TZif') return null;
    [isut, isstd, leap, timecnt, typecnt, charcnt] = counts(at) as [number, number, number, number, number, number];
    wide = true;
  }
  let p = at + 44;
  const times: number[] = [];
  for (let k = 0; k < timecnt; k++) { times.push(wide ? Number(b.readBigInt64BE(p)) : b.readInt32BE(p)); p += wide ? 8 : 4; }
  const idx: number[] = [];
  for (let k = 0; k < timecnt; k++) idx.push(b[p++]!);
  const raw: [number, boolean, number][] = [];
  for (let k = 0; k < typecnt; k++) { raw.push([b.readInt32BE(p), b[p + 4] !== 0, b[p + 5]!]); p += 6; }
  const chars = b.toString('latin1', p, p + charcnt);
  p += charcnt + leap * (wide ? 12 : 8) + isstd + isut;
  const types = raw.map(([off, dst, ai]) => ({ off, dst, abbr: chars.slice(ai, chars.indexOf('\0', ai) < 0 ? undefined : chars.indexOf('\0', ai)) }));
  let footer: string | undefined;
  if (wide && b[p] === 10) { const e = b.indexOf(10, p + 1); if (e > p) footer = b.toString('latin1', p + 1, e); }
  if (!types.length) return null;
  return { times, idx, types, footer };
}

function fileZoneAt(f: TzFile, secs: number): ZoneAt | undefined {
  if (f.times.length === 0 || secs >= f.times[f.times.length - 1]!) {
    if (f.footer) { const z = posixZoneAt(f.footer, secs); if (z) return z; }
    if (f.times.length === 0) { const t = f.types[0]!; return { off: t.off, abbr: t.abbr }; }
  }
  if (secs < f.times[0]!) { const t = f.types.find((x) => !x.dst) ?? f.types[0]!; return { off: t.off, abbr: t.abbr }; }
  let lo = 0, hi = f.times.length - 1;
  while (lo < hi) { const m = (lo + hi + 1) >> 1; if (f.times[m]! <= secs) lo = m; else hi = m - 1; }
  const t = f.types[f.idx[lo]!] ?? f.types[0]!;
  return { off: t.off, abbr: t.abbr };
}

/** `[+-]hh[:mm[:ss]]` at `s[i]`: seconds, and where it ends. */
function posixOffset(s: string, i: number): [number, number] | undefined {
  const m = /^([+-]?)(\d{1,3})(?::(\d{1,2})(?::(\d{1,2}))?)?/.exec(s.slice(i));
  if (!m) return undefined;
  const v = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  return [m[1] === '-' ? -v : v, i + m[0].length];
}

function posixName(s: string, i: number): [string, number] | undefined {
  if (s[i] === '<') { const e = s.indexOf('>', i); return e < 0 ? undefined : [s.slice(i + 1, e), e + 1]; }
  const m = /^[A-Za-z]+/.exec(s.slice(i));
  return m ? [m[0], i + m[0].length] : undefined;
}

const MDAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leapYear = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Seconds from the start of year `y` (local) to the rule's day, or undefined. */
function ruleDay(rule: string, y: number): number | undefined {
  let m: RegExpExecArray | null;
  if ((m = /^J(\d+)$/.exec(rule))) { let n = Number(m[1]) - 1; if (leapYear(y) && n >= 59) n++; return n * 86400; }
  if ((m = /^(\d+)$/.exec(rule))) return Number(m[1]) * 86400;
  if ((m = /^M(\d+)\.(\d)\.(\d)$/.exec(rule))) {
    const mo = Number(m[1]) - 1, w = Number(m[2]), d = Number(m[3]);
    if (mo < 0 || mo > 11) return undefined;
    const first = Date.UTC(y, mo, 1);
    const wd1 = new Date(first).getUTCDay();
    let day = 1 + ((d - wd1 + 7) % 7) + (w - 1) * 7;
    const len = MDAYS[mo]! + (mo === 1 && leapYear(y) ? 1 : 0);
    while (day > len) day -= 7;
    return (first - Date.UTC(y, 0, 1)) / 1000 + (day - 1) * 86400;
  }
  return undefined;
}

/** A POSIX TZ string's zone at `secs`; undefined when it does not even start with a name. */
function posixZoneAt(tz: string, secs: number): ZoneAt | undefined {
  const n = posixName(tz, 0);
  if (!n) return undefined;
  const [std, i1] = n;
  const so = posixOffset(tz, i1);
  // (glibc: a name without an offset is that name at UTC; a name shorter than 3 letters is none)
  if (!so) return { off: 0, abbr: std.length >= 3 ? std : '' };
  const stdOff = -so[0];
  const d = posixName(tz, so[1]);
  if (!d) return { off: stdOff, abbr: std };
  const [dst, i2] = d;
  let dstOff = stdOff + 3600, i3 = i2;
  const dOff = posixOffset(tz, i2);
  if (dOff) { dstOff = -dOff[0]; i3 = dOff[1]; }
  let rules = tz.slice(i3);
  if (rules === '') rules = ',M3.2.0,M11.1.0';
  const rm = /^,([^,/]+)(?:\/([+-]?[\d:]+))?,([^,/]+)(?:\/([+-]?[\d:]+))?$/.exec(rules);
  if (!rm) return { off: stdOff, abbr: std };
  const time = (t: string | undefined): number => (t === undefined ? 7200 : posixOffset(t, 0)?.[0] ?? 7200);
  const y = new Date((secs + stdOff) * 1000).getUTCFullYear();
  const y0 = Date.UTC(y, 0, 1) / 1000;
  const a = ruleDay(rm[1]!, y), b = ruleDay(rm[3]!, y);
  if (a === undefined || b === undefined) return { off: stdOff, abbr: std };
  const start = y0 + a + time(rm[2]) - stdOff, end = y0 + b + time(rm[4]) - dstOff;
  const inDst = start < end ? secs >= start && secs < end : !(secs >= end && secs < start);
  return inDst ? { off: dstOff, abbr: dst } : { off: stdOff, abbr: std };
}

/** The zone glibc uses for TZ=`tz` (undefined: TZ unset) at `secs`; undefined when not known here. */
export function zoneAt(tz: string | undefined, secs: number): ZoneAt | undefined {
  if (tz === undefined) { const f = readTzFile('/etc/localtime'); return f ? fileZoneAt(f, secs) : { off: 0, abbr: 'UTC' }; }
  if (tz === '') return { off: 0, abbr: 'UTC' };
  let name = tz;
  const colon = name.startsWith(':');
  if (colon) name = name.slice(1);
  if (name !== '') {
    const f = readTzFile(name.startsWith('/') ? name : '/usr/share/zoneinfo/' + name);
    if (f) return fileZoneAt(f, secs);
  }
  if (colon) return { off: 0, abbr: 'UTC' };
  return posixZoneAt(tz, secs);
}
