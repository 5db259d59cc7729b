// The operations of `${…}` on a value: pattern removal (`#`, `##`, `%`, `%%`), replacement
// (`/`, `//`, `/#`, `/%`), case changes (`^`, `,`, `~`) and the naming of a slice's arithmetic
// error. Plain string functions of the value and the expanded pattern, apart from the evaluation
// of the parameter that chooses them.
import { Tok, type ParamExp } from '../syntax/ast.ts';
import { hasMeta, matchPattern, patternRegex, patternSource, unescapePattern } from './pattern.ts';
import { ArithError } from './arith.ts';
import { TOGGLE_ALL, TOGGLE_FIRST } from '../syntax/reparse-placeholders.ts';
import { charStarts, charUnits, mapCharCase } from './utf8-chars.ts';

/**
 * ${v#pat} and the other removals: the shortest or longest prefix/suffix matching. `utf8`: cut
 * only between characters (and `?` matches one).
 */
export function removePattern(v: string, pat: string, op: number, utf8 = false): string {
  const re = patternRegex(pat, { extglob: true, utf8 });
  const at = utf8 ? charStarts(v) : undefined;
  const n = at ? at.length - 1 : v.length;
  const pos = (k: number): number => (at ? at[k]! : k);
  if (op === Tok.hash || op === Tok.dblHash) {
    if (op === Tok.hash) { for (let k = 0; k <= n; k++) if (re.test(v.slice(0, pos(k)))) return v.slice(pos(k)); }
    else { for (let k = n; k >= 0; k--) if (re.test(v.slice(0, pos(k)))) return v.slice(pos(k)); }
    return v;
  }
  if (op === Tok.perc) { for (let k = n; k >= 0; k--) if (re.test(v.slice(pos(k)))) return v.slice(0, pos(k)); }
  else { for (let k = 0; k <= n; k++) if (re.test(v.slice(pos(k)))) return v.slice(0, pos(k)); }
  return v;
}

/** Replacement text: `rep` is in pattern form (quoted chars escaped); `&` is the match. */
function repText(rep: string, match: string, amp: boolean): string {
  let o = '';
  for (let i = 0; i < rep.length; i++) {
    const c = rep[i]!;
    if (c === '\\' && i + 1 < rep.length) { o += rep[++i]; continue; }
    o += amp && c === '&' ? match : c;
  }
  return o;
}

/** Compiled global regexes of replacePattern (String.replace resets their lastIndex). */
const globalRes = new Map<string, RegExp>();

/** bash's MATCHLEN of a pattern (-1: not of fixed length); `fixed`: with a leading `]` after `!`/`^` in a bracket kept as a member. */
function matchLen(pat: string, fixed: boolean): number {
  let n = 0;
  for (let i = 0; i < pat.length;) {
    const c = pat[i++]!;
    if (c === '\\') { if (i >= pat.length) return n + 1; n++; i++; continue; }
    if (c === '*') return -1;
    if ((c === '?' || c === '+' || c === '!' || c === '@') && pat[i] === '(') return -1;
    if (c !== '[') { n++; continue; }
    let brack = 1, d = pat[i++], inClass = false, bad = false;
    if (fixed && (d === '!' || d === '^')) { brack++; d = pat[i++]; }
    do {
      if (d === undefined) { n += brack; bad = true; break; }
      if (d === '\\') {
        brack++;
        if (i >= pat.length || ++i >= pat.length) { n += brack; bad = true; break; }
      } else if (d === '[' && pat[i] === ':') { i++; brack++; inClass = true; }
      else if (inClass && d === ':' && pat[i] === ']') { i++; brack++; inClass = false; }
      else brack++;
      d = pat[i++];
    } while (d !== ']');
    if (!bad) n++;
  }
  return n;
}

/** ${v/pat/rep} and its forms. `utf8`: matches start and end between characters (and `?` matches one). */
export function replacePattern(v: string, pat: string, repPat: string, all: boolean, extglob: boolean, amp = true, utf8 = false): string {
  let anchor: 'start' | 'end' | undefined;
  if (pat.startsWith('#')) { anchor = 'start'; pat = pat.slice(1); }
  else if (pat.startsWith('%')) { anchor = 'end'; pat = pat.slice(1); }
  // bash finds a fixed-length pattern's length first (glob's MATCHLEN), and it takes the `]` of
  // `[!]…]`/`[^]…]` for the end of the bracket: with the length wrong, nothing ever matches
  if (pat.length > 2 && /\[[!^]\]/.test(pat)) { const m = matchLen(pat, false); if (m >= 0 && m !== matchLen(pat, true)) return v; }
  const rep = (m: string): string => repText(repPat, m, amp);
  const at = utf8 ? charStarts(v) : undefined;
  const n = at ? at.length - 1 : v.length;
  const pos = (k: number): number => (at ? at[k]! : k);
  if (anchor === 'start') {
    const re = patternRegex(pat, { extglob, utf8 });
    for (let k = n; k >= 0; k--) { const j = pos(k); if (re.test(v.slice(0, j))) return rep(v.slice(0, j)) + v.slice(j); }
    return v;
  }
  if (anchor === 'end') {
    const re = patternRegex(pat, { extglob, utf8 });
    for (let k = 0; k <= n; k++) { const i = pos(k); if (re.test(v.slice(i))) return v.slice(0, i) + rep(v.slice(i)); }
    return v;
  }
  if (pat === '') return v;
  if (!hasMeta(pat, extglob)) {
    // a literal string: every match is the same text
    const lit = unescapePattern(pat);
    let k = v.indexOf(lit);
    if (k < 0) return v;
    const r = repText(repPat, lit, amp);
    if (!all) return v.slice(0, k) + r + v.slice(k + lit.length);
    // (split/join is several times slower)
    let out = '', from = 0;
    do { out += v.slice(from, k) + r; from = k + lit.length; k = v.indexOf(lit, from); } while (k >= 0);
    return out + v.slice(from);
  }
  if (at) {
    // a match starts at a character: a sticky regex tried at each one (leftmost, greedy, as below)
    const y = new RegExp(patternSource(pat, { extglob, utf8 }), 'y');
    let out = '', last = 0;
    for (let k = 0; k < n || k === 0; k++) {
      if (at[k]! < last) continue;
      y.lastIndex = at[k]!;
      const m = y.exec(v);
      if (!m) continue;
      out += v.slice(last, at[k]) + rep(m[0]);
      last = at[k]! + m[0].length;
      if (!all) break;
    }
    return out + v.slice(last);
  }
  // leftmost match, greedy (JS) instead of trying every end position: O(n) per call
  const key = `${extglob ? 1 : 0}${pat}`;
  let g = globalRes.get(key);
  if (!g) {
    g = new RegExp(patternSource(pat, { extglob }), 'g');
    if (globalRes.size > 500) globalRes.clear();
    globalRes.set(key, g);
  }
  let done = false;
  // (an empty match counts, as bash's, at every position but the end of a non-empty value: `*(x)`)
  return v.replace(g, (m: string, i: number) => {
    if (done || (m === '' && i === v.length && i > 0)) return m;
    if (!all) done = true;
    return rep(m);
  });
}

/** An arithmetic error in `${x:off:len}`: bash names the parameter as written (`x: 1/0: division by 0`). */
export function sliceError(e: unknown, pe: ParamExp, src: string): unknown {
  if (!(e instanceof ArithError) || !e.expr || e.subscript) return e;
  let name = (pe.Excl ? '!' : '') + pe.Param.Value;
  if (pe.Index) {
    const i = pe.Index, lit = i.type === 'Word' && i.Parts.length === 1 && i.Parts[0]!.type === 'Lit' ? i.Parts[0]!.Value : undefined;
    let t = lit;
    if (t === undefined && src[pe.Param.ValueEnd] === '[') {
      let depth = 0, j = pe.Param.ValueEnd;
      for (; j < src.length; j++) { if (src[j] === '[') depth++; else if (src[j] === ']' && --depth === 0) break; }
      t = src.slice(pe.Param.ValueEnd + 1, j);
    }
    name += `[${t ?? ''}]`;
  }
  e.expr = `${name}: ${e.expr.replace(/^\s+/, '')}`;
  return e;
}

/** ${v^pat} and the other case changes. `utf8`: per character, multibyte ones included. */
export function caseMod(v: string, op: number, pat: string, utf8 = false): string {
  const test = (c: string): boolean => pat === '' || matchPattern(pat, c, { extglob: true, utf8 });
  if (op === TOGGLE_FIRST || op === TOGGLE_ALL) {
    // `${x~}`, `${x~~}`: lower case becomes upper and the other way round
    const units = utf8 ? charUnits(v) : v.split('');
    const last = op === TOGGLE_FIRST ? Math.min(1, units.length) : units.length;
    for (let i = 0; i < last; i++) {
      const c = units[i]!;
      if (!test(c) || (!utf8 && !/[a-zA-Z]/.test(c))) continue;
      const up = mapCharCase(c, true);
      units[i] = up !== c ? up : mapCharCase(c, false);
    }
    return units.join('');
  }
  if (utf8) {
    const up = op === Tok.caret || op === Tok.dblCaret;
    const units = charUnits(v);
    const last = op === Tok.caret || op === Tok.comma ? Math.min(1, units.length) : units.length;
    for (let i = 0; i < last; i++) if (test(units[i]!)) units[i] = mapCharCase(units[i]!, up);
    return units.join('');
  }
  const up = (c: string): string => (test(c) ? c.toUpperCase() : c);
  const lo = (c: string): string => (test(c) ? c.toLowerCase() : c);
  const mapAscii = (s: string, f: (c: string) => string): string => s.replace(/[a-zA-Z]/g, f);
  switch (op) {
    case Tok.caret: return v ? mapAscii(v[0]!, up) + v.slice(1) : v;
    case Tok.dblCaret: return mapAscii(v, up);
    case Tok.comma: return v ? mapAscii(v[0]!, lo) + v.slice(1) : v;
    default: return mapAscii(v, lo);
  }
}
