// Word expansion: the Expander takes a word through bash's expansions in order — brace
// (brace.ts), tilde (tilde.ts), parameter (parameter-expansion.ts, its operators in
// parameter-ops.ts), command and arithmetic expansion, IFS field splitting (fields.ts), pathname
// expansion (pathname-expansion.ts) and quote removal. Values are byte strings. Most words take
// the synchronous fast path (canSync), without a promise per part.
import { Tok, type Word, type WordPart, type ParamExp, type Lit, type DblQuoted, type CmdSubst, type Stmt } from '../syntax/ast.ts';
import { parse } from '../syntax/parser.ts';
import { hasMeta, plainMatcher } from './pattern.ts';
import type { Shell } from '../execution/runner.ts';
import { ansiC, unescapeDq } from './quoting.ts';
import { ShellError } from '../execution/errors.ts';
import { ArithError } from './arith.ts';
import { TOGGLE_ALL, TOGGLE_FIRST } from '../syntax/reparse-placeholders.ts';
import { promptTextWord } from '../syntax/text-words.ts';
import { escapeEre } from './regex.ts';
import { hasHighBytes } from './utf8-chars.ts';
import { braceExpand, litPart } from './brace.ts';
import { escPat, FieldBuilder, IFS_WS, nonIfsRuns, ShownFieldBuilder } from './fields.ts';
import { extGlobOp, extGlobParts } from './extglob-parts.ts';
import { emitParam, isPlainParam, lookup, nounsetCheck, paramExp, paramSync, plainLower } from './parameter-expansion.ts';
import { tildeHome, tildePrefix } from './tilde.ts';
import { promptEscapes } from './prompt-escapes.ts';
import { globFields } from './pathname-expansion.ts';

/** Characters without which a value cannot glob (hasMeta's, and extglob's groups). */
const MAYBE_META = /[*?[\\]|[@+!]\(/;

const isQuotedPart = (p: WordPart): boolean => p.type === 'SglQuoted' || p.type === 'DblQuoted';

/** An expanded part of a `=~` operand: quoted text matches literally. */
function regexPartText(fb: FieldBuilder, p: WordPart): string {
  const v = fb.fields.map((f) => f.val).join('') + fb.cur.val;
  return isQuotedPart(p) ? escapeEre(v) : v;
}

/** Expander.dqBackquote per substitution. */
const dqBackquotes = new WeakMap<object, Stmt[]>();

// ---- the expander ------------------------------------------------------------------------------
/** Expander.canSync / canSyncPart per AST node (structural). */
const syncNodes = new WeakMap<object, boolean>();

/** Expander.constMatcher per pattern word. */
const constMatchers = new WeakMap<Word, ((s: string) => boolean) | null>();

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

/** Unquoted literal text that expands to itself as a single field (no escapes, tilde, braces, glob characters). */
const plainLit = (v: string): boolean => v !== '' && !/[\\~{*?(]/.test(v) && (!v.includes('[') || !hasMeta(v));
/** A word of one literal part of raw text `v`. */
const litWord = (v: string): Word => ({ type: 'Word', Parts: [litPart(v)] });
/** Whether `s` contains one of the characters of `set`. */
function hasChar(s: string, set: string): boolean {
  for (let i = 0; i < s.length; i++) if (set.includes(s[i]!)) return true;
  return false;
}

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
        globFields(this.sh, fb, out);
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
    globFields(this.sh, fb, out);
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
    const r = p === w.Parts[0] && p.Value.startsWith('~') ? tildePrefix(this.sh, p.Value, w.Parts.length === 1) : undefined;
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
  assignTilde = false;

  /** An unquoted literal part of a word: tilde prefixes, backslash escapes. */
  private litPart(v: string, first: boolean, whole: boolean, fb: FieldBuilder, tilde: boolean, assign: boolean, lastPart = true): void {
    if (tilde && first && v.startsWith('~')) {
      const r = tildePrefix(this.sh, v, whole, assign);
      if (r) { fb.addQuoted(r.home); v = r.rest; }
    } else if (tilde && first && !this.sh.posix && v.includes('=~') && /^[a-zA-Z_][a-zA-Z0-9_]*=~/.test(v)) {
      const eq = v.indexOf('=');
      const r = tildePrefix(this.sh, v.slice(eq + 1), whole);
      if (r) { this.lit(v.slice(0, eq + 1), fb); fb.addQuoted(r.home); v = r.rest; }
    }
    if (assign && v.includes(':~')) {
      // tilde after ':' in assignments
      v = v.replace(/:~([^:/]*)/g, (m, u: string, at: number) => {
        if (!lastPart && at + m.length === v.length) return m; // (`:~"x"`: the prefix runs into the next part)
        const h = tildeHome(this.sh, u);
        return h === undefined ? m : ':' + h;
      });
    }
    this.lit(v, fb);
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

  async part(p: WordPart, fb: FieldBuilder, quoted: boolean): Promise<void> {
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
        return paramExp(this, p, fb, quoted);
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

  /** Whether `v` is to be taken by characters: it has multibyte ones and the locale is UTF-8. */
  utf8(v: string): boolean {
    return hasHighBytes(v) && this.sh.vars.utf8Locale();
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
        const plain = plainLower(this, p0);
        const r = plain === null ? paramSync(this, p0) : { vals: [plain], list: false, star: false };
        const ifs = this.ifs();
        if (!r.list) {
          const s = r.vals[0] ?? '';
          if (s === '') continue;
          if (!hasChar(s, ifs) && (this.sh.opts.noglob || !hasMeta(s, this.sh.shopt.has('extglob')))) { out.push(s); continue; }
        }
        const fb = new FieldBuilder(ifs);
        emitParam(this, r, fb, false);
        globFields(this.sh, fb, out);
        continue;
      }
      if (p0 && p0.type === 'DblQuoted' && this.quotedFieldSync(p0, out)) continue;
      const ws = braceExpand(w0);
      for (const b of ws) {
        if (typeof b === 'string' && plainLit(b)) { out.push(b); continue; }
        const w = typeof b === 'string' ? litWord(b) : b;
        const fb = new FieldBuilder(this.ifs());
        this.wordSync(w, fb, false, true);
        globFields(this.sh, fb, out);
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
      const plain = plainLower(this, q);
      if (plain !== null) { if (fb) fb.addQuoted(plain); else val += plain; continue; }
      const name = q.Param.Value;
      const r = lookup(this, name, undefined);
      nounsetCheck(this, name, undefined, r.isSet, q.Short);
      if (fb === undefined && !r.list) { val += r.vals[0] ?? ''; continue; }
      if (fb === undefined) { fb = new FieldBuilder(this.ifs()); if (k > 0) fb.addQuoted(val); }
      emitParam(this, r, fb, true);
    }
    if (fb === undefined) { out.push(val); return true; }
    if (plan.length !== 1) fb.markKeep(); // ("$@" alone may vanish)
    globFields(this.sh, fb, out);
    return true;
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
      const plain = plainLower(this, p);
      if (plain !== null) { out += plain; continue; }
      const r = paramSync(this, p);
      if (r.list) {
        const fb = new FieldBuilder('', true);
        fb.cur.val = out;
        emitParam(this, r, fb, false);
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
        emitParam(this, paramSync(this, p), fb, quoted);
        return;
      default:
        throw new Error(`internal: ${p.type} is not expanded synchronously`);
    }
  }

  async literalDq(w: Word | null, flat = false): Promise<string> {
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
    const d = promptEscapes(this.sh, v, true);
    const p = /[$`\\]/.test(d) ? promptTextWord(d) : null;
    if (!p) return promptEscapes(this.sh, v);
    const sh = this.sh, x = sh.opts.xtrace, st = sh.status, source = sh.source;
    sh.opts.xtrace = false;
    // (the word's positions are in the prompt's own text, which error messages quote)
    sh.source = { ...source, src: p.src };
    try { return (await this.heredoc(p.word)).replace(/\n$/, ''); } catch (e) {
      if (!(e instanceof ShellError) && !(e instanceof ArithError)) throw e;
      sh.source = source;
      await sh.err(e instanceof ArithError ? e.report() : e.message);
    } finally { sh.opts.xtrace = x; sh.status = st; sh.source = source; }
    return promptEscapes(this.sh, v);
  }
}
