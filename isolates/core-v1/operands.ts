// Integers, line ranges and quoted operands, shared so a plugin's parser and the host agree exactly.

/** Decimal positive integer: digits only, no sign, no leading zero, ≤ Number.MAX_SAFE_INTEGER; else null. */
export function parsePositiveInt(s: string): number | null {
  if (!/^[1-9][0-9]*$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : null;
}

/** An inclusive 1-based line range; `end` null means "through the last line". */
export interface LineRange {
  readonly start: number;
  readonly end: number | null;
}

/**
 * `N` (line N), `N-M` (N through M, M ≥ N) or `N-` (N through the end), each number as parsePositiveInt.
 * No spaces, no `:`, no open start: anything else is null. Whether N exists in a file is the caller's check.
 */
export function parseLineRange(s: string): LineRange | null {
  const dash = s.indexOf('-');
  if (dash < 0) {
    const n = parsePositiveInt(s);
    return n === null ? null : { start: n, end: n };
  }
  const start = parsePositiveInt(s.slice(0, dash));
  if (start === null) return null;
  const rest = s.slice(dash + 1);
  if (rest === '') return { start, end: null };
  const end = parsePositiveInt(rest);
  return end === null || end < start ? null : { start, end };
}

const SPACE_OR_TAB = /[ \t]/;
// Not allowed in a bare word. A backslash is refused rather than read literally or as a shell escape:
// `my\ file` and `C:\dir` mean different things to different readers, so the model must quote.
const BARE_FORBIDDEN = /[\s'"\\]/;

/** Escapes decoded inside double quotes. Any other backslash pair is kept as written (shell-like). */
const DQ_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', n: '\n', t: '\t' };

/**
 * Reads one operand starting at s[i]; returns the value and the index after it, or null when malformed.
 * Stops at an unquoted ASCII space/tab (or the end).
 */
function readOperand(s: string, i: number): { value: string; next: number } | null {
  const q = s[i];
  let value: string;
  let next: number;
  if (q === "'") {
    const close = s.indexOf("'", i + 1);
    if (close < 0) return null;
    value = s.slice(i + 1, close);
    next = close + 1;
  } else if (q === '"') {
    let out = '';
    let j = i + 1;
    for (;;) {
      if (j >= s.length) return null;
      const c = s[j]!;
      if (c === '"') break;
      if (c === '\\') {
        if (j + 1 >= s.length) return null;
        const e = s[j + 1]!;
        out += DQ_ESCAPES[e] ?? '\\' + e;
        j += 2;
        continue;
      }
      out += c;
      j++;
    }
    value = out;
    next = j + 1;
  } else {
    let j = i;
    while (j < s.length && !SPACE_OR_TAB.test(s[j]!)) j++;
    value = s.slice(i, j);
    if (value === '' || BARE_FORBIDDEN.test(value)) return null;
    next = j;
  }
  // A quoted operand must end the word: `'a'b` or `"a"'b'` concatenations are not accepted.
  if (next < s.length && !SPACE_OR_TAB.test(s[next]!)) return null;
  if (value.includes('\0')) return null;
  return { value, next };
}

/**
 * Decodes exactly one operand:
 * - bare word: non-empty, no whitespace, no `'`, `"` or `\`; taken literally (no `$`, glob or other expansion);
 * - '…': everything between the quotes, verbatim (no escapes; cannot contain `'`);
 * - "…": `\"` `\\` `\n` `\t` are decoded, any other `\x` stays as the two characters `\x`.
 * Null for an unterminated quote, a trailing backslash inside "…", text after the closing quote,
 * an empty bare word, a backslash or quote in a bare word, surrounding whitespace, or a NUL in the value.
 */
export function decodeQuotedOperand(s: string): string | null {
  if (s === '') return null;
  const r = readOperand(s, 0);
  return r !== null && r.next === s.length ? r.value : null;
}

/**
 * Splits `s` into operands separated by runs of ASCII spaces/tabs, each decoded as decodeQuotedOperand.
 * Leading/trailing spaces and tabs are ignored; '' or only blanks → []; any malformed operand → null.
 * Other whitespace (newline, CR, …) is not a separator and makes a bare word malformed.
 */
export function splitQuotedOperands(s: string): string[] | null {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    while (i < s.length && SPACE_OR_TAB.test(s[i]!)) i++;
    if (i >= s.length) return out;
    const r = readOperand(s, i);
    if (r === null) return null;
    out.push(r.value);
    i = r.next;
  }
}
