// Source fixes for arithmetic mvdan-sh rejects: `((`/`$((` that bash reads as a nested subshell
// or command substitution (`( (`), other arithmetic as a placeholder for its raw text (evaluated at
// run time, as bash does), `let` as `\let`, and the old `$[…]` form.
import { firstUnbalanced } from './reparse-scan.ts';
import { placeholder } from './reparse-placeholders.ts';

/** `((`, `$((` and `for ((` around `off`: subshell vs arithmetic as bash decides. */
export function fixDparen(src: string, off: number): string | undefined {
  const lo = Math.max(0, off - 20000);
  for (let j = Math.min(off + 1, src.length - 2); j >= lo; j--) {
    if (src[j] !== '(' || src[j + 1] !== '(') continue;
    // bash's lexer pairs a run of `(` from its start: `(((` is `((` + `(`
    let r = j;
    while (r > 0 && src[r - 1] === '(') r--;
    const dollar = r > 0 && src[r - 1] === '$';
    if ((j - r) % 2 !== 0) continue;
    const close = firstUnbalanced(src, j + 2);
    if (close < 0 || close < off) continue;
    // (a `$((` whose second `)` never comes is arithmetic left open for bash, not a subshell)
    if (src[close] !== ')' && dollar && firstUnbalanced(src, close) < 0) return undefined;
    if (src[close] !== ')') return src.slice(0, j + 1) + ' ' + src.slice(j + 1); // ( ( … ) …)
    // arithmetic for bash
    const inner = src.slice(j + 2, close - 1);
    let repl: string;
    if (!dollar && /(^|[\s;&|(])for\s*$/.test(src.slice(Math.max(0, j - 10), j))) {
      const parts = splitTop(inner);
      if (parts.length !== 3) return undefined;
      repl = parts.map((p) => (p.trim() === '' ? p : placeholder(p))).join(';');
    } else repl = placeholder(inner);
    return src.slice(0, j + 2) + repl + src.slice(close - 1);
  }
  return undefined;
}

/** Splits arithmetic text at `;` outside parentheses and quotes. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0, start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '"' || c === "'") { const j = s.indexOf(c, i + 1); if (j > 0) i = j; }
    else if (c === ';' && depth === 0) { out.push(s.slice(start, i)); start = i + 1; }
  }
  out.push(s.slice(start));
  return out;
}

/** A `let` command on the error's line becomes `\let` (its arguments are then plain words). */
export function fixLet(src: string, off: number): string | undefined {
  const ls = src.lastIndexOf('\n', off - 1) + 1;
  const seg = src.slice(ls, Math.min(src.length, off + 3));
  const re = /(^|[;&|({!]|\bthen|\bdo|\belse)(\s*)let(?=\s|$)/g;
  let m: RegExpExecArray | null, at = -1;
  while ((m = re.exec(seg))) at = m.index + m[1]!.length + m[2]!.length;
  if (at < 0) return undefined;
  const p = ls + at;
  return src.slice(0, p) + '\\' + src.slice(p);
}

/**
 * `$[EXPR]`, the old arithmetic form, that mvdan-sh cannot read: bash matches the brackets when
 * it parses and evaluates the text when it expands it, so it becomes `$((EXPR))` and takes the
 * raw-arithmetic path (a malformed expression is a run-time error there, as in bash).
 */
export function fixOldArith(src: string, off: number): string | undefined {
  const d = src.lastIndexOf('$[', off);
  if (d < 0) return undefined;
  let depth = 0;
  for (let i = d + 2; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\n') return undefined;
    if (c === '\\') { i++; continue; } // (bash's parse_matched_pair skips `\]`)
    if (c === '[') depth++;
    else if (c === ']') {
      if (depth > 0) { depth--; continue; }
      if (i < off) return undefined;
      // (as a placeholder: a `)` in the text must not make a `$( (` of it)
      return `${src.slice(0, d)}$((${placeholder(src.slice(d + 2, i))}))${src.slice(i + 1)}`;
    }
  }
  return undefined;
}
