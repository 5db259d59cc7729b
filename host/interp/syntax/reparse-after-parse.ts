// One parse of the (patched) source, and the steps after it that give the AST what bash reads
// there: the markers the source fixes left taken off again (`[k]+=v`, `$#`, `${x~}`, `@()`, `!`),
// `[[ … ]]` in POSIX mode, `$'…'` in POSIX mode, `{a[i]}>` fd variables, `${…}` with a blank.
// Apart from reparse.ts because the deferred syntax errors parse the prefix before an error the
// same way (reparse-errors.ts).
import type { ArrayElem, CallExpr, ExtGlob, File, Lit, ParamExp, Redirect, TestClause } from './ast.ts';
import { parse } from './parser.ts';
import { recordBadSubstWords } from './bad-subst-words.ts';
import {
  appendElems, appendMarks, badSubst, emptyGlobs, newBadSubst, NO_CMD, numParams, paramOps, placeholder, TOGGLE_ALL,
  TOGGLE_FIRST,
} from './reparse-placeholders.ts';

export const toUtf8 = (s: string): string => Buffer.from(s, 'latin1').toString('utf8');

/**
 * One parse of the (patched) source and the steps after it, for the whole script and for the
 * prefix that runs before a syntax error alike: `[[` in POSIX mode, the patches' markers undone,
 * `$'…'` in POSIX mode, `{a[i]}>` fd variables. Throws ParseError.
 */
export function parsePatched(src: string, posix: boolean): File {
  const conds = posix ? posixConds(src) : undefined;
  const file = parse(toUtf8(conds?.src ?? src), posix);
  if (conds) graftConds(file, conds.tests);
  if ((appendMarks.size && src.includes('__hpP')) || (numParams.size && src.includes('__hpS')) || paramOps.size || emptyGlobs.size) markAppends(file);
  if (posix && /\$['"]/.test(src)) dollarQuotes(file, false);
  if (ARRAY_FD_VAR.test(src)) arrayFdVars(file);
  if (src.includes(NO_CMD)) dropNoCmd(file);
  recordBadSubstWords(file, conds?.src ?? src, { place: newBadSubst, textOf: (n) => badSubst.get(n), raw: (t) => placeholder(t).trim() });
  return file;
}

/** fixBang's placeholder statements lose their command. */
function dropNoCmd(node: unknown): void {
  if (Array.isArray(node)) { for (const x of node) dropNoCmd(x); return; }
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (o['type'] === 'Stmt') {
    const c = o['Cmd'] as CallExpr | null;
    const p = c?.type === 'CallExpr' && c.Assigns.length === 0 && c.Args.length === 1 && c.Args[0]!.Parts.length === 1 ? c.Args[0]!.Parts[0] : undefined;
    if (p?.type === 'Lit' && p.Value === NO_CMD) { o['Cmd'] = null; return; }
  }
  for (const k in o) if (k !== 'type') { const v = o[k]; if (v && typeof v === 'object') dropNoCmd(v); }
}

const ARRAY_FD_VAR = /\{[A-Za-z_][A-Za-z0-9_]*\[[^\]\n]*\]\}[<>]/;

/**
 * `{a[1]}>&-`: bash takes an array element too as the variable of a `{var}` redirection; mvdan-sh
 * only a name, the rest is a word: the word written just before a redirection without a number
 * becomes its variable.
 */
function arrayFdVars(node: unknown): void {
  if (Array.isArray(node)) { for (const x of node) arrayFdVars(x); return; }
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (o['type'] === 'Stmt' && (o['Cmd'] as { type?: string } | null)?.type === 'CallExpr') {
    const call = o['Cmd'] as CallExpr, redirs = o['Redirs'] as Redirect[];
    for (const r of redirs) {
      if (r.N) continue;
      const i = call.Args.findIndex((w) => w.Parts.every((p) => p.type === 'Lit') && (w.Parts[w.Parts.length - 1] as Lit).ValueEnd === r.OpPos);
      if (i <= 0) continue;
      const w = call.Args[i]!, text = w.Parts.map((p) => (p as Lit).Value).join('');
      if (!/^\{[A-Za-z_][A-Za-z0-9_]*\[[^\]]*\]\}$/.test(text)) continue;
      const first = w.Parts[0] as Lit;
      r.N = { type: 'Lit', ValuePos: first.ValuePos, ValueEnd: r.OpPos, Value: text };
      call.Args.splice(i, 1);
    }
  }
  for (const k in o) if (k !== 'type') { const v = o[k]; if (v && typeof v === 'object') arrayFdVars(v); }
}

/**
 * `bash --posix` parses `[[ … ]]`; mvdan-sh's POSIX mode takes `[[` for a command name. When the
 * script parses in Bash mode, each outermost `[[ … ]]` is blanked out to a `:` command of the same
 * length (newlines kept, continued) for the POSIX parse, and Bash mode's TestClause put back in
 * its place (`graftConds`): every position stays the same.
 */
function posixConds(src: string): { src: string; tests: Map<number, TestClause> } | undefined {
  if (!/(^|[\s;&|(!{`])\[\[\s/.test(src)) return undefined;
  let bash: File;
  try { bash = parse(toUtf8(src), false); } catch { return undefined; }
  const tests = new Map<number, TestClause>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) { for (const x of node) walk(x); return; }
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o['type'] === 'TestClause') { tests.set((o as unknown as TestClause).Left, o as unknown as TestClause); return; }
    for (const k in o) if (k !== 'type') { const v = o[k]; if (v && typeof v === 'object') walk(v); }
  };
  walk(bash.Stmts);
  if (tests.size === 0) return undefined;
  // (positions are offsets in the UTF-8 bytes: `src` is their latin1 view)
  const out = src.split('');
  for (const t of tests.values()) {
    const end = t.Right + 2;
    if (src.slice(t.Left, t.Left + 2) !== '[[' || src.slice(t.Right, end) !== ']]' || src.slice(t.Left, end).includes('<<')) return undefined;
    for (let i = t.Left; i < end; i++) if (src[i] !== '\n') out[i] = ' ';
    out[t.Left] = ':';
    for (let i = t.Left + 1; i < end; i++) if (src[i] === '\n') out[i - 1] = '\\';
  }
  return { src: out.join(''), tests };
}

function graftConds(node: unknown, tests: Map<number, TestClause>): void {
  if (Array.isArray(node)) { for (const x of node) graftConds(x, tests); return; }
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (o['type'] === 'Stmt') {
    const c = o['Cmd'] as CallExpr | null;
    const w = c?.type === 'CallExpr' && c.Assigns.length === 0 && c.Args.length === 1 ? c.Args[0]!.Parts : undefined;
    const lit = w?.length === 1 && w[0]!.type === 'Lit' ? w[0] : undefined;
    const t = lit && lit.Value === ':' ? tests.get(lit.ValuePos) : undefined;
    if (t) { o['Cmd'] = t; return; }
  }
  for (const k in o) if (k !== 'type') { const v = o[k]; if (v && typeof v === 'object') graftConds(v, tests); }
}

/**
 * mvdan-sh's POSIX mode reads `$'…'` and `$"…"` as a `$` and a quoted string; `bash --posix`
 * decodes them as in Bash mode: the quote is marked `Dollar` and the `$` dropped (outside double quotes).
 */
function dollarQuotes(node: unknown, inDq: boolean): void {
  if (Array.isArray(node)) { for (const x of node) dollarQuotes(x, inDq); return; }
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (o['type'] === 'Word' && !inDq && Array.isArray(o['Parts'])) {
    const parts = o['Parts'] as Array<Record<string, unknown>>;
    for (let i = 0; i + 1 < parts.length; i++) {
      const a = parts[i]!, b = parts[i + 1]!;
      if (a['type'] === 'Lit' && a['Value'] === '$' && (b['type'] === 'SglQuoted' || b['type'] === 'DblQuoted') && b['Left'] === a['ValueEnd'] && !b['Dollar']) {
        b['Dollar'] = true;
        b['Left'] = a['ValuePos'];
        parts.splice(i, 1);
      }
    }
  }
  const dq = inDq || o['type'] === 'DblQuoted';
  for (const k in o) { const v = o[k]; if (v !== null && typeof v === 'object') dollarQuotes(v, dq); }
}

function markAppends(node: unknown): void {
  if (Array.isArray(node)) { for (const x of node) markAppends(x); return; }
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (o['type'] === 'ParamExp' && numParams.size) {
    const p = (o as unknown as ParamExp).Param;
    if (numParams.has(p.Value)) { p.Value = '#'; p.ValueEnd = p.ValuePos + 1; }
  }
  if (o['type'] === 'ExtGlob' && emptyGlobs.has((o as unknown as ExtGlob).OpPos)) {
    const p = (o as unknown as ExtGlob).Pattern;
    if (p.Value === '|') { p.Value = ''; p.ValueEnd = p.ValuePos; }
  }
  if (o['type'] === 'ParamExp' && paramOps.size) {
    const pe = o as unknown as ParamExp, op = paramOps.get(pe.Dollar), x = pe.Exp;
    if (op && x) {
      if (op === 'k' && x.Word?.Parts[0]?.type === 'Lit') (x.Word.Parts[0] as Lit).Value = 'k';
      else if (op !== 'k') x.Op = op === '~' ? TOGGLE_FIRST : TOGGLE_ALL;
    }
  }
  if (o['type'] === 'ArrayElem') {
    const el = o as unknown as ArrayElem, first = el.Value?.Parts[0];
    const m = first?.type === 'Lit' ? /^__hpP\d+_/.exec(first.Value) : null;
    if (m && appendMarks.has(m[0])) {
      const lit = first as Lit;
      appendElems.add(el);
      lit.Value = lit.Value.slice(m[0].length);
      lit.ValuePos += m[0].length;
      if (lit.Value === '') el.Value!.Parts.shift();
      if (el.Value!.Parts.length === 0) el.Value = null;
    }
  }
  for (const k in o) if (k !== 'type') { const v = o[k]; if (v && typeof v === 'object') markAppends(v); }
}
