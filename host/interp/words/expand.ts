// Word expansion: brace, tilde, parameter, command and arithmetic expansion, IFS field
// splitting, pathname expansion and quote removal. Values are byte strings.
import { Tok, type Word, type WordPart, type ParamExp, type Lit, type DblQuoted, type CmdSubst, type Stmt, type ArithmExpr } from '../syntax/ast.ts';
import { parse } from '../syntax/parser.ts';
import { hasMeta, plainMatcher } from './pattern.ts';
import type { Shell } from '../execution/runner.ts';
import type { Var } from '../variables/var.ts';
import { ansiC, ansicQuote, assocKeyNeedsQuotes, needsAnsiC, shellQuote, unescapeDq } from './quoting.ts';
import { DiscardError, ShellError } from '../execution/errors.ts';
import { ArithError } from './arith.ts';
import { badSubstMessage, subscriptRunsOn } from '../syntax/bad-subst-words.ts';
import { badSubst, promptTextWord, TOGGLE_ALL, TOGGLE_FIRST } from '../syntax/reparse.ts';
import { escapeEre } from './regex.ts';
import { charLength, charStarts, hasHighBytes } from './utf8-chars.ts';
import { isName } from '../syntax/names.ts';
import { braceExpand, litPart } from './brace.ts';
import { escPat, FieldBuilder, IFS_WS, nonIfsRuns, ShownFieldBuilder } from './fields.ts';
import { caseMod, removePattern, replacePattern, sliceError } from './parameter-ops.ts';
import { extGlobOp, extGlobParts } from './extglob-parts.ts';
import { tildeHome, tildePrefix } from './tilde.ts';
import { promptEscapes } from './prompt-escapes.ts';
import { globFields } from './pathname-expansion.ts';

/** A variable's value as `$name` reads it: element 0 of an array. */
export function scalarValue(v: Var): string | undefined {
  return v.arr ? v.arr.get(0) : v.assoc ? v.assoc.get('0') : v.str;
}

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
/** Whether `s` contains one of the characters of `set`. */
function hasChar(s: string, set: string): boolean {
  for (let i = 0; i < s.length; i++) if (set.includes(s[i]!)) return true;
  return false;
}

export interface ParamResult { vals: string[]; list: boolean; star: boolean; word?: Word | null }

export class Expander {
  constructor(readonly sh: Shell) {}

  ifs(): string { const v = this.sh.getVar('IFS'); return v === undefined ? ' \t\n' : v; }

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
  private assignTilde = false;

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
            const t = tildePrefix(this.sh, v, r.word.Parts.length === 1);
            if (t) { fb.addQuoted(t.home); v = t.rest; }
          }
          // (in an assignment, tildes after `:` expand as in its own text; the home is not split)
          const segs = assign && v.includes(':~') ? v.split(/(:~[^:/\\]*)/) : [v];
          for (let j = 0; j < segs.length; j++) {
            const seg = segs[j]!;
            const h = j % 2 === 1 && (j + 1 < segs.length - 1 || k === r.word.Parts.length - 1 || segs[j + 1] !== '') ? tildeHome(this.sh, seg.slice(2)) : undefined;
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
    if (indexWord === '' && sh.resolveVar(name)?.assoc) void sh.err(`${name}: bad array subscript`); // (bash goes on: the element is unset)

    // ${!prefix*} / ${!prefix@}
    if (pe.Excl && pe.Names) {
      const names = sh.varNames().filter((n) => n.startsWith(name)).sort();
      // bash quirk: unquoted ${!p*} with IFS='' is one word (names joined with nothing)
      if (!quoted && pe.Names === Tok.star && this.ifs() === '') return { vals: [names.join('')], list: false, star: false };
      return { vals: names, list: true, star: pe.Names === Tok.star && quoted };
    }
    // ${!arr[@]} keys (with an operator, bash expands "${arr[@]}" indirectly instead)
    if (pe.Excl && (indexWord === '@' || indexWord === '*') && !pe.Exp && !pe.Slice && !pe.Repl && !pe.Length) {
      const keys = this.elementRef(name) ? [] : sh.arrayKeys(name);
      // bash quirk: unquoted ${!a[*]} with IFS='' is one word (keys joined with spaces)
      if (!quoted && indexWord === '*' && this.ifs() === '' && keys.length) return { vals: [keys.join(' ')], list: false, star: false };
      return { vals: keys, list: true, star: indexWord === '*' };
    }
    let indirArray = false;
    let indirUnset = false;
    if (pe.Excl) {
      // indirection (or nameref target name)
      const v0 = indexWord === undefined ? sh.getVarRaw(name) : undefined;
      if (v0?.nameref) {
        return { vals: [v0.str ?? ''], list: false, star: false };
      }
      let target: string | undefined;
      if (indexWord === '@' || indexWord === '*') { const vs = sh.arrayValues(name); target = vs.length ? vs.join(' ') : undefined; }
      else target = indexWord !== undefined ? sh.getElem(name, indexWord) : sh.specialOrVar(name);
      if (target === undefined) {
        // bash abandons the command (and the rest of the line) when the variable does not exist;
        // a declared but unset one (or an unset positional parameter) indirects to nothing
        if (/^[a-zA-Z_]/.test(name) && !sh.resolveVar(name)) throw new DiscardError(`${indexWord !== undefined ? `${name}[${indexWord}]` : name}: invalid indirect expansion`);
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
      const n = sh.elementCount(name);
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
            if (indexWord !== undefined) sh.setElem(name, indexWord, v); else sh.setVar(name, v);
            return { vals: [sh.specialOrVar(name) ?? v], list: false, star: false };
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
      const pairs = (op === 'K' || op === 'k') && list && !pe.Slice && !pe.Repl ? sh.keyedPairs(name) : undefined;
      if (pairs) {
        // keys and values: one word (`K`, values double-quoted as in declare -p), or a word each (`k`)
        const utf8 = sh.utf8Locale(), assoc = !!sh.resolveVar(name)?.assoc;
        if (op === 'k') return { vals: pairs.flat(), list: true, star };
        const dquote = (x: string): string => (needsAnsiC(x, utf8) ? ansicQuote(x, utf8) : '"' + x.replace(/(["\\$`])/g, '\\$1') + '"');
        const key = (k: string): string => (!assoc || !assocKeyNeedsQuotes(k, utf8) ? k : dquote(k));
        return { vals: [pairs.map(([k, x]) => `${key(k)} ${dquote(x)}`).join(' ') + (assoc && pairs.length ? ' ' : '')], list: false, star: false };
      }
      // (`P`: the prompt's expansions too, as promptvars does)
      if (op === 'P') { const out: string[] = []; for (const v of vals) out.push(await this.promptString(v)); vals = out; }
      else vals = vals.map((v) => this.transform(v, op, indirUnset ? '' : name, isSet)); // (an indirection to nothing has no attributes)
      // (an array with no elements: only a declared-but-unassigned one still shows its attributes)
      if (op === 'a' && vals.length === 0) vals = list && !sh.resolveVar(name)?.declOnly ? [] : [sh.attrString(name)];
      if (op === 'A' && list) {
        return { vals: [sh.declareLine(name)], list: false, star: false };
      }
    }
    return { vals, list, star };
  }

  /** The value(s) a parameter expansion starts from. */
  /** Whether `name` is a nameref to an array element (`a[i]`, `a[@]`). */
  private elementRef(name: string): boolean {
    return !!this.sh.getVarRaw(name)?.nameref && this.sh.refTarget(name, false)?.[1] !== undefined;
  }

  /** Whether the parameter of a bad `@` transformation (`${x@Z}`, `${#@a@]}`, `${a[1]@Z}`) is set: then bash's error is fatal. */
  private transformedIsSet(name: string, index: string | undefined, indirect: boolean): boolean {
    const sh = this.sh;
    if (indirect && index === undefined) {
      // `${!p@Z}`: of the variable p names (bash's indirection error first when p does not exist)
      const t = sh.specialOrVar(name);
      if (t === undefined && /^[A-Za-z_]/.test(name) && !sh.resolveVar(name)) throw new DiscardError(`${name}: invalid indirect expansion`);
      if (t === '') throw new DiscardError(': invalid variable name');
      if (t === undefined || !/^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#?$!@*-])$/.test(t)) return t !== undefined;
      name = t;
    }
    if (name === '@' || name === '*') return sh.params.length > 0;
    if (index === '@' || index === '*') return sh.arrayValues(name).length > 0;
    if (index !== undefined) { try { return sh.getElem(name, index) !== undefined; } catch { return sh.getVarRaw(name) !== undefined; } }
    return /^[A-Za-z_]/.test(name) ? sh.getVarRaw(name) !== undefined : sh.specialOrVar(name) !== undefined;
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
      const raw = sh.getVarRaw(name);
      if (raw?.nameref) {
        // a nameref to `a[@]` expands like "${a[@]}"
        const t = sh.refTarget(name, false);
        if (t && (t[1] === '@' || t[1] === '*')) { name = t[0]; indexWord = t[1]; }
      } else if (name.charCodeAt(0) >= 97 && name.charCodeAt(0) <= 122) {
        // (a lowercase name is never special: Shell.getVar's steps on the variable found here)
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
      const vals = sh.arrayValues(name);
      return { vals, list: true, star: indexWord === '*', isSet: vals.length > 0 };
    }
    const v = indexWord !== undefined ? sh.getElem(name, indexWord) : sh.specialOrVar(name);
    return { vals: [v ?? ''], list: false, star: false, isSet: v !== undefined };
  }

  /** `set -u`: `${#a[@]}` of an array that does not exist (bash abandons the line, status 1). */
  private nounsetLength(name: string, indexWord: string | undefined): void {
    const sh = this.sh;
    if (sh.opts.nounset && indexWord !== undefined && /^[a-zA-Z_]/.test(name) && (!sh.resolveVar(name) || sh.resolveVar(name)!.declOnly) && !sh.isStackVarName(name)) throw new DiscardError(`${name}: unbound variable`);
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
    const v = this.sh.resolveVar(name);
    return !!v && (!!v.arr || !!v.assoc) && this.sh.isVisible(name);
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
        const v = sh.resolveVar(name);
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
    return hasHighBytes(v) && this.sh.utf8Locale();
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
    globFields(this.sh, fb, out);
    return true;
  }

  /**
   * The value of a plain `$name`/`${name}` whose name is lowercase (never special) and not a
   * nameref: Shell.getVar's steps, and set -u's error, without paramSync's result objects;
   * null for any other parameter expansion.
   */
  private plainLower(pe: ParamExp): string | null {
    if (!isPlainParam(pe)) return null;
    const name = pe.Param.Value, c = name.charCodeAt(0);
    if (c < 97 || c > 122 || (badSubst.size !== 0 && badSubst.has(name))) return null;
    const raw = this.sh.getVarRaw(name);
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
    if (indexWord === '' && sh.resolveVar(name)?.assoc) void sh.err(`${name}: bad array subscript`);
    if (pe.Length && (indexWord === '@' || indexWord === '*') && !(badSubst.size && badSubst.has(name))) {
      const n = sh.elementCount(name);
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

  private transform(v: string, op: string, name: string, isSet: boolean): string {
    switch (op) {
      case 'Q': return isSet ? shellQuote(v, this.sh.utf8Locale()) : '';
      case 'E': return ansiC(v, this.sh.utf8Escapes());
      case 'U': return caseMod(v, Tok.dblCaret, '', this.utf8(v));
      case 'u': return caseMod(v, Tok.caret, '', this.utf8(v));
      case 'L': return caseMod(v, Tok.dblComma, '', this.utf8(v));
      case 'a': return this.sh.attrString(name);
      case 'A': {
        if (!isSet) return '';
        const f = this.sh.attrString(name);
        return `${f ? `declare -${f} ` : ''}${this.sh.resolveName(name)}=${shellQuote(v, this.sh.utf8Locale())}`;
      }
      case 'K': case 'k': return isSet ? shellQuote(v, this.sh.utf8Locale()) : '';
      default: throw new ShellError(`\${${name}@${op}}: bad substitution`, 127, true);
    }
  }
}
