// The variables-and-attributes builtins: declare, typeset, local, export, readonly and unset. The
// declaration builtins also register how the evaluator runs them for a DeclClause (its words as
// assignments, expanded here; local's fast path). The other families are listed in all.ts.
import type { Assign } from '../syntax/ast.ts';
import type { Shell } from '../execution/runner.ts';
import { maxKey, type Var } from '../variables/var.ts';
import { parseScript } from '../syntax/reparse.ts';
import { declWords } from '../syntax/reparse-placeholders.ts';
import { DiscardError, ShellError } from '../execution/errors.ts';
import { traceWord } from '../words/quoting.ts';
import { isName } from '../syntax/names.ts';
import { def, defDeclaration } from './table.ts';
import { declLastArg, type DeclItem } from './declaration-items.ts';
import { errOut, out, usageErr } from './builtin-io.ts';
import { flagOptions } from './argument-parsing.ts';
import { wordOfText } from '../syntax/word-of-text.ts';
import { listFunctions, shQuoteValue } from './variable-listing.ts';

function names_(items: DeclItem[]): DeclItem[] { return items.filter((i) => i.name !== undefined); }

/** `st.done`: options ended (`--` or a name), across the words of one command. */
function parseDeclArgs(args: string[], st = { done: false }): DeclItem[] {
  const items: DeclItem[] = [];
  for (const a of args) {
    if (!st.done && a === '--') { st.done = true; continue; }
    // (any other character is an invalid option: `-@`)
    if (!st.done && /^[-+][^]+$/.test(a)) { items.push({ flag: a }); continue; }
    st.done = true;
    const m = /^([a-zA-Z_][a-zA-Z0-9_]*)(\[[^\]]*\])?(\+?=)?(.*)$/s.exec(a);
    if (!m || (!m[3] && m[4] !== '')) { items.push({ name: a }); continue; }
    const it: DeclItem = { name: m[1]! };
    if (m[2]) it.index = m[2].slice(1, -1);
    if (m[3]) { it.value = m[4]!; it.append = m[3] === '+='; }
    items.push(it);
  }
  return items;
}

/** declare/typeset/local/export/readonly over evaluated items. */
async function declare(sh: Shell, variant: string, items: DeclItem[]): Promise<number> {
  const on = new Set<string>(), off = new Set<string>();
  const allowed = variant === 'export' || variant === 'readonly' ? 'aAfnp' : 'aAcfFgiIlnprtux';
  if (variant === 'local' && sh.funcDepth === 0) { await errOut(sh, 'local', 'can only be used in a function'); return 1; }
  for (const it of items) for (const c of it.flag?.slice(1) ?? '') if (!allowed.includes(c)) return usageErr(sh, variant, `${it.flag![0]}${c}: invalid option`);
  for (const it of items) if (it.flag) for (const c of it.flag.slice(1)) (it.flag[0] === '-' ? on : off).add(c);
  if (variant === 'export') {
    if (on.has('n')) { on.delete('n'); off.add('x'); } else on.add('x');
  }
  // (with names, export -p and readonly -p set the attribute, like without -p)
  if ((variant === 'export' || variant === 'readonly') && on.has('p') && names_(items).length) on.delete('p');
  if (variant === 'readonly') on.add('r');
  // (`local -g`, like `declare -g`, works on the global variable)
  const local = (variant === 'local' || ((variant === 'declare' || variant === 'typeset') && sh.funcDepth > 0)) && !on.has('g');
  if (variant === 'local' && sh.funcDepth === 0) { await errOut(sh, 'local', 'can only be used in a function'); return 1; }
  if (variant === 'local' && items.some((i) => i.name === '-' && i.value === undefined)) {
    // `local -`: the shell options come back when the function returns
    sh.vars.saveOptsForReturn(sh.opts);
    items = items.filter((i) => !(i.name === '-' && i.value === undefined));
    if (!items.some((i) => i.name !== undefined)) return 0;
  }
  const names = items.filter((i) => i.name !== undefined);
  if (on.has('f') || on.has('F')) {
    let st = 0;
    const attrs = ['r', 'x'].filter((c) => on.has(c));
    const attrLine = (f: string): string => `declare -f${sh.funcAttrs.get(f) ?? ''} ${f}\n`;
    if (names.length === 0) {
      // (listing: only the functions with the attributes asked for; definitions end with their attributes)
      for (const f of [...sh.funcs.keys()].sort()) {
        const a = sh.funcAttrs.get(f) ?? '';
        if (attrs.every((c) => a.includes(c))) await out(sh, on.has('F') ? attrLine(f) : `${sh.functionText(f)}\n${a ? attrLine(f) : ''}`);
      }
      return 0;
    }
    for (const n of names) {
      const f = n.name!;
      if (!sh.funcs.has(f)) {
        if (variant === 'export' || variant === 'readonly') await errOut(sh, variant, `${f}: not a function`);
        st = 1;
        continue;
      }
      if (attrs.length || off.has('x')) {
        const a = new Set(sh.funcAttrs.get(f) ?? '');
        for (const c of attrs) a.add(c);
        if (off.has('x')) a.delete('x');
        sh.funcAttrs.set(f, [...a].sort().join(''));
        continue;
      }
      await out(sh, on.has('F') ? (sh.shopt.has('extdebug') ? sh.funcWhere(f) : f) + '\n' : `${sh.functionText(f)}\n${on.has('p') && sh.funcAttrs.get(f) ? attrLine(f) : ''}`);
    }
    return st;
  }
  if (names.length === 0 || on.has('p')) {
    if (variant === 'export' || variant === 'readonly') {
      const flag = variant === 'export' ? 'x' : 'r';
      for (const n of sh.vars.names(true).sort()) {
        const v = sh.vars.raw(n);
        if (!v || !(flag === 'x' ? v.exported : v.readonly)) continue;
        // (POSIX mode: `export NAME="v"`, naming only the array attributes)
        const ax = sh.posix ? (v.arr ? 'a' : '') + (v.assoc ? 'A' : '') : '';
        await out(sh, (sh.posix ? sh.vars.declareLine(n).replace(/^declare \S+ /, `${variant} ${ax ? `-${ax} ` : ''}`) : sh.vars.declareLine(n)) + '\n');
      }
      return 0;
    }
    if (names.length === 0 && variant === 'local' && sh.funcDepth > 0) {
      // the current function's variables, set or not
      for (const n of sh.vars.innermostLocals().sort()) await out(sh, sh.vars.declareLine(n) + '\n');
      return 0;
    }
    if (names.length === 0) {
      for (const n of sh.vars.names(on.size > 0).sort()) {
        const attrs = sh.vars.attrString(n, true);
        // (-g only chooses the scope: `declare -g` lists like `declare`, `declare -pg` like `declare -p`)
        const want = [...on].filter((c) => c !== 'p' && c !== 'g');
        if (!want.every((c) => attrs.includes(c))) continue;
        const v = sh.vars.raw(n);
        if (!v) continue;
        if (on.has('p') || want.length) await out(sh, sh.vars.declareLine(n) + '\n');
        else await out(sh, `${n}=${v.arr || v.assoc ? sh.vars.declareLine(n).replace(/^declare -\S+ [^=]+=/, '') : shQuoteValue((n === 'SHELLOPTS' || n === 'BASHOPTS' ? sh.vars.param(n) : v.str) ?? '', sh.vars.utf8Locale())}\n`);
      }
      // (a bare `declare` lists the functions after the variables, as `set` does)
      if (on.size === 0 && off.size === 0) await listFunctions(sh);
      return 0;
    }
    let st = 0;
    for (const n of names) {
      // (local -p shows only the current function's variables)
      const line = variant === 'local' && !sh.vars.isInnermostLocal(n.name!) ? undefined : sh.vars.declareLine(n.name!);
      // (bash names the argument as written: `foo=bar: not found`)
      const arg = `${n.name}${n.index !== undefined ? `[${n.index}]` : ''}${n.value !== undefined ? `${n.append ? '+=' : '='}${n.value}` : ''}`;
      if (!line) { await errOut(sh, variant, `${arg}: not found`); st = 1; } else await out(sh, line + '\n');
    }
    return st;
  }
  let st = 0;
  for (const it of names) {
    const name = it.name!;
    if (!isName(name)) { await errOut(sh, variant, `\`${name}${it.value !== undefined ? '=' + it.value : ''}': not a valid identifier`); st = 1; continue; }
    if (it.index !== undefined && (variant === 'export' || variant === 'readonly')) { await errOut(sh, variant, `\`${name}[${it.index}]': not a valid identifier`); st = 1; continue; }
    if (it.index === '') { await sh.err(`${name}[]: bad array subscript`); st = 1; continue; }
    if (on.has('n') && !it.arrayAssign) {
      // bash checks the target name a nameref gets (its value, or the variable's current value)
      const tv = it.value !== undefined ? it.value : local ? undefined : sh.vars.raw(name)?.str;
      if (tv !== undefined && tv !== '' && !/^[a-zA-Z_][a-zA-Z0-9_]*(\[.*\])?$/s.test(tv)) { await errOut(sh, variant, `\`${tv}': invalid variable name for name reference`); st = 1; continue; }
      if (tv === name) { await errOut(sh, variant, `${name}: nameref variable self references not allowed`); st = 1; continue; }
    }
    let v: Var | undefined;
    // (the value goes to `v` itself: a local, or the global under -g)
    let pinned = local;
    if (local) {
      const top = sh.vars.localScope();
      v = top.get(name);
      if (!v) {
        if (sh.vars.raw(name)?.readonly) { await errOut(sh, variant, `${name}: readonly variable`); st = 1; continue; }
        v = newLocal(sh, top, name); // (`local x` leaves x unset: declared)
      }
    } else {
      const raw = on.has('n') || off.has('n');
      const g = on.has('g') && sh.vars.isNested() ? sh.vars.globalVar(name) : undefined;
      if (on.has('g') && sh.vars.isNested() && (!g || raw || !g.nameref)) {
        // (-g in a function: the global variable, even when a local one hides it)
        v = g;
        if (!v) { v = {}; sh.vars.putGlobal(name, v); }
        pinned = true;
      } else {
        v = raw ? sh.vars.raw(name) : sh.vars.resolve(name);
        if (!v) { v = {}; sh.vars.putGlobal(raw ? name : sh.vars.resolveName(name), v); }
      }
    }
    if (v.readonly && (it.value !== undefined || it.arrayAssign || off.has('r'))) {
      // (export and readonly report it like a plain assignment)
      if (variant === 'export' || variant === 'readonly') { await sh.err(`${name}: readonly variable`); sh.usageFailed = true; } // (POSIX mode: the shell exits)
      else await errOut(sh, variant, `${name}: readonly variable`);
      st = 1; continue;
    }
    // `export -a x` / `readonly -A x` without a value do not make x an array (bash)
    const bare = (variant === 'export' || variant === 'readonly') && it.value === undefined && !it.arrayAssign && v.str === undefined && !v.arr && !v.assoc;
    // with a compound assignment, bash abandons the rest of the line (the message has no `declare:`)
    const convErr = async (m: string): Promise<void> => { if (it.arrayAssign) throw new DiscardError(`${name}: ${m}`); await errOut(sh, variant, `${name}: ${m}`); st = 1; };
    if (on.has('a') && v.assoc) { await convErr('cannot convert associative to indexed array'); continue; }
    if (on.has('a') && !v.arr && !bare) { v.arr = new Map(); if (v.str !== undefined) v.arr.set(0, v.str); else v.declOnly = true; v.str = undefined; }
    if (on.has('A') && !v.assoc && !bare) {
      if (v.arr) { await convErr('cannot convert indexed to associative array'); continue; }
      v.assoc = new Map(); if (v.str !== undefined) v.assoc.set('0', v.str); else v.declOnly = true; v.str = undefined;
    }
    // a `name=(…)` argument that comes from an expansion is a compound assignment for an array
    const arrayAssign = it.arrayAssign ?? (it.value !== undefined && it.index === undefined && (v.arr || v.assoc) && /^\(.*\)$/s.test(it.value) ? textArrayAssign(name, it) : undefined);
    if (on.has('i')) v.integer = true; if (off.has('i')) v.integer = false;
    // (each of -l, -u and -c turns the other two off, as in bash: two together cancel out)
    if (on.has('l') || on.has('u') || on.has('c') || off.has('l') || off.has('u') || off.has('c')) {
      if (on.has('l')) v.lower = true; if (on.has('u')) v.upper = true; if (on.has('c')) v.capcase = true;
      if (off.has('l') || on.has('u') || on.has('c')) v.lower = false;
      if (off.has('u') || on.has('l') || on.has('c')) v.upper = false;
      if (off.has('c') || on.has('l') || on.has('u')) v.capcase = false;
    }
    if (on.has('t')) v.trace = true; if (off.has('t')) v.trace = false;
    if (on.has('x')) v.exported = true; if (off.has('x')) v.exported = false;
    if (on.has('n')) v.nameref = true; if (off.has('n')) v.nameref = false;
    try {
      if (arrayAssign) {
        const savedSrc = sh.source;
        if (arrayAssign !== it.arrayAssign) sh.setSource((arrayAssign as Assign & { src: string }).src, savedSrc.name);
        const assign = (): Promise<void> => sh.assignArray(name, arrayAssign, on.has('A'), sh.opts.xtrace && arrayAssign === it.arrayAssign, true);
        // `name` designates v; other names (in the values and subscripts) resolve as usual
        try { await (pinned ? sh.vars.withBindingAsync(name, v, assign) : assign()); } finally { sh.source = savedSrc; }
      } else if (it.value !== undefined) {
        if (v.nameref && on.has('n')) { v.str = it.value; }
        else if (pinned) {
          const value = it.value, index = it.index;
          sh.vars.withBinding(name, v, () => { if (index !== undefined) sh.vars.setElem(name, index, value, it.append); else sh.vars.set(name, value, it.append); });
        } else if (it.index !== undefined) sh.vars.setElem(name, it.index, it.value, it.append);
        else sh.vars.set(name, it.value, it.append);
      }
    } catch (e) {
      if (e instanceof ShellError) { await errOut(sh, variant, e.message); st = 1; continue; }
      throw e;
    }
    if (on.has('r')) v.readonly = true;
  }
  return st;
}

const textAssigns = new Map<string, Assign | null>();
/** `declare -a "x=(1 2)"`: the argument's text parsed as a compound assignment (and its source text). */
function textArrayAssign(name: string, it: DeclItem): (Assign & { src: string }) | undefined {
  const src = `${name}${it.append ? '+=' : '='}${it.value}`;
  let a = textAssigns.get(src);
  if (a === undefined) {
    a = null;
    try {
      const r = parseScript(src, false);
      const f = r.file;
      const c = !r.error && f.Stmts.length === 1 ? f.Stmts[0]!.Cmd : undefined;
      if (c?.type === 'CallExpr' && c.Args.length === 0 && c.Assigns.length === 1 && c.Assigns[0]!.Array) a = c.Assigns[0]!;
    } catch { /* not an array literal: a plain value */ }
    if (textAssigns.size > 500) textAssigns.clear();
    textAssigns.set(src, a ?? null);
  }
  return a ? { ...a, src } : undefined;
}

for (const variant of ['declare', 'typeset', 'local', 'export', 'readonly']) {
  defDeclaration(variant, async (sh, args) => declare(sh, variant, parseDeclArgs(args.slice(1))), { special: variant === 'export' || variant === 'readonly' }, {
    clause: (sh, assigns) => declClause(sh, variant, assigns),
    items: (sh, items) => declare(sh, variant, items),
    itemsSync: variant === 'local' ? localSync : undefined,
  });
}

/** A new local variable `name` in `top`; bash's local inherits only the export attribute. */
function newLocal(sh: Shell, top: Map<string, Var>, name: string): Var {
  const v: Var = { local: true };
  if (sh.vars.raw(name)?.exported) v.exported = true;
  top.set(name, v);
  return v;
}

/**
 * declare('local', items) without a promise for names (not all capitals: specials such as
 * RANDOM or SECONDS take values their own way) with or without a value, when it has nothing to
 * report: undefined, with nothing done, when a name is readonly or already local with an
 * attribute that changes how a value is taken (integer, nameref, array).
 */
function localSync(sh: Shell, items: DeclItem[]): number | undefined {
  if (sh.funcDepth === 0 || items.length === 0) return undefined; // (`local` alone lists them)
  const top = sh.vars.localScope();
  for (const it of items) {
    const name = it.name;
    if (name === undefined || it.index !== undefined || it.append || !isName(name) || /^[A-Z0-9_]+$/.test(name)) return undefined;
    const own = top.get(name);
    if (own ? own.readonly || own.integer || own.nameref || own.arr || own.assoc : sh.vars.raw(name)?.readonly) return undefined;
  }
  for (const it of items) {
    const name = it.name!, value = it.value;
    const v = top.get(name) ?? newLocal(sh, top, name);
    if (value !== undefined) sh.vars.withBinding(name, v, () => sh.vars.set(name, value));
  }
  sh.vars.lastArg = declLastArg('local', items);
  return 0;
}

/** Evaluates a DeclClause from the AST (keeps array literals and assignment words intact). */
async function declClause(sh: Shell, variant: string, assigns: Assign[]): Promise<number> {
  const items: DeclItem[] = [];
  const st = { done: false };
  for (const a of assigns) {
    if (a.Naked && !a.Name) {
      for (const f of await sh.ex.fields([a.Value!])) items.push(...parseDeclArgs([f], st));
      continue;
    }
    if (!a.Name) continue;
    if (a.Naked && declWords.size && declWords.has(a.Name.Value)) {
      // a word mvdan-sh rejected after an assignment (`local a=1 $name`), expanded now
      const w = wordOfText(declWords.get(a.Name.Value)!);
      if (w) { for (const f of await sh.ex.fields([w])) items.push(...parseDeclArgs([f], st)); continue; }
    }
    st.done = true;
    const it: DeclItem = { name: a.Name.Value, append: a.Append };
    if (a.Index) it.index = await sh.subscriptText(a.Name.Value, a.Index);
    if (a.Array) it.arrayAssign = a;
    else if (!a.Naked) it.value = a.Value ? await sh.ex.literal(a.Value, 'assign') : '';
    items.push(it);
  }
  sh.vars.lastArg = declLastArg(variant, items);
  // (bash expands an array value with the words, tracing it, before it traces the declaration)
  const arrays = sh.opts.xtrace && items.some((it) => it.arrayAssign);
  if (sh.opts.xtrace && !arrays) await traceDecl(sh, variant, items);
  const status = await declare(sh, variant, items);
  if (arrays) await traceDecl(sh, variant, items);
  return status;
}

/** bash's xtrace of a declaration: its expanded words; export and readonly show their assignments again. */
async function traceDecl(sh: Shell, variant: string, items: DeclItem[]): Promise<void> {
  const lhs = (it: DeclItem): string => it.name! + (it.index !== undefined ? `[${it.index}]` : '');
  await sh.trace([variant, ...items.map((it) => it.flag ?? (it.value === undefined ? lhs(it) : `${lhs(it)}${it.append ? '+=' : '='}${it.value}`))]);
  if (variant === 'export' || variant === 'readonly') {
    for (const it of items) if (it.name !== undefined && it.value !== undefined) await sh.traceRaw(`${lhs(it)}${it.append ? '+=' : '='}${traceWord(it.value, sh.vars.utf8Locale(), true)}`);
  }
}

async function unsetFunc(sh: Shell, name: string): Promise<boolean> {
  if (sh.funcAttrs.get(name)?.includes('r')) { await errOut(sh, 'unset', `${name}: cannot unset: readonly function`); return false; }
  sh.funcs.delete(name);
  sh.funcAttrs.delete(name);
  return true;
}

def(['unset'], async (sh, args) => {
  let mode = 'v';
  let st = 0;
  let explicitV = false;
  // (leading options as bash's internal_getopt reads them)
  const o = await flagOptions(sh, 'unset', args, 'fvn');
  if (typeof o === 'number') return o;
  const first = o.next, fv = o.flags;
  if (fv.includes('f') && fv.includes('v')) { await errOut(sh, 'unset', 'cannot simultaneously unset a function and a variable'); return 1; }
  for (let ai = 1; ai < args.length; ai++) {
    const a = args[ai]!;
    if (ai < first && a === '--') continue;
    if (ai < first) {
      for (const c of a.slice(1)) { if (c === 'v') explicitV = true; mode = c; }
      continue;
    }
    if (a === '-f') { mode = 'f'; continue; }
    if (a === '-v') { mode = 'v'; explicitV = true; continue; }
    if (a === '-n') { mode = 'n'; continue; }
    if (mode === 'f') { if (!await unsetFunc(sh, a)) st = 1; continue; }
    const m = /^([a-zA-Z_][a-zA-Z0-9_]*)\[(.+)\]$/s.exec(a);
    try {
      if (!m && explicitV && !isName(a)) { await errOut(sh, 'unset', `\`${a}': not a valid identifier`); st = 1; continue; }
      if (m) {
        const v = sh.vars.resolve(m[1]!);
        if (v?.readonly) throw new ShellError(`${m[1]}: cannot unset: readonly variable`, 1);
        if (v && !v.arr && !v.assoc && v.str !== undefined && (m[2] === '@' || m[2] === '*')) throw new ShellError(`${m[1]}: not an array variable`, 1);
        // (bash 5.2: of an associative array, `@` and `*` are keys like any other)
        if ((m[2] === '@' || m[2] === '*') && !v?.assoc) { if (v?.arr) v.arr.clear(); else sh.vars.unset(m[1]!); continue; }
        const sub = await sh.refSubscriptAsync(m[1]!, m[2]!);
        if (v?.assoc) v.assoc.delete(sub);
        else if (v?.arr) {
          let i = Number(sub);
          if (i < 0) {
            i = maxKey(v.arr) + 1 + i;
            if (i < 0) throw new ShellError(`[${sub}]: bad array subscript`, 1);
          }
          v.arr.delete(i);
        } else if (v) { // (a scalar, set or only declared)
          if (Number(sub) === 0) v.str = undefined; else throw new ShellError(`${m[1]}: not an array variable`, 1);
        }
        continue;
      }
      if (!isName(a)) { if (!await unsetFunc(sh, a)) st = 1; continue; }
      if (mode === 'n') { sh.vars.unsetRef(a); continue; }
      if (!explicitV && !sh.vars.raw(a) && sh.funcs.has(a)) { if (!await unsetFunc(sh, a)) st = 1; continue; } // no variable: a function
      sh.vars.unset(a);
    } catch (e) {
      if (e instanceof ShellError) { await errOut(sh, 'unset', e.message); st = 1; continue; }
      throw e;
    }
  }
  return st;
}, { special: true });
