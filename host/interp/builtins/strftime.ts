// strftime(3) in the C locale: printf's `%(fmt)T` (io.ts) and history's HISTTIMEFORMAT
// (history-builtins.ts) both format times with it.
import { zoneAt } from './tzinfo.ts';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

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
