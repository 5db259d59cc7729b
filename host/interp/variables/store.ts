// The variable store: the shell's scopes of variables (the global one, a function's locals, a
// command's prefix assignments) and every operation on them — lookup through namerefs,
// assignment with the attributes applied, indexed and associative arrays, unset, listing, the
// environment of commands. The evaluator, the expander and the builtins all use it through this
// class (`sh.vars`); special and dynamic parameters are special.ts's, `declare -p` text
// declare-line.ts's, the locale locale.ts's. What it needs from the shell it asks through VarHost
// (host.ts). Kept apart from the evaluator as mvdan/sh keeps vars.go apart from runner.go.
// (vars-rename.sed skips this file: `this.` here is the store, not the shell.)
import { hardArith } from '../words/arith.ts';
import { charUnits, hasHighBytes, mapCharCase } from '../words/utf8-chars.ts';
import { DiscardError, ShellError } from '../execution/errors.ts';
import { bucketOrder } from '../execution/bash-hash-order.ts';
import { fromBytes } from '../execution/byte-strings.ts';
import type { VarHost } from './host.ts';
import { assocOrder, cloneVar, maxKey, savedOpts, tempScopes, type Scope, type Var, scalarValue } from './var.ts';
import { DYNAMIC_VARS, IGNORED_ASSIGN, specialParam } from './special.ts';
import { LOCALE_VARS, localeChanged, startupLocale, utf8Escapes, utf8Locale } from './locale.ts';
import { attrString, declareLine } from './declare-line.ts';
import type { Options } from '../execution/options.ts';

export class VarStore {
  /** Innermost last: [0] is the global scope, then functions' locals and commands' prefix assignments (var.ts's tempScopes). */
  private scopes: Scope[] = [new Map()];
  /**
   * Environment entries whose names are not shell variable names (`BASH_FUNC_f%%`, `odd-name`):
   * no variable holds them, but every command the shell runs gets them unchanged, as from bash.
   * Raw bytes (latin1), like variable names and values.
   */
  foreignEnv: ReadonlyMap<string, string> = new Map();
  /** $SECONDS: `value` at time `at` (the start, or the last assignment). Replaced, never changed: clones share it. */
  seconds: { at: number; value: number };
  /** bash's dynamic variables unset here: ordinary variables from then on. */
  private lostSpecial: Set<string> | undefined;
  /** bash's $RANDOM generator state (undefined: not seeded yet; a subshell reseeds). */
  rseed: number | undefined;
  lastRandom = 0;
  /** Locale names setlocale failed for, per category (see locale.ts). */
  localeTried: Set<string> | undefined;

  constructor(private readonly host: VarHost) {
    this.seconds = { at: host.startTime, value: 0 };
  }

  /** A subshell's store (`this`, new) gets a copy of `from`'s variables and state. */
  copyFrom(from: VarStore): void {
    this.scopes = from.scopes.map((sc) => { const m = new Map<string, Var>(); for (const [k, v] of sc) m.set(k, cloneVar(v)); return m; });
    this.foreignEnv = from.foreignEnv;
    this.localeTried = from.localeTried && new Set(from.localeTried); this.seconds = from.seconds; this.lostSpecial = from.lostSpecial && new Set(from.lostSpecial);
    this.lastArgValue = from.lastArgValue; this.prevLastArg = from.prevLastArg; this.envUnderscore = from.envUnderscore;
  }

  // ---- scopes ------------------------------------------------------------------------------
  /** Enters a scope: a function's (new and empty) or a command's prefix assignments. */
  pushScope(sc: Scope): void { this.scopes.push(sc); }
  /** Leaves the innermost scope (a function's, as it returns). */
  popScope(): Scope | undefined { return this.scopes.pop(); }
  /** Takes `sc` out of the scopes, wherever it is (a command's prefix assignments, as it ends). */
  removeScope(sc: Scope): void {
    const i = this.scopes.lastIndexOf(sc);
    if (i >= 0) this.scopes.splice(i, 1);
  }
  /** Whether a scope (a function's or prefix assignments') is above the global one. */
  isNested(): boolean { return this.scopes.length > 1; }
  /** The scope `local` declares in: the function's own, under any prefix-assignment scopes. */
  localScope(): Scope {
    let ti = this.scopes.length - 1;
    while (ti > 0 && tempScopes.has(this.scopes[ti]!)) ti--;
    return this.scopes[ti]!;
  }
  /** `local -`: the options `opts` are put back when the function returns. */
  saveOptsForReturn(opts: Options): void {
    const sc = this.localScope();
    if (!savedOpts.has(sc)) savedOpts.set(sc, { ...opts });
  }
  /** The global variable `name` itself (a local one may hide it). */
  globalVar(name: string): Var | undefined { return this.scopes[0]!.get(name); }
  /** Makes `v` the global variable `name` (as the shell starts, or `declare -g`). */
  putGlobal(name: string, v: Var): void { this.scopes[0]!.set(name, v); }
  /** The names of the innermost scope's local variables (`local` with no names lists them), in the order declared. */
  innermostLocals(): string[] {
    const top = this.scopes[this.scopes.length - 1]!;
    return [...top.keys()].filter((n) => top.get(n)!.local);
  }
  /** Whether `name` is a local variable of the innermost scope. */
  isInnermostLocal(name: string): boolean { return !!this.scopes[this.scopes.length - 1]!.get(name)?.local; }
  /** Runs `fn` with `name` designating `v` (other names resolve as usual). */
  withBinding<T>(name: string, v: Var, fn: () => T): T {
    const saved = this.scopes;
    this.scopes = [...saved, new Map([[name, v]])];
    try { return fn(); } finally { this.scopes = saved; }
  }
  /** withBinding for an `fn` that awaits. */
  async withBindingAsync<T>(name: string, v: Var, fn: () => Promise<T>): Promise<T> {
    const saved = this.scopes;
    this.scopes = [...saved, new Map([[name, v]])];
    try { return await fn(); } finally { this.scopes = saved; }
  }

  // ---- lookup ------------------------------------------------------------------------------
  /** The variable called `name` in the innermost scope that has one (a nameref itself, not followed). */
  raw(name: string): Var | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const v = this.scopes[i]!.get(name);
      if (v) return v;
    }
    return undefined;
  }

  /** The variable `name` designates: a nameref's target (undefined for an element target `a[i]`). */
  resolve(name: string): Var | undefined {
    const v = this.raw(name);
    if (!v?.nameref || !v.str) return v;
    const t = this.refTarget(name);
    return t ? this.raw(t[0]) : undefined;
  }

  /** Whether `name` is set (bash's `!invisible_p`): has a value, or elements, not just a declaration. */
  isSet(name: string): boolean {
    const v = this.resolve(name);
    return !!v && !v.declOnly && (v.str !== undefined || !!v.arr || !!v.assoc);
  }

  /** The name `name` designates (a nameref's target's, else itself). */
  resolveName(name: string): string {
    return this.refTarget(name)?.[0] ?? name;
  }

  /**
   * Follows the nameref chain from `name`: the variable it designates and, for an `a[sub]`
   * target, the subscript text (unexpanded); undefined for a circular chain (bash warns).
   */
  refTarget(name: string, warn = true): [string, string | undefined] | undefined {
    let n = name;
    let v = this.raw(n);
    const seen = new Set<string>();
    while (v?.nameref && v.str) {
      seen.add(n);
      const t = v.str;
      const b = t.indexOf('[');
      if (b > 0 && t.endsWith(']')) return [t.slice(0, b), t.slice(b + 1, -1)];
      if (seen.has(t)) {
        if (warn) void this.host.err(`warning: ${name}: circular name reference`);
        return undefined;
      }
      n = t;
      v = this.raw(n);
    }
    return [n, undefined];
  }

  /** The value of the variable `name` (an array's element 0), through namerefs. */
  get(name: string): string | undefined {
    let v = this.raw(name);
    if (v?.nameref && v.str) {
      const t = this.refTarget(name);
      if (!t) return undefined;
      if (t[1] !== undefined) return this.getElem(t[0], this.host.refSubscript(t[0], t[1]));
      v = this.raw(t[0]);
    }
    return v && scalarValue(v);
  }

  /** The value of the parameter `name`: positional (`1`), special (`?`, `#`, `-`…), dynamic (RANDOM…) or a variable. */
  param(name: string): string | undefined {
    const c = name.charCodeAt(0);
    if (c >= 48 && c <= 57) {
      const n = Number(name);
      if (n === 0) return this.host.arg0;
      return this.host.params[n - 1];
    }
    if (c >= 97 && c <= 122) return this.get(name); // (no special parameter starts with a lowercase letter)
    if (this.lostSpecial !== undefined && this.lostSpecial.has(name)) return this.get(name);
    return specialParam(this, this.host, name);
  }

  /** FUNCNAME, BASH_SOURCE, BASH_LINENO or DIRSTACK with no variable of that name: the shell's frames show. */
  isStackVar(name: string): boolean {
    return (name === 'FUNCNAME' || name === 'BASH_SOURCE' || name === 'BASH_LINENO' || name === 'DIRSTACK') && !this.raw(name);
  }

  /** Whether `name` is one of bash's dynamic variables (RANDOM, SECONDS…) and still is (not unset). */
  isDynamic(name: string): boolean {
    return DYNAMIC_VARS.has(name) && !this.lostSpecial?.has(name);
  }

  // ---- assignment --------------------------------------------------------------------------
  /** Throws bash's error when the variable `name` designates is readonly. */
  checkWritable(name: string): void {
    const v = this.resolve(name);
    if (v?.readonly) throw new ShellError(`${name}: readonly variable`, 1);
  }

  /** `val` as the attributes of `v` make it (-i: evaluated; -l, -u, -c: the case changed). */
  applyAttrs(v: Var, val: string): string {
    if (v.integer) val = String(hardArith(() => this.host.arith.evalString(val)));
    if (v.lower || v.upper || v.capcase) val = this.caseAttr(v, val);
    return val;
  }

  /** The value as the -l, -u or -c attribute makes it (per character in a UTF-8 locale; else ASCII letters only, as bash in C). */
  private caseAttr(v: Var, val: string): string {
    if (!hasHighBytes(val)) {
      if (v.lower) return val.toLowerCase();
      if (v.upper) return val.toUpperCase();
      return val.charAt(0).toUpperCase() + val.slice(1).toLowerCase();
    }
    if (this.utf8Locale()) {
      const units = charUnits(val);
      for (let i = 0; i < units.length; i++) units[i] = mapCharCase(units[i]!, v.upper || (v.capcase === true && i === 0));
      return units.join('');
    }
    return val.replace(/[a-zA-Z]/g, (c, i: number) => (v.upper || (v.capcase && i === 0) ? c.toUpperCase() : c.toLowerCase()));
  }

  /** Finds (or creates in the global scope) the variable to assign, through a nameref. */
  lvalue(name: string): Var {
    let n = name;
    let v = this.raw(n);
    if (v?.nameref && v.str) {
      const t = this.refTarget(name, false);
      if (!t) throw new DiscardError(`warning: ${name}: circular name reference`);
      // (set assigns an element target itself; an array or element assignment through it is an error)
      if (t[1] !== undefined) throw new DiscardError(`\`${t[0]}[${t[1]}]': not a valid identifier`);
      n = t[0];
      v = this.raw(n);
    }
    if (v) return v;
    v = {};
    if (this.host.opts.allexport) v.exported = true;
    this.scopes[0]!.set(n, v);
    return v;
  }

  /** `name=val` (`append`: `name+=val`), through namerefs, with the variable's attributes applied; an array's element 0. */
  set(name: string, val: string, append = false): void {
    if (name.length >= 6 && DYNAMIC_VARS.has(name) && (this.lostSpecial === undefined || !this.lostSpecial.has(name))) {
      if (IGNORED_ASSIGN.has(name)) return;
      if (name === 'SECONDS') {
        // bash counts on from the assigned number (not a number: 0)
        this.seconds = { at: Date.now(), value: /^\s*[-+]?\d+\s*$/.test(val) ? Number(val) : 0 };
        return;
      }
    }
    if (name === 'RANDOM' && !this.lostSpecial?.has(name)) {
      // assigning RANDOM (an integer variable in bash) seeds bash's generator
      this.rseed = Number(BigInt.asUintN(32, this.host.arith.evalString(val)));
      this.lastRandom = 0;
      return;
    }
    if (name === 'PATH') this.host.commandHash.clear(); // bash forgets remembered commands
    const ref = this.raw(name);
    if (ref?.nameref && ref.str) {
      const t = this.refTarget(name, false);
      if (t && t[1] !== undefined) { this.setElem(t[0], this.host.refSubscript(t[0], t[1]), val, append); return; }
    }
    const v = this.lvalue(name);
    if (v.declOnly) v.declOnly = undefined; // (not adding the property: keeps Var shapes few)
    if (v.readonly) throw new ShellError(`${this.resolveName(name)}: readonly variable`, 1);
    if (v.integer && append) val = String(hardArith(() => BigInt.asIntN(64, this.host.arith.evalString(v.str ?? '0') + this.host.arith.evalString(val)))); // (each on its own, like bash)
    else {
      if (append) val = (v.arr ? v.arr.get(0) ?? '' : v.assoc ? v.assoc.get('0') ?? '' : v.str ?? '') + val;
      val = this.applyAttrs(v, val);
    }
    if (v.arr) v.arr.set(0, val);
    else if (v.assoc) v.assoc.set('0', val);
    else v.str = val;
    if (this.host.opts.allexport) v.exported = true;
    if (name === 'OPTIND') { this.host.optind = Number(val) || 1; this.host.optchar = 0; }
    else if (name.length >= 4 && name.charCodeAt(0) === 76 && LOCALE_VARS.has(name)) this.localeChanged(name);
  }

  /** `name[idx]=val` (`idx`: the key, or the evaluated index as text); a scalar becomes an array. */
  setElem(name: string, idx: string, val: string, append = false): void {
    const v = this.lvalue(name);
    if (v.declOnly) v.declOnly = undefined;
    if (v.readonly) throw new ShellError(`${this.resolveName(name)}: readonly variable`, 1);
    if (v.assoc) {
      v.assoc.set(idx, this.applyAttrs(v, append ? (v.assoc.get(idx) ?? '') + val : val));
      return;
    }
    if (!v.arr) { v.arr = new Map(); if (v.str !== undefined) v.arr.set(0, v.str); v.str = undefined; }
    let i = Number(idx);
    if (i < 0) {
      i = maxKey(v.arr) + 1 + i;
      if (i < 0) throw new ShellError(`${name}[${idx}]: bad array subscript`, 1);
    }
    const cur = v.arr.get(i) ?? '';
    v.arr.set(i, v.integer && append ? String(hardArith(() => BigInt.asIntN(64, this.host.arith.evalString(cur || '0') + this.host.arith.evalString(val)))) : this.applyAttrs(v, append ? cur + val : val));
  }

  /** The indexed array `name` to fill (made one, emptied of any other value, when it is not). */
  lvalueArray(name: string): Map<number, string> {
    const v = this.lvalue(name);
    if (v.declOnly) v.declOnly = undefined;
    if (!v.arr) { v.arr = new Map(); v.str = undefined; v.assoc = undefined; }
    return v.arr;
  }

  /** `unset name`: through namerefs (one to an element unsets the element); a dynamic variable becomes ordinary. */
  unset(name: string): void {
    if (name.length >= 4 && name.charCodeAt(0) === 76 && LOCALE_VARS.has(name)) {
      this.unsetOnly(name);
      this.localeChanged(name);
      return;
    }
    this.unsetOnly(name);
  }

  private unsetOnly(name: string): void {
    if (DYNAMIC_VARS.has(name)) (this.lostSpecial ??= new Set()).add(name);
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const v = this.scopes[i]!.get(name);
      if (v) {
        if (v.readonly) throw new ShellError(`${name}: cannot unset: readonly variable`, 1);
        if (v.nameref && v.str) {
          const t = this.refTarget(name, false);
          if (t && t[1] !== undefined) {
            // a nameref to an element: unset that element
            const a = this.resolve(t[0]);
            const k = this.host.refSubscript(t[0], t[1]);
            if (a?.readonly) throw new ShellError(`${t[0]}: cannot unset: readonly variable`, 1);
            if (k === '@' || k === '*') this.unset(t[0]);
            else if (a?.assoc) a.assoc.delete(k);
            else if (a?.arr) { let n = Number(k); if (n < 0) n += maxKey(a.arr) + 1; a.arr.delete(n); }
            else if (a && Number(k) === 0) a.str = undefined;
          } else if (t) this.unset(t[0]);
          return;
        }
        if (i > 0 && i === this.scopes.length - 1 && v.local) {
          // unsetting a local in its own scope leaves it unset but local
          this.scopes[i]!.set(name, { local: true });
          return;
        }
        this.scopes[i]!.delete(name);
        return;
      }
    }
  }

  /** `unset -n name`: the innermost variable called `name` itself goes (a nameref, not its target). */
  unsetRef(name: string): void {
    for (let i = this.scopes.length - 1; i >= 0; i--) if (this.scopes[i]!.delete(name)) break;
  }

  // ---- arrays ------------------------------------------------------------------------------
  /** `${name[idx]}` (`idx`: the key, or the evaluated index as text; negative counts from the end). */
  getElem(name: string, idx: string): string | undefined {
    if (name === '@' || name === '*') return undefined;
    if (this.isStackVar(name)) { const a = this.host.callStack(name)!; const i = Number(idx); return a[i < 0 ? a.length + i : i]; }
    const v = this.resolve(name);
    if (v?.assoc) return v.assoc.get(idx);
    let i = Number(idx);
    if (v?.arr && !v.declOnly) {
      if (i < 0) i = maxKey(v.arr) + 1 + i;
      if (i < 0) this.badSubscript(name);
      return v.arr.get(i);
    }
    if (i < 0) this.badSubscript(name);
    if (!v) return undefined;
    if (i === 0) return v.str;
    return undefined;
  }
  /** bash's warning for reading a negative subscript before the first element (the value is unset). */
  private badSubscript(name: string): void {
    void this.host.err(`${name}: bad array subscript`);
  }

  /** `${!name[@]}`: the keys, in bash's order. */
  arrayKeys(name: string): string[] {
    if (this.isStackVar(name)) return this.host.callStack(name)!.map((_, i) => String(i));
    const v = this.resolve(name);
    if (!v) return [];
    if (v.assoc) return assocOrder(v.assoc).map((e) => e[0]);
    if (v.arr) return [...v.arr.keys()].sort((a, b) => a - b).map(String);
    return v.str === undefined ? [] : ['0'];
  }

  /** `${name[@]}`: the values, in bash's order (a scalar's one value). */
  arrayValues(name: string): string[] {
    if (this.isStackVar(name)) return this.host.callStack(name)!;
    const v = this.resolve(name);
    if (!v) return [];
    if (v.assoc) return assocOrder(v.assoc).map((e) => e[1]);
    if (v.arr) {
      // (elements added in index order, the usual case, need no sort)
      let last = -1, sorted = true;
      for (const k of v.arr.keys()) { if (k < last) { sorted = false; break; } last = k; }
      return sorted ? [...v.arr.values()] : [...v.arr.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
    }
    return v.str === undefined ? [] : [v.str];
  }

  /** `${#a[@]}` of an existing array without listing its values; undefined: take arrayValues' way. */
  elementCount(name: string): number | undefined {
    if (this.isStackVar(name)) return undefined;
    // (a nameref takes the general path: one to `a[@]` or `a[i]` counts as bash counts it)
    if (this.raw(name)?.nameref) return undefined;
    const v = this.resolve(name);
    if (!v || v.declOnly) return undefined;
    return v.assoc ? v.assoc.size : v.arr ? v.arr.size : undefined;
  }

  /** An array's elements as [key, value] in bash's order (`${a[@]@K}`); undefined for a non-array. */
  keyedPairs(name: string): [string, string][] | undefined {
    const v = this.resolve(name);
    if (v?.arr) return [...v.arr.entries()].sort((a, b) => a[0] - b[0]).map(([k, x]) => [String(k), x]);
    if (v?.assoc) return assocOrder(v.assoc);
    return undefined;
  }

  // ---- listing -----------------------------------------------------------------------------
  /** Names of the set variables (with `all`, also those declared without a value; with `exported`, only exported ones), each once. */
  names(all = false, exported = false): string[] {
    const s = new Set<string>();
    for (const sc of this.scopes) for (const [k, v] of sc) if ((all || v.str !== undefined || v.arr || v.assoc) && (!exported || v.exported)) s.add(k);
    return [...s];
  }

  /** The attribute letters of `name` (`raw`: of a nameref itself), as `declare` shows them. */
  attrString(name: string, raw = false): string { return attrString(this, name, raw); }

  /** `declare -p name`'s line (without the newline); '' when there is no such variable. */
  declareLine(name: string): string { return declareLine(this, this.host, name); }

  // ---- locale ------------------------------------------------------------------------------
  /** After an assignment to or unset of LANG or an LC_ variable: bash's setlocale and its warning (locale.ts). */
  localeChanged(name: string): void { localeChanged(this, this.host, name); }
  /** The warning bash gives at its start for an LC_ALL naming no locale. */
  startupLocale(): void { startupLocale(this, this.host); }
  /** Whether the character type locale is UTF-8 (and exists): characters are counted, cut and matched by it. */
  utf8Locale(): boolean { return utf8Locale(this); }
  /** Whether that locale's name has a UTF-8 codeset, installed or not (`\u` escapes). */
  utf8Escapes(): boolean { return utf8Escapes(this); }

  // ---- $_ ----------------------------------------------------------------------------------
  /**
   * `$_`, set here as a command starts (bash sets it as the command ends: `prevLastArg` is what
   * bash's `_` still holds meanwhile). A `_` from the environment stays exported through the
   * first command, as bash's does until it sets `_` after it.
   */
  get lastArg(): string { return this.lastArgValue; }
  set lastArg(v: string) {
    this.prevLastArg = this.lastArgValue;
    this.lastArgValue = v;
    if (this.envUnderscore > 0 && --this.envUnderscore === 0 && this.scopes[0]!.get('_')?.exported) this.scopes[0]!.delete('_');
  }
  private lastArgValue = '';
  prevLastArg = '';
  /** `_` came from the environment: the sets of `$_` left before it goes (see lastArg). */
  envUnderscore = 0;

  // ---- the environment ---------------------------------------------------------------------
  /** Environment for child processes (exported variables), as UTF-8 strings (`bytes`: as the shell's byte strings). */
  environ(extra?: Map<string, string>, bytes = false): Record<string, string> {
    const enc = bytes ? (s: string): string => s : fromBytes;
    const env: Record<string, string> = {};
    // (first, as bash keeps them at the front of the environment it passes on)
    for (const [k, v] of this.foreignEnv) env[enc(k)] = enc(v);
    const seen = new Set<string>();
    // (in bash's order: innermost scope first, each in its hash table's order: 1024 buckets for
    // the global variables, 4 for a function's or a command's prefix assignments)
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const sc = this.scopes[i]!;
      for (const [k, v] of sc.size > 1 ? bucketOrder(sc, i === 0 ? 1024 : 4) : sc) {
        if (seen.has(k)) continue;
        seen.add(k);
        if (!v.exported) continue;
        const val = v.arr ? v.arr.get(0) : v.assoc ? undefined : k === 'SHELLOPTS' || k === 'BASHOPTS' ? this.param(k) : v.str;
        if (val === undefined || v.arr || v.assoc) continue;
        env[enc(k)] = enc(val);
      }
    }
    // (then the exported functions)
    this.host.exportFunctions(env, enc);
    if (extra) for (const [k, v] of extra) env[enc(k)] = enc(v);
    return env;
  }
}
