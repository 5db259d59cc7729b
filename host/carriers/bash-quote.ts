// Canonical Bash quoting. One value always yields the same text, the text never spans physical
// lines, and bash parses it back (as a word) to exactly the value's UTF-8 bytes.
import { CarrierInputError } from './carrier-errors.ts';

// Characters that need no quoting anywhere in a word. Deliberately excluded: `=` (assignment),
// `~` (tilde), `#` (comment), `{}` `,`-lists (brace expansion needs `{`), `*?[` (globs),
// `!^` (history), plus all the obvious shell metacharacters.
const BARE = /^[A-Za-z0-9_@%+,:./-]+$/;

// Reserved words consisting only of bare-safe characters. In command position (argv[0], or right
// after `{.}` is substituted at the start of a template) bash would parse them as syntax, so they
// are single-quoted; a quoted reserved word is an ordinary word everywhere.
const RESERVED = new Set([
  'if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until',
  'do', 'done', 'in', 'function', 'time', 'coproc',
]);

// C0 controls and DEL: these would break the one-line guarantee or be invisible, so they force
// ANSI-C quoting. (NUL is rejected before this is consulted.)
const CONTROL = /[\x00-\x1f\x7f]/;

// With the `u` flag a well-formed surrogate pair is one code point, so only lone halves match.
const LONE_SURROGATE = /\p{Cs}/u;

/** Quote one value as one Bash word. Throws CarrierInputError for NUL or lone surrogates. */
export function bashQuote(arg: string): string {
  return quoteWord(arg, 'value');
}

/** Quote every value independently and join with single spaces. */
export function bashQuoteArgv(argv: readonly string[]): string {
  return argv.map((arg, i) => quoteWord(arg, `argv[${i}]`)).join(' ');
}

function quoteWord(arg: string, label: string): string {
  if (typeof arg !== 'string') {
    // Translators are plugin JavaScript; a non-string is a programming error, not model input.
    throw new TypeError(`${label} is not a string`);
  }
  const nul = arg.indexOf('\0');
  if (nul !== -1) {
    throw new CarrierInputError(`${label} contains NUL (U+0000) at offset ${nul}; a NUL byte cannot be passed in a command argument`);
  }
  const lone = LONE_SURROGATE.exec(arg);
  if (lone !== null) {
    const unit = arg.charCodeAt(lone.index).toString(16).toUpperCase();
    throw new CarrierInputError(`${label} contains a lone surrogate (U+${unit}) at offset ${lone.index}; it is not valid Unicode and has no UTF-8 encoding`);
  }
  if (arg === '') return "''";
  if (BARE.test(arg) && !RESERVED.has(arg)) return arg;
  if (!CONTROL.test(arg)) return `'${arg.replaceAll("'", `'\\''`)}'`;
  return ansiC(arg);
}

// `$'...'`: bash reads at most two hex digits after \x, so always emitting two keeps a following
// literal hex digit (`\x01` + `a`) out of the escape. Non-ASCII stays literal: UTF-8 continuation
// bytes are never `\` or `'`, so they cannot interact with the escaping.
function ansiC(arg: string): string {
  let out = "$'";
  for (const ch of arg) {
    switch (ch) {
      case '\n': out += '\\n'; break;
      case '\r': out += '\\r'; break;
      case '\t': out += '\\t'; break;
      case '\\': out += '\\\\'; break;
      case "'": out += "\\'"; break;
      default: {
        const code = ch.codePointAt(0)!;
        out += code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : ch;
      }
    }
  }
  return out + "'";
}
