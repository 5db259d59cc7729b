// Word expansion: brace, tilde, parameter, command and arithmetic expansion, IFS field
// splitting, pathname expansion and quote removal. Values are byte strings.
import { Tok, type Word, type WordPart, type ParamExp, type Lit, type DblQuoted } from './ast.ts';
import { glob, hasMeta, matchPattern, patternRegex, patternSource, unescapePattern } from './pattern.ts';
import type { Shell } from './runner.ts';
import { ShellError } from './errors.ts';
import { escapeEre } from './regex.ts';

/** One field under construction: the value, its pattern form, and whether it must be kept. */
interface Field { val: string; pat: string; keep: boolean; meta: boolean }

export function escPat(s: string): string {
  let o = '';
  for (const c of s) o += '*?[]\\()|@+!{}'.includes(c) ? '\\' + c : c;
  return o;
}

class FieldBuilder {
  fields: Field[] = [];
  cur: Field = { val: '', pat: '', keep: false, meta: false };
  afterWsDelim = false;
  constructor(readonly ifs: string) {}
  /** Quoted text, or unquoted literal text (which can carry glob meta characters). */
  addQuoted(s: string): void { this.cur.val += s; this.cur.pat += escPat(s); this.cur.keep = true; this.afterWsDelim = false; }
  addLiteral(val: string, pat: string): void {
    this.cur.val += val; this.cur.pat += pat;
    if (val !== '' || pat !== '') { this.cur.keep = true; this.afterWsDelim = false; }
    this.cur.meta = true;
  }
  markKeep(): void { this.cur.keep = true; }
  /** Unquoted expansion result: subject to splitting and globbing. */
  addSplit(s: string, split: boolean): void {
    if (!split || this.ifs === '') {
      if (s !== '') { this.cur.val += s; this.cur.pat += s.replace(/\\/g, '\\\\'); this.cur.keep = true; this.cur.meta = true; this.afterWsDelim = false; }
      return;
    }
    const ifs = this.ifs;
    for (const c of s) {
      if (ifs.includes(c)) {
        const ws = c === ' ' || c === '\t' || c === '\n';
        if (ws) {
          if (this.cur.keep) { this.push(); this.afterWsDelim = true; }
        } else {
          if (this.afterWsDelim && !this.cur.keep) { this.afterWsDelim = false; continue; }
          this.push(true);
          this.afterWsDelim = false;
        }
        continue;
      }
      this.cur.val += c; this.cur.pat += c === '\\' ? '\\\\' : c; this.cur.keep = true; this.cur.meta = true;
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

// ---- brace expansion over word parts -------------------------------------------------------
type BTok = { c: string; esc: boolean } | { part: WordPart };

function braceTokens(w: Word): BTok[] {
  const out: BTok[] = [];
  for (const p of w.Parts) {
    if (p.type !== 'Lit') { out.push({ part: p }); continue; }
    const v = p.Value;
    for (let i = 0; i < v.length; i++) {
      if (v[i] === '\\' && i + 1 < v.length) { out.push({ c: v[i]! + v[i + 1]!, esc: true }); i++; continue; }
      out.push({ c: v[i]!, esc: false });
    }
  }
  return out;
}

function isCh(t: BTok | undefined, c: string): boolean { return !!t && 'c' in t && !t.esc && t.c === c; }

function seqExpand(inner: BTok[]): string[] | undefined {
  if (inner.some((t) => !('c' in t) || t.esc)) return undefined;
  const s = inner.map((t) => (t as { c: string }).c).join('');
  let m = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(s);
  if (m) {
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
    return out.length > 100000 ? undefined : out;
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

function expandBraceToks(toks: BTok[]): BTok[][] {
  for (let i = 0; i < toks.length; i++) {
    if (!isCh(toks[i], '{')) continue;
    // find matching close
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let j = i; j < toks.length; j++) {
      if (isCh(toks[j], '{')) depth++;
      else if (isCh(toks[j], '}')) { if (--depth === 0) { close = j; break; } }
      else if (isCh(toks[j], ',') && depth === 1) commas.push(j);
    }
    if (close < 0) continue;
    const pre = toks.slice(0, i);
    const post = toks.slice(close + 1);
    let alts: BTok[][];
    if (commas.length === 0) {
      const seq = seqExpand(toks.slice(i + 1, close));
      if (!seq) continue;
      alts = seq.map((s) => [...s].map((c) => ({ c, esc: false })));
    } else {
      alts = [];
      let start = i + 1;
      for (const c of [...commas, close]) { alts.push(toks.slice(start, c)); start = c; start++; }
    }
    const out: BTok[][] = [];
    const posts = expandBraceToks(post);
    for (const a of alts) for (const ax of expandBraceToks(a)) for (const px of posts) out.push([...pre, ...ax, ...px]);
    return out;
  }
  return [toks];
}

function toksToWord(toks: BTok[]): Word {
  const parts: WordPart[] = [];
  let lit = '';
  for (const t of toks) {
    if ('c' in t) { lit += t.c; continue; }
    if (lit) { parts.push({ type: 'Lit', ValuePos: 0, ValueEnd: 0, Value: lit }); lit = ''; }
    parts.push(t.part);
  }
  if (lit) parts.push({ type: 'Lit', ValuePos: 0, ValueEnd: 0, Value: lit });
  return { type: 'Word', Parts: parts };
}

export function braceExpand(w: Word): Word[] {
  if (!w.Parts.some((p) => p.type === 'Lit' && p.Value.includes('{'))) return [w];
  const res = expandBraceToks(braceTokens(w));
  if (res.length === 1) return [w];
  return res.map(toksToWord);
}

// ---- the expander ------------------------------------------------------------------------------
export interface ParamResult { vals: string[]; list: boolean; star: boolean; word?: Word | null }

export class Expander {
  constructor(readonly sh: Shell) {}

  ifs(): string { const v = this.sh.getVar('IFS'); return v === undefined ? ' \t\n' : v; }

  /** Full expansion of command arguments. */
  async fields(words: Word[]): Promise<string[]> {
    const out: string[] = [];
    for (const w0 of words) {
      const ws = this.sh.posix ? [w0] : braceExpand(w0);
      for (const w of ws) {
        const fb = new FieldBuilder(this.ifs());
        await this.word(w, fb, false, true);
        for (const f of fb.finish()) {
          if (f.meta && !this.sh.opts.noglob && hasMeta(f.pat, this.sh.shopt.has('extglob'))) {
            const m = glob(f.pat, {
              cwd: this.sh.cwd, dotglob: this.sh.shopt.has('dotglob'), extglob: this.sh.shopt.has('extglob'),
              nocase: this.sh.shopt.has('nocaseglob'), globstar: this.sh.shopt.has('globstar'),
            });
            if (m.length) { out.push(...m); continue; }
            if (this.sh.shopt.has('nullglob')) continue;
            if (this.sh.shopt.has('failglob')) throw new ShellError(`no match: ${f.val}`, 1, true);
            out.push(f.val);
            continue;
          }
          out.push(f.val);
        }
      }
    }
    return out;
  }

  /** Expansion without splitting or globbing (assignment values, redirection targets...). */
  async literal(w: Word | null, tilde: 'first' | 'assign' | 'none' = 'first'): Promise<string> {
    if (!w) return '';
    const fb = new FieldBuilder('');
    await this.word(w, fb, false, tilde !== 'none', tilde === 'assign');
    return fb.fields.map((f) => f.val).join('') + fb.cur.val;
  }

  /** Expansion to a pattern (quoted characters escaped). */
  async pattern(w: Word | null): Promise<string> {
    if (!w) return '';
    const fb = new FieldBuilder('');
    await this.word(w, fb, false, true);
    return fb.fields.map((f) => f.pat).join('') + fb.cur.pat;
  }

  /** Right-hand side of `=~`: quoted parts match literally. */
  async regexWord(w: Word): Promise<string> {
    let out = '';
    for (const p of w.Parts) {
      if (p.type === 'Lit') { out += p.Value; continue; }
      const fb = new FieldBuilder('');
      await this.part(p, fb, p.type === 'SglQuoted' || p.type === 'DblQuoted');
      const v = fb.fields.map((f) => f.val).join('') + fb.cur.val;
      out += p.type === 'SglQuoted' || p.type === 'DblQuoted' ? escapeEre(v) : v;
    }
    return out;
  }

  /** Heredoc body: only $, ` and \ are special. */
  async heredoc(w: Word | null): Promise<string> {
    if (!w) return '';
    let out = '';
    for (const p of w.Parts) {
      if (p.type === 'Lit') out += unescapeDq(p.Value, true);
      else {
        const fb = new FieldBuilder('');
        await this.part(p, fb, true);
        out += fb.fields.map((f) => f.val).join('') + fb.cur.val;
      }
    }
    return out;
  }

  private async word(w: Word, fb: FieldBuilder, quoted: boolean, tilde: boolean, assign = false): Promise<void> {
    const parts = w.Parts;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.type === 'Lit' && !quoted) {
        let v = p.Value;
        if (tilde && i === 0 && v.startsWith('~')) {
          const r = this.tildePrefix(v, parts.length === 1);
          if (r) { fb.addQuoted(r.home); v = r.rest; }
        } else if (tilde && i === 0 && !this.sh.posix && /^[a-zA-Z_][a-zA-Z0-9_]*=~/.test(v)) {
          const eq = v.indexOf('=');
          const r = this.tildePrefix(v.slice(eq + 1), parts.length === 1);
          if (r) { this.lit(v.slice(0, eq + 1), fb); fb.addQuoted(r.home); v = r.rest; }
        }
        if (assign && v.includes(':~')) {
          // tilde after ':' in assignments
          v = v.replace(/:~([^:/]*)/g, (m, u: string) => { const h = this.tildeHome(u); return h === undefined ? m : ':' + h; });
        }
        this.lit(v, fb);
        continue;
      }
      await this.part(p, fb, quoted);
    }
  }

  private tildeHome(user: string): string | undefined {
    if (user === '') return this.sh.getVar('HOME') ?? '';
    if (user === '+') return this.sh.getVar('PWD');
    if (user === '-') return this.sh.getVar('OLDPWD');
    if (!/^[a-zA-Z0-9_.-]+$/.test(user)) return undefined;
    return this.sh.userHome(user);
  }

  private tildePrefix(v: string, whole: boolean): { home: string; rest: string } | undefined {
    const slash = v.indexOf('/');
    const end = slash < 0 ? v.length : slash;
    if (slash < 0 && !whole) {
      // `~$x`: only if the literal is the entire word prefix up to another part (bash: no)
      const user = v.slice(1);
      if (user !== '') return undefined;
    }
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
        val += n; pat += escPat(n);
        continue;
      }
      val += c; pat += c;
    }
    fb.addLiteral(val, pat);
    if (val === '' && v !== '') fb.markKeep();
  }

  private async part(p: WordPart, fb: FieldBuilder, quoted: boolean): Promise<void> {
    switch (p.type) {
      case 'Lit':
        fb.addQuoted(quoted ? unescapeDq(p.Value, false) : p.Value);
        return;
      case 'SglQuoted': {
        let v = p.Dollar ? ansiC(p.Value) : p.Value;
        if (p.Dollar && v.includes('\0')) v = v.slice(0, v.indexOf('\0'));
        fb.addQuoted(v);
        return;
      }
      case 'DblQuoted':
        return this.dblQuoted(p, fb);
      case 'CmdSubst': {
        const s = await this.sh.cmdSubst(p.Stmts);
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
      case 'ExtGlob': {
        const op = ({ [Tok.globQuest]: '?', [Tok.globStar]: '*', [Tok.globPlus]: '+', [Tok.globAt]: '@', [Tok.globExcl]: '!' } as Record<number, string>)[p.Op] ?? '@';
        const s = `${op}(${p.Pattern.Value})`;
        if (quoted) fb.addQuoted(s); else fb.addLiteral(s, s);
        return;
      }
      case 'ProcSubst': {
        const path = await this.sh.procSubst(p);
        fb.addQuoted(path);
        return;
      }
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
    const r = await this.param(pe, quoted);
    if (r.word !== undefined) {
      // ${x:-word} / ${x:+word}: the word is expanded in place (its quoting is kept)
      if (!r.word) { if (quoted) fb.addQuoted(''); return; }
      if (quoted) {
        for (const p of r.word.Parts) {
          if (p.type === 'Lit') fb.addQuoted(unescapeDq(p.Value, false));
          else if (p.type === 'SglQuoted' && !p.Dollar) fb.addQuoted(`'${p.Value}'`);
          else await this.part(p, fb, true);
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
          let plain = '';
          for (let i = 0; i < v.length; i++) {
            if (v[i] === '\\' && i + 1 < v.length) {
              if (plain) { fb.addSplit(plain, true); plain = ''; }
              if (v[i + 1] !== '\n') fb.addQuoted(v[i + 1]!);
              i++;
              continue;
            }
            plain += v[i];
          }
          if (plain) fb.addSplit(plain, true);
        }
      }
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

    // ${!prefix*} / ${!prefix@}
    if (pe.Excl && pe.Names) {
      const names = sh.varNames().filter((n) => n.startsWith(name)).sort();
      return { vals: names, list: true, star: pe.Names === Tok.star && quoted };
    }
    // ${!arr[@]} keys
    if (pe.Excl && (indexWord === '@' || indexWord === '*')) {
      const keys = sh.arrayKeys(name);
      return { vals: keys, list: true, star: indexWord === '*' };
    }
    if (pe.Excl) {
      // indirection (or nameref target name)
      const v0 = sh.getVarRaw(name);
      if (v0?.nameref) {
        return { vals: [v0.str ?? ''], list: false, star: false };
      }
      const target = indexWord !== undefined ? sh.getElem(name, indexWord) : sh.specialOrVar(name);
      if (target === undefined || target === '') {
        if (sh.opts.nounset) throw new ShellError(`${name}: invalid indirect expansion`, 1);
        return { vals: [''], list: false, star: false };
      }
      const m = /^([a-zA-Z_][a-zA-Z0-9_]*|[0-9]+|[@*#?$!-])(?:\[(.*)\])?$/s.exec(target);
      if (!m) throw new ShellError(`${target}: invalid variable name`, 1);
      name = m[1]!;
      indexWord = m[2];
    }

    let vals: string[];
    let list = false;
    let star = false;
    let isSet: boolean;
    if (name === '@' || name === '*') {
      vals = sh.params.slice();
      list = true; star = name === '*';
      isSet = vals.length > 0;
    } else if (indexWord === '@' || indexWord === '*') {
      vals = sh.arrayValues(name);
      list = true; star = indexWord === '*';
      isSet = vals.length > 0;
    } else {
      const v = indexWord !== undefined ? sh.getElem(name, indexWord) : sh.specialOrVar(name);
      isSet = v !== undefined;
      vals = [v ?? ''];
    }

    if (pe.Length) {
      if (list) return { vals: [String(vals.length)], list: false, star: false };
      if (!isSet && sh.opts.nounset && !pe.Exp) throw new ShellError(`${name}: unbound variable`, 127, true);
      return { vals: [String(vals[0]!.length)], list: false, star: false };
    }

    const exp = pe.Exp;
    const colonOps: number[] = [Tok.colPlus, Tok.colMinus, Tok.colQuest, Tok.colAssgn];
    if (exp && exp.Op >= Tok.plus && exp.Op <= Tok.colAssgn) {
      const colon = colonOps.includes(exp.Op);
      const nullish = !isSet || (colon && (list ? (star ? vals.join(this.ifs().slice(0, 1)) === '' : vals.length === 0 || (vals.length === 1 && vals[0] === '')) : vals[0] === ''));
      const arg = async (): Promise<string> => (quoted ? this.literalDq(exp.Word) : this.literal(exp.Word));
      switch (exp.Op) {
        case Tok.plus: case Tok.colPlus:
          if (nullish) return { vals: [''], list: false, star: false };
          return this.wordResult(exp.Word, quoted);
        case Tok.minus: case Tok.colMinus:
          if (nullish) return this.wordResult(exp.Word, quoted);
          break;
        case Tok.quest: case Tok.colQuest:
          if (nullish) {
            const msg = await arg();
            throw new ShellError(`${indexWord !== undefined ? `${name}[${indexWord}]` : name}: ${msg === '' ? (colonOps.includes(exp.Op) ? 'parameter null or not set' : 'parameter not set') : msg}`, 127, true);
          }
          break;
        case Tok.assgn: case Tok.colAssgn:
          if (nullish) {
            const v = await arg();
            if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name)) throw new ShellError(`$${name}: cannot assign in this way`, 1, true);
            if (indexWord !== undefined) sh.setElem(name, indexWord, v); else sh.setVar(name, v);
            return { vals: [sh.specialOrVar(name) ?? v], list: false, star: false };
          }
          break;
      }
    } else if (!isSet && sh.opts.nounset && name !== '@' && name !== '*') {
      if (!(indexWord === '@' || indexWord === '*') || !sh.resolveVar(name)) {
        throw new ShellError(`${indexWord !== undefined ? `${name}[${indexWord}]` : /^[0-9]/.test(name) ? '$' + name : name}: unbound variable`, 127, true);
      }
    }

    if (pe.Slice) {
      const off = pe.Slice.Offset ? Number(await sh.arithAst(pe.Slice.Offset)) : 0;
      const len = pe.Slice.Length ? Number(await sh.arithAst(pe.Slice.Length)) : undefined;
      if (list) {
        let arr = vals;
        let o = off;
        if (name === '@' || name === '*') { arr = [sh.arg0, ...vals]; }
        if (o < 0) o = Math.max(arr.length + o, 0);
        if (len !== undefined && len < 0) throw new ShellError(`${len}: substring expression < 0`, 1, true);
        vals = arr.slice(o, len === undefined ? undefined : o + len);
        if ((name === '@' || name === '*') && off < 0 && arr.length + off < 0) vals = [];
      } else {
        const s = vals[0]!;
        let o = off < 0 ? s.length + off : off;
        if (o < 0 || o > s.length) { vals = ['']; }
        else {
          let e = len === undefined ? s.length : len < 0 ? s.length + len : o + len;
          if (len !== undefined && len < 0 && e < o) throw new ShellError(`${len}: substring expression < 0`, 1, true);
          if (e > s.length) e = s.length;
          vals = [s.slice(o, e)];
        }
        o = 0;
      }
    }

    if (pe.Repl) {
      const pat = await this.pattern(pe.Repl.Orig);
      const rep = pe.Repl.With ? await this.pattern(pe.Repl.With) : '';
      const amp = sh.shopt.has('patsub_replacement');
      vals = vals.map((v) => replacePattern(v, pat, rep, pe.Repl!.All, true, amp));
    }

    if (exp && exp.Op >= Tok.perc && exp.Op <= Tok.dblHash) {
      const pat = await this.pattern(exp.Word);
      vals = vals.map((v) => removePattern(v, pat, exp.Op));
    } else if (exp && exp.Op >= Tok.caret && exp.Op <= Tok.dblComma) {
      const pat = exp.Word ? await this.pattern(exp.Word) : '';
      vals = vals.map((v) => caseMod(v, exp.Op, pat));
    } else if (exp && exp.Op === Tok.at) {
      const op = exp.Word ? await this.literal(exp.Word) : '';
      vals = vals.map((v) => this.transform(v, op, name, isSet));
      if (op === 'a' && vals.length === 0) vals = [sh.attrString(name)];
      if (op === 'A' && list) {
        return { vals: [sh.declareLine(name)], list: false, star: false };
      }
    }
    return { vals, list, star };
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

  private async literalDq(w: Word | null): Promise<string> {
    if (!w) return '';
    const fb = new FieldBuilder('');
    for (const p of w.Parts) {
      if (p.type === 'Lit') fb.addQuoted(unescapeDq(p.Value, false));
      else await this.part(p, fb, true);
    }
    return fb.fields.map((f) => f.val).join('') + fb.cur.val;
  }

  private transform(v: string, op: string, name: string, isSet: boolean): string {
    switch (op) {
      case 'Q': return isSet ? shellQuote(v) : '';
      case 'E': return ansiC(v);
      case 'P': return v;
      case 'U': return v.toUpperCase();
      case 'u': return v.charAt(0).toUpperCase() + v.slice(1);
      case 'L': return v.toLowerCase();
      case 'a': return this.sh.attrString(name);
      case 'A': return isSet ? this.sh.declareLine(name) : '';
      case 'K': return isSet ? shellQuote(v) : '';
      default: throw new ShellError(`\${${name}@${op}}: bad substitution`, 1, true);
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

let utf8Locale = false;
/** Whether the shell's locale is UTF-8 (affects \\u escapes); set from LC_ALL/LC_CTYPE/LANG. */
export function setUtf8Locale(v: boolean): void { utf8Locale = v; }

export function ansiC(s: string): string {
  let o = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i + 1 >= s.length) { o += c; continue; }
    const n = s[++i]!;
    switch (n) {
      case 'a': o += '\x07'; break;
      case 'b': o += '\b'; break;
      case 'e': case 'E': o += '\x1b'; break;
      case 'f': o += '\f'; break;
      case 'n': o += '\n'; break;
      case 'r': o += '\r'; break;
      case 't': o += '\t'; break;
      case 'v': o += '\v'; break;
      case '\\': o += '\\'; break;
      case "'": o += "'"; break;
      case '"': o += '"'; break;
      case '?': o += '?'; break;
      case 'c': {
        const x = s[i + 1];
        if (x !== undefined) { o += String.fromCharCode(x.toUpperCase().charCodeAt(0) ^ 0x40); i++; }
        break;
      }
      case 'x': {
        const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1));
        if (m) { o += String.fromCharCode(parseInt(m[0], 16)); i += m[0].length; } else o += '\\x';
        break;
      }
      case 'u': case 'U': {
        const m = (n === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(s.slice(i + 1));
        if (m) {
          const cp = parseInt(m[0], 16);
          if (cp < 0x80) o += String.fromCharCode(cp);
          else if (utf8Locale && cp <= 0x10ffff) o += Buffer.from(String.fromCodePoint(cp), 'utf8').toString('latin1');
          else o += n === 'u' ? '\\u' + cp.toString(16).toUpperCase().padStart(4, '0') : '\\U' + cp.toString(16).toUpperCase().padStart(8, '0');
          i += m[0].length;
        } else o += '\\' + n;
        break;
      }
      default:
        if (n >= '0' && n <= '7') {
          const m = /^[0-7]{1,3}/.exec(s.slice(i))!;
          o += String.fromCharCode(parseInt(m[0], 8) & 255);
          i += m[0].length - 1;
        } else o += '\\' + n;
    }
  }
  return o;
}

export function shellQuote(v: string): string {
  if (v === '') return "''";
  if (/[\x00-\x1f\x7f]/.test(v)) {
    let o = "$'";
    for (const c of v) {
      const code = c.charCodeAt(0);
      if (c === '\n') o += '\\n'; else if (c === '\t') o += '\\t'; else if (c === '\r') o += '\\r';
      else if (c === '\x1b') o += '\\E'; else if (c === "'") o += "\\'"; else if (c === '\\') o += '\\\\';
      else if (code < 32 || code === 127) o += '\\' + code.toString(8).padStart(3, '0');
      else o += c;
    }
    return o + "'";
  }
  return "'" + v.replace(/'/g, "'\\''") + "'";
}

function removePattern(v: string, pat: string, op: number): string {
  const re = patternRegex(pat, { extglob: true });
  if (op === Tok.hash || op === Tok.dblHash) {
    if (op === Tok.hash) { for (let i = 0; i <= v.length; i++) if (re.test(v.slice(0, i))) return v.slice(i); }
    else { for (let i = v.length; i >= 0; i--) if (re.test(v.slice(0, i))) return v.slice(i); }
    return v;
  }
  if (op === Tok.perc) { for (let i = v.length; i >= 0; i--) if (re.test(v.slice(i))) return v.slice(0, i); }
  else { for (let i = 0; i <= v.length; i++) if (re.test(v.slice(i))) return v.slice(0, i); }
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

function replacePattern(v: string, pat: string, repPat: string, all: boolean, extglob: boolean, amp = true): string {
  const rep = (m: string): string => repText(repPat, m, amp);
  let anchor: 'start' | 'end' | undefined;
  if (pat.startsWith('#')) { anchor = 'start'; pat = pat.slice(1); }
  else if (pat.startsWith('%')) { anchor = 'end'; pat = pat.slice(1); }
  const re = patternRegex(pat, { extglob });
  if (anchor === 'start') {
    for (let j = v.length; j >= 0; j--) if (re.test(v.slice(0, j))) return rep(v.slice(0, j)) + v.slice(j);
    return v;
  }
  if (anchor === 'end') {
    for (let i = 0; i <= v.length; i++) if (re.test(v.slice(i))) return v.slice(0, i) + rep(v.slice(i));
    return v;
  }
  if (pat === '') return v;
  // leftmost match, greedy (JS) instead of trying every end position: O(n) per call
  const g = new RegExp(patternSource(pat, { extglob }), 'g');
  let done = false;
  return v.replace(g, (m: string) => {
    if (m === '' || done) return m;
    if (!all) done = true;
    return rep(m);
  });
}

function caseMod(v: string, op: number, pat: string): string {
  const test = (c: string): boolean => pat === '' || matchPattern(pat, c, { extglob: true });
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
