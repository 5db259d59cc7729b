// Characters in a UTF-8 locale. The interpreter's strings are bytes (one JS char per byte,
// latin1); in a UTF-8 locale bash counts, slices, case-maps and matches `?` by characters: a
// valid UTF-8 sequence is one character, any other byte is a character of its own (like mbrlen's
// "invalid" result, which bash also counts as one).
import * as fs from 'node:fs';

/** Whether `s` has a byte that can start or continue a multibyte character. */
export function hasHighBytes(s: string): boolean {
  return HIGH_BYTE.test(s); // (a regex: a char loop is slow until V8 optimizes it, and this runs per match)
}
const HIGH_BYTE = /[\x80-\xff]/;

/** Length in bytes of the character starting at `i`. */
/** Length in bytes of the sequence a byte starts when it is a UTF-8 lead byte; 1 otherwise. */
export function sequenceLength(b: number): number {
  return b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 1;
}

function unitLength(s: string, i: number): number {
  const b = s.charCodeAt(i);
  const n = sequenceLength(b);
  if (n === 1 || i + n > s.length) return 1;
  for (let k = 1; k < n; k++) { const c = s.charCodeAt(i + k); if (c < 0x80 || c > 0xbf) return 1; }
  // overlong or out-of-range sequences are not characters
  const b1 = s.charCodeAt(i + 1);
  if ((b === 0xe0 && b1 < 0xa0) || (b === 0xed && b1 > 0x9f) || (b === 0xf0 && b1 < 0x90) || (b === 0xf4 && b1 > 0x8f)) return 1;
  return n;
}

/** The characters of `s`, each as its bytes. */
export function charUnits(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length;) { const n = unitLength(s, i); out.push(s.slice(i, i + n)); i += n; }
  return out;
}

export function charLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; n++) i += unitLength(s, i);
  return n;
}

/** Upper- or lower-cases one character given as bytes (unchanged when the result is not one character). */
export function mapCharCase(unit: string, upper: boolean): string {
  if (unit.length === 1) return upper ? unit.toUpperCase() : unit.toLowerCase();
  const ch = Buffer.from(unit, 'latin1').toString('utf8');
  const m = upper ? ch.toUpperCase() : ch.toLowerCase();
  return [...m].length === 1 ? Buffer.from(m, 'utf8').toString('latin1') : unit;
}

/** Regex source (over bytes) for a valid multibyte UTF-8 sequence. */
const MULTIBYTE = '[\\xc2-\\xdf][\\x80-\\xbf]|\\xe0[\\xa0-\\xbf][\\x80-\\xbf]|[\\xe1-\\xec\\xee\\xef][\\x80-\\xbf]{2}|\\xed[\\x80-\\x9f][\\x80-\\xbf]|\\xf0[\\x90-\\xbf][\\x80-\\xbf]{2}|[\\xf1-\\xf3][\\x80-\\xbf]{3}|\\xf4[\\x80-\\x8f][\\x80-\\xbf]{2}';

/**
 * Regex source (over bytes) for one character, as `?` matches it: a multibyte sequence, or a
 * single byte that does not start one (so backtracking can never split a character in two).
 */
export const UTF8_CHAR = `(?:${MULTIBYTE}|(?!${MULTIBYTE})[\\s\\S])`;

/**
 * Whether a locale name has a UTF-8 codeset, installed or not: what bash decides `\u` escapes by
 * (its locale_utf8locale comes from the variable's value, not from setlocale's result).
 */
export function hasUtf8Codeset(name: string): boolean {
  return /\.utf-?8(@|$)/i.test(name);
}

/**
 * Whether a locale name (an LC_ALL, LC_CTYPE or LANG value) selects a UTF-8 locale: a UTF-8
 * codeset, and a locale that exists (else setlocale fails and bash stays in C). glibc has C.UTF-8
 * built in and matches codesets loosely (`UTF-8`, `utf8`, `UTF8`…); other locales are directories
 * under /usr/lib/locale, or entries of its locale-archive (not read: a name is assumed to be there
 * when the archive exists).
 */
export function isUtf8LocaleName(name: string): boolean {
  let r = localeCache.get(name);
  if (r === undefined) {
    r = utf8LocaleExists(name);
    if (localeCache.size > 64) localeCache.clear();
    localeCache.set(name, r);
  }
  return r;
}

const localeCache = new Map<string, boolean>();

function utf8LocaleExists(name: string): boolean {
  const m = /^([^.@/]+)\.([^@/]+)(@[^/]*)?$/.exec(name);
  if (!m || m[2]!.toLowerCase().replace(/[^a-z0-9]/g, '') !== 'utf8') return false;
  if (m[1] === 'C') return true;
  const mod = m[3] ?? '';
  for (const dir of [`${m[1]}.${m[2]}${mod}`, `${m[1]}.utf8${mod}`]) {
    if (fs.existsSync(`/usr/lib/locale/${dir}/LC_CTYPE`)) return true;
  }
  return fs.existsSync('/usr/lib/locale/locale-archive');
}

/** Offsets where the characters of `s` start, and `s.length`. */
export function charStarts(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i += unitLength(s, i)) out.push(i);
  out.push(s.length);
  return out;
}

/**
 * Whether glibc's setlocale accepts a locale name: C and POSIX, C.UTF-8 (built in), a directory
 * under /usr/lib/locale (codeset as given or normalized: `UTF-8` → `utf8`); with a locale-archive
 * (not read) any name is assumed to be there.
 */
export function localeExists(name: string): boolean {
  if (name === '' || name === 'C' || name === 'POSIX') return true;
  if (name.includes('/')) return false;
  const m = /^([^.@]+)(?:\.([^@]*))?(@.*)?$/.exec(name);
  if (!m) return false;
  const norm = m[2] === undefined ? undefined : normCodeset(m[2]);
  if (m[1] === 'C' && norm === 'utf8' && !m[3]) return true;
  const dirs = [name];
  if (norm !== undefined) dirs.push(`${m[1]}.${norm}${m[3] ?? ''}`);
  for (const d of dirs) if (fs.existsSync(`/usr/lib/locale/${d}/LC_CTYPE`)) return true;
  return fs.existsSync('/usr/lib/locale/locale-archive');
}

/** glibc's _nl_normalize_codeset: letters lower-cased, digits kept, the rest dropped (`iso` prefix when all digits). */
function normCodeset(cs: string): string {
  const t = cs.toLowerCase().replace(/[^a-z0-9]/g, '');
  return /^[0-9]+$/.test(t) ? 'iso' + t : t;
}

/**
 * The names glibc records as tried (per category) when it looks `name` up and fails: the name and
 * the fallbacks it derives (without territory, codeset or modifier, codeset normalized). A later
 * lookup of one of them fails without setting errno (bash then leaves out ": No such file or directory").
 */
export function localeFallbacks(name: string): string[] {
  const m = /^([^_.@]+)(_[^.@]*)?(\.[^@]*)?(@.*)?$/.exec(name);
  if (!m) return [name];
  const [, lang, terr = '', cs = '', mod = ''] = m;
  const css = cs ? [cs, '.' + normCodeset(cs.slice(1)), ''] : [''];
  const out = new Set<string>([name]);
  for (const t of terr ? [terr, ''] : ['']) for (const c of css) for (const md of mod ? [mod, ''] : ['']) out.add(lang + t + c + md);
  return [...out];
}
