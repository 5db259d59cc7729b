// Quoting and $'…' decoding as bash prints and reads them: xtrace, declare -p, printf %q,
// ${x@Q} and the printer all quote the same way, so the rules live in one place.
import { charUnits, hasHighBytes } from './utf8-chars.ts';

/** $'…' and echo -e/printf escapes; `utf8`: the locale is UTF-8 (`\\u` gives the character's bytes). */
export function ansiC(s: string, utf8: boolean): string {
  let o = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i + 1 >= s.length) { o += c; continue; }
    const n = s[++i]!;
    switch (n) {
      case 'a': o += '\x07'; break;
      case 'b': o += '\b'; break;
      case 'e': case 'E': o += '\x1b'; break;
      case 'f': o += '\f'; break;
      case 'n': o += '\n'; break;
      case 'r': o += '\r'; break;
      case 't': o += '\t'; break;
      case 'v': o += '\v'; break;
      case '\\': o += '\\'; break;
      case "'": o += "'"; break;
      case '"': o += '"'; break;
      case '?': o += '?'; break;
      case 'c': {
        const x = s[i + 1];
        // bash's TOCTRL: `\c?` is DEL, otherwise the upper-cased byte masked with 0x1f (`\c-` is CR)
        if (x !== undefined) { o += x === '?' ? '\x7f' : String.fromCharCode(x.toUpperCase().charCodeAt(0) & 0x1f); i++; }
        break;
      }
      case 'x': {
        const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1));
        if (m) { o += String.fromCharCode(parseInt(m[0], 16)); i += m[0].length; } else o += '\\x';
        break;
      }
      case 'u': case 'U': {
        const m = (n === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(s.slice(i + 1));
        if (m) {
          const cp = parseInt(m[0], 16);
          if (cp < 0x80) o += String.fromCharCode(cp);
          else if (utf8 && cp <= 0x10ffff) o += Buffer.from(String.fromCodePoint(cp), 'utf8').toString('latin1');
          else o += cp <= 0xffff ? '\\u' + cp.toString(16).toUpperCase().padStart(4, '0') : '\\U' + cp.toString(16).toUpperCase().padStart(8, '0');
          i += m[0].length;
        } else o += '\\' + n;
        break;
      }
      default:
        if (n >= '0' && n <= '7') {
          const m = /^[0-7]{1,3}/.exec(s.slice(i))!;
          o += String.fromCharCode(parseInt(m[0], 8) & 255);
          i += m[0].length - 1;
        } else o += '\\' + n;
    }
  }
  return o;
}

/**
 * bash's single quoting (`${x@Q}`, `declare` listings): `$'…'` when a character is not printable
 * (ansic_shouldquote): a control character, or with `utf8` given a byte that is no valid UTF-8
 * character (false) or any byte above 0x7f (the C locale); without `utf8`, control characters only.
 */
export function shellQuote(v: string, utf8?: boolean): string {
  if (v === '') return "''";
  if (needsAnsiC(v, utf8)) return ansicQuote(v, utf8 ?? true);
  return "'" + v.replace(/'/g, "'\\''") + "'";
}

/** Whether bash quotes `v` as `$'…'` (see shellQuote). */
export function needsAnsiC(v: string, utf8?: boolean): boolean {
  if (/[\x00-\x1f\x7f]/.test(v)) return true;
  if (utf8 === undefined || !hasHighBytes(v)) return false;
  return !utf8 || charUnits(v).some((u) => u.length === 1 && u.charCodeAt(0) >= 0x80);
}

/** bash's ansic_quote: `$'…'` with C escapes, octal for the other unprintable bytes (valid UTF-8 characters kept when `utf8`). */
export function ansicQuote(v: string, utf8: boolean): string {
  let o = "$'";
  for (const u of utf8 && hasHighBytes(v) ? charUnits(v) : v) {
    const code = u.charCodeAt(0);
    const e = u.length === 1 ? ANSIC_ESC[u] : undefined;
    if (e) o += e;
    else if (u.length === 1 && (code < 32 || code >= 127)) o += '\\' + code.toString(8).padStart(3, '0');
    else o += u;
  }
  return o + "'";
}

const ANSIC_ESC: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\x1b': '\\E', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', "'": "\\'", '\\': '\\\\' };

/** Whether declare -p (and `@K`) quotes an associative array's key: bash's sh_contains_shell_metas,
 * or a character only `$'…'` can show. */
export function assocKeyNeedsQuotes(k: string, utf8: boolean): boolean {
  if (/^[a-zA-Z0-9_]+$/.test(k)) return false;
  return needsAnsiC(k, utf8) || /[ \t\n'"\\|&;()<>!{}*[?\]^$`\x00-\x1f\x7f]|^[~#]|[=:]~/.test(k);
}

/** bash's sh_single_quote (alias listings): always '…', control characters as they are. */
export function singleQuote(v: string): string {
  return "'" + v.replace(/'/g, "'\\''") + "'";
}

/** A word as bash's xtrace shows it: single-quoted with a shell metacharacter, `$'…'` with a control character. */
export function traceWord(w: string, utf8 = false, assigned = false): string {
  if (w === '') return assigned ? '' : "''"; // (bash traces `a=` for an empty value)
  if (/[ \t\n'"\\|&;()<>!{}*[?\]^$`]|^[~#]|[=:]~/.test(w)) return singleQuote(w);
  return needsAnsiC(w, utf8) ? ansicQuote(w, utf8) : w;
}

/** A value as bash's declare -p shows it; `utf8`: bytes of multibyte characters are printable. */
export function dquote(s: string, utf8: boolean): string {
  // like bash's declare -p: $'…' when the value has characters not printable in the locale
  if (needsAnsiC(s, utf8)) return ansicQuote(s, utf8);
  return '"' + s.replace(/(["\\$`])/g, '\\$1') + '"';
}

/** Quote removal in double-quoted text (`heredoc`: a here-document body, where `\"` is not special). */
export function unescapeDq(v: string, heredoc: boolean): string {
  if (!v.includes('\\')) return v;
  let o = '';
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === '\\' && i + 1 < v.length) {
      const n = v[i + 1]!;
      if (n === '$' || n === '`' || n === '\\' || (!heredoc && n === '"')) { o += n; i++; continue; }
      if (n === '\n') { i++; continue; }
    }
    o += c;
  }
  return o;
}
