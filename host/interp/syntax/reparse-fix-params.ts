// Source fixes for `${…}` mvdan-sh rejects: what bash rejects only when it expands the word
// becomes a "bad substitution" placeholder (`${__hpB<n>}`); substring offsets and subscripts it
// evaluates at run time become raw arithmetic; `${x~}`, `${x@k}` and `${###}` are parsed as forms
// mvdan-sh knows and given their own meaning back after the parse.
import type { ParseError } from './parser.ts';
import { paramClose } from './reparse-scan.ts';
import { newBadSubst, nextPlaceholderNumber, numParams, paramOps, placeholder, rawArith } from './reparse-placeholders.ts';

/** `${s: }`, `${s::}`, `${s:1:}`: an empty offset or length is 0 for bash (`${s:}` is a bad substitution). */
export function fixEmptySlice(src: string, off: number, e: ParseError): string | undefined {
  if (!/^: must be followed by an expression/.test(e.text) || src[off] !== ':' || !/^:[ \t]*[:}]/.test(src.slice(off, off + 200))) return undefined;
  const offset = /\$\{[^${}:]*$/.test(src.slice(Math.max(0, off - 200), off));
  if (offset && src[off + 1] === '}') return badSubstAt(src, off);
  return src.slice(0, off + 1) + '0' + src.slice(off + 1);
}

/**
 * `${s:1:2:3}`, `${s:(1:2)}`, `${s:1:2?3}`: bash splits a substring's offset from its length at the
 * first `:` that is no `?:` partner, outside parentheses, and evaluates both as arithmetic when it
 * expands the word, so what mvdan-sh rejects in them is a run-time arithmetic error
 * (`s: 2:3: syntax error in expression`): each part becomes raw arithmetic text.
 */
export function fixSliceArith(src: string, off: number): string | undefined {
  const d = src.lastIndexOf('${', off);
  if (d < 0) return undefined;
  const m = /^\$\{(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])(?:\[[^\]\n]*\])?:(?![-=?+])/.exec(src.slice(d, d + 200));
  if (!m) return undefined;
  const from = d + m[0].length;
  const close = paramClose(src, d, off);
  if (typeof close !== 'number' || off < from || off > close) return undefined;
  const text = src.slice(from, close);
  if (text.includes('\n') || /[`'"\\]|\$\(|\$\{/.test(text)) return undefined;
  let depth = 0, cond = 0, cut = -1;
  for (let i = 0; i < text.length && cut < 0; i++) {
    const c = text[i]!;
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && c === '?') cond++;
    else if (depth === 0 && c === ':') { if (cond > 0) cond--; else cut = i; }
  }
  const part = (t: string): string => (t.trim() === '' ? t : placeholder(t));
  const repl = cut < 0 ? part(text) : part(text.slice(0, cut)) + ':' + part(text.slice(cut + 1));
  return src.slice(0, from) + repl + src.slice(close);
}

/** After a subscript's `]`: a `}` in the same word (bash's run-time scan then closes the `${` there). */
export const SUBSCRIPT_GOES_ON = /^[^\s;&|<>()"'`\\]*?\}/;

/**
 * `${a[#+1]}`, `${x[)1]}`, `${a[ ]}`, `${h[new key]}`: a subscript mvdan-sh cannot parse. bash
 * reads it when it expands the word (an arithmetic error then, or an associative array's key),
 * so its text becomes a placeholder (`__hpA<n>`) evaluated at run time. Not an empty one
 * (`${a[]}`: a bad substitution), nor one the `}` bash matched is inside (fixSubscript).
 */
export function fixRawSubscript(src: string, off: number): string | undefined {
  for (let d = src.lastIndexOf('${', off), tries = 0; d >= 0 && tries < 4; d = src.lastIndexOf('${', d - 1), tries++) {
    const m = /^\$\{[!#]?[A-Za-z_][A-Za-z0-9_]*\[/.exec(src.slice(d, d + 200));
    if (!m) continue;
    const open = d + m[0].length - 1;
    if (open > off) continue;
    let close = -1;
    for (let i = open, depth = 0; i < src.length && src[i] !== '\n'; i++) {
      const c = src[i]!;
      if (c === '\\') { i++; continue; }
      if (c === '[') depth++;
      else if (c === ']' && --depth === 0) { close = i; break; }
    }
    if (close < off) return undefined;
    const bc = paramClose(src, d, off);
    // (a `}` bash matched inside the brackets: only when a `}` follows in the word, `${x[}]}`)
    if (typeof bc !== 'number' || (bc < close && !SUBSCRIPT_GOES_ON.test(src.slice(close + 1)))) return undefined;
    const inner = src.slice(open + 1, close);
    if (inner === '' || /["'`]/.test(inner)) return undefined;
    return src.slice(0, open + 1) + placeholder(inner) + src.slice(close);
  }
  return undefined;
}

/** `${ cmd;}`, `${|cmd;}`, `${%}`: bash fails only when it expands them ("bad substitution"). */
export function fixBadSubst(src: string, off: number, e: ParseError): string | undefined {
  if (!/^"\$\{/.test(e.text) && !/bad substitution|invalid parameter name|not a valid parameter|cannot combine multiple parameter expansion operators/.test(e.text)) {
    // (`${a b}`, `${=x}`, `${#x[}`: bash's "bad substitution" when the word is expanded)
    if (/^(?:LitWord cannot be followed by a word|parameter expansion requires a literal|\[ must be followed by an expression)$/.test(e.text)) return badSubstAt(src, off, true);
    return undefined;
  }
  return badSubstAt(src, off);
}

export function badSubstAt(src: string, off: number, enclosing = false): string | undefined {
  const d = src.lastIndexOf('${', off + 1);
  if (d < 0) return undefined;
  const i = paramClose(src, d, off);
  if (typeof i !== 'number' || (enclosing && (i < off || src.slice(d, i + 1).includes('\n')))) return undefined;
  const text = src.slice(d, i + 1);
  const name = newBadSubst(text.replace(/__hpS\d+/g, '#').replace(/ ?(__hpA\d+) \n*/g, (m, n: string) => rawArith.get(n) ?? m));
  return src.slice(0, d) + '${' + name + '}' + '\n'.repeat(text.split('\n').length - 1) + src.slice(i + 1);
}

/**
 * Any other error inside `${…}`: bash's parser only matches the braces (quotes and nesting
 * respected) and looks inside when the word is expanded, so what it finds there is a run-time
 * "bad substitution" (the command fails, the script goes on), never a syntax error. Not when the
 * error is inside a `$(…)` or backquotes within it: bash parses those when it reads the line.
 */
export function enclosingBadSubst(src: string, off: number): string | undefined {
  for (let d = src.lastIndexOf('${', off), tries = 0; d >= 0 && tries < 8; d = src.lastIndexOf('${', d - 1), tries++) {
    const close = paramClose(src, d, off);
    if (close === 'inside-command') return undefined;
    if (close !== null && close >= off) return badSubstAt(src, d + 1);
  }
  return undefined;
}

/**
 * bash's `${x~}`/`${x~~}` (toggle case) and `${x@k}`: mvdan-sh knows neither. They are parsed
 * as `^`/`^^`/`@K` (same length: positions stay) and given their own operator back afterwards.
 */
export function fixParamOps(src: string, off: number, e: ParseError): string | undefined {
  let rep: string, len: number;
  if (/^invalid @ expansion operator/.test(e.text) && src.slice(off - 1, off + 2) === '@k}') { rep = '@K'; len = 2; off -= 2; }
  else if (/^LitWord cannot be followed by a word|^not a valid parameter expansion operator: LitWord|^[@*] cannot be followed by a word/.test(e.text) && src[off] === '~') { len = src[off + 1] === '~' ? 2 : 1; rep = '^'.repeat(len); off--; }
  else return undefined;
  const d = paramStart(src, off);
  if (d < 0) return undefined;
  paramOps.set(d, rep === '@K' ? 'k' : src.slice(off + 1, off + 1 + len));
  return src.slice(0, off + 1) + rep + src.slice(off + 1 + len);
}

/** Offset of the `${` whose name (and subscript) ends at `end` (inclusive), or -1. */
function paramStart(src: string, end: number): number {
  let i = end;
  if (src[i] === ']') { i = src.lastIndexOf('[', i); if (i < 0) return -1; i--; }
  if (/[@*#?$!0-9-]/.test(src[i] ?? '') && src.slice(i - 2, i) === '${') return i - 2;
  while (i >= 0 && /[A-Za-z0-9_]/.test(src[i]!)) i--;
  return src.slice(i - 1, i + 1) === '${' ? i - 1 : -1;
}

/**
 * `${###}`, `${##2}`, `${#@Q}`: `$#` with a `#`/`##` removal or an `@` operator, which mvdan-sh
 * reads as a length. `$#` is renamed `__hpS<n>` for the parse and named `#` again afterwards
 * (`markAppends`).
 */
export function fixNumParams(src: string, off: number, e: ParseError): string | undefined {
  if (!/^parameter expansion requires a literal|^[#@] cannot be followed by a word|^cannot combine multiple parameter expansion operators|^cannot index a special parameter name/.test(e.text)) return undefined;
  const d = src.lastIndexOf('${#', off);
  if (d < 0 || d < off - 6 || !/^\$\{#[#@]/.test(src.slice(d, d + 4))) return undefined;
  const name = `__hpS${nextPlaceholderNumber()}`;
  numParams.add(name);
  return src.slice(0, d + 2) + name + src.slice(d + 3);
}
