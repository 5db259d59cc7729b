// Source fixes for commands mvdan-sh rejects but bash runs: a bare or doubled `!`, a here-document
// word with expansions (`<<$x`), a function name with quotes or expansions (rejected when the
// function is defined), an empty extglob pattern list (`@()`).
import type { ParseError } from './parser.ts';
import { wordEnd } from './reparse-scan.ts';
import { badFuncNames, emptyGlobs, nextPlaceholderNumber, NO_CMD } from './reparse-placeholders.ts';

/**
 * `!` before `;`, a newline or the end: bash's grammar makes it an empty command, negated
 * (status 1, no errexit, no trace, no DEBUG trap); mvdan-sh refuses it, and `! !` too, which
 * bash reads as two toggles of the same flag. A run of `!`s keeps its parity: before a command,
 * one `!` or none (blanks keep the positions); alone, an empty command, `NO_CMD`, negated or not.
 */
export function fixBang(src: string, off: number, e: ParseError): string | undefined {
  if (src[off] !== '!' || !/^("!" cannot form a statement alone|cannot negate a command multiple times)$/.test(e.text)) return undefined;
  const run = /^!(?:[ \t]+!)*(?=[ \t\n;]|$)/.exec(src.slice(off))?.[0];
  if (run === undefined) return undefined;
  const n = run.split('!').length - 1, after = src.slice(off + run.length);
  const head = n % 2 ? '!' : '';
  if (/^[ \t]*(?:$|\n|;(?!;)|#)/.test(after)) return src.slice(0, off) + (head ? '! ' : '') + NO_CMD + src.slice(off + run.length);
  if (n < 2) return undefined;
  return src.slice(0, off) + head.padEnd(run.length) + after;
}

/**
 * `<<$x`, `<<${a}`, `<<$(b)`: bash takes the delimiter's text as it is (quotes removed), with no
 * expansion; mvdan-sh refuses it. The word and its terminating line become a placeholder name.
 */
export function fixHeredocWord(src: string, off: number, e: ParseError): string | undefined {
  if (!/^expansions not allowed in heredoc words/.test(e.text)) return undefined;
  const ls0 = src.lastIndexOf('\n', off - 1) + 1;
  const at = src.lastIndexOf('<<', off);
  const op = at < ls0 ? null : /^<<(-?)[ \t]*/.exec(src.slice(at, off + 1));
  if (!op) return undefined;
  off = at + op[0].length;
  const end = wordEnd(src, off);
  if (end <= off) return undefined;
  const word = src.slice(off, end);
  let delim = '';
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (c === '\\') { delim += word[++i] ?? ''; continue; }
    if (c === "'") { const j = word.indexOf("'", i + 1); delim += word.slice(i + 1, j); i = j; continue; }
    if (c === '"') {
      for (i++; i < word.length && word[i] !== '"'; i++) delim += word[i] === '\\' && /[$`"\\\n]/.test(word[i + 1] ?? '') ? word[++i] : word[i];
      continue;
    }
    delim += c;
  }
  if (delim.includes('\n')) return undefined;
  const quoted = /['"\\]/.test(word);
  // the terminating line: the first line after the `<<` line equal to it (leading tabs dropped for `<<-`)
  let ls = src.indexOf('\n', end);
  while (ls >= 0) {
    const le = src.indexOf('\n', ls + 1);
    const line = src.slice(ls + 1, le < 0 ? src.length : le);
    const tabs = op[1] ? /^\t*/.exec(line)![0].length : 0;
    if (line.slice(tabs) === delim) {
      const name = `__hpH${nextPlaceholderNumber()}`;
      return src.slice(0, off) + (quoted ? `'${name}'` : name) + src.slice(end, ls + 1 + tabs) + name + src.slice(ls + 1 + line.length);
    }
    ls = le;
  }
  return undefined;
}

/** `$x-y() { …; }`, `"a"() …`, `function $x { …; }`: a name with quotes or expansions, rejected at run time. */
export function fixFuncName(src: string, off: number, e: ParseError): string | undefined {
  let at = off;
  if (/^"function" must be followed by a name/.test(e.text)) {
    const m = /^function[ \t]+/.exec(src.slice(off));
    if (!m) return undefined;
    at += m[0].length;
  } else if (!/^invalid func name/.test(e.text)) return undefined;
  const end = wordEnd(src, at);
  const word = src.slice(at, end);
  if (end <= at || !/["'$`\\]/.test(word) || word.includes('\n')) return undefined;
  const name = `__hpF${nextPlaceholderNumber()}`;
  badFuncNames.set(name, word);
  return src.slice(0, at) + name + src.slice(end);
}

/** `@()`, `!()` (extglob, empty pattern list): mvdan-sh wants a pattern; `@(|)` is the same one. */
export function fixEmptyExtglob(src: string, off: number): string | undefined {
  if (src.slice(off, off + 2) !== '()' || !/[@!?*+]/.test(src[off - 1] ?? '')) return undefined;
  emptyGlobs.add(off - 1);
  return src.slice(0, off + 1) + '|' + src.slice(off + 1);
}
