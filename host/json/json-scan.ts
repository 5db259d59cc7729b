// Locates values inside JSON text by offset, so the request and response rewrites can splice
// the few parts they own and copy every other byte unchanged. Callers validate the text with
// JSON.parse first: the scanner assumes well-formed JSON and only skips, never validates.

/** A half-open range [start, end) of UTF-16 offsets into the scanned text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface Member {
  readonly key: string;
  readonly value: Span;
}

const QUOTE = 0x22, BACKSLASH = 0x5c, OPEN_OBJ = 0x7b, CLOSE_OBJ = 0x7d, OPEN_ARR = 0x5b,
  CLOSE_ARR = 0x5d, COMMA = 0x2c, COLON = 0x3a;

function skipWhitespace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

/** `i` at an opening quote; returns the offset after the closing quote. */
function skipString(text: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) throw new SyntaxError(`unterminated string at ${i}`);
    let backslashes = 0;
    for (let k = q - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** `i` at the first character of a value; returns the offset just after it. */
export function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return skipString(text, i);
  if (c === OPEN_OBJ || c === OPEN_ARR) {
    let depth = 0;
    for (;;) {
      const d = text.charCodeAt(i);
      if (d === QUOTE) { i = skipString(text, i); continue; }
      if (d === OPEN_OBJ || d === OPEN_ARR) depth++;
      else if (d === CLOSE_OBJ || d === CLOSE_ARR) { if (--depth === 0) return i + 1; }
      else if (Number.isNaN(d)) throw new SyntaxError('unexpected end of JSON');
      i++;
    }
  }
  // number, true, false, null
  let j = i;
  for (;;) {
    const d = text.charCodeAt(j);
    if (Number.isNaN(d) || d === COMMA || d === CLOSE_OBJ || d === CLOSE_ARR || d === 0x20 ||
      d === 0x0a || d === 0x0d || d === 0x09) return j;
    j++;
  }
}

/** Members of the object whose `{` is at `start`, in text order. */
export function objectMembers(text: string, start: number): Member[] {
  if (text.charCodeAt(start) !== OPEN_OBJ) throw new SyntaxError(`expected object at ${start}`);
  const out: Member[] = [];
  let i = skipWhitespace(text, start + 1);
  if (text.charCodeAt(i) === CLOSE_OBJ) return out;
  for (;;) {
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWhitespace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) throw new SyntaxError(`expected ':' at ${i}`);
    const vStart = skipWhitespace(text, i + 1);
    const vEnd = skipValue(text, vStart);
    out.push({ key, value: { start: vStart, end: vEnd } });
    i = skipWhitespace(text, vEnd);
    const c = text.charCodeAt(i);
    if (c === CLOSE_OBJ) return out;
    if (c !== COMMA) throw new SyntaxError(`expected ',' or '}' at ${i}`);
    i = skipWhitespace(text, i + 1);
  }
}

/** The value span of `key` in the object at `start` (the last one, as JSON.parse keeps), or undefined. */
export function memberValue(text: string, start: number, key: string): Span | undefined {
  let found: Span | undefined;
  for (const m of objectMembers(text, start)) if (m.key === key) found = m.value;
  return found;
}

/** Element spans of the array whose `[` is at `start`. */
export function arrayElements(text: string, start: number): Span[] {
  if (text.charCodeAt(start) !== OPEN_ARR) throw new SyntaxError(`expected array at ${start}`);
  const out: Span[] = [];
  let i = skipWhitespace(text, start + 1);
  if (text.charCodeAt(i) === CLOSE_ARR) return out;
  for (;;) {
    const end = skipValue(text, i);
    out.push({ start: i, end });
    i = skipWhitespace(text, end);
    const c = text.charCodeAt(i);
    if (c === CLOSE_ARR) return out;
    if (c !== COMMA) throw new SyntaxError(`expected ',' or ']' at ${i}`);
    i = skipWhitespace(text, i + 1);
  }
}

/** Offset of the first non-whitespace character (the root value). */
export function rootStart(text: string): number {
  return skipWhitespace(text, 0);
}
