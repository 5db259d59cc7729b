// Where a word lies in its source text (mvdan-sh's positions), for messages that quote the
// script as written and for the printer: kept apart from the evaluator so syntax code can use it.
import type { Lit, ParamExp, Word, WordPart } from './ast.ts';
import { isName } from './names.ts';

/** Source-ish text of a word (for messages such as "ambiguous redirect"). */
export function wordSource(src: string, w: Word): string | undefined {
  const r = wordRange(w);
  return r ? src.slice(r[0], r[1]) : undefined;
}

/** Byte range of a word in the source, when it can be determined. */
export function wordRange(w: Word): [number, number] | undefined {
  const first = w.Parts[0];
  const last = w.Parts[w.Parts.length - 1];
  if (!first || !last) return undefined;
  const a = partStart(first), b = partEnd(last);
  if (a === undefined || b === undefined || b <= a) return undefined;
  return [a, b];
}

/** wordRange(w)?.[1] without allocating. */
export function wordEnd(w: Word): number | undefined {
  const first = w.Parts[0];
  const last = w.Parts[w.Parts.length - 1];
  if (!first || !last) return undefined;
  const a = partStart(first), b = partEnd(last);
  return a === undefined || b === undefined || b <= a ? undefined : b;
}

export function partStart(p: WordPart): number | undefined {
  switch (p.type) {
    case 'Lit': return p.ValuePos; case 'SglQuoted': case 'DblQuoted': case 'CmdSubst': case 'ArithmExp': return p.Left;
    case 'ParamExp': return p.Dollar; case 'ProcSubst': case 'ExtGlob': return p.OpPos; default: return undefined;
  }
}

export function partEnd(p: WordPart): number | undefined {
  switch (p.type) {
    case 'Lit': return p.ValueEnd; case 'SglQuoted': case 'DblQuoted': case 'CmdSubst': return (p as unknown as { Right: number }).Right + 1;
    case 'ArithmExp': return p.Right + 2;
    case 'ParamExp': return p.Short ? shortParamEnd(p) : (p as unknown as { Rbrace: number }).Rbrace + 1;
    case 'ProcSubst': return p.Rparen + 1;
    case 'ExtGlob': return p.Pattern.ValueEnd + 1;
    default: return undefined;
  }
}

/** `1[2]` in arithmetic (a number's "subscript", see arith.ts' notElementRef) ends after its `]`. */
function shortParamEnd(p: ParamExp): number {
  const x = p.Index;
  if (x?.type !== 'Word' || isName(p.Param.Value) || !x.Parts.every((q) => q.type === 'Lit')) return p.Param.ValueEnd;
  return (x.Parts[x.Parts.length - 1] as Lit).ValueEnd + 1;
}
