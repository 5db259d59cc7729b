// Canonical Bash quoting of one word: the exec wrapper's own (host/carriers/bash-quote.ts calls
// quoteWordAs), so a plugin that splices a word into a `template` quotes it exactly as the wrapper
// quotes argv. One value always yields the same text, the text never spans physical lines, and bash
// parses it back (as a word) to exactly the value's UTF-8 bytes.

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

// The exec wrapper's template placeholder.
const PLACEHOLDER = '{.}';

export type QuotedWord = { readonly ok: true; readonly quoted: string } | { readonly ok: false; readonly error: string };

/**
 * Quotes one value as one Bash word for a `template`, exactly as the exec wrapper quotes each argv
 * value: bare when only `[A-Za-z0-9_@%+,:./-]` (and not a reserved word), `''` when empty,
 * single-quoted otherwise, `$'…'` when it holds a control character. One addition: a `{.}` in the
 * value is split (`'a{'.'}b'`), since a template must hold the placeholder exactly once. A NUL or a
 * lone surrogate cannot be carried in a command argument: `{ ok: false, error }`.
 */
export function shellQuote(word: string): QuotedWord {
  const q = quoteWordAs(word, 'value');
  if (!q.ok || !q.quoted.includes(PLACEHOLDER)) return q;
  // Quoting inserts only ' \ $ and escape letters, never { . }, so every `{.}` in the text is the
  // value's own, inside the quotes: close them around the dot, reopen in the same style.
  const reopen = q.quoted.startsWith("$'") ? "$'" : "'";
  return { ok: true, quoted: q.quoted.split(PLACEHOLDER).join(`{'.${reopen}}`) };
}

/** shellQuote with `label` naming the value in the error (the exec wrapper says `argv[2]`). */
export function quoteWordAs(word: string, label: string): QuotedWord {
  if (typeof word !== 'string') return { ok: false, error: `${label} is not a string` };
  const nul = word.indexOf('\0');
  if (nul !== -1) {
    return { ok: false, error: `${label} contains NUL (U+0000) at offset ${nul}; a NUL byte cannot be passed in a command argument` };
  }
  const lone = LONE_SURROGATE.exec(word);
  if (lone !== null) {
    const unit = word.charCodeAt(lone.index).toString(16).toUpperCase();
    return { ok: false, error: `${label} contains a lone surrogate (U+${unit}) at offset ${lone.index}; it is not valid Unicode and has no UTF-8 encoding` };
  }
  if (word === '') return { ok: true, quoted: "''" };
  if (BARE.test(word) && !RESERVED.has(word)) return { ok: true, quoted: word };
  if (!CONTROL.test(word)) return { ok: true, quoted: `'${word.split("'").join(`'\\''`)}'` };
  return { ok: true, quoted: ansiC(word) };
}

// `$'...'`: bash reads at most two hex digits after \x, so always emitting two keeps a following
// literal hex digit (`\x01` + `a`) out of the escape. Non-ASCII stays literal: UTF-8 continuation
// bytes are never `\` or `'`, so they cannot interact with the escaping.
function ansiC(word: string): string {
  let out = "$'";
  for (const ch of word) {
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
