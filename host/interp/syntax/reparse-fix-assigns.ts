// Source fixes for assignments and declaration words mvdan-sh rejects: subscripts bash reads as
// strings or only at run time, array literals (`[k]+=v`, `a[i]=(…)`, `A=(x y) cmd`), `a[]=v`,
// compound assignments as arguments of `let`/`eval`, and declaration builtins' words with an
// invalid name or an expansion (placeholders the builtin reads at run time).
import type { ParseError } from './parser.ts';
import { badSubstAt, SUBSCRIPT_GOES_ON } from './reparse-fix-params.ts';
import { firstUnbalanced, paramClose, wordEnd } from './reparse-scan.ts';
import { appendMarks, badAssigns, declWords, nextPlaceholderNumber, placeholder } from './reparse-placeholders.ts';

/**
 * `h[new key]=1`, `A=([/path]=x)`: bash reads the subscript of an assignment as a string (the
 * key of an associative array), mvdan-sh as arithmetic, which fails: the subscript is quoted.
 */
export function fixSubscript(src: string, off: number): string | undefined {
  const ls = src.lastIndexOf('\n', off - 1) + 1;
  const open = src.lastIndexOf('[', off);
  if (open < ls || src.slice(open, off).includes(']')) return undefined;
  const close = src.indexOf(']', off);
  const le = src.indexOf('\n', off);
  if (close < 0 || (le >= 0 && close > le)) return undefined;
  const inner = src.slice(open + 1, close);
  if (inner === '' || /["'`\\]/.test(inner)) return undefined;
  // `name[` starting a word, `[` starting an element of an array literal (both before `]=`), or `${name[`
  let k = open;
  while (k > ls && /[A-Za-z0-9_]/.test(src[k - 1]!)) k--;
  const pre = /[#!]/.test(src[k - 1] ?? '') ? 1 : 0; // (`${#a[`, `${!a[`)
  const param = k < open && /^[A-Za-z_]/.test(src[k]!) && src.slice(k - 2 - pre, k - pre) === '${';
  if (!param) {
    if (!/^\]\+?=/.test(src.slice(close, close + 3))) return undefined;
    if (k === open ? !/[\s(]/.test(src[open - 1] ?? '') : !/^[A-Za-z_]/.test(src[k]!) || (k > ls && !/[\s;&|({]/.test(src[k - 1]!))) return undefined;
  } else {
    // The `}` bash's parser matched is inside the brackets (`"${x[1}]"`): bash reads the
    // subscript on past it when it expands the word, which works only if a `}` follows in the
    // same word (`${x[1}]}`); otherwise that `${…}` is a run-time bad substitution.
    const d = k - 2 - pre;
    const bc = paramClose(src, d, off);
    if (typeof bc === 'number' && bc < close && !SUBSCRIPT_GOES_ON.test(src.slice(close + 1))) return badSubstAt(src, d + 1);
    // (the subscript is read when the word is expanded, as for fixRawSubscript)
    return src.slice(0, open + 1) + placeholder(inner) + src.slice(close);
  }
  return src.slice(0, open + 1) + '"' + inner + '"' + src.slice(close);
}

/**
 * `let x=( 1 + 2 )`, `eval a=( x y )`: bash reads a compound assignment in the arguments of these
 * builtins as one word (the text with its blanks); mvdan-sh refuses it. The word gets double quotes.
 */
export function fixCompoundArg(src: string, off: number): string | undefined {
  if (src[off] !== '(') return undefined;
  const ls = src.lastIndexOf('\n', off - 1) + 1;
  let ws = off;
  while (ws > ls && !/[\s;&|()]/.test(src[ws - 1]!)) ws--;
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=$/.test(src.slice(ws, off))) return undefined;
  const m = /(?:^|[;&|({!]|\bthen|\bdo|\belse)\s*\\?(let|eval)(?:\s+(?:"[^"]*"|'[^']*'|[^\s;&|()<>"'])+)*\s+$/.exec(src.slice(ls, ws));
  if (!m) return undefined;
  const close = firstUnbalanced(src, off + 1);
  if (close < 0 || src.slice(off, close).includes('\n')) return undefined;
  // the unquoted runs get double quotes: the blanks stay, quotes are removed as usual
  const text = src.slice(ws, close);
  if (/[`\\]|\$\(/.test(text)) return undefined;
  let out = '';
  for (let i = 0; i < text.length;) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      const j = text.indexOf(c, i + 1);
      if (j < 0) return undefined;
      out += text.slice(i, j + 1); i = j + 1; continue;
    }
    const j = text.slice(i).search(/["']/);
    const k = j < 0 ? text.length : i + j;
    out += '"' + text.slice(i, k) + '"'; i = k;
  }
  return src.slice(0, ws) + out + src.slice(close);
}

/** `export a-b=c`: bash's builtin reports the invalid name at run time. */
export function fixDeclName(src: string, off: number, e: ParseError): string | undefined {
  if (!/^invalid var name/.test(e.text) || src[off] === '\\' || src.startsWith('""', off)) return undefined;
  const end = wordEnd(src, off);
  const text = src.slice(off, end);
  if (end > off && /[$`]/.test(text) && !text.includes('\n')) {
    // `local a=1 $name`: mvdan-sh takes no expansion after an assignment; the word becomes a
    // placeholder name (`__hpD<n>`) that the builtin expands at run time
    const name = `__hpD${nextPlaceholderNumber()}`;
    declWords.set(name, text);
    return src.slice(0, off) + name + src.slice(end);
  }
  return src.slice(0, off) + '""' + src.slice(off); // `""a-b=c`: an ordinary word
}

/** Whether `((`, `$((` or `$[` before `at` on its line is still open there (arithmetic, left to fixDparen). */
function inArith(src: string, at: number): boolean {
  const seg = src.slice(src.lastIndexOf('\n', at - 1) + 1, at);
  return seg.split('((').length - seg.split('))').length > 0 || /\$\[[^\]]*$/.test(seg);
}

/**
 * `a=([k]+=v)`: mvdan-sh wants `=` after `[k]`. The value gets a marker prefix (`__hpP<n>_`),
 * which `markAppends` takes off again once the script parses, putting the element in appendElems.
 */
export function fixElemAppend(src: string, off: number, e: ParseError): string | undefined {
  if (!/^"\[.*\]" must be followed by =/.test(e.text) || src[off] !== '[') return undefined;
  const le = src.indexOf('\n', off);
  const close = src.slice(off, le < 0 ? src.length : le).search(/\]\+=/);
  if (close < 0) return undefined;
  const mark = `__hpP${nextPlaceholderNumber()}_`;
  appendMarks.add(mark);
  return src.slice(0, off + close) + ']=' + mark + src.slice(off + close + 3);
}

/**
 * `a[1 + 2]` where an assignment could start, but without `=`: bash reads one word (a command
 * name, globbed); mvdan-sh wants an assignment. The blanks are escaped and `""` put in front.
 */
export function fixBlankSubscriptWord(src: string, off: number, e: ParseError): string | undefined {
  if (!/^"[A-Za-z_][A-Za-z0-9_]*\[b\]\+?" must be followed by =/.test(e.text)) {
    // (`a[1 2]`: an arithmetic error inside the brackets)
    const ls = src.lastIndexOf('\n', off - 1) + 1, open = src.lastIndexOf('[', off);
    if (open < ls || src.slice(open, off).includes(']')) return undefined;
    let k = open;
    while (k > ls && /[A-Za-z0-9_]/.test(src[k - 1]!)) k--;
    if (k === open || !/[A-Za-z_]/.test(src[k]!) || (k > ls && !/[\s;&|({]/.test(src[k - 1]!)) || src.slice(k - 2, k) === '${' || inArith(src, k)) return undefined;
    const close = src.indexOf(']', off);
    if (close < 0 || /^\+?=/.test(src.slice(close + 1, close + 3))) return undefined;
    off = k;
  }
  const m = /^[A-Za-z_][A-Za-z0-9_]*\[([^\]\n'"`\\]*)\]/.exec(src.slice(off, off + 400));
  if (!m || !/\s/.test(m[1]!)) return undefined;
  return src.slice(0, off) + '""' + m[0].replace(/[ \t]/g, '\\$&') + src.slice(off + m[0].length);
}

/**
 * `a[]=v`, `a[]+=v`: bash's run-time "bad array subscript" (before a command: "not a valid
 * identifier", the command runs); `declare a[]=v` reports it from the builtin; `${a[]}` is a bad
 * substitution.
 */
export function fixEmptySubscript(src: string, off: number, e: ParseError): string | undefined {
  if (!/^\[ must be followed by an expression/.test(e.text)) return undefined;
  // (mvdan-sh's column is not always the `[`'s: `arr[]` is reported at its `r`)
  while (/[A-Za-z0-9_]/.test(src[off] ?? '')) off++;
  if (src.slice(off, off + 2) !== '[]') return undefined;
  const ls = src.lastIndexOf('\n', off - 1) + 1;
  let k = off;
  while (k > ls && /[A-Za-z0-9_]/.test(src[k - 1]!)) k--;
  if (k === off || !/[A-Za-z_]/.test(src[k]!)) return undefined;
  if (src.slice(k - 2, k) === '${') return badSubstAt(src, off);
  if ((k > ls && !/[\s;&|({]/.test(src[k - 1]!)) || inArith(src, k)) return undefined;
  const op = /^\]\+?=/.exec(src.slice(off + 1, off + 4))?.[0];
  if (!op) return undefined;
  const lhs = src.slice(k, off + 2);
  if (/(^|[;&|({!]|\bthen|\bdo|\belse)\s*(declare|typeset|local|export|readonly)(\s+[^\s;&|()<>]+)*\s+$/.test(src.slice(ls, k))) {
    const end = wordEnd(src, k);
    if (end <= k || src.slice(k, end).includes('\n')) return undefined;
    const name = `__hpD${nextPlaceholderNumber()}`;
    declWords.set(name, src.slice(k, end));
    return src.slice(0, k) + name + src.slice(end);
  }
  const name = `__hpE${nextPlaceholderNumber()}`;
  badAssigns.set(name, { message: `${lhs}: bad array subscript`, discard: true, prefix: `\`${lhs}': not a valid identifier` });
  return src.slice(0, k) + name + src.slice(off + 2);
}

/**
 * Assignments mvdan-sh rejects: `a[i]=(…)` and `a[i]+=(…)` ("arrays cannot be nested"), and
 * in front of a command `a[i]=v` ("inline variables cannot be arrays": a placeholder, see
 * badAssigns) or `A=(x y)` (bash passes the text `(x y)` as a plain string: the parentheses
 * and blanks get escaped).
 */
export function fixArrayAssign(src: string, off: number, e: ParseError): string | undefined {
  const nested = /^arrays cannot be nested/.test(e.text);
  if (!nested && !/^inline variables cannot be arrays/.test(e.text)) return undefined;
  let start = off;
  if (nested) {
    // off is at `(`: back over `=`/`+=`, `[…]` and the name
    let j = off - 1;
    if (src[j] !== '=') return undefined;
    j--;
    if (src[j] === '+') j--;
    if (src[j] !== ']') return undefined;
    const ls = src.lastIndexOf('\n', j) + 1;
    const open = src.lastIndexOf('[', j);
    if (open < ls) return undefined;
    start = open;
    while (start > ls && /[A-Za-z0-9_]/.test(src[start - 1]!)) start--;
  }
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]\n]*\])?(\+?=)/.exec(src.slice(start, start + 400));
  if (!m) return undefined;
  const vstart = start + m[0].length;
  let vend: number;
  if (src[vstart] === '(') {
    vend = firstUnbalanced(src, vstart + 1);
    if (vend < 0 || src.slice(vstart, vend).includes('\n')) return undefined;
  } else vend = wordEnd(src, vstart);
  const name = `__hpE${nextPlaceholderNumber()}`;
  if (m[2]) {
    const message = src[vstart] === '(' ? `${m[1]}${m[2]}: cannot assign list to array member` : `\`${m[1]}${m[2]}': not a valid identifier`;
    badAssigns.set(name, { message, discard: src[vstart] === '(' });
    return src.slice(0, start) + name + '=' + src.slice(vend);
  }
  if (src[vstart] !== '(') return undefined;
  // `A=(x y) cmd`: the value is the text itself
  let esc = '';
  const inner = src.slice(vstart, vend);
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c === '\\') { esc += c + (inner[i + 1] ?? ''); i++; continue; }
    if (c === "'" || c === '"' || c === '`' || (c === '$' && (inner[i + 1] === '(' || inner[i + 1] === '{'))) {
      const k = wordEnd(inner, i);
      if (k <= i) return undefined;
      // copy the quoted/expansion run up to the next unquoted blank or operator
      esc += inner.slice(i, k);
      i = k - 1;
      continue;
    }
    esc += /[\s;&|<>()]/.test(c) ? '\\' + c : c;
  }
  return src.slice(0, vstart) + esc + src.slice(vend);
}
