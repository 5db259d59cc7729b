// The parts of an extglob group (`@(…)`, `!(…)`…) whose raw text holds quotes or expansions,
// parsed once per group and cached: the Expander expands them in place like the rest of the word.
import { Tok, type WordPart, type Lit, type ExtGlob } from '../syntax/ast.ts';
import { parse } from '../syntax/parser.ts';

// ---- extglob groups with quotes or expansions inside -------------------------------------------
// mvdan/sh keeps the text of `@(…)` raw; bash expands quotes, parameters and substitutions in it
// like anywhere else in the word. The text is split into literal runs (kept as Lit, whose
// backslashes lit() handles) and quoted/`$`/backquote segments, each parsed on its own.

export function extGlobOp(p: ExtGlob): string {
  return ({ [Tok.globQuest]: '?', [Tok.globStar]: '*', [Tok.globPlus]: '+', [Tok.globAt]: '@', [Tok.globExcl]: '!' } as Record<number, string>)[p.Op] ?? '@';
}

/** End (exclusive) of the quoted or `$`/backquote segment of `s` starting at `i`, or -1. */
function shellSegEnd(s: string, i: number): number {
  const c = s[i]!;
  if (c === "'") { const e = s.indexOf("'", i + 1); return e < 0 ? -1 : e + 1; }
  if (c === '"' || c === '`') {
    for (let j = i + 1; j < s.length; j++) {
      if (s[j] === '\\') { j++; continue; }
      if (s[j] === c) return j + 1;
      if (c === '"' && s[j] === '$' && (s[j + 1] === '(' || s[j + 1] === '{')) { const e = shellSegEnd(s, j); if (e < 0) return -1; j = e - 1; }
    }
    return -1;
  }
  // c === '$'
  const n = s[i + 1];
  if (n === "'") {
    for (let j = i + 2; j < s.length; j++) { if (s[j] === '\\') { j++; continue; } if (s[j] === "'") return j + 1; }
    return -1;
  }
  if (n === '"') { const e = shellSegEnd(s, i + 1); return e; }
  if (n === '(' || n === '{') {
    const close = n === '(' ? ')' : '}';
    let depth = 0;
    for (let j = i + 1; j < s.length; j++) {
      const d = s[j]!;
      if (d === '\\') { j++; continue; }
      if (d === "'" || d === '"' || d === '`') { const e = shellSegEnd(s, j); if (e < 0) return -1; j = e - 1; continue; }
      if (d === n) depth++;
      else if (d === close && --depth === 0) return j + 1;
    }
    return -1;
  }
  const m = /^(?:[a-zA-Z_][a-zA-Z0-9_]*|[0-9@*#?$!-])/.exec(s.slice(i + 1));
  return m ? i + 1 + m[0].length : -1;
}

const extGlobCache = new WeakMap<object, WordPart[] | null>();
/** The parts of an extglob group whose text has quotes or expansions, else null (plain pattern text). */
export function extGlobParts(p: ExtGlob, posix: boolean): WordPart[] | null {
  let r = extGlobCache.get(p);
  if (r !== undefined) return r;
  r = null;
  const v = p.Pattern.Value;
  if (/['"`$\\]/.test(v)) {
    const parts: WordPart[] = [];
    let lit = extGlobOp(p) + '(';
    const mk = (value: string): Lit => ({ type: 'Lit', ValuePos: 0, ValueEnd: 0, Value: value });
    let ok = true;
    for (let i = 0; i < v.length && ok; i++) {
      const c = v[i]!;
      if (c === '\\') { lit += v.slice(i, i + 2); i++; continue; }
      if (c !== "'" && c !== '"' && c !== '`' && c !== '$') { lit += c; continue; }
      const e = shellSegEnd(v, i);
      if (e < 0) { if (c === '$') { lit += c; continue; } ok = false; break; }
      try {
        const f = parse(Buffer.from(': ' + v.slice(i, e), 'latin1').toString('utf8'), posix);
        const cmd = f.Stmts.length === 1 ? f.Stmts[0]!.Cmd : null;
        const w = cmd && cmd.type === 'CallExpr' && cmd.Args.length === 2 ? cmd.Args[1]! : null;
        if (!w) { ok = false; break; }
        if (lit) { parts.push(mk(lit)); lit = ''; }
        parts.push(...w.Parts);
      } catch { ok = false; break; }
      i = e - 1;
    }
    if (ok) { parts.push(mk(lit + ')')); r = parts; }
  }
  extGlobCache.set(p, r);
  return r;
}
