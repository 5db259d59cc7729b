// Go lexical helpers (The Go Programming Language Specification, "Lexical elements"). They back
// hsymbol's Go definitions, so the scanner must never mistake a comment or literal for code.
import { isValidUtf8, isWellFormed, utf8Decode, utf8Encode } from './utf8.ts';

/** The 25 Go keywords. */
export const GO_KEYWORDS: readonly string[] = Object.freeze([
  'break', 'case', 'chan', 'const', 'continue', 'default', 'defer', 'else', 'fallthrough', 'for', 'func',
  'go', 'goto', 'if', 'import', 'interface', 'map', 'package', 'range', 'return', 'select', 'struct',
  'switch', 'type', 'var',
]);
const KEYWORDS = new Set(GO_KEYWORDS);

const IDENT_WHOLE = /^[\p{L}_][\p{L}\p{Nd}_]*$/u;
const IDENT_AT = /[\p{L}_][\p{L}\p{Nd}_]*/uy;

/** A Go identifier: a Unicode letter (category L) or `_`, then letters, `_` or decimal digits (Nd); not a keyword. */
export function isGoIdentifier(s: string): boolean {
  return IDENT_WHOLE.test(s) && !KEYWORDS.has(s);
}

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, '"': 34 };

function pushCodePoint(out: number[], cp: number): void {
  for (const b of utf8Encode(String.fromCodePoint(cp))) out.push(b);
}

/**
 * The bytes a Go string literal denotes, or null when `lit` is not exactly one valid literal.
 * Raw `…`: the characters between the backquotes with every CR removed (Go spec).
 * Interpreted "…": no newline; escapes \a \b \f \n \r \t \v \\ \", \NNN (octal ≤ 377), \xHH (one byte each),
 * \uHHHH and \UHHHHHHHH (a code point, not a surrogate, ≤ 10FFFF, as UTF-8); \' and anything else → null.
 */
export function goStringLiteralBytes(lit: string): Uint8Array | null {
  if (lit.length < 2 || !isWellFormed(lit)) return null;
  const q = lit[0];
  if (lit[lit.length - 1] !== q) return null;
  const inner = lit.slice(1, -1);
  if (q === '`') return inner.includes('`') ? null : utf8Encode(inner.replace(/\r/g, ''));
  if (q !== '"') return null;
  const out: number[] = [];
  for (let i = 0; i < inner.length; ) {
    const c = inner[i]!;
    if (c === '\n' || c === '"') return null;
    if (c !== '\\') {
      const cp = inner.codePointAt(i)!;
      pushCodePoint(out, cp);
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const e = inner[i + 1];
    if (e === undefined) return null;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out.push(simple);
      i += 2;
    } else if (e >= '0' && e <= '7') {
      const m = /^[0-7]{3}/.exec(inner.slice(i + 1, i + 4));
      if (m === null) return null;
      const v = parseInt(m[0], 8);
      if (v > 255) return null;
      out.push(v);
      i += 4;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const digits = inner.slice(i + 2, i + 2 + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(digits)) return null;
      const v = parseInt(digits, 16);
      if (e === 'x') out.push(v);
      else {
        if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return null;
        pushCodePoint(out, v);
      }
      i += 2 + n;
    } else return null;
  }
  return Uint8Array.from(out);
}

/** The string value of a Go string literal, or null when invalid or when its bytes are not valid UTF-8 (e.g. "\xff"). */
export function goStringLiteral(lit: string): string | null {
  const bytes = goStringLiteralBytes(lit);
  return bytes !== null && isValidUtf8(bytes) ? utf8Decode(bytes) : null;
}

type TokKind = 'ident' | 'keyword' | 'lit' | 'op' | 'semi';

interface Tok {
  readonly kind: TokKind;
  readonly text: string;
  readonly line: number;
  /** Line of the token's last character (differs from `line` only for multi-line raw strings). */
  readonly lastLine?: number;
}

// Go's automatic semicolon rule: a newline ends the statement after these tokens.
function endsStatement(t: Tok | undefined): boolean {
  if (t === undefined) return false;
  switch (t.kind) {
    case 'ident':
    case 'lit':
      return true;
    case 'keyword':
      return t.text === 'break' || t.text === 'continue' || t.text === 'fallthrough' || t.text === 'return';
    case 'op':
      return t.text === ')' || t.text === ']' || t.text === '}' || t.text === '++' || t.text === '--';
    default:
      return false;
  }
}

/** Tokens with inserted semicolons; tolerant of invalid input (unterminated literals run to their limit). */
function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  let line = 1;
  let i = 0;
  const newline = (): void => {
    if (endsStatement(toks[toks.length - 1])) toks.push({ kind: 'semi', text: '\n', line });
  };
  // Counts LFs in [from, to) and reports whether there were any; never looks past `to`.
  const countLines = (from: number, to: number): boolean => {
    const before = line;
    for (let k = from; k < to; k++) if (src.charCodeAt(k) === 0x0a) line++;
    return line !== before;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\n') {
      newline();
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else if (c === '/' && src[i + 1] === '/') {
      const nl = src.indexOf('\n', i);
      i = nl < 0 ? src.length : nl;
    } else if (c === '/' && src[i + 1] === '*') {
      const close = src.indexOf('*/', i + 2);
      const end = close < 0 ? src.length : close + 2;
      // A general comment containing newlines acts like a newline (checked before counting them).
      const lineBefore = line;
      if (countLines(i, end)) {
        const after = line;
        line = lineBefore;
        newline();
        line = after;
      }
      i = end;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c && src[j] !== '\n') j += src[j] === '\\' && src[j + 1] !== '\n' ? 2 : 1;
      const end = j < src.length && src[j] === c ? j + 1 : j;
      toks.push({ kind: 'lit', text: src.slice(i, end), line });
      i = end;
    } else if (c === '`') {
      const close = src.indexOf('`', i + 1);
      const end = close < 0 ? src.length : close + 1;
      const startLine = line;
      countLines(i, end);
      toks.push({ kind: 'lit', text: src.slice(i, end), line: startLine, lastLine: line });
      i = end;
    } else if ((c >= '0' && c <= '9') || (c === '.' && src[i + 1] !== undefined && src[i + 1]! >= '0' && src[i + 1]! <= '9')) {
      let j = i + 1;
      while (j < src.length) {
        const d = src[j]!;
        if (/[0-9A-Za-z_.]/.test(d)) j++;
        else if ((d === '+' || d === '-') && /[eEpP]/.test(src[j - 1]!)) j++;
        else break;
      }
      toks.push({ kind: 'lit', text: src.slice(i, j), line });
      i = j;
    } else {
      const code = src.charCodeAt(i);
      // ASCII punctuation cannot start an identifier: skip the regex for operators.
      const m = code < 0x80 && !/[A-Za-z_]/.test(c) ? null : ((IDENT_AT.lastIndex = i), IDENT_AT.exec(src));
      if (m !== null) {
        toks.push({ kind: KEYWORDS.has(m[0]) ? 'keyword' : 'ident', text: m[0], line });
        i += m[0].length;
      } else if ((c === '+' || c === '-') && src[i + 1] === c) {
        toks.push({ kind: 'op', text: c + c, line });
        i += 2;
      } else if (c === ';') {
        toks.push({ kind: 'semi', text: ';', line });
        i++;
      } else {
        // One UTF-16 unit per operator token is enough: only brackets, `,`, `=`, `*` matter here.
        toks.push({ kind: 'op', text: c, line });
        i++;
      }
    }
  }
  newline();
  return toks;
}

export type GoDeclarationKind = 'func' | 'method' | 'type' | 'var' | 'const';

export interface GoDeclaration {
  readonly name: string;
  readonly kind: GoDeclarationKind;
  /** 1-based line of the declared name. */
  readonly line: number;
  /** 1-based line where the declaration (func body, spec) ends. */
  readonly endLine: number;
  /** For methods: the receiver's base type name (`T` for `(r *T[K])`). */
  readonly receiver?: string;
}

const OPEN = new Set(['(', '[', '{']);
const CLOSE = new Set([')', ']', '}']);

/**
 * Top-level declarations of a Go source file in source order: functions, methods, and every name of
 * type/var/const specs, grouped or not. Blank (`_`) names are omitted. Comments, strings, raw strings
 * and runes are skipped lexically; declarations inside function bodies are not top-level.
 * Never throws: on invalid Go it reports what it can recognize.
 */
export function scanGoDeclarations(source: string): GoDeclaration[] {
  const toks = tokenize(source);
  const out: GoDeclaration[] = [];
  const n = toks.length;

  // Index of the token ending the statement that starts at i: a semicolon at nesting 0, or an unmatched
  // closing bracket (end of a group), or n. `last` is the line of the final token before it.
  const statementEnd = (i: number): { end: number; lastLine: number } => {
    let depth = 0;
    let lastLine = toks[i]?.line ?? 1;
    for (; i < n; i++) {
      const t = toks[i]!;
      if (t.kind === 'semi' && depth === 0) break;
      if (t.kind === 'op' && OPEN.has(t.text)) depth++;
      else if (t.kind === 'op' && CLOSE.has(t.text)) {
        if (depth === 0) break;
        depth--;
      }
      lastLine = t.lastLine ?? t.line;
    }
    return { end: i, lastLine };
  };

  const specNames = (i: number, kind: 'type' | 'var' | 'const', endLine: number): void => {
    for (;;) {
      const t = toks[i];
      if (t === undefined || t.kind !== 'ident') return;
      if (t.text !== '_') out.push({ name: t.text, kind, line: t.line, endLine });
      if (kind === 'type' || toks[i + 1]?.text !== ',' || toks[i + 1]?.kind !== 'op') return;
      i += 2;
    }
  };

  let i = 0;
  while (i < n) {
    const t = toks[i]!;
    if (t.kind === 'keyword' && t.text === 'func') {
      let j = i + 1;
      let receiver: string | undefined;
      if (toks[j]?.text === '(' && toks[j]?.kind === 'op') {
        let depth = 0;
        for (; j < n; j++) {
          const r = toks[j]!;
          if (r.kind === 'op' && OPEN.has(r.text)) depth++;
          else if (r.kind === 'op' && CLOSE.has(r.text)) {
            if (--depth === 0) break;
          } else if (r.kind === 'ident' && depth === 1) receiver = r.text;
          else if (r.kind === 'semi' && depth === 0) break;
        }
        j++;
      }
      const name = toks[j];
      const { end, lastLine } = statementEnd(i);
      if (name !== undefined && name.kind === 'ident' && j < end) {
        if (receiver !== undefined) out.push({ name: name.text, kind: 'method', line: name.line, endLine: lastLine, receiver });
        else if (toks[i + 1] === name) out.push({ name: name.text, kind: 'func', line: name.line, endLine: lastLine });
      }
      i = end + 1;
    } else if (t.kind === 'keyword' && (t.text === 'type' || t.text === 'var' || t.text === 'const')) {
      const kind = t.text;
      if (toks[i + 1]?.kind === 'op' && toks[i + 1]?.text === '(') {
        let j = i + 2;
        while (j < n) {
          const s = toks[j]!;
          if (s.kind === 'semi') {
            j++;
            continue;
          }
          if (s.kind === 'op' && s.text === ')') break;
          const { end, lastLine } = statementEnd(j);
          specNames(j, kind, lastLine);
          j = end;
          if (toks[j]?.kind === 'op' && CLOSE.has(toks[j]!.text) && toks[j]!.text !== ')') j++; // stray closer
        }
        i = statementEnd(j + 1).end + 1;
      } else {
        const { end, lastLine } = statementEnd(i + 1);
        specNames(i + 1, kind, lastLine);
        i = end + 1;
      }
    } else {
      // package, import, or anything unrecognized: skip the whole statement.
      const { end } = statementEnd(i);
      i = Math.max(end, i) + 1;
    }
  }
  return out;
}
