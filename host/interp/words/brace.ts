// Brace expansion (`{a,b}`, `{1..10..2}`) over a word's parts, the first of the word expansions:
// it works on the parsed word before anything is evaluated, so it needs nothing of the shell's
// state and lives apart from the Expander that runs the others.
import type { Word, WordPart, Lit } from '../syntax/ast.ts';

// ---- brace expansion over word parts -------------------------------------------------------
// A word is cut into coarse tokens: runs of literal text (raw, backslash escapes kept), the
// unescaped brace characters, and the word's other parts. A token per character cost a few
// objects per character of every expanded item (`{1..50000}` spent half its time in GC).
const OPEN = 0, COMMA = 1, CLOSE = 2;
type BTok = string | typeof OPEN | typeof COMMA | typeof CLOSE | WordPart;

function braceTokens(w: Word): BTok[] {
  const out: BTok[] = [];
  let run = '';
  for (const p of w.Parts) {
    if (p.type !== 'Lit') {
      if (run) { out.push(run); run = ''; }
      out.push(p);
      continue;
    }
    const v = p.Value;
    let from = 0;
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c === 0x5c) { i++; continue; } // `\x` stays in the run
      const t = c === 0x7b ? OPEN : c === 0x2c ? COMMA : c === 0x7d ? CLOSE : -1;
      if (t < 0) continue;
      run += v.slice(from, i);
      if (run) { out.push(run); run = ''; }
      out.push(t as BTok);
      from = i + 1;
    }
    run += v.slice(from);
  }
  if (run) out.push(run);
  return out;
}

/** The items of a sequence expression `{a..b[..step]}`, or undefined when `inner` is not one. */
function seqExpand(inner: BTok[]): string[] | undefined {
  const s = inner.length === 1 ? inner[0] : undefined;
  if (typeof s !== 'string' || s.includes('\\')) return undefined;
  let m = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(s);
  if (m) {
    // bash (mkseq) leaves the sequence unexpanded when it would have more than INT_MAX-2 elements
    const A = BigInt(m[1]!), B = BigInt(m[2]!);
    let S = m[3] ? BigInt(m[3]) : 1n;
    if (S < 0n) S = -S;
    if (S === 0n) S = 1n;
    if ((A > B ? A - B : B - A) / S > 2147483644n) return undefined;
    if (A > BigInt(Number.MAX_SAFE_INTEGER) || A < -BigInt(Number.MAX_SAFE_INTEGER) || B > BigInt(Number.MAX_SAFE_INTEGER) || B < -BigInt(Number.MAX_SAFE_INTEGER)) {
      const big: string[] = [];
      if (A <= B) for (let i = A; i <= B; i += S) big.push(String(i));
      else for (let i = A; i >= B; i -= S) big.push(String(i));
      return big;
    }
    const a = Number(m[1]), b = Number(m[2]);
    let step = m[3] ? Math.abs(Number(m[3])) : 1;
    if (step === 0) step = 1;
    const width = (/^-?0\d/.test(m[1]!) || /^-?0\d/.test(m[2]!)) ? Math.max(m[1]!.length, m[2]!.length) : 0;
    const out: string[] = [];
    const fmt = (n: number): string => {
      if (!width) return String(n);
      const neg = n < 0;
      let d = String(Math.abs(n));
      while (d.length < width - (neg ? 1 : 0)) d = '0' + d;
      return (neg ? '-' : '') + d;
    };
    if (a <= b) for (let i = a; i <= b; i += step) out.push(fmt(i));
    else for (let i = a; i >= b; i -= step) out.push(fmt(i));
    return out;
  }
  m = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?$/.exec(s);
  if (m) {
    const a = m[1]!.charCodeAt(0), b = m[2]!.charCodeAt(0);
    let step = m[3] ? Math.abs(Number(m[3])) : 1;
    if (step === 0) step = 1;
    const out: string[] = [];
    if (a <= b) for (let i = a; i <= b; i += step) out.push(String.fromCharCode(i));
    else for (let i = a; i >= b; i -= step) out.push(String.fromCharCode(i));
    return out;
  }
  return undefined;
}

/** The token lists `toks` expands to; `[toks]` itself when it has no brace expression. */
function expandBraceToks(toks: BTok[]): BTok[][] {
  for (let i = 0; i < toks.length; i++) {
    if (toks[i] !== OPEN) continue;
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let j = i; j < toks.length; j++) {
      const t = toks[j];
      if (t === OPEN) depth++;
      else if (t === CLOSE) { if (--depth === 0) { close = j; break; } }
      else if (t === COMMA && depth === 1) commas.push(j);
    }
    if (close < 0) continue;
    const pre = toks.slice(0, i);
    const out: BTok[][] = [];
    if (commas.length === 0) {
      const seq = seqExpand(toks.slice(i + 1, close));
      if (!seq) continue;
      const posts = expandBraceToks(toks.slice(close + 1));
      // (a backslash between `Z` and `a` is quote-removed: an empty word that stays, as in bash)
      for (const s of seq) for (const px of posts) out.push(joinToks(pre, s === '\\' ? [EMPTY_QUOTED] : s, px));
      return out;
    }
    const posts = expandBraceToks(toks.slice(close + 1));
    let start = i + 1;
    for (const c of [...commas, close]) {
      for (const ax of expandBraceToks(toks.slice(start, c))) for (const px of posts) out.push(joinToks(pre, ax, px));
      start = c + 1;
    }
    return out;
  }
  return [toks];
}

const EMPTY_QUOTED: WordPart = { type: 'SglQuoted', Left: 0, Right: 0, Dollar: false, Value: '' };

/** `pre`, `mid` and `post` in one list (concat() costs more than the copy at 50,000 items). */
function joinToks(pre: BTok[], mid: BTok[] | string, post: BTok[]): BTok[] {
  const out = pre.slice();
  if (typeof mid === 'string') out.push(mid);
  else for (let i = 0; i < mid.length; i++) out.push(mid[i]!);
  for (let i = 0; i < post.length; i++) out.push(post[i]!);
  return out;
}

const braceChars = ['{', ',', '}'];

/** An expanded item: a string for an item of literal text alone (most: `{1..5000}`), else a word. */
function toksToWord(toks: BTok[]): Word | string {
  if (toks.length === 1 && typeof toks[0] === 'string') return toks[0];
  const parts: WordPart[] = [];
  let lit = '';
  for (const t of toks) {
    if (typeof t === 'string') { lit += t; continue; }
    if (typeof t === 'number') { lit += braceChars[t]; continue; }
    if (lit) { parts.push(litPart(lit)); lit = ''; }
    parts.push(t);
  }
  if (lit) parts.push(litPart(lit));
  // bash expands braces in the raw text: `$a{b,c}` is `$ab $ac`, `{$a,b}_x` has `$a_x`
  for (let i = 0; i + 1 < parts.length; i++) {
    const p = parts[i]!, q = parts[i + 1]!;
    if (p.type !== 'ParamExp' || !p.Short || q.type !== 'Lit' || !/^[a-zA-Z_]/.test(p.Param.Value)) continue;
    const m = /^[a-zA-Z0-9_]+/.exec(q.Value);
    if (!m) continue;
    parts[i] = { ...p, Param: { ...p.Param, Value: p.Param.Value + m[0] } };
    if (m[0].length === q.Value.length) parts.splice(i + 1, 1);
    else parts[i + 1] = { ...q, Value: q.Value.slice(m[0].length) };
  }
  return { type: 'Word', Parts: parts };
}

/** The words `w` brace-expands to; a string is an item of literal text alone (a Lit's raw value). */
export function braceExpand(w: Word): Array<Word | string> {
  if (!w.Parts.some((p) => p.type === 'Lit' && p.Value.includes('{'))) return [w];
  const toks = braceTokens(w);
  const res = expandBraceToks(toks);
  if (res.length === 1 && res[0] === toks) return [w]; // nothing expanded (`{1..1}` is)
  return res.map(toksToWord);
}

/** A Lit part of raw text `v` made by expansion (no source position). */
export function litPart(v: string): Lit { return { type: 'Lit', ValuePos: 0, ValueEnd: 0, Value: v }; }
