// Assignments and declarations: `name=value`, `a[i]=v`, `name+=…` and array literals (bash's order
// of expansion and assignment, their xtrace lines, the errors that abandon the line), with their
// synchronous forms for statements without a promise, and `declare`/`local`… statements, whose
// work the builtins do (builtins.ts) once their words are expanded here.
import type { Shell } from './runner.ts';
import type { ArithmExpr, ArrayElem, Assign, CallExpr, DeclClause, Stmt, Word } from '../syntax/ast.ts';
import { hardArith } from '../words/arith.ts';
import { singleQuote, traceWord } from '../words/quoting.ts';
import { DiscardError, ShellError } from './errors.ts';
import { declLastArg, type DeclItem } from '../builtins/declaration-items.ts';
import { declarationBuiltin } from '../builtins/table.ts';
import { errnoMsg } from './errno-message.ts';
import { maxKey } from '../variables/var.ts';
import { wordRange, wordSource } from '../syntax/word-range.ts';
import { arithSource, arithRange } from './arithmetic.ts';
import { braceExpand } from '../words/brace.ts';
import { appendElems, badAssigns, declWords } from '../syntax/reparse-placeholders.ts';
import { wordOfText } from '../syntax/word-of-text.ts';

export async function assignValue(sh: Shell, a: Assign): Promise<void> {
  if (assignValueSync(sh, a)) return;
  try {
    await assignValue1(sh, a);
  } catch (e) {
    throw assignError(sh, e);
  }
}

/** call() for a command of assignments only, when all expand synchronously (no xtrace); undefined otherwise. */
export function assignOnlySync(sh: Shell, c: CallExpr, checked = false): number | undefined {
  if (sh.opts.xtrace || (!checked && !assignsOnlySync(sh, c))) return undefined;
  const as = c.Assigns;
  sh.lastSubstStatus = undefined;
  sh.vars.lastArg = '';
  for (let i = 0; i < as.length; i++) assignValueSync(sh, as[i]!, true);
  return sh.lastSubstStatus ?? 0;
}

/** Whether `c` is assignments only, each of which expands synchronously. */
export function assignsOnlySync(sh: Shell, c: CallExpr): boolean {
  if (c.Args.length !== 0) return false;
  const as = c.Assigns;
  for (let i = 0; i < as.length; i++) if (!canAssignSync(sh, as[i]!)) return false;
  return true;
}

function canAssignSync(sh: Shell, a: Assign): boolean {
  if (badAssigns.size && badAssigns.has(a.Name!.Value)) return false; // assignValue1 reports it
  return !a.Array && (!a.Value || sh.ex.canSync(a.Value)) && (!a.Index || sh.canSyncSubscript(a.Index));
}

/** assignValue without awaiting when its words expand synchronously; false (nothing done) otherwise. */
export function assignValueSync(sh: Shell, a: Assign, checked = false): boolean {
  if (!checked && !canAssignSync(sh, a)) return false;
  const name = a.Name!.Value;
  if (badAssigns.size && badAssigns.has(name)) return false;
  try {
    // as assignValue1
    const val = a.Value ? sh.ex.literalSync(a.Value, 'assign') : '';
    if (a.Index) sh.vars.setElem(name, assocKeyChecked(sh, a, sh.subscriptTextSync(name, a.Index)), val, a.Append);
    else sh.vars.set(name, val, a.Append);
  } catch (e) {
    throw assignError(sh, e);
  }
  return true;
}

function assignError(sh: Shell, e: unknown): unknown {
  if (e instanceof ShellError && !e.fatal && !(e instanceof DiscardError) && /readonly variable$|^\S+\[.*\]: bad array subscript$/.test(e.message)) return new DiscardError(e.message, 1, false, true);
  return e;
}

/** assignValue1 of a scalar under xtrace: the trace shows the expanded word before it is assigned (as bash, with the PS4 before it). */
export async function assignTraced(sh: Shell, a: Assign): Promise<void> {
  const name = a.Name!.Value;
  let val: string;
  try { val = a.Value ? await sh.ex.literal(a.Value, 'assign') : ''; } catch (e) { throw assignError(sh, e); }
  await sh.traceRaw(`${name}${a.Index ? `[${arithSource(sh.source.src, a.Index) ?? ''}]` : ''}${a.Append ? '+=' : '='}${traceWord(val, sh.vars.utf8Locale(), true)}`);
  try {
    if (a.Index) sh.vars.setElem(name, assocKeyChecked(sh, a, await sh.subscriptText(name, a.Index)), val, a.Append);
    else sh.vars.set(name, val, a.Append);
  } catch (e) { throw assignError(sh, e); }
}

/** An associative array's key in `a[k]=v`: an empty one is bash's error (the rest of the line is dropped). */
function assocKeyChecked(sh: Shell, a: Assign, key: string): string {
  if (key === '' && sh.vars.resolve(a.Name!.Value)?.assoc) throw new DiscardError(`${a.Name!.Value}[${arithSource(sh.source.src, a.Index!) ?? ''}]: bad array subscript`, 1, false, true);
  return key;
}

async function assignValue1(sh: Shell, a: Assign): Promise<void> {
  const name = a.Name!.Value;
  const bad = badAssigns.size ? badAssigns.get(name) : undefined;
  if (bad) throw bad.discard ? new DiscardError(bad.message) : new ShellError(bad.message, 1);
  if (a.Array) {
    await assignArray(sh, name, a, false);
    return;
  }
  const val = a.Value ? await sh.ex.literal(a.Value, 'assign') : '';
  if (a.Index) {
    const idx = assocKeyChecked(sh, a, await sh.subscriptText(name, a.Index));
    sh.vars.setElem(name, idx, val, a.Append);
    return;
  }
  sh.vars.set(name, val, a.Append);
}

/**
 * `traced`: a declaration's array under xtrace, shown as bash does once its values are expanded (`+ a=('x' ['3']='y')`).
 * (lvalue and applyAttrs are private steps of Shell's variable store: reached as `sh['…']` until the store has an API for them.)
 */
export async function assignArray(sh: Shell, name: string, a: Assign, assocHint: boolean, traced = false, decl = false): Promise<void> {
  const ref = sh.vars.raw(name);
  // (a nameref without a target becomes the array; a plain assignment warns)
  if (ref?.nameref && ref.str === undefined) { if (!decl) await sh.err(`warning: ${name}: removing nameref attribute`); ref.nameref = false; }
  let v = sh.vars.resolve(name);
  if (v?.readonly) throw new ShellError(`${name}: readonly variable`, 1);
  const isAssoc = !!v?.assoc || assocHint;
  const elems = a.Array!.Elems;
  if (isAssoc) {
    const m = a.Append && v?.assoc ? new Map(v.assoc) : new Map<string, string>();
    if (elems.length && !elems[0]!.Index) {
      // bash 5.1+: `(key value key value …)`; later `[k]=v` words are plain keys or values here
      const words: string[] = [];
      for (const el of elems) {
        let w = el.Value ? await sh.ex.literal(el.Value, 'none') : '';
        if (el.Index) w = `[${await sh.assocKey(el.Index)}]=${w}`;
        words.push(w);
      }
      for (let i = 0; i < words.length; i += 2) m.set(words[i]!, v ? sh.vars.applyAttrs(v, words[i + 1] ?? '') : words[i + 1] ?? '');
    } else {
      const shown: string[] = [];
      for (const el of elems) {
        if (el.Index) {
          const k = await sh.assocKey(el.Index);
          // bash 5.2 does not expand a tilde after `[key]=` in associative arrays
          const x = el.Value ? await sh.ex.literal(el.Value, 'none') : '';
          // (`[k]+=v` appends to the value before this assignment, or the current one with `+=(…)`)
          const val = appendElems.has(el) ? ((a.Append ? m.get(k) : v?.assoc?.get(k)) ?? '') + x : x;
          m.set(k, v ? sh.vars.applyAttrs(v, val) : val);
          if (traced) shown.push(`[${singleQuote(k)}]=${singleQuote(x)}`);
        } else if (el.Value) {
          // (bash shows the word as written, single-quoted in a `declare`)
          let w = wordSource(sh.source.src, el.Value) ?? `'${await sh.ex.literal(el.Value, 'none')}'`;
          if (decl) w = singleQuote(w);
          await sh.err(`${name}: ${w}: must use subscript when assigning associative array`);
        }
      }
      if (traced) await sh.traceRaw(`${name}${a.Append ? '+=' : '='}(${shown.join(' ')})`);
    }
    if (!v) { v = sh.vars.lvalue(name); }
    v.assoc = m; v.arr = undefined; v.str = undefined; v.declOnly = undefined;
    return;
  }
  // bash expands every value first, then clears the array and assigns the elements in
  // order; a `[i]` subscript is evaluated when its element is assigned (it sees the
  // elements assigned before it)
  const items: ({ idx: ArithmExpr; val: string; append?: boolean } | { vals: string[] })[] = [];
  for (const el of elems) {
    // `[i]=a{b,c}`: brace expansion makes the whole element plain words (`[i]=ab` `[i]=ac`)
    const braced = el.Index && el.Value && braceExpand(el.Value)[0] !== el.Value ? elemWord(sh, el) : undefined;
    if (braced) items.push({ vals: await sh.ex.fields([braced]) });
    else if (el.Index) items.push({ idx: el.Index, val: el.Value ? await sh.ex.literal(el.Value, 'assign') : '', append: appendElems.has(el) });
    else if (el.Value) items.push({ vals: await sh.ex.fields([el.Value]) });
  }
  if (traced) {
    const shown = items.map((it) => ('idx' in it ? `[${singleQuote(arithSource(sh.source.src, it.idx) ?? '')}]=${singleQuote(it.val)}` : it.vals.map(singleQuote).join(' ')));
    await sh.traceRaw(`${name}${a.Append ? '+=' : '='}(${shown.filter((x) => x !== '').join(' ')})`);
  }
  const m = a.Append && v?.arr ? v.arr : a.Append && v?.str !== undefined ? new Map([[0, v.str]]) : new Map<number, string>();
  const w = sh.vars.lvalue(name);
  w.arr = m; w.assoc = undefined; w.str = undefined; w.declOnly = undefined;
  let next = maxKey(m) + 1;
  const put = (i: number, x: string): void => { m.set(i, sh.vars.applyAttrs(w, x)); };
  for (const it of items) {
    if ('idx' in it) {
      let i = Number(await sh.arithAst(it.idx));
      if (i < 0) {
        const max = maxKey(m);
        if (max + 1 + i < 0) { await sh.err(`[${arithSource(sh.source.src, it.idx) ?? i}]=${it.val}: bad array subscript`); continue; }
        i = max + 1 + i;
      }
      if (it.append && m.has(i)) {
        const old = m.get(i)!;
        m.set(i, w.integer ? String(hardArith(() => sh.arith.evalString(old)) + hardArith(() => sh.arith.evalString(it.val))) : old + it.val);
      } else put(i, it.val);
      next = i + 1;
    } else for (const f of it.vals) put(next++, f);
  }
}

/** An indexed element `[i]=v` of an array literal as one word of its source text. */
function elemWord(sh: Shell, el: ArrayElem): Word | undefined {
  const src = sh.source.src, r = arithRange(src, el.Index!), v = el.Value ? wordRange(el.Value) : undefined;
  const lb = r ? src.lastIndexOf('[', r[0]) : -1;
  return lb < 0 || !v ? undefined : wordOfText(src.slice(lb, v[1]));
}

/**
 * stmtSync for `local NAME[=VALUE]…` whose values expand synchronously (builtins' localSync).
 * When localSync declines after the values were expanded, they wait in `replayDecl` for the
 * declClause() that stmt() makes next.
 */
export function localSync(sh: Shell, st: Stmt, c: DeclClause): number | undefined {
  if (c.Variant.Value !== 'local' || c.Args.length === 0 || sh.funcDepth === 0 || sh.errexitArmed()) return undefined;
  for (const a of c.Args) if (!a.Name || a.Index || a.Array || a.Append || (a.Naked && (a.Value || declWords.has(a.Name.Value))) || (a.Value && !sh.ex.canSync(a.Value))) return undefined;
  sh.startSync(st);
  const items: DeclItem[] = [];
  let r: number | undefined;
  try {
    for (const a of c.Args) items.push({ name: a.Name!.Value, value: a.Naked ? undefined : a.Value ? sh.ex.literalSync(a.Value, 'assign') : '' });
    r = declarationBuiltin('local')!.itemsSync!(sh, items);
  } catch (e) { sh.replayError = { e }; return undefined; }
  if (r === undefined) { sh.replayDecl = { c, items }; return undefined; }
  return sh.endSync(r);
}

export async function declClause(sh: Shell, c: DeclClause): Promise<number> {
  let variant = c.Variant.Value;
  if (variant === 'nameref') variant = 'declare';
  try {
    const replay = sh.replayDecl;
    if (replay !== undefined) {
      sh.replayDecl = undefined;
      if (replay.c === c) { sh.vars.lastArg = declLastArg(variant, replay.items); return await declarationBuiltin(variant)!.items(sh, replay.items); }
    }
    return await declarationBuiltin(variant)!.clause(sh, c.Variant.Value === 'nameref' ? [{ type: 'Assign', Append: false, Naked: true, Name: null, Index: null, Value: { type: 'Word', Parts: [{ type: 'Lit', ValuePos: 0, ValueEnd: 0, Value: '-n' }] }, Array: null }, ...c.Args] : c.Args);
  } catch (e: any) {
    // (`declare -p >&-`: a write error, reported as callArgs reports a builtin's)
    if (e && typeof e.code === 'string' && (e.code === 'EBADF' || e.code === 'EIO' || e.code === 'ENOSPC')) {
      await sh.err(`${variant}: write error: ${errnoMsg(e)}`);
      return 1;
    }
    throw e;
  }
}
