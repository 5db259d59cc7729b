// bash reports a run-time "bad substitution" with the text it was expanding, not the `${…}`
// alone: the whole word (`a${x y}b: bad substitution`), or inside double quotes the quoted text
// (`"[${x y}]"` → `[${x y}]: bad substitution`). A subscript whose `[` runs past the `}` bash's
// parser matched (`"${x[1}"`) fails in the scan of the whole word instead: `bad substitution: no
// closing `}' in WORD`, the word as written, quotes included. The placeholders reparse.ts puts in
// place of such `${…}` (`${__hpB<n>}`) are looked up here after the parse, with their words.
import type { ArithmExp, File, ParamExp, Word, WordPart } from './ast.ts';

interface Where { word: string; quoted: string | undefined }
/** Placeholder name → the text of the word it is in and, inside double quotes, the quoted text. */
const wordsOf = new Map<string, Where>();

/**
 * What mvdan-sh accepts in `${…}` but bash rejects (see rejected): a blank (`${! x[@]}`), `$#`
 * with a case operator or a lone operator (`${#^}`, `${#/}`), `${!?*}`, `${!a*]}`.
 */
const SUSPECT = /\$\{[!#]?[A-Za-z0-9_@*#?$!-]*(?:\[[^\]\n]*\])?[ \t\n]|\$\{#[\^,~]|\$\{#[^A-Za-z0-9_?$!#@*{}-]\}|\$\{![A-Za-z0-9_]*\*[^}]|\$\{!(?:[?#$!][*@]|[@*]\*)\}|\[[ \t]+[@*]|[@*][ \t]+\]/;

/**
 * After a parse: `${…}` with a blank bash rejects become placeholders too (`place` makes one for
 * the text), and every placeholder's word is recorded. Walks the tree only when the source has a
 * placeholder or such a blank.
 */
export interface Placeholders {
  /** A `${__hpB<n>}` name for the text of a `${…}` bash rejects. */
  place: (text: string) => string;
  /** The text a `__hpB<n>` name stands for. */
  textOf: (name: string) => string | undefined;
  /** A `__hpA<n>` name for arithmetic text evaluated at run time. */
  raw: (text: string) => string;
}

export function recordBadSubstWords(file: File, src: string, { place, textOf, raw }: Placeholders): void {
  const suspect = SUSPECT.test(src), escapes = ARITH_ESCAPE.test(src);
  if (!suspect && !escapes && !src.includes('${__hpB')) return;
  const restore = (t: string): string => t.replace(/\$\{(__hpB\d+)\}/g, (m, n: string) => textOf(n) ?? m).replace(/__hpS\d+/g, '#');
  const visit = (node: unknown, where: Where | undefined): void => {
    if (Array.isArray(node)) { for (const x of node) visit(x, where); return; }
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o['type'] === 'Word') {
      const parts = (o as unknown as Word).Parts;
      const a = parts.length ? partStart(parts[0]!) : undefined, b = parts.length ? partEnd(parts[parts.length - 1]!) : undefined;
      if (a !== undefined && b !== undefined && b >= a) where = { word: restore(src.slice(a, b)), quoted: undefined };
    } else if (o['type'] === 'DblQuoted' && where) {
      const l = o['Left'] as number, r = o['Right'] as number;
      where = { word: where.word, quoted: restore(src.slice(l + (o['Dollar'] ? 2 : 1), r)) };
    } else if (o['type'] === 'ArithmExp' && escapes) {
      // `$((1+\2))`: mvdan-sh drops the backslash; for bash it is an invalid character
      const ae = o as unknown as ArithmExp, text = src.slice(ae.Left + (ae.Bracket ? 2 : 3), ae.Right);
      if (escapedChar(text)) ae.X = { type: 'Word', Parts: [{ type: 'Lit', ValuePos: ae.Left, ValueEnd: ae.Left, Value: raw(text) }] };
    } else if (o['type'] === 'ParamExp') {
      const pe = o as unknown as ParamExp;
      if (escapes && pe.Index && src[pe.Param.ValueEnd] === '[') {
        const close = subscriptEnd(src, pe.Param.ValueEnd, pe.Rbrace), text = src.slice(pe.Param.ValueEnd + 1, close);
        if (close > 0 && escapedChar(text)) pe.Index = { type: 'Word', Parts: [{ type: 'Lit', ValuePos: pe.Param.ValueEnd + 1, ValueEnd: close, Value: raw(text) }] };
      }
      if (suspect && !pe.Short && rejected(pe, src)) {
        const name = place(restore(src.slice(pe.Dollar, pe.Rbrace + 1)));
        Object.assign(pe, { Excl: false, Length: false, Width: false, Index: null, Slice: null, Repl: null, Names: 0, Exp: null });
        pe.Param = { ...pe.Param, Value: name };
      }
      // `${a[ @]}`: not all elements but the arithmetic ` @` for bash (an error when expanded)
      const ix = pe.Index?.type === 'Word' && pe.Index.Parts.length === 1 ? pe.Index.Parts[0]! : undefined;
      if (suspect && ix?.type === 'Lit' && (ix.Value === '@' || ix.Value === '*') && !(src[ix.ValuePos - 1] === '[' && src[ix.ValueEnd] === ']')) {
        const open = src.lastIndexOf('[', ix.ValuePos), close = src.indexOf(']', ix.ValueEnd);
        if (open >= 0 && close > 0) pe.Index = { type: 'Word', Parts: [{ ...ix, Value: raw(src.slice(open + 1, close)) }] };
      }
      if (where && pe.Param.Value.startsWith('__hpB')) wordsOf.set(pe.Param.Value, where);
    }
    for (const k in o) if (k !== 'type') { const v = o[k]; if (v && typeof v === 'object') visit(v, where); }
  };
  visit(file, undefined);
}

/** bash's message for the placeholder `name` standing for `text`. */
export function badSubstMessage(name: string, text: string): string {
  const w = wordsOf.get(name);
  if (!w) return `${text}: bad substitution`;
  if (subscriptRunsOn(text)) return w.quoted !== undefined ? `bad substitution: no closing \`}' in ${w.word}` : `${w.word}: bad substitution`;
  return `${w.quoted ?? w.word}: bad substitution`;
}

/** `${x[1}`, `${!a[@~}`, `${x@[Q}`: the subscript has no `]` before the `}` (bash's skipsubscript runs on). */
export function subscriptRunsOn(text: string): boolean {
  const m = /^\$\{!?[A-Za-z_][A-Za-z0-9_]*@?\[/.exec(text); // (not after `#`: `${#a[1}` is a bad length)
  if (!m) return false;
  let depth = 1;
  for (let i = m[0].length; i < text.length - 1; i++) {
    const c = text[i]!;
    if (c === '\\') i++;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return false;
  }
  return true;
}

function rejected(pe: ParamExp, src: string): boolean {
  const text = src.slice(pe.Dollar, pe.Rbrace + 1);
  // `${#^…}`, `${#,…}`, `${#~…}`: bash reads a name `#^…` (its length), which is not one
  if (/^\$\{#[\^,~]/.test(text)) return true;
  // `${#/}`, `${#%}`, `${#+}`: the length of a parameter that does not exist
  if (/^\$\{#[^A-Za-z0-9_?$!#@*-]\}$/.test(text)) return true;
  // `${!prefix*}` is a name, `*` and the `}`: not `${!a*]}`, nor of a special parameter (`${!?*}`)
  if (pe.Excl && (/^\$\{![A-Za-z_][A-Za-z0-9_]*\*[^}]/.test(text) || /^\$\{!(?:[?#$!][*@]|[@*]\*)\}$/.test(text))) return true;
  return blankInside(pe, src);
}

/** A backslash arithmetic text keeps for bash (not one before a newline, or that backquotes remove). */
const ARITH_ESCAPE = /(?:\$\(\(|\$\[|\$\{[^}\n]*\[)[^\n]*?\\[^\n$`\\"]/;
const escapedChar = (text: string): boolean => /\\[^\n$`\\"]/.test(text) && !text.includes('`');

/** Index of the `]` closing the `[` at `open` (nested brackets counted), or -1 before `limit`. */
function subscriptEnd(src: string, open: number, limit: number): number {
  for (let i = open, depth = 0; i < limit; i++) { if (src[i] === '[') depth++; else if (src[i] === ']' && --depth === 0) return i; }
  return -1;
}

function blankInside(pe: ParamExp, src: string): boolean {
  if (/[ \t\n]/.test(src.slice(pe.Dollar + 2, pe.Param.ValuePos))) return true;
  let i = pe.Param.ValueEnd;
  if (src[i] === '[') {
    for (let depth = 0; i < pe.Rbrace; i++) { if (src[i] === '[') depth++; else if (src[i] === ']' && --depth === 0) break; }
    i++;
  }
  return i < pe.Rbrace && /[ \t\n]/.test(src[i]!);
}

function partStart(p: WordPart): number | undefined {
  switch (p.type) {
    case 'Lit': return p.ValuePos;
    case 'SglQuoted': case 'DblQuoted': case 'CmdSubst': case 'ArithmExp': return p.Left;
    case 'ParamExp': return p.Dollar;
    case 'ExtGlob': case 'ProcSubst': return p.OpPos;
    default: return undefined;
  }
}

function partEnd(p: WordPart): number | undefined {
  switch (p.type) {
    case 'Lit': return p.ValueEnd;
    case 'SglQuoted': case 'DblQuoted': case 'CmdSubst': return p.Right + 1;
    case 'ArithmExp': return p.Right + (p.Bracket ? 1 : 2);
    case 'ParamExp': return p.Short ? p.Param.ValueEnd : p.Rbrace + 1;
    case 'ExtGlob': return p.Pattern.ValueEnd + 1;
    case 'ProcSubst': return p.Rparen + 1;
    default: return undefined;
  }
}
