// Parameter expansion, `$x` and `${…}` in all its forms: the lookup of a parameter's value(s)
// (special parameters, arrays, namerefs, indirection, set -u's errors), the operators (defaults,
// lengths, slices, pattern removal and replacement, case changes, `@` transformations) and how
// the result enters the word's fields. Free functions of the Expander whose word they expand;
// paramSync and plainLower are the synchronous fast path's versions of param.
import { Tok, type Word, type WordPart, type ParamExp, type Lit, type DblQuoted, type ArithmExpr } from '../syntax/ast.ts';
import { parse } from '../syntax/parser.ts';
import type { Expander } from './expand.ts';
import { scalarValue } from '../variables/var.ts';
import type { FieldBuilder } from './fields.ts';
import { ansiC, ansicQuote, assocKeyNeedsQuotes, needsAnsiC, shellQuote, unescapeDq } from './quoting.ts';
import { DiscardError, ShellError } from '../execution/errors.ts';
import { badSubstMessage, subscriptRunsOn } from '../syntax/bad-subst-words.ts';
import { badSubst, TOGGLE_ALL, TOGGLE_FIRST } from '../syntax/reparse-placeholders.ts';
import { charLength, charStarts } from './utf8-chars.ts';
import { isName } from '../syntax/names.ts';
import { caseMod, removePattern, replacePattern, sliceError } from './parameter-ops.ts';
import { tildeHome, tildePrefix } from './tilde.ts';

/** `$name` or `${name}`: no operator, index, slice or indirection. */
export function isPlainParam(pe: ParamExp): boolean {
  return !pe.Excl && !pe.Length && !pe.Width && !pe.Names && !pe.Index && !pe.Slice && !pe.Repl && !pe.Exp;
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

export interface ParamResult { vals: string[]; list: boolean; star: boolean; word?: Word | null }

async function wordResult(w: Word | null, quoted: boolean): Promise<ParamResult> {
  return { vals: [], list: false, star: false, word: w };
}

/** A parameter expansion in a word: its value(s), or the word of `${x-word}` forms expanded in place. */
export async function paramExp(ex: Expander, pe: ParamExp, fb: FieldBuilder, quoted: boolean): Promise<void> {
  const assign = ex.assignTilde;
  ex.assignTilde = false;
  const r = await param(ex, pe, quoted);
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
          if (dq) { fb.addQuoted("'"); await ex.part(dq, fb, true); fb.addQuoted("'"); } else fb.addQuoted(`'${p.Value}'`);
        } else await ex.part(p, fb, true);
      }
      fb.markKeep();
    } else {
      // unquoted: literal text of the word is itself subject to field splitting
      for (let k = 0; k < r.word.Parts.length; k++) {
        const p = r.word.Parts[k]!;
        if (p.type !== 'Lit') { await ex.part(p, fb, false); continue; }
        let v = p.Value;
        if (k === 0 && v.startsWith('~')) {
          const t = tildePrefix(ex.sh, v, r.word.Parts.length === 1);
          if (t) { fb.addQuoted(t.home); v = t.rest; }
        }
        // (in an assignment, tildes after `:` expand as in its own text; the home is not split)
        const segs = assign && v.includes(':~') ? v.split(/(:~[^:/\\]*)/) : [v];
        for (let j = 0; j < segs.length; j++) {
          const seg = segs[j]!;
          const h = j % 2 === 1 && (j + 1 < segs.length - 1 || k === r.word.Parts.length - 1 || segs[j + 1] !== '') ? tildeHome(ex.sh, seg.slice(2)) : undefined;
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
  emitParam(ex, r, fb, quoted);
}

/** Adds a parameter's value(s) to the word (not for ${x:-word} forms). */
export function emitParam(ex: Expander, r: ParamResult, fb: FieldBuilder, quoted: boolean): void {
  if (r.list && fb.flat) {
    // no field splitting here: "$@" joins with spaces, $* / "$*" with IFS's first character
    const s = r.vals.join(r.star ? ex.ifs().slice(0, 1) : ' ');
    if (quoted) fb.addQuoted(s); else fb.addSplit(s, true);
    if (quoted || r.vals.length) fb.markKeep();
    return;
  }
  if (!r.list) {
    const s = r.vals[0] ?? '';
    if (quoted) fb.addQuoted(s); else fb.addSplit(s, true);
    return;
  }
  if (r.star && quoted) { fb.addQuoted(r.vals.join(ex.ifs().slice(0, 1))); return; }
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
async function param(ex: Expander, pe: ParamExp, quoted: boolean): Promise<ParamResult> {
  const sh = ex.sh;
  let name = pe.Param.Value;
  let indexWord: string | undefined; // '@', '*', or a subscript value
  if (pe.Index) indexWord = await sh.subscriptText(name, pe.Index);
  if (indexWord === '' && sh.vars.resolve(name)?.assoc) void sh.err(`${name}: bad array subscript`); // (bash goes on: the element is unset)

  // ${!prefix*} / ${!prefix@}
  if (pe.Excl && pe.Names) {
    const names = sh.vars.names().filter((n) => n.startsWith(name)).sort();
    // bash quirk: unquoted ${!p*} with IFS='' is one word (names joined with nothing)
    if (!quoted && pe.Names === Tok.star && ex.ifs() === '') return { vals: [names.join('')], list: false, star: false };
    return { vals: names, list: true, star: pe.Names === Tok.star && quoted };
  }
  // ${!arr[@]} keys (with an operator, bash expands "${arr[@]}" indirectly instead)
  if (pe.Excl && (indexWord === '@' || indexWord === '*') && !pe.Exp && !pe.Slice && !pe.Repl && !pe.Length) {
    const keys = elementRef(ex, name) ? [] : sh.vars.arrayKeys(name);
    // bash quirk: unquoted ${!a[*]} with IFS='' is one word (keys joined with spaces)
    if (!quoted && indexWord === '*' && ex.ifs() === '' && keys.length) return { vals: [keys.join(' ')], list: false, star: false };
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
  const lk = indirUnset ? { vals: [''], list: false, star: false, isSet: false } : lookup(ex, name, indexWord);
  let vals = lk.vals;
  const { list, star, isSet } = lk;

  if (pe.Length) {
    if (list) { nounsetLength(ex, name, indexWord); return { vals: [String(vals.length)], list: false, star: false }; }
    // (`${#a[k]}` of an unset element of an array is 0)
    if (!isSet && sh.opts.nounset && !pe.Exp && !(indexWord !== undefined && isSetArray(ex, name))) throw new ShellError(`${name}: unbound variable`, 127, true);
    return { vals: [String(strLength(ex, vals[0]!))], list: false, star: false };
  }

  const exp = pe.Exp;
  const colonOps: number[] = [Tok.colPlus, Tok.colMinus, Tok.colQuest, Tok.colAssgn];
  if (exp && exp.Op >= Tok.plus && exp.Op <= Tok.colAssgn) {
    const colon = colonOps.includes(exp.Op);
    // (through an indirection to `a[@]`/`a[*]`, bash's colon test only asks for elements)
    const nullish = !isSet || (colon && (indirArray ? vals.length === 0 : list ? (star && quoted ? vals.join(ex.ifs().slice(0, 1)) === '' : vals.length === 0 || (vals.length === 1 && vals[0] === '')) : vals[0] === ''));
    const arg = async (): Promise<string> => (quoted ? ex.literalDq(exp.Word, true) : ex.literal(exp.Word));
    switch (exp.Op) {
      case Tok.plus: case Tok.colPlus:
        // ("${a[@]+x}" of no elements is no word at all, like "${a[@]}")
        if (nullish) return list && !star && vals.length === 0 ? { vals: [], list: true, star: false } : { vals: [''], list: false, star: false };
        return wordResult(exp.Word, quoted);
      case Tok.minus: case Tok.colMinus:
        if (nullish) return wordResult(exp.Word, quoted);
        break;
      case Tok.quest: case Tok.colQuest:
        if (nullish) {
          const msg = await arg();
          throw new ShellError(`${indexWord !== undefined ? writtenName(ex, pe, name, indexWord) : name}: ${msg === '' ? (colonOps.includes(exp.Op) ? 'parameter null or not set' : 'parameter not set') : msg}`, 127, true);
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
  } else nounsetCheck(ex, name, indexWord, isSet, pe.Short, pe);

  // (bash evaluates neither offset nor length of an unset parameter but $@/$*: parameter_brace_substring)
  if (pe.Slice && (isSet || name === '@' || name === '*')) {
    let off = 0, len: number | undefined;
    try {
      off = pe.Slice.Offset ? Number(await sh.arithAst(pe.Slice.Offset)) : 0;
      len = pe.Slice.Length ? Number(await sh.arithAst(pe.Slice.Length)) : undefined;
    } catch (e) { throw sliceError(e, pe, sh.source.src); }
    vals = sliceVals(ex, vals, list, name, off, len, pe);
  }

  if (pe.Repl) {
    const r = replParts(pe);
    const pat = r.orig ? await ex.pattern(r.orig) : '';
    const rep = r.with ? await ex.pattern(r.with, true) : '';
    const amp = sh.shopt.has('patsub_replacement');
    vals = vals.map((v) => replacePattern(v, pat, rep, pe.Repl!.All, true, amp, ex.utf8(v)));
  }

  if (exp && exp.Op >= Tok.perc && exp.Op <= Tok.dblHash) {
    const pat = await ex.pattern(exp.Word);
    vals = vals.map((v) => removePattern(v, pat, exp.Op, ex.utf8(v)));
  } else if (exp && ((exp.Op >= Tok.caret && exp.Op <= Tok.dblComma) || exp.Op === TOGGLE_FIRST || exp.Op === TOGGLE_ALL)) {
    const pat = exp.Word ? await ex.pattern(exp.Word) : '';
    vals = vals.map((v) => caseMod(v, exp.Op, pat, ex.utf8(v)));
  } else if (exp && exp.Op === Tok.at) {
    const op = exp.Word ? await ex.literal(exp.Word) : '';
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
    if (op === 'P') { const out: string[] = []; for (const v of vals) out.push(await ex.promptString(v)); vals = out; }
    else vals = vals.map((v) => transform(ex, v, op, indirUnset ? '' : name, isSet)); // (an indirection to nothing has no attributes)
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
function elementRef(ex: Expander, name: string): boolean {
  return !!ex.sh.vars.raw(name)?.nameref && ex.sh.vars.refTarget(name, false)?.[1] !== undefined;
}

/** Whether the parameter of a bad `@` transformation (`${x@Z}`, `${#@a@]}`, `${a[1]@Z}`) is set: then bash's error is fatal. */
function transformedIsSet(ex: Expander, name: string, index: string | undefined, indirect: boolean): boolean {
  const sh = ex.sh;
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

export function lookup(ex: Expander, name: string, indexWord: string | undefined): { vals: string[]; list: boolean; star: boolean; isSet: boolean } {
  const sh = ex.sh;
  if (badSubst.size && badSubst.has(name)) {
    const text = badSubst.get(name)!;
    // A bad `@` transformation of a set variable is fatal in bash (its expand_wdesc_fatal): the
    // shell exits, 127 at the top of -c, 1 in a script; elsewhere the line is abandoned.
    const at = /^\$\{(!?)([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#?$@*-])(?:\[([^\]]*)\])?@/.exec(text);
    // (not `${x@[Q}`: bash's scan reads `[Q}…` as a subscript and finds no `}`, an ordinary error)
    if (at && !subscriptRunsOn(text) && transformedIsSet(ex, at[2]!, at[3], at[1] === '!')) throw new ShellError(badSubstMessage(name, text), 127, true);
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
  } else if (elementRef(ex, name)) {
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
function nounsetLength(ex: Expander, name: string, indexWord: string | undefined): void {
  const sh = ex.sh;
  if (sh.opts.nounset && indexWord !== undefined && /^[a-zA-Z_]/.test(name) && (!sh.vars.resolve(name) || sh.vars.resolve(name)!.declOnly) && !sh.isStackVarName(name)) throw new DiscardError(`${name}: unbound variable`);
}

/** `set -u`: error for an unset parameter (expansions without a default). */
export function nounsetCheck(ex: Expander, name: string, indexWord: string | undefined, isSet: boolean, short = true, pe?: ParamExp): void {
  const sh = ex.sh;
  if (!isSet && sh.opts.nounset && name !== '@' && name !== '*') {
    if (!(indexWord === '@' || indexWord === '*')) {
      // (bash names `$1` so, but `${1}` and its other forms just `1`; an indirection `${!k}` as `!k`)
      if (pe?.Excl) throw new ShellError(`!${pe.Param.Value}: unbound variable`, 127, true);
      throw new ShellError(`${indexWord !== undefined ? writtenName(ex, pe, name, indexWord) : short && /^[0-9]/.test(name) ? '$' + name : name}: unbound variable`, 127, true);
    }
  }
}

function isSetArray(ex: Expander, name: string): boolean {
  const v = ex.sh.vars.resolve(name);
  return !!v && (!!v.arr || !!v.assoc) && ex.sh.vars.isSet(name);
}

/** An element as written, `a[$k]`: bash names an unset one by its source text, not its key. */
function writtenName(ex: Expander, pe: ParamExp | undefined, name: string, indexWord: string): string {
  const src = ex.sh.source.src, p = pe?.Param.ValueEnd ?? -1;
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
function sliceVals(ex: Expander, vals: string[], list: boolean, name: string, off: number, len: number | undefined, pe?: ParamExp): string[] {
  const sh = ex.sh;
  // (bash names the length as written, blanks and all)
  const negLen = (): DiscardError => new DiscardError(`${(pe && sliceLenText(ex, pe)) ?? len}: substring expression < 0`);
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
      if (v && !v.assoc && v.str !== undefined && vals.length === 1) return sliceVals(ex, vals, false, name, off, len); // ${scalar[@]:o:l}
    }
    if (o < 0) o = Math.max(arr.length + o, 0);
    if (len !== undefined && len < 0) throw negLen();
    vals = arr.slice(o, len === undefined ? undefined : o + len);
    if ((name === '@' || name === '*') && off < 0 && arr.length + off < 0) vals = [];
    return vals;
  }
  const s = vals[0]!;
  // (offsets count characters in a UTF-8 locale)
  const at = ex.utf8(s) ? charStarts(s) : undefined;
  const size = at ? at.length - 1 : s.length;
  const o = off < 0 ? size + off : off;
  if (o < 0 || o > size) return [''];
  let e = len === undefined ? size : len < 0 ? size + len : o + len;
  if (len !== undefined && len < 0 && e < o) throw negLen();
  if (e > size) e = size;
  return [at ? s.slice(at[o], at[e]) : s.slice(o, e)];
}

/** The source text of `${x:o:len}`'s len, from the colon to the brace. */
function sliceLenText(ex: Expander, pe: ParamExp): string | undefined {
  const start = (e: ArithmExpr): number | undefined => {
    switch (e.type) {
      case 'Word': { const f = e.Parts[0]; return f?.type === 'Lit' ? f.ValuePos : f?.type === 'ParamExp' ? f.Dollar : (f as { Left?: number } | undefined)?.Left; }
      case 'BinaryArithm': return start(e.X);
      case 'UnaryArithm': return e.Post ? start(e.X) : e.OpPos;
      case 'ParenArithm': return (e as unknown as { Lparen: number }).Lparen;
    }
  };
  const src = ex.sh.source.src, a = pe.Slice?.Length ? start(pe.Slice.Length) : undefined;
  if (a === undefined || !(pe.Rbrace > a)) return undefined;
  let k = a;
  while (k > 0 && ' \t\n'.includes(src[k - 1]!)) k--;
  return src[k - 1] === ':' ? src.slice(k, pe.Rbrace) : undefined;
}

/** ${#v}: bytes, or characters in a UTF-8 locale. */
function strLength(ex: Expander, v: string): number {
  return ex.utf8(v) ? charLength(v) : v.length;
}

/**
 * The value of a plain `$name`/`${name}` whose name is lowercase (never special) and not a
 * nameref: VarStore.get's steps, and set -u's error, without paramSync's result objects;
 * null for any other parameter expansion.
 */
export function plainLower(ex: Expander, pe: ParamExp): string | null {
  if (!isPlainParam(pe)) return null;
  const name = pe.Param.Value, c = name.charCodeAt(0);
  if (c < 97 || c > 122 || (badSubst.size !== 0 && badSubst.has(name))) return null;
  const raw = ex.sh.vars.raw(name);
  if (raw?.nameref) return null;
  const v = raw && scalarValue(raw);
  if (v === undefined) { nounsetCheck(ex, name, undefined, false, pe.Short); return ''; }
  return v;
}

/** param() for the forms canSyncParam accepts, in the same order of evaluation. */
export function paramSync(ex: Expander, pe: ParamExp): ParamResult {
  const sh = ex.sh;
  const name = pe.Param.Value;
  const indexWord = pe.Index ? sh.subscriptTextSync(name, pe.Index) : undefined;
  if (indexWord === '' && sh.vars.resolve(name)?.assoc) void sh.err(`${name}: bad array subscript`);
  if (pe.Length && (indexWord === '@' || indexWord === '*') && !(badSubst.size && badSubst.has(name))) {
    const n = sh.vars.elementCount(name);
    if (n !== undefined) return { vals: [String(n)], list: false, star: false };
  }
  const lk = lookup(ex, name, indexWord);
  let vals = lk.vals;
  const { list, isSet } = lk;
  if (pe.Length) {
    if (list) { nounsetLength(ex, name, indexWord); return { vals: [String(vals.length)], list: false, star: false }; }
    // (`${#a[k]}` of an unset element of an array is 0)
    if (!isSet && sh.opts.nounset && !pe.Exp && !(indexWord !== undefined && isSetArray(ex, name))) throw new ShellError(`${name}: unbound variable`, 127, true);
    return { vals: [String(strLength(ex, vals[0]!))], list: false, star: false };
  }
  nounsetCheck(ex, name, indexWord, isSet, pe.Short, pe);
  if (pe.Slice && (isSet || name === '@' || name === '*')) {
    let off = 0, len: number | undefined;
    try {
      off = pe.Slice.Offset ? Number(sh.arithSync(pe.Slice.Offset)) : 0;
      len = pe.Slice.Length ? Number(sh.arithSync(pe.Slice.Length)) : undefined;
    } catch (e) { throw sliceError(e, pe, sh.source.src); }
    vals = sliceVals(ex, vals, list, name, off, len, pe);
  }
  if (pe.Repl) {
    const r = replParts(pe);
    const pat = r.orig ? ex.patternSync(r.orig) : '';
    const rep = r.with ? ex.patternSync(r.with, true) : '';
    const amp = sh.shopt.has('patsub_replacement');
    const all = pe.Repl.All;
    // (loops, not map with a closure: this runs for every expansion)
    const out: string[] = [];
    for (let k = 0; k < vals.length; k++) out.push(replacePattern(vals[k]!, pat, rep, all, true, amp, ex.utf8(vals[k]!)));
    vals = out;
  }
  const exp = pe.Exp;
  if (exp && exp.Op >= Tok.perc && exp.Op <= Tok.dblHash) {
    const pat = exp.Word ? ex.patternSync(exp.Word) : '';
    const out: string[] = [];
    for (let k = 0; k < vals.length; k++) out.push(removePattern(vals[k]!, pat, exp.Op, ex.utf8(vals[k]!)));
    vals = out;
  } else if (exp && ((exp.Op >= Tok.caret && exp.Op <= Tok.dblComma) || exp.Op === TOGGLE_FIRST || exp.Op === TOGGLE_ALL)) {
    const pat = exp.Word ? ex.patternSync(exp.Word) : '';
    const out: string[] = [];
    for (let k = 0; k < vals.length; k++) out.push(caseMod(vals[k]!, exp.Op, pat, ex.utf8(vals[k]!)));
    vals = out;
  }
  lk.vals = vals;
  return lk;
}

function transform(ex: Expander, v: string, op: string, name: string, isSet: boolean): string {
  switch (op) {
    case 'Q': return isSet ? shellQuote(v, ex.sh.vars.utf8Locale()) : '';
    case 'E': return ansiC(v, ex.sh.vars.utf8Escapes());
    case 'U': return caseMod(v, Tok.dblCaret, '', ex.utf8(v));
    case 'u': return caseMod(v, Tok.caret, '', ex.utf8(v));
    case 'L': return caseMod(v, Tok.dblComma, '', ex.utf8(v));
    case 'a': return ex.sh.vars.attrString(name);
    case 'A': {
      if (!isSet) return '';
      const f = ex.sh.vars.attrString(name);
      return `${f ? `declare -${f} ` : ''}${ex.sh.vars.resolveName(name)}=${shellQuote(v, ex.sh.vars.utf8Locale())}`;
    }
    case 'K': case 'k': return isSet ? shellQuote(v, ex.sh.vars.utf8Locale()) : '';
    default: throw new ShellError(`\${${name}@${op}}: bad substitution`, 127, true);
  }
}
