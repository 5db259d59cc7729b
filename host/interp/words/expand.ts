// Word expansion: brace, tilde, parameter, command and arithmetic expansion, IFS field
// splitting, pathname expansion and quote removal. Values are byte strings.
import { Tok, type Word, type WordPart, type ParamExp, type Lit, type DblQuoted, type ExtGlob, type CmdSubst, type Stmt, type ArithmExpr } from '../syntax/ast.ts';
import { parse } from '../syntax/parser.ts';
import * as os from 'node:os';
import { glob, hasMeta, matchPattern, patternRegex, patternSource, plainMatcher, splitIgnore, unescapePattern } from './pattern.ts';
import type { Shell } from '../execution/runner.ts';
import type { Var } from '../variables/var.ts';
import { ansiC, ansicQuote, assocKeyNeedsQuotes, needsAnsiC, shellQuote } from './quoting.ts';
import { DiscardError, ShellError } from '../execution/errors.ts';
import { ArithError } from './arith.ts';
import { badSubstMessage, subscriptRunsOn } from '../syntax/bad-subst-words.ts';
import { badSubst, promptTextWord, TOGGLE_ALL, TOGGLE_FIRST } from '../syntax/reparse.ts';
import { escapeEre } from './regex.ts';
import { charLength, charStarts, charUnits, hasHighBytes, mapCharCase } from './utf8-chars.ts';
import { isName } from '../syntax/names.ts';

/** A variable's value as `$name` reads it: element 0 of an array. */
export function scalarValue(v: Var): string | undefined {
  return v.arr ? v.arr.get(0) : v.assoc ? v.assoc.get('0') : v.str;
}

/** One field under construction: the value, its pattern form, and whether it must be kept. */
interface Field { val: string; pat: string; keep: boolean; meta: boolean }

const PAT_META = /[*?[\]\\()|@+!{}]/g;
export function escPat(s: string): string {
  // (a regex scan: quoted text is mostly free of meta characters, and this runs on every quoted part)
  PAT_META.lastIndex = 0;
  return PAT_META.test(s) ? s.replace(PAT_META, '\\$&') : s;
}

/** A regex for the runs of characters that are not in IFS (cached: IFS rarely changes). */
let runsIfs = '', runsRe = /[^ \t\n]+/g;
function nonIfsRuns(ifs: string): RegExp {
  if (ifs !== runsIfs) {
    runsIfs = ifs;
    runsRe = new RegExp(`[^${ifs.replace(/[\\\]^-]/g, '\\$&')}]+`, 'g');
  }
  return runsRe;
}
const isIfsWs = (c: string): boolean => c === ' ' || c === '\t' || c === '\n';
const IFS_WS = /^[ \t\n]+$/;
/** Characters without which a value cannot glob (hasMeta's, and extglob's groups). */
const MAYBE_META = /[*?[\\]|[@+!]\(/;

/** Unquoted expansion text in a ${x/p/r} replacement: `\\` and `\&` quote, other backslashes are literal. */
function repEsc(s: string): string {
  return s.includes('\\') ? s.replace(/\\([\\&])|\\/g, (m: string, c?: string) => (c ? m : '\\\\')) : s;
}

class FieldBuilder {
  fields: Field[] = [];
  cur: Field = { val: '', pat: '', keep: false, meta: false };
  afterWsDelim = false;
  /** The replacement of ${x/p/r}: in unquoted expansions only `\\` and `\&` are escapes (see repEsc). */
  bsLit = false;
  /** `flat`: a word expanded without splitting (assignment, redirection, `[[ ]]`…): lists join into one string. */
  constructor(readonly ifs: string, readonly flat = false) {}
  /** Quoted text, or unquoted literal text (which can carry glob meta characters). */
  addQuoted(s: string): void { this.cur.val += s; this.cur.pat += this.bsLit && s.includes('&') ? escPat(s).replace(/&/g, '\\&') : escPat(s); this.cur.keep = true; this.afterWsDelim = false; }
  addLiteral(val: string, pat: string): void {
    this.cur.val += val; this.cur.pat += pat;
    if (val !== '' || pat !== '') { this.cur.keep = true; this.afterWsDelim = false; }
    this.cur.meta = true;
  }
  markKeep(): void { this.cur.keep = true; }
  /** Unquoted expansion result: subject to splitting and globbing. */
  addSplit(s: string, split: boolean): void {
    if (!split || this.ifs === '') {
      // (a backslash in an unquoted expansion quotes the next character in a pattern, as in bash 5.2)
      if (s !== '') { this.cur.val += s; this.cur.pat += this.bsLit ? repEsc(s) : s; this.cur.keep = true; this.cur.meta = true; this.afterWsDelim = false; }
      return;
    }
    // (runs of non-IFS characters found by a regex: a char-by-char loop is slow until V8 optimizes it)
    const re = nonIfsRuns(this.ifs);
    re.lastIndex = 0;
    for (let at = 0; ;) {
      const m = re.exec(s);
      const end = m ? m.index : s.length;
      for (let i = at; i < end; i++) this.separator(s[i]!);
      if (!m) break;
      const run = m[0];
      at = end + run.length;
      this.cur.val += run; this.cur.pat += this.bsLit ? repEsc(run) : run; this.cur.keep = true; this.cur.meta = true;
      this.afterWsDelim = false;
    }
  }
  /** One IFS character in an unquoted expansion: whitespace ends a nonempty field, other separators end any field. */
  private separator(c: string): void {
    if (isIfsWs(c)) {
      if (this.cur.keep) { this.push(); this.afterWsDelim = true; }
    } else if (this.afterWsDelim && !this.cur.keep) {
      this.afterWsDelim = false;
    } else {
      this.push(true);
      this.afterWsDelim = false;
    }
  }
  push(force = false): void {
    if (this.cur.keep || force) this.fields.push(this.cur);
    this.cur = { val: '', pat: '', keep: false, meta: false };
  }
  /** Forces a field break (between "$@" elements). */
  breakField(): void { this.fields.push(this.cur); this.cur = { val: '', pat: '', keep: true, meta: false }; }
  finish(): Field[] { if (this.cur.keep) this.fields.push(this.cur); return this.fields; }
}

const isQuotedPart = (p: WordPart): boolean => p.type === 'SglQuoted' || p.type === 'DblQuoted';

/** An expanded part of a `=~` operand: quoted text matches literally. */
function regexPartText(fb: FieldBuilder, p: WordPart): string {
  const v = fb.fields.map((f) => f.val).join('') + fb.cur.val;
  return isQuotedPart(p) ? escapeEre(v) : v;
}

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

/** The current user's home directory from the password database (`~` with HOME unset). */
function homeFromPasswd(): string {
  try { return os.userInfo().homedir; } catch { return ''; }
}

// ---- extglob groups with quotes or expansions inside -------------------------------------------
// mvdan/sh keeps the text of `@(…)` raw; bash expands quotes, parameters and substitutions in it
// like anywhere else in the word. The text is split into literal runs (kept as Lit, whose
// backslashes lit() handles) and quoted/`$`/backquote segments, each parsed on its own.

function extGlobOp(p: ExtGlob): string {
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
const dqBackquotes = new WeakMap<object, Stmt[]>();
/** The parts of an extglob group whose text has quotes or expansions, else null (plain pattern text). */
function extGlobParts(p: ExtGlob, posix: boolean): WordPart[] | null {
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

// ---- the expander ------------------------------------------------------------------------------
/** Expander.canSync / canSyncPart per AST node (structural). */
const syncNodes = new WeakMap<object, boolean>();

/** Expander.constMatcher per pattern word. */
const constMatchers = new WeakMap<Word, ((s: string) => boolean) | null>();

/** `$name` or `${name}`: no operator, index, slice or indirection. */
function isPlainParam(pe: ParamExp): boolean {
  return !pe.Excl && !pe.Length && !pe.Width && !pe.Names && !pe.Index && !pe.Slice && !pe.Repl && !pe.Exp;
}

/** A double-quoted string as text (escapes removed) and plain `$name`s; null when it has anything else. */
type QuotedPlan = (string | ParamExp)[] | null;
const quotedPlans = new WeakMap<DblQuoted, QuotedPlan>();
function quotedPlan(dq: DblQuoted): QuotedPlan {
  if (dq.Parts.length === 0) return null;
  const plan: (string | ParamExp)[] = [];
  for (const q of dq.Parts) {
    if (q.type === 'Lit') plan.push(unescapeDq(q.Value, false));
    else if (q.type === 'ParamExp' && isPlainParam(q) && q.Param.Value !== '@' && q.Param.Value !== '*') plan.push(q);
    else return null;
  }
  return plan;
}

const sqDq = new Map<string, DblQuoted | null>();
/** The text of a single-quoted part inside "${x-…}", parsed as double-quoted text (bash expands it). */
function sqAsDq(text: string): DblQuoted | undefined {
  let r = sqDq.get(text);
  if (r === undefined) {
    r = null;
    if (!text.includes('"')) {
      try {
        const f = parse(`"${text}"`);
        const c = f.Stmts.length === 1 ? f.Stmts[0]!.Cmd : undefined;
        const p = c?.type === 'CallExpr' && c.Args.length === 1 && c.Args[0]!.Parts.length === 1 ? c.Args[0]!.Parts[0]! : undefined;
        if (p?.type === 'DblQuoted') r = p;
      } catch { /* keep it literal */ }
    }
    sqDq.set(text, r);
  }
  return r ?? undefined;
}

const slashRepls = new WeakMap<ParamExp, { orig: Word | null; with: Word | null }>();
/**
 * The pattern and replacement of `${x/pat/rep}`. mvdan/sh reads a `/` right after the operator
 * as the separator (`${x////c}`: empty pattern, replacement `/c`); bash takes it as the first
 * character of the pattern (pattern `/`, replacement `c`).
 */
function replParts(pe: ParamExp): { orig: Word | null; with: Word | null } {
  const r = pe.Repl!;
  if (r.Orig) return { orig: r.Orig, with: r.With };
  let c = slashRepls.get(pe);
  if (c) return c;
  const lit = (v: string, at: Lit | undefined): Lit => ({ type: 'Lit', ValuePos: at?.ValuePos ?? 0, ValueEnd: at?.ValueEnd ?? 0, Value: v });
  const word = (parts: WordPart[]): Word => ({ type: 'Word', Parts: parts });
  c = { orig: null, with: r.With };
  if (r.With) {
    const parts = r.With.Parts;
    let split = -1, at = -1;
    for (let i = 0; i < parts.length && split < 0; i++) {
      const p = parts[i]!;
      if (p.type !== 'Lit') continue;
      for (let j = 0; j < p.Value.length; j++) {
        if (p.Value[j] === '\\') { j++; continue; }
        if (p.Value[j] === '/') { split = i; at = j; break; }
      }
    }
    if (split < 0) c = { orig: word([lit('/', undefined), ...parts]), with: null };
    else {
      const l = parts[split] as Lit;
      const before = l.Value.slice(0, at), after = l.Value.slice(at + 1);
      c = {
        orig: word([lit('/', undefined), ...parts.slice(0, split), ...(before ? [lit(before, l)] : [])]),
        with: word([...(after ? [lit(after, l)] : []), ...parts.slice(split + 1)]),
      };
    }
  } else if (r.All && !pe.Index && (pe as { Rbrace?: number }).Rbrace! - pe.Param.ValueEnd === 3) c = { orig: word([lit('/', undefined)]), with: null };
  slashRepls.set(pe, c);
  return c;
}
/** Unquoted literal text that expands to itself as a single field (no escapes, tilde, braces, glob characters). */
const plainLit = (v: string): boolean => v !== '' && !/[\\~{*?(]/.test(v) && (!v.includes('[') || !hasMeta(v));
/** A word of one literal part of raw text `v`. */
const litWord = (v: string): Word => ({ type: 'Word', Parts: [litPart(v)] });
/** A Lit part of raw text `v` made by expansion (no source position). */
function litPart(v: string): Lit { return { type: 'Lit', ValuePos: 0, ValueEnd: 0, Value: v }; }
/** Whether `s` contains one of the characters of `set`. */
function hasChar(s: string, set: string): boolean {
  for (let i = 0; i < s.length; i++) if (set.includes(s[i]!)) return true;
  return false;
}

export interface ParamResult { vals: string[]; list: boolean; star: boolean; word?: Word | null }

export class Expander {
  constructor(readonly sh: Shell) {}

  ifs(): string { const v = this.sh.vars.get('IFS'); return v === undefined ? ' \t\n' : v; }

  /** Full expansion of command arguments. */
  async fields(words: Word[]): Promise<string[]> {
    if (this.canSyncAll(words)) return this.fieldsSync(words);
    const out: string[] = [];
    for (const w0 of words) {
      const p0 = w0.Parts.length === 1 ? w0.Parts[0]! : undefined;
      if (p0 && p0.type === 'CmdSubst') { this.substFields(await this.sh.cmdSubst(p0.Stmts, p0.Backquotes ? undefined : p0.Right, this.inHeredoc > 0), out); continue; }
      const ws = braceExpand(w0);
      for (const b of ws) {
        if (typeof b === 'string' && plainLit(b)) { out.push(b); continue; }
        const w = typeof b === 'string' ? litWord(b) : b;
        const fb = new FieldBuilder(this.ifs());
        await this.word(w, fb, false, true);
        this.globFields(fb, out);
      }
    }
    return out;
  }

  /**
   * The fields of a word that is one unquoted command substitution: split in one regex match
   * when IFS is whitespace only and nothing in the output could glob (`for x in $(seq 5000)`),
   * else as any unquoted expansion.
   */
  private substFields(s: string, out: string[]): void {
    const ifs = this.ifs();
    if (IFS_WS.test(ifs) && (this.sh.opts.noglob || !MAYBE_META.test(s))) {
      const runs = s.match(nonIfsRuns(ifs));
      if (runs) for (let i = 0; i < runs.length; i++) out.push(runs[i]!);
      return;
    }
    const fb = new FieldBuilder(ifs);
    fb.addSplit(s, true);
    this.globFields(fb, out);
  }

  /** Finishes a word's fields: pathname expansion, then appends them to `out`. */
  private globFields(fb: FieldBuilder, out: string[]): void {
    const done = fb.finish();
    const globbing = !this.sh.opts.noglob, ext = this.sh.shopt.has('extglob');
    for (let i = 0; i < done.length; i++) {
      const f = done[i]!;
      if (f.meta && globbing && hasMeta(f.pat, ext)) {
        // GLOBIGNORE: colon-separated patterns removed from the results; setting it turns dotglob on
        const gi = this.sh.vars.get('GLOBIGNORE');
        const ignore = gi ? splitIgnore(gi) : undefined;
        const m = glob(f.pat, {
          cwd: this.sh.cwd, dotglob: this.sh.shopt.has('dotglob') || !!ignore?.length, extglob: this.sh.shopt.has('extglob'),
          nocase: this.sh.shopt.has('nocaseglob'), globstar: this.sh.shopt.has('globstar'),
          noskipdots: !this.sh.shopt.has('globskipdots'), ignore, utf8: this.sh.vars.utf8Locale(),
        });
        if (m.length) { out.push(...m); continue; }
        if (this.sh.shopt.has('nullglob')) continue;
        if (this.sh.shopt.has('failglob')) {
          // bash's report_error(): under `set -e` the shell exits, otherwise the line is abandoned
          if (this.sh.opts.errexit) throw new ShellError(`no match: ${f.val}`, 1, true);
          throw new DiscardError(`no match: ${f.val}`);
        }
        out.push(f.val);
        continue;
      }
      out.push(f.val);
    }
  }

  /** Expansion without splitting or globbing (assignment values, redirection targets...). */
  async literal(w: Word | null, tilde: 'first' | 'assign' | 'none' = 'first'): Promise<string> {
    if (!w) return '';
    if (this.canSync(w)) return this.literalSync(w, tilde);
    const fb = new FieldBuilder('', true);
    await this.word(w, fb, false, tilde !== 'none', tilde === 'assign');
    return fb.fields.map((f) => f.val).join('') + fb.cur.val;
  }

  /** Expansion to a pattern (quoted characters escaped). */
  async pattern(w: Word | null, rep = false): Promise<string> {
    if (!w) return '';
    if (this.canSync(w)) return this.patternSync(w, rep);
    const fb = new FieldBuilder('', true);
    fb.bsLit = rep;
    await this.word(w, fb, false, true);
    return fb.fields.map((f) => f.pat).join('') + fb.cur.pat;
  }

  /** pattern(w) as bash's xtrace shows a `[[ == ]]` operand: every quoted character escaped (`"a b"` is `\a\ \b`); it matches the same. */
  async patternShown(w: Word): Promise<string> {
    const fb = new ShownFieldBuilder('', true);
    await this.word(w, fb, false, true);
    return fb.fields.map((f) => f.pat).join('') + fb.cur.pat;
  }

  /** Right-hand side of `=~`: quoted parts match literally. Without a promise when canSync(w). */
  regexWord(w: Word): string | Promise<string> {
    if (!this.canSync(w)) return this.regexWordAsync(w);
    let out = '';
    for (const p of w.Parts) {
      if (p.type === 'Lit') { out += this.regexLit(w, p); continue; }
      const fb = new FieldBuilder('', true);
      this.partSync(p, fb, isQuotedPart(p));
      out += regexPartText(fb, p);
    }
    return out;
  }

  private async regexWordAsync(w: Word): Promise<string> {
    let out = '';
    for (const p of w.Parts) {
      if (p.type === 'Lit') { out += this.regexLit(w, p); continue; }
      const fb = new FieldBuilder('', true);
      await this.part(p, fb, isQuotedPart(p));
      out += regexPartText(fb, p);
    }
    return out;
  }

  /** Literal text of a `=~` operand: a leading tilde is expanded, and its value matched literally. */
  private regexLit(w: Word, p: Lit): string {
    const r = p === w.Parts[0] && p.Value.startsWith('~') ? this.tildePrefix(p.Value, w.Parts.length === 1) : undefined;
    return r ? escapeEre(r.home) + r.rest : p.Value;
  }

  /** Heredoc body: only $, ` and \ are special. */
  async heredoc(w: Word | null): Promise<string> {
    if (!w) return '';
    let out = '';
    for (const p of w.Parts) {
      if (p.type === 'Lit') out += unescapeDq(p.Value, true);
      else {
        const fb = new FieldBuilder('', true);
        this.inHeredoc++;
        try { await this.part(p, fb, true); } finally { this.inHeredoc--; }
        out += fb.fields.map((f) => f.val).join('') + fb.cur.val;
      }
    }
    return out;
  }

  /** >0 while expanding a here-document body (`\"` is not special there). */
  private inHeredoc = 0;

  /**
   * Backquotes inside double quotes: bash removes the backslash of `\"` in their text before
   * parsing it (mvdan/sh keeps it), so the text is parsed again from the source.
   */
  private dqBackquote(p: CmdSubst): Stmt[] {
    let r = dqBackquotes.get(p);
    if (r === undefined) {
      r = p.Stmts;
      const src = this.sh.source.src;
      const right = (p as CmdSubst & { Right?: number }).Right;
      if (right !== undefined && src[p.Left] === '`' && src[right] === '`') {
        const raw = src.slice(p.Left + 1, right);
        if (raw.includes('\\"')) {
          const utf8 = (t: string): string => Buffer.from(t, 'latin1').toString('utf8');
          try {
            // the source must be the one the node came from (same first statement offset)
            const same = parse(utf8(raw.replace(/\\([\\`$])/g, '$1')), this.sh.posix).Stmts[0]?.Position === (p.Stmts[0]?.Position ?? 0) - p.Left - 1;
            if (same) r = parse(utf8(raw.replace(/\\([\\`$"])/g, '$1')), this.sh.posix).Stmts;
          } catch { /* keep */ }
        }
      }
      dqBackquotes.set(p, r);
    }
    return r;
  }

  private async word(w: Word, fb: FieldBuilder, quoted: boolean, tilde: boolean, assign = false): Promise<void> {
    if (this.canSync(w)) { this.wordSync(w, fb, quoted, tilde, assign); return; }
    const parts = w.Parts;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.type === 'Lit' && !quoted) { this.litPart(p.Value, i === 0, parts.length === 1, fb, tilde, assign, i === parts.length - 1); continue; }
      if (assign && p.type === 'ParamExp') this.assignTilde = true; // (read by paramExp before it awaits)
      await this.part(p, fb, quoted);
    }
  }

  /** Set for the `${x-word}` about to be expanded in an assignment's value: tildes after `:` in its word expand too. */
  private assignTilde = false;

  /** An unquoted literal part of a word: tilde prefixes, backslash escapes. */
  private litPart(v: string, first: boolean, whole: boolean, fb: FieldBuilder, tilde: boolean, assign: boolean, lastPart = true): void {
    if (tilde && first && v.startsWith('~')) {
      const r = this.tildePrefix(v, whole, assign);
      if (r) { fb.addQuoted(r.home); v = r.rest; }
    } else if (tilde && first && !this.sh.posix && v.includes('=~') && /^[a-zA-Z_][a-zA-Z0-9_]*=~/.test(v)) {
      const eq = v.indexOf('=');
      const r = this.tildePrefix(v.slice(eq + 1), whole);
      if (r) { this.lit(v.slice(0, eq + 1), fb); fb.addQuoted(r.home); v = r.rest; }
    }
    if (assign && v.includes(':~')) {
      // tilde after ':' in assignments
      v = v.replace(/:~([^:/]*)/g, (m, u: string, at: number) => {
        if (!lastPart && at + m.length === v.length) return m; // (`:~"x"`: the prefix runs into the next part)
        const h = this.tildeHome(u);
        return h === undefined ? m : ':' + h;
      });
    }
    this.lit(v, fb);
  }

  private tildeHome(user: string): string | undefined {
    if (user === '') return this.sh.vars.get('HOME') ?? homeFromPasswd();
    if (user === '+') return this.sh.vars.get('PWD');
    if (user === '-') return this.sh.vars.get('OLDPWD');
    if (!/^[a-zA-Z0-9_.-]+$/.test(user)) return undefined;
    return this.sh.userHome(user);
  }

  private tildePrefix(v: string, whole: boolean, assign = false): { home: string; rest: string } | undefined {
    let slash = v.indexOf('/');
    const colon = v.indexOf(':'); // bash ends the tilde prefix at ':' too, in any word (`~root:x`)
    if (colon >= 0 && (slash < 0 || colon < slash)) { slash = colon; whole = true; } // `x=~:~/bin`
    const end = slash < 0 ? v.length : slash;
    // `~$x`, `~'/x'`, `~""`: the tilde-prefix runs on into a quoted or expanded part: not expanded
    if (slash < 0 && !whole) return undefined;
    const user = v.slice(1, end);
    const h = this.tildeHome(user);
    if (h === undefined) return undefined;
    return { home: h, rest: v.slice(end) };
  }

  private lit(v: string, fb: FieldBuilder): void {
    if (!v.includes('\\')) { fb.addLiteral(v, v); return; }
    let val = '', pat = '';
    for (let i = 0; i < v.length; i++) {
      const c = v[i]!;
      if (c === '\\' && i + 1 < v.length) {
        const n = v[++i]!;
        if (n === '\n') continue;
        val += n; pat += fb.bsLit && n === '&' ? '\\&' : escPat(n);
        continue;
      }
      val += c; pat += c;
    }
    fb.addLiteral(val, pat);
    if (val === '' && v !== '') fb.markKeep();
  }

  private async part(p: WordPart, fb: FieldBuilder, quoted: boolean): Promise<void> {
    if (this.canSyncPart(p)) { this.partSync(p, fb, quoted); return; }
    switch (p.type) {
      case 'DblQuoted':
        return this.dblQuoted(p, fb);
      case 'CmdSubst': {
        const s = await this.sh.cmdSubst(quoted && p.Backquotes && !this.inHeredoc ? this.dqBackquote(p) : p.Stmts, p.Backquotes ? undefined : p.Right, this.inHeredoc > 0);
        if (quoted) fb.addQuoted(s); else fb.addSplit(s, true);
        return;
      }
      case 'ArithmExp': {
        const v = p.X ? await this.sh.arithAst(p.X, p.Left + (p.Bracket ? 2 : 3), p.Right) : 0n;
        if (quoted) fb.addQuoted(String(v)); else fb.addSplit(String(v), true);
        return;
      }
      case 'ParamExp':
        return this.paramExp(p, fb, quoted);
      case 'ProcSubst': {
        const path = await this.sh.procSubst(p);
        fb.addQuoted(path);
        return;
      }
      case 'ExtGlob':
        for (const q of extGlobParts(p, this.sh.posix) ?? []) { if (q.type === 'Lit') this.lit(q.Value, fb); else await this.part(q, fb, false); }
        return;
      case 'BraceExp':
        throw new ShellError('unsupported brace expansion node', 1);
    }
  }

  private async dblQuoted(p: DblQuoted, fb: FieldBuilder): Promise<void> {
    if (p.Parts.length === 0) { fb.addQuoted(''); return; }
    for (const q of p.Parts) {
      if (q.type === 'Lit') { fb.addQuoted(unescapeDq(q.Value, false)); continue; }
      await this.part(q, fb, true);
    }
    if (p.Parts.length === 1 && p.Parts[0]!.type === 'ParamExp') return; // "$@" may vanish
    fb.markKeep();
  }

  // ---- parameters ------------------------------------------------------------------------------
  private async paramExp(pe: ParamExp, fb: FieldBuilder, quoted: boolean): Promise<void> {
    const assign = this.assignTilde;
    this.assignTilde = false;
    const r = await this.param(pe, quoted);
    if (r.word !== undefined) {
      // ${x:-word} / ${x:+word}: the word is expanded in place (its quoting is kept)
      if (!r.word) { if (quoted) fb.addQuoted(''); return; }
      if (quoted) {
        for (const p of r.word.Parts) {
          // inside "${x-word}" a backslash also quotes `}`; single quotes are literal but what
          // they enclose is still expanded as in double quotes
          if (p.type === 'Lit') fb.addQuoted(unescapeDq(p.Value.includes('\\}') ? p.Value.replace(/\\(\\|\})/g, (m, c: string) => (c === '}' ? c : m)) : p.Value, false));
          else if (p.type === 'SglQuoted' && !p.Dollar) {
            const dq = /[$`]/.test(p.Value) ? sqAsDq(p.Value) : undefined;
            if (dq) { fb.addQuoted("'"); await this.part(dq, fb, true); fb.addQuoted("'"); } else fb.addQuoted(`'${p.Value}'`);
          } else await this.part(p, fb, true);
        }
        fb.markKeep();
      } else {
        // unquoted: literal text of the word is itself subject to field splitting
        for (let k = 0; k < r.word.Parts.length; k++) {
          const p = r.word.Parts[k]!;
          if (p.type !== 'Lit') { await this.part(p, fb, false); continue; }
          let v = p.Value;
          if (k === 0 && v.startsWith('~')) {
            const t = this.tildePrefix(v, r.word.Parts.length === 1);
            if (t) { fb.addQuoted(t.home); v = t.rest; }
          }
          // (in an assignment, tildes after `:` expand as in its own text; the home is not split)
          const segs = assign && v.includes(':~') ? v.split(/(:~[^:/\\]*)/) : [v];
          for (let j = 0; j < segs.length; j++) {
            const seg = segs[j]!;
            const h = j % 2 === 1 && (j + 1 < segs.length - 1 || k === r.word.Parts.length - 1 || segs[j + 1] !== '') ? this.tildeHome(seg.slice(2)) : undefined;
            if (h !== undefined) { fb.addSplit(':', true); fb.addQuoted(h); continue; }
            let plain = '';
            for (let i = 0; i < seg.length; i++) {
              if (seg[i] === '\\' && i + 1 < seg.length) {
                if (plain) { fb.addSplit(plain, true); plain = ''; }
                if (seg[i + 1] !== '\n') fb.addQuoted(seg[i + 1]!);
                i++;
                continue;
              }
              plain += seg[i];
            }
            if (plain) fb.addSplit(plain, true);
          }
        }
      }
      return;
    }
    this.emitParam(r, fb, quoted);
  }

  /** Adds a parameter's value(s) to the word (not for ${x:-word} forms). */
  private emitParam(r: ParamResult, fb: FieldBuilder, quoted: boolean): void {
    if (r.list && fb.flat) {
      // no field splitting here: "$@" joins with spaces, $* / "$*" with IFS's first character
      const s = r.vals.join(r.star ? this.ifs().slice(0, 1) : ' ');
      if (quoted) fb.addQuoted(s); else fb.addSplit(s, true);
      if (quoted || r.vals.length) fb.markKeep();
      return;
    }
    if (!r.list) {
      const s = r.vals[0] ?? '';
      if (quoted) fb.addQuoted(s); else fb.addSplit(s, true);
      return;
    }
    if (r.star && quoted) { fb.addQuoted(r.vals.join(this.ifs().slice(0, 1))); return; }
    if (quoted) {
      r.vals.forEach((v, i) => { if (i > 0) fb.breakField(); fb.addQuoted(v); });
      return;
    }
    // unquoted $@ / $*: as if joined with IFS's first character and then split (so with a
    // non-whitespace IFS, empty elements stay empty fields: IFS=x; set -- a '' b; $* → a '' b)
    if (fb.ifs !== '') { fb.addSplit(r.vals.join(fb.ifs[0]!), true); return; }
    r.vals.forEach((v, i) => {
      if (i > 0) fb.push();
      fb.addSplit(v, true);
    });
  }

  /** Evaluates a parameter expansion to one string or a list. */
  async param(pe: ParamExp, quoted: boolean): Promise<ParamResult> {
    const sh = this.sh;
    let name = pe.Param.Value;
    let indexWord: string | undefined; // '@', '*', or a subscript value
    if (pe.Index) indexWord = await sh.subscriptText(name, pe.Index);
    if (indexWord === '' && sh.vars.resolve(name)?.assoc) void sh.err(`${name}: bad array subscript`); // (bash goes on: the element is unset)

    // ${!prefix*} / ${!prefix@}
    if (pe.Excl && pe.Names) {
      const names = sh.vars.names().filter((n) => n.startsWith(name)).sort();
      // bash quirk: unquoted ${!p*} with IFS='' is one word (names joined with nothing)
      if (!quoted && pe.Names === Tok.star && this.ifs() === '') return { vals: [names.join('')], list: false, star: false };
      return { vals: names, list: true, star: pe.Names === Tok.star && quoted };
    }
    // ${!arr[@]} keys (with an operator, bash expands "${arr[@]}" indirectly instead)
    if (pe.Excl && (indexWord === '@' || indexWord === '*') && !pe.Exp && !pe.Slice && !pe.Repl && !pe.Length) {
      const keys = this.elementRef(name) ? [] : sh.vars.arrayKeys(name);
      // bash quirk: unquoted ${!a[*]} with IFS='' is one word (keys joined with spaces)
      if (!quoted && indexWord === '*' && this.ifs() === '' && keys.length) return { vals: [keys.join(' ')], list: false, star: false };
      return { vals: keys, list: true, star: indexWord === '*' };
    }
    let indirArray = false;
    let indirUnset = false;
    if (pe.Excl) {
      // indirection (or nameref target name)
      const v0 = indexWord === undefined ? sh.vars.raw(name) : undefined;
      if (v0?.nameref) {
        return { vals: [v0.str ?? ''], list: false, star: false };
      }
      let target: string | undefined;
      if (indexWord === '@' || indexWord === '*') { const vs = sh.vars.arrayValues(name); target = vs.length ? vs.join(' ') : undefined; }
      else target = indexWord !== undefined ? sh.vars.getElem(name, indexWord) : sh.vars.param(name);
      if (target === undefined) {
        // bash abandons the command (and the rest of the line) when the variable does not exist;
        // a declared but unset one (or an unset positional parameter) indirects to nothing
        if (/^[a-zA-Z_]/.test(name) && !sh.vars.resolve(name)) throw new DiscardError(`${indexWord !== undefined ? `${name}[${indexWord}]` : name}: invalid indirect expansion`);
        if (sh.opts.nounset && !(pe.Exp && pe.Exp.Op >= Tok.plus && pe.Exp.Op <= Tok.colAssgn)) throw new ShellError(`!${name}: unbound variable`, 127, true);
        indirUnset = true;
      } else if (target === '' && (name === '@' || name === '*')) {
        // (`${!@}` without positional parameters is empty)
        if (sh.opts.nounset && !(pe.Exp && pe.Exp.Op >= Tok.plus && pe.Exp.Op <= Tok.colAssgn)) throw new ShellError(`!${name}: unbound variable`, 127, true);
        indirUnset = true;
      } else {
        const m = /^([a-zA-Z_][a-zA-Z0-9_]*|[0-9]+|[@*#?$!-])(?:\[(.*)\])?$/s.exec(target);
        if (!m) throw new DiscardError(`${target}: invalid variable name`);
        name = m[1]!;
        indexWord = m[2] === undefined ? undefined : await sh.refSubscriptAsync(name, m[2]);
        indirArray = indexWord === '@' || indexWord === '*';
      }
    }

    if (pe.Length && !indirUnset && (indexWord === '@' || indexWord === '*') && !(badSubst.size && badSubst.has(name))) {
      const n = sh.vars.elementCount(name);
      if (n !== undefined) return { vals: [String(n)], list: false, star: false };
    }
    const lk = indirUnset ? { vals: [''], list: false, star: false, isSet: false } : this.lookup(name, indexWord);
    let vals = lk.vals;
    const { list, star, isSet } = lk;

    if (pe.Length) {
      if (list) { this.nounsetLength(name, indexWord); return { vals: [String(vals.length)], list: false, star: false }; }
      // (`${#a[k]}` of an unset element of an array is 0)
      if (!isSet && sh.opts.nounset && !pe.Exp && !(indexWord !== undefined && this.isSetArray(name))) throw new ShellError(`${name}: unbound variable`, 127, true);
      return { vals: [String(this.strLength(vals[0]!))], list: false, star: false };
    }

    const exp = pe.Exp;
    const colonOps: number[] = [Tok.colPlus, Tok.colMinus, Tok.colQuest, Tok.colAssgn];
    if (exp && exp.Op >= Tok.plus && exp.Op <= Tok.colAssgn) {
      const colon = colonOps.includes(exp.Op);
      // (through an indirection to `a[@]`/`a[*]`, bash's colon test only asks for elements)
      const nullish = !isSet || (colon && (indirArray ? vals.length === 0 : list ? (star && quoted ? vals.join(this.ifs().slice(0, 1)) === '' : vals.length === 0 || (vals.length === 1 && vals[0] === '')) : vals[0] === ''));
      const arg = async (): Promise<string> => (quoted ? this.literalDq(exp.Word, true) : this.literal(exp.Word));
      switch (exp.Op) {
        case Tok.plus: case Tok.colPlus:
          // ("${a[@]+x}" of no elements is no word at all, like "${a[@]}")
          if (nullish) return list && !star && vals.length === 0 ? { vals: [], list: true, star: false } : { vals: [''], list: false, star: false };
          return this.wordResult(exp.Word, quoted);
        case Tok.minus: case Tok.colMinus:
          if (nullish) return this.wordResult(exp.Word, quoted);
          break;
        case Tok.quest: case Tok.colQuest:
          if (nullish) {
            const msg = await arg();
            throw new ShellError(`${indexWord !== undefined ? this.writtenName(pe, name, indexWord) : name}: ${msg === '' ? (colonOps.includes(exp.Op) ? 'parameter null or not set' : 'parameter not set') : msg}`, 127, true);
          }
          break;
        case Tok.assgn: case Tok.colAssgn:
          if (nullish) {
            const v = await arg();
            if (!isName(name)) throw new DiscardError(`$${name}: cannot assign in this way`);
            if (indexWord !== undefined) sh.vars.setElem(name, indexWord, v); else sh.vars.set(name, v);
            return { vals: [sh.vars.param(name) ?? v], list: false, star: false };
          }
          break;
      }
    } else this.nounsetCheck(name, indexWord, isSet, pe.Short, pe);

    // (bash evaluates neither offset nor length of an unset parameter but $@/$*: parameter_brace_substring)
    if (pe.Slice && (isSet || name === '@' || name === '*')) {
      let off = 0, len: number | undefined;
      try {
        off = pe.Slice.Offset ? Number(await sh.arithAst(pe.Slice.Offset)) : 0;
        len = pe.Slice.Length ? Number(await sh.arithAst(pe.Slice.Length)) : undefined;
      } catch (e) { throw sliceError(e, pe, sh.source.src); }
      vals = this.sliceVals(vals, list, name, off, len, pe);
    }

    if (pe.Repl) {
      const r = replParts(pe);
      const pat = r.orig ? await this.pattern(r.orig) : '';
      const rep = r.with ? await this.pattern(r.with, true) : '';
      const amp = sh.shopt.has('patsub_replacement');
      vals = vals.map((v) => replacePattern(v, pat, rep, pe.Repl!.All, true, amp, this.utf8(v)));
    }

    if (exp && exp.Op >= Tok.perc && exp.Op <= Tok.dblHash) {
      const pat = await this.pattern(exp.Word);
      vals = vals.map((v) => removePattern(v, pat, exp.Op, this.utf8(v)));
    } else if (exp && ((exp.Op >= Tok.caret && exp.Op <= Tok.dblComma) || exp.Op === TOGGLE_FIRST || exp.Op === TOGGLE_ALL)) {
      const pat = exp.Word ? await this.pattern(exp.Word) : '';
      vals = vals.map((v) => caseMod(v, exp.Op, pat, this.utf8(v)));
    } else if (exp && exp.Op === Tok.at) {
      const op = exp.Word ? await this.literal(exp.Word) : '';
      const pairs = (op === 'K' || op === 'k') && list && !pe.Slice && !pe.Repl ? sh.vars.keyedPairs(name) : undefined;
      if (pairs) {
        // keys and values: one word (`K`, values double-quoted as in declare -p), or a word each (`k`)
        const utf8 = sh.vars.utf8Locale(), assoc = !!sh.vars.resolve(name)?.assoc;
        if (op === 'k') return { vals: pairs.flat(), list: true, star };
        const dquote = (x: string): string => (needsAnsiC(x, utf8) ? ansicQuote(x, utf8) : '"' + x.replace(/(["\\$`])/g, '\\$1') + '"');
        const key = (k: string): string => (!assoc || !assocKeyNeedsQuotes(k, utf8) ? k : dquote(k));
        return { vals: [pairs.map(([k, x]) => `${key(k)} ${dquote(x)}`).join(' ') + (assoc && pairs.length ? ' ' : '')], list: false, star: false };
      }
      // (`P`: the prompt's expansions too, as promptvars does)
      if (op === 'P') { const out: string[] = []; for (const v of vals) out.push(await this.promptString(v)); vals = out; }
      else vals = vals.map((v) => this.transform(v, op, indirUnset ? '' : name, isSet)); // (an indirection to nothing has no attributes)
      // (an array with no elements: only a declared-but-unassigned one still shows its attributes)
      if (op === 'a' && vals.length === 0) vals = list && !sh.vars.resolve(name)?.declOnly ? [] : [sh.vars.attrString(name)];
      if (op === 'A' && list) {
        return { vals: [sh.vars.declareLine(name)], list: false, star: false };
      }
    }
    return { vals, list, star };
  }

  /** The value(s) a parameter expansion starts from. */
  /** Whether `name` is a nameref to an array element (`a[i]`, `a[@]`). */
  private elementRef(name: string): boolean {
    return !!this.sh.vars.raw(name)?.nameref && this.sh.vars.refTarget(name, false)?.[1] !== undefined;
  }

  /** Whether the parameter of a bad `@` transformation (`${x@Z}`, `${#@a@]}`, `${a[1]@Z}`) is set: then bash's error is fatal. */
  private transformedIsSet(name: string, index: string | undefined, indirect: boolean): boolean {
    const sh = this.sh;
    if (indirect && index === undefined) {
      // `${!p@Z}`: of the variable p names (bash's indirection error first when p does not exist)
      const t = sh.vars.param(name);
      if (t === undefined && /^[A-Za-z_]/.test(name) && !sh.vars.resolve(name)) throw new DiscardError(`${name}: invalid indirect expansion`);
      if (t === '') throw new DiscardError(': invalid variable name');
      if (t === undefined || !/^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#?$!@*-])$/.test(t)) return t !== undefined;
      name = t;
    }
    if (name === '@' || name === '*') return sh.params.length > 0;
    if (index === '@' || index === '*') return sh.vars.arrayValues(name).length > 0;
    if (index !== undefined) { try { return sh.vars.getElem(name, index) !== undefined; } catch { return sh.vars.raw(name) !== undefined; } }
    return /^[A-Za-z_]/.test(name) ? sh.vars.raw(name) !== undefined : sh.vars.param(name) !== undefined;
  }

  private lookup(name: string, indexWord: string | undefined): { vals: string[]; list: boolean; star: boolean; isSet: boolean } {
    const sh = this.sh;
    if (badSubst.size && badSubst.has(name)) {
      const text = badSubst.get(name)!;
      // A bad `@` transformation of a set variable is fatal in bash (its expand_wdesc_fatal): the
      // shell exits, 127 at the top of -c, 1 in a script; elsewhere the line is abandoned.
      const at = /^\$\{(!?)([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#?$@*-])(?:\[([^\]]*)\])?@/.exec(text);
      // (not `${x@[Q}`: bash's scan reads `[Q}…` as a subscript and finds no `}`, an ordinary error)
      if (at && !subscriptRunsOn(text) && this.transformedIsSet(at[2]!, at[3], at[1] === '!')) throw new ShellError(badSubstMessage(name, text), 127, true);
      // (of an unset variable there is nothing to transform: bash expands it to nothing)
      if (at && !subscriptRunsOn(text)) return { vals: [''], list: false, star: false, isSet: false };
      throw new DiscardError(badSubstMessage(name, text));
    }
    if (indexWord === undefined) {
      const raw = sh.vars.raw(name);
      if (raw?.nameref) {
        // a nameref to `a[@]` expands like "${a[@]}"
        const t = sh.vars.refTarget(name, false);
        if (t && (t[1] === '@' || t[1] === '*')) { name = t[0]; indexWord = t[1]; }
      } else if (name.charCodeAt(0) >= 97 && name.charCodeAt(0) <= 122) {
        // (a lowercase name is never special: VarStore.get's steps on the variable found here)
        const v = raw && scalarValue(raw);
        return { vals: [v ?? ''], list: false, star: false, isSet: v !== undefined };
      }
    } else if (this.elementRef(name)) {
      // (a subscript on a nameref to an element `a[i]` names no variable: bash expands nothing)
      return indexWord === '@' || indexWord === '*' ? { vals: [], list: true, star: indexWord === '*', isSet: false } : { vals: [''], list: false, star: false, isSet: false };
    }
    if (name === '@' || name === '*') {
      const vals = sh.params.slice();
      return { vals, list: true, star: name === '*', isSet: vals.length > 0 };
    }
    if (indexWord === '@' || indexWord === '*') {
      const vals = sh.vars.arrayValues(name);
      return { vals, list: true, star: indexWord === '*', isSet: vals.length > 0 };
    }
    const v = indexWord !== undefined ? sh.vars.getElem(name, indexWord) : sh.vars.param(name);
    return { vals: [v ?? ''], list: false, star: false, isSet: v !== undefined };
  }

  /** `set -u`: `${#a[@]}` of an array that does not exist (bash abandons the line, status 1). */
  private nounsetLength(name: string, indexWord: string | undefined): void {
    const sh = this.sh;
    if (sh.opts.nounset && indexWord !== undefined && /^[a-zA-Z_]/.test(name) && (!sh.vars.resolve(name) || sh.vars.resolve(name)!.declOnly) && !sh.isStackVarName(name)) throw new DiscardError(`${name}: unbound variable`);
  }

  /** `set -u`: error for an unset parameter (expansions without a default). */
  private nounsetCheck(name: string, indexWord: string | undefined, isSet: boolean, short = true, pe?: ParamExp): void {
    const sh = this.sh;
    if (!isSet && sh.opts.nounset && name !== '@' && name !== '*') {
      if (!(indexWord === '@' || indexWord === '*')) {
        // (bash names `$1` so, but `${1}` and its other forms just `1`; an indirection `${!k}` as `!k`)
        if (pe?.Excl) throw new ShellError(`!${pe.Param.Value}: unbound variable`, 127, true);
        throw new ShellError(`${indexWord !== undefined ? this.writtenName(pe, name, indexWord) : short && /^[0-9]/.test(name) ? '$' + name : name}: unbound variable`, 127, true);
      }
    }
  }

  private isSetArray(name: string): boolean {
    const v = this.sh.vars.resolve(name);
    return !!v && (!!v.arr || !!v.assoc) && this.sh.vars.isSet(name);
  }

  /** An element as written, `a[$k]`: bash names an unset one by its source text, not its key. */
  private writtenName(pe: ParamExp | undefined, name: string, indexWord: string): string {
    const src = this.sh.source.src, p = pe?.Param.ValueEnd ?? -1;
    if (pe && !pe.Excl && src[p] === '[' && src.slice(pe.Param.ValuePos, p) === name) {
      for (let j = p + 1, depth = 0; j < pe.Rbrace; j++) {
        const c = src[j];
        if (c === '\\') j++;
        else if (c === '[') depth++;
        else if (c === ']' && depth-- === 0) return `${name}${src.slice(p, j + 1)}`;
      }
    }
    return `${name}[${indexWord}]`;
  }

  /** `${x:off:len}` over a value or a list. */
  private sliceVals(vals: string[], list: boolean, name: string, off: number, len: number | undefined, pe?: ParamExp): string[] {
    const sh = this.sh;
    // (bash names the length as written, blanks and all)
    const negLen = (): DiscardError => new DiscardError(`${(pe && this.sliceLenText(pe)) ?? len}: substring expression < 0`);
    if (list) {
      let arr = vals;
      let o = off;
      if (name === '@' || name === '*') { arr = [sh.arg0, ...vals]; } else {
        const v = sh.vars.resolve(name);
        if (v?.arr) {
          // indexed arrays: the offset is an index (sparse arrays skip the holes)
          if (len !== undefined && len < 0) throw negLen();
          const keys = [...v.arr.keys()].sort((a, b) => a - b);
          if (o < 0) { o += (keys.length ? keys[keys.length - 1]! : -1) + 1; if (o < 0) return []; }
          let start = keys.findIndex((k) => k >= o);
          if (start < 0) start = keys.length;
          return vals.slice(start, len === undefined ? undefined : start + len);
        }
        if (v?.assoc && o > 0) o--; // bash counts an associative array's elements from 1
        if (v && !v.assoc && v.str !== undefined && vals.length === 1) return this.sliceVals(vals, false, name, off, len); // ${scalar[@]:o:l}
      }
      if (o < 0) o = Math.max(arr.length + o, 0);
      if (len !== undefined && len < 0) throw negLen();
      vals = arr.slice(o, len === undefined ? undefined : o + len);
      if ((name === '@' || name === '*') && off < 0 && arr.length + off < 0) vals = [];
      return vals;
    }
    const s = vals[0]!;
    // (offsets count characters in a UTF-8 locale)
    const at = this.utf8(s) ? charStarts(s) : undefined;
    const size = at ? at.length - 1 : s.length;
    const o = off < 0 ? size + off : off;
    if (o < 0 || o > size) return [''];
    let e = len === undefined ? size : len < 0 ? size + len : o + len;
    if (len !== undefined && len < 0 && e < o) throw negLen();
    if (e > size) e = size;
    return [at ? s.slice(at[o], at[e]) : s.slice(o, e)];
  }

  /** The source text of `${x:o:len}`'s len, from the colon to the brace. */
  private sliceLenText(pe: ParamExp): string | undefined {
    const start = (e: ArithmExpr): number | undefined => {
      switch (e.type) {
        case 'Word': { const f = e.Parts[0]; return f?.type === 'Lit' ? f.ValuePos : f?.type === 'ParamExp' ? f.Dollar : (f as { Left?: number } | undefined)?.Left; }
        case 'BinaryArithm': return start(e.X);
        case 'UnaryArithm': return e.Post ? start(e.X) : e.OpPos;
        case 'ParenArithm': return (e as unknown as { Lparen: number }).Lparen;
      }
    };
    const src = this.sh.source.src, a = pe.Slice?.Length ? start(pe.Slice.Length) : undefined;
    if (a === undefined || !(pe.Rbrace > a)) return undefined;
    let k = a;
    while (k > 0 && ' \t\n'.includes(src[k - 1]!)) k--;
    return src[k - 1] === ':' ? src.slice(k, pe.Rbrace) : undefined;
  }

  /** Whether `v` is to be taken by characters: it has multibyte ones and the locale is UTF-8. */
  utf8(v: string): boolean {
    return hasHighBytes(v) && this.sh.vars.utf8Locale();
  }

  /** ${#v}: bytes, or characters in a UTF-8 locale. */
  private strLength(v: string): number {
    return this.utf8(v) ? charLength(v) : v.length;
  }

  // ---- synchronous fast path -----------------------------------------------------------------
  // Most words need no awaiting: no command or process substitution, and parameter expansions
  // of the forms paramSync implements. They are expanded with the same FieldBuilder operations
  // as word()/part(), without a promise per part. canSync is structural and cached per AST node,
  // so the choice is made before anything is evaluated (nothing is evaluated twice).

  /** Whether `w` expands without awaiting. */
  canSync(w: Word): boolean {
    let r = syncNodes.get(w);
    if (r === undefined) {
      r = true;
      const ps = w.Parts;
      for (let i = 0; i < ps.length; i++) if (!this.canSyncPart(ps[i]!)) { r = false; break; }
      syncNodes.set(w, r);
    }
    return r;
  }

  canSyncAll(words: Word[]): boolean {
    for (let i = 0; i < words.length; i++) if (!this.canSync(words[i]!)) return false;
    return true;
  }

  private canSyncPart(p: WordPart): boolean {
    switch (p.type) {
      case 'Lit': case 'SglQuoted': return true;
      case 'ExtGlob': { const xs = extGlobParts(p, this.sh.posix); return !xs || xs.every((q) => this.canSyncPart(q)); }
      case 'DblQuoted': case 'ArithmExp': case 'ParamExp': break;
      default: return false;
    }
    let r = syncNodes.get(p);
    if (r === undefined) {
      if (p.type === 'DblQuoted') r = p.Parts.every((q) => this.canSyncPart(q));
      else if (p.type === 'ArithmExp') r = !p.X || this.sh.arith.canSync(p.X);
      else r = this.canSyncParam(p);
      syncNodes.set(p, r);
    }
    return r;
  }

  /** The parameter expansions paramSync handles: no indirection, no ${x:-word} forms, no @op. */
  private canSyncParam(p: ParamExp): boolean {
    if (p.Excl || p.Names || p.Width) return false;
    if (p.Index && !this.sh.canSyncSubscript(p.Index)) return false;
    const ar = this.sh.arith;
    if (p.Slice && ((p.Slice.Offset && !ar.canSync(p.Slice.Offset)) || (p.Slice.Length && !ar.canSync(p.Slice.Length)))) return false;
    if (p.Repl && ((p.Repl.Orig && !this.canSync(p.Repl.Orig)) || (p.Repl.With && !this.canSync(p.Repl.With)))) return false;
    const e = p.Exp;
    if (e && ((e.Op < Tok.perc || e.Op > Tok.dblComma) && e.Op !== TOGGLE_FIRST && e.Op !== TOGGLE_ALL)) return false;
    if (e?.Word && !this.canSync(e.Word)) return false;
    return true;
  }

  /** fields() without awaiting; only when every word canSync. */
  fieldsSync(words: Word[]): string[] {
    const out: string[] = [];
    for (let k = 0; k < words.length; k++) {
      const w0 = words[k]!;
      const p0 = w0.Parts.length === 1 ? w0.Parts[0]! : undefined;
      if (p0 && p0.type === 'Lit' && plainLit(p0.Value)) { out.push(p0.Value); continue; }
      if (p0 && p0.type === 'ParamExp') {
        // a lone unquoted parameter: one field when its value has nothing to split or glob
        const plain = this.plainLower(p0);
        const r = plain === null ? this.paramSync(p0) : { vals: [plain], list: false, star: false };
        const ifs = this.ifs();
        if (!r.list) {
          const s = r.vals[0] ?? '';
          if (s === '') continue;
          if (!hasChar(s, ifs) && (this.sh.opts.noglob || !hasMeta(s, this.sh.shopt.has('extglob')))) { out.push(s); continue; }
        }
        const fb = new FieldBuilder(ifs);
        this.emitParam(r, fb, false);
        this.globFields(fb, out);
        continue;
      }
      if (p0 && p0.type === 'DblQuoted' && this.quotedFieldSync(p0, out)) continue;
      const ws = braceExpand(w0);
      for (const b of ws) {
        if (typeof b === 'string' && plainLit(b)) { out.push(b); continue; }
        const w = typeof b === 'string' ? litWord(b) : b;
        const fb = new FieldBuilder(this.ifs());
        this.wordSync(w, fb, false, true);
        this.globFields(fb, out);
      }
    }
    return out;
  }

  /**
   * fieldsSync for a word that is one double-quoted string of text and plain `$name`s (`"x $y"`,
   * the commonest argument): the steps of partSync without a FieldBuilder, unless a name turns
   * out to be a list (a nameref to `a[@]`). false: not such a word, nothing was evaluated.
   */
  private quotedFieldSync(dq: DblQuoted, out: string[]): boolean {
    let plan = quotedPlans.get(dq);
    if (plan === undefined) quotedPlans.set(dq, (plan = quotedPlan(dq)));
    if (plan === null) return false;
    let val = '', fb: FieldBuilder | undefined;
    for (let k = 0; k < plan.length; k++) {
      const q = plan[k]!;
      if (typeof q === 'string') { if (fb) fb.addQuoted(q); else val += q; continue; }
      const plain = this.plainLower(q);
      if (plain !== null) { if (fb) fb.addQuoted(plain); else val += plain; continue; }
      const name = q.Param.Value;
      const r = this.lookup(name, undefined);
      this.nounsetCheck(name, undefined, r.isSet, q.Short);
      if (fb === undefined && !r.list) { val += r.vals[0] ?? ''; continue; }
      if (fb === undefined) { fb = new FieldBuilder(this.ifs()); if (k > 0) fb.addQuoted(val); }
      this.emitParam(r, fb, true);
    }
    if (fb === undefined) { out.push(val); return true; }
    if (plan.length !== 1) fb.markKeep(); // ("$@" alone may vanish)
    this.globFields(fb, out);
    return true;
  }

  /**
   * The value of a plain `$name`/`${name}` whose name is lowercase (never special) and not a
   * nameref: VarStore.get's steps, and set -u's error, without paramSync's result objects;
   * null for any other parameter expansion.
   */
  private plainLower(pe: ParamExp): string | null {
    if (!isPlainParam(pe)) return null;
    const name = pe.Param.Value, c = name.charCodeAt(0);
    if (c < 97 || c > 122 || (badSubst.size !== 0 && badSubst.has(name))) return null;
    const raw = this.sh.vars.raw(name);
    if (raw?.nameref) return null;
    const v = raw && scalarValue(raw);
    if (v === undefined) { this.nounsetCheck(name, undefined, false, pe.Short); return ''; }
    return v;
  }

  /** literal() without awaiting; only when canSync(w). */
  literalSync(w: Word, tilde: 'first' | 'assign' | 'none' = 'first'): string {
    const parts = w.Parts;
    // leading literal text (without escapes or tildes) and parameters with one value need no FieldBuilder
    let out = '';
    let i = 0;
    for (; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.type === 'Lit') {
        if (p.Value.includes('\\') || (tilde !== 'none' && p.Value.includes('~'))) break;
        out += p.Value;
        continue;
      }
      if (p.type === 'SglQuoted' && !p.Dollar) { out += p.Value; continue; }
      if (p.type === 'ArithmExp') { out += String(p.X ? this.sh.arithSync(p.X, p.Left + (p.Bracket ? 2 : 3), p.Right) : 0n); continue; }
      if (p.type !== 'ParamExp') break;
      const plain = this.plainLower(p);
      if (plain !== null) { out += plain; continue; }
      const r = this.paramSync(p);
      if (r.list) {
        const fb = new FieldBuilder('', true);
        fb.cur.val = out;
        this.emitParam(r, fb, false);
        return this.literalRest(w, i + 1, fb, tilde);
      }
      out += r.vals[0] ?? '';
    }
    if (i === parts.length) return out;
    const fb = new FieldBuilder('', true);
    fb.cur.val = out;
    return this.literalRest(w, i, fb, tilde);
  }

  /** literalSync from part `i` on (as wordSync), `fb` holding the value of the parts before. */
  private literalRest(w: Word, i: number, fb: FieldBuilder, tilde: 'first' | 'assign' | 'none'): string {
    const parts = w.Parts;
    for (; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.type === 'Lit') this.litPart(p.Value, i === 0, parts.length === 1, fb, tilde !== 'none', tilde === 'assign', i === parts.length - 1);
      else this.partSync(p, fb, false);
    }
    return fb.fields.map((f) => f.val).join('') + fb.cur.val;
  }

  /**
   * The test of a `case` or `[[ == ]]` pattern word that is one literal (no quotes, escapes,
   * tildes or expansions) of a plain form (`X`, `*X`, `X*`, `*X*`), made once per word: the
   * commonest patterns skip expansion and matching's general steps. null for any other word;
   * not for nocasematch.
   */
  constMatcher(w: Word): ((s: string) => boolean) | null {
    let m = constMatchers.get(w);
    if (m === undefined) {
      const p0 = w.Parts.length === 1 ? w.Parts[0]! : undefined;
      m = p0 && p0.type === 'Lit' && !p0.Value.includes('\\') && !p0.Value.includes('~') ? plainMatcher(p0.Value) : null;
      constMatchers.set(w, m);
    }
    return m;
  }

  /** pattern() without awaiting; only when canSync(w). */
  patternSync(w: Word, rep = false): string {
    const p0 = w.Parts.length === 1 ? w.Parts[0]! : undefined;
    if (p0 && p0.type === 'Lit' && !p0.Value.includes('\\') && !p0.Value.includes('~')) return p0.Value;
    const fb = new FieldBuilder('', true);
    fb.bsLit = rep;
    this.wordSync(w, fb, false, true);
    return fb.fields.map((f) => f.pat).join('') + fb.cur.pat;
  }

  private wordSync(w: Word, fb: FieldBuilder, quoted: boolean, tilde: boolean, assign = false): void {
    const parts = w.Parts;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.type === 'Lit' && !quoted) { this.litPart(p.Value, i === 0, parts.length === 1, fb, tilde, assign, i === parts.length - 1); continue; }
      this.partSync(p, fb, quoted);
    }
  }

  private partSync(p: WordPart, fb: FieldBuilder, quoted: boolean): void {
    switch (p.type) {
      case 'Lit':
        fb.addQuoted(quoted ? unescapeDq(p.Value, false) : p.Value);
        return;
      case 'SglQuoted': {
        let v = p.Dollar ? ansiC(p.Value, this.sh.parseUtf8) : p.Value;
        if (p.Dollar && v.includes('\0')) v = v.slice(0, v.indexOf('\0'));
        fb.addQuoted(v);
        return;
      }
      case 'ExtGlob': {
        const xs = quoted ? null : extGlobParts(p, this.sh.posix);
        if (xs) {
          // quotes and expansions inside the group: expanded in place, like the rest of the word
          for (const q of xs) { if (q.type === 'Lit') this.lit(q.Value, fb); else this.partSync(q, fb, false); }
          return;
        }
        const s = `${extGlobOp(p)}(${p.Pattern.Value})`;
        if (quoted) fb.addQuoted(s); else fb.addLiteral(s, s);
        return;
      }
      case 'DblQuoted': {
        // as dblQuoted()
        if (p.Parts.length === 0) { fb.addQuoted(''); return; }
        for (const q of p.Parts) {
          if (q.type === 'Lit') { fb.addQuoted(unescapeDq(q.Value, false)); continue; }
          this.partSync(q, fb, true);
        }
        if (p.Parts.length === 1 && p.Parts[0]!.type === 'ParamExp') return; // "$@" may vanish
        fb.markKeep();
        return;
      }
      case 'ArithmExp': {
        const v = p.X ? this.sh.arithSync(p.X, p.Left + (p.Bracket ? 2 : 3), p.Right) : 0n;
        if (quoted) fb.addQuoted(String(v)); else fb.addSplit(String(v), true);
        return;
      }
      case 'ParamExp':
        this.emitParam(this.paramSync(p), fb, quoted);
        return;
      default:
        throw new Error(`internal: ${p.type} is not expanded synchronously`);
    }
  }

  /** param() for the forms canSyncParam accepts, in the same order of evaluation. */
  private paramSync(pe: ParamExp): ParamResult {
    const sh = this.sh;
    const name = pe.Param.Value;
    const indexWord = pe.Index ? sh.subscriptTextSync(name, pe.Index) : undefined;
    if (indexWord === '' && sh.vars.resolve(name)?.assoc) void sh.err(`${name}: bad array subscript`);
    if (pe.Length && (indexWord === '@' || indexWord === '*') && !(badSubst.size && badSubst.has(name))) {
      const n = sh.vars.elementCount(name);
      if (n !== undefined) return { vals: [String(n)], list: false, star: false };
    }
    const lk = this.lookup(name, indexWord);
    let vals = lk.vals;
    const { list, isSet } = lk;
    if (pe.Length) {
      if (list) { this.nounsetLength(name, indexWord); return { vals: [String(vals.length)], list: false, star: false }; }
      // (`${#a[k]}` of an unset element of an array is 0)
      if (!isSet && sh.opts.nounset && !pe.Exp && !(indexWord !== undefined && this.isSetArray(name))) throw new ShellError(`${name}: unbound variable`, 127, true);
      return { vals: [String(this.strLength(vals[0]!))], list: false, star: false };
    }
    this.nounsetCheck(name, indexWord, isSet, pe.Short, pe);
    if (pe.Slice && (isSet || name === '@' || name === '*')) {
      let off = 0, len: number | undefined;
      try {
        off = pe.Slice.Offset ? Number(sh.arithSync(pe.Slice.Offset)) : 0;
        len = pe.Slice.Length ? Number(sh.arithSync(pe.Slice.Length)) : undefined;
      } catch (e) { throw sliceError(e, pe, sh.source.src); }
      vals = this.sliceVals(vals, list, name, off, len, pe);
    }
    if (pe.Repl) {
      const r = replParts(pe);
      const pat = r.orig ? this.patternSync(r.orig) : '';
      const rep = r.with ? this.patternSync(r.with, true) : '';
      const amp = sh.shopt.has('patsub_replacement');
      const all = pe.Repl.All;
      // (loops, not map with a closure: this runs for every expansion)
      const out: string[] = [];
      for (let k = 0; k < vals.length; k++) out.push(replacePattern(vals[k]!, pat, rep, all, true, amp, this.utf8(vals[k]!)));
      vals = out;
    }
    const exp = pe.Exp;
    if (exp && exp.Op >= Tok.perc && exp.Op <= Tok.dblHash) {
      const pat = exp.Word ? this.patternSync(exp.Word) : '';
      const out: string[] = [];
      for (let k = 0; k < vals.length; k++) out.push(removePattern(vals[k]!, pat, exp.Op, this.utf8(vals[k]!)));
      vals = out;
    } else if (exp && ((exp.Op >= Tok.caret && exp.Op <= Tok.dblComma) || exp.Op === TOGGLE_FIRST || exp.Op === TOGGLE_ALL)) {
      const pat = exp.Word ? this.patternSync(exp.Word) : '';
      const out: string[] = [];
      for (let k = 0; k < vals.length; k++) out.push(caseMod(vals[k]!, exp.Op, pat, this.utf8(vals[k]!)));
      vals = out;
    }
    lk.vals = vals;
    return lk;
  }

  private async wordResult(w: Word | null, quoted: boolean): Promise<ParamResult> {
    return { vals: [], list: false, star: false, word: w };
  }

  async wordResultValues(w: Word | null, quoted: boolean): Promise<ParamResult> {
    if (!w) return { vals: [''], list: false, star: false };
    if (!quoted) {
      const fb = new FieldBuilder(this.ifs());
      await this.word(w, fb, false, true);
      const fs = fb.finish();
      if (fs.length <= 1) return { vals: [fs[0]?.val ?? ''], list: false, star: false };
      return { vals: fs.map((f) => f.val), list: true, star: false };
    }
    return { vals: [await this.literalDq(w)], list: false, star: false };
  }

  private async literalDq(w: Word | null, flat = false): Promise<string> {
    if (!w) return '';
    const fb = new FieldBuilder('', flat);
    for (const p of w.Parts) {
      if (p.type === 'Lit') fb.addQuoted(unescapeDq(p.Value, false));
      else await this.part(p, fb, true);
    }
    return fb.fields.map((f) => f.val).join('') + fb.cur.val;
  }

  /**
   * PS4 as bash expands it: parameters, substitutions and arithmetic (traced commands do not
   * show), then the prompt escapes. An expansion error is reported and the text kept as it is.
   */
  async promptString(v: string): Promise<string> {
    // (bash's decode_prompt_string: the backslash escapes first, their results quoted, then the expansions)
    const d = this.promptEscapes(v, true);
    const p = /[$`\\]/.test(d) ? promptTextWord(d) : null;
    if (!p) return this.promptEscapes(v);
    const sh = this.sh, x = sh.opts.xtrace, st = sh.status, source = sh.source;
    sh.opts.xtrace = false;
    // (the word's positions are in the prompt's own text, which error messages quote)
    sh.source = { ...source, src: p.src };
    try { return (await this.heredoc(p.word)).replace(/\n$/, ''); } catch (e) {
      if (!(e instanceof ShellError) && !(e instanceof ArithError)) throw e;
      sh.source = source;
      await sh.err(e instanceof ArithError ? e.report() : e.message);
    } finally { sh.opts.xtrace = x; sh.status = st; sh.source = source; }
    return this.promptEscapes(v);
  }

  /** The backslash escapes of a prompt (`${x@P}`, PS4), promptString's first step; `quote`: their results quoted for the expansions after. */
  private promptEscapes(v: string, quote = false): string {
    if (!v.includes('\\')) return v;
    // (`quote`: what an escape gives is kept from the expansions that follow)
    const q = (r: string): string => (quote ? r.replace(/[\\$`]/g, '\\$&') : r);
    const sh = this.sh;
    const pwd = sh.vars.get('PWD') ?? sh.cwd;
    const home = sh.vars.get('HOME');
    const host = os.hostname();
    const pad = (n: number): string => String(n).padStart(2, '0');
    return v.replace(/\\([0-7]{1,3}|.)/gs, (m, c: string) => {
      const r = one(m, c);
      // (bash gives `\\` a backslash that the expansions then see)
      return r === m || c === '\\' ? r : q(r);
    });
    function one(m: string, c: string): string {
      const d = new Date();
      switch (c) {
        case 'a': return '\x07';
        case 'e': return '\x1b';
        case 'n': return '\n';
        case 'r': return '\r';
        case '\\': return '\\';
        case '[': case ']': return '';
        case '$': return (process.getuid?.() ?? 1) === 0 ? '#' : '$';
        case 'h': return host.split('.')[0]!;
        case 'H': return host;
        case 'u': try { return os.userInfo().username; } catch { return sh.vars.get('USER') ?? ''; }
        case 's': return sh.arg0.replace(/^.*\//, '');
        case 'v': return '5.2';
        case 'V': return '5.2.15';
        case 'w': return home && home !== '/' && (pwd === home || pwd.startsWith(home + '/')) ? '~' + pwd.slice(home.length) : pwd;
        case 'W': return home && pwd === home ? '~' : pwd === '/' ? '/' : pwd.replace(/^.*\//, '');
        case 't': return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
        case 'A': return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
        case 'j': return String(sh.jobs?.length ?? 0);
        default:
          if (/^[0-7]+$/.test(c)) return String.fromCharCode(parseInt(c, 8) & 255);
          return m;
      }
    }
  }

  private transform(v: string, op: string, name: string, isSet: boolean): string {
    switch (op) {
      case 'Q': return isSet ? shellQuote(v, this.sh.vars.utf8Locale()) : '';
      case 'E': return ansiC(v, this.sh.vars.utf8Escapes());
      case 'U': return caseMod(v, Tok.dblCaret, '', this.utf8(v));
      case 'u': return caseMod(v, Tok.caret, '', this.utf8(v));
      case 'L': return caseMod(v, Tok.dblComma, '', this.utf8(v));
      case 'a': return this.sh.vars.attrString(name);
      case 'A': {
        if (!isSet) return '';
        const f = this.sh.vars.attrString(name);
        return `${f ? `declare -${f} ` : ''}${this.sh.vars.resolveName(name)}=${shellQuote(v, this.sh.vars.utf8Locale())}`;
      }
      case 'K': case 'k': return isSet ? shellQuote(v, this.sh.vars.utf8Locale()) : '';
      default: throw new ShellError(`\${${name}@${op}}: bad substitution`, 127, true);
    }
  }
}

export function unescapeDq(v: string, heredoc: boolean): string {
  if (!v.includes('\\')) return v;
  let o = '';
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === '\\' && i + 1 < v.length) {
      const n = v[i + 1]!;
      if (n === '$' || n === '`' || n === '\\' || (!heredoc && n === '"')) { o += n; i++; continue; }
      if (n === '\n') { i++; continue; }
    }
    o += c;
  }
  return o;
}

/**
 * ${v#pat} and the other removals: the shortest or longest prefix/suffix matching. `utf8`: cut
 * only between characters (and `?` matches one).
 */
function removePattern(v: string, pat: string, op: number, utf8 = false): string {
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
function replacePattern(v: string, pat: string, repPat: string, all: boolean, extglob: boolean, amp = true, utf8 = false): string {
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
function sliceError(e: unknown, pe: ParamExp, src: string): unknown {
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
function caseMod(v: string, op: number, pat: string, utf8 = false): string {
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

export { unescapePattern, type Lit };

/** A FieldBuilder whose pattern escapes every quoted (ASCII) character, as bash's quote_string_for_globbing. */
class ShownFieldBuilder extends FieldBuilder {
  override addQuoted(s: string): void {
    this.cur.val += s; this.cur.pat += s.replace(/[\x00-\x7f]/g, '\\$&'); this.cur.keep = true; this.afterWsDelim = false;
  }
}
