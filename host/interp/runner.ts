// The evaluator: shell state (variables, functions, options, fds, cwd) and execution of
// statements and commands. Expansion lives in expand.ts, builtins in builtins.ts, external
// processes in exec.ts, private commands in registry.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  Tok, type ArithmExpr, type Assign, type CallExpr, type CaseClause, type Command, type File, type ForClause,
  type ProcSubst, type Redirect, type Stmt, type TestExpr, type Word, type WordPart,
} from './ast.ts';
import { Arith, ArithError } from './arith.ts';
import { Expander, shellQuote } from './expand.ts';
import { ExitSignal, LoopSignal, ReturnSignal, ShellError } from './errors.ts';
import { FdTable, OsFd, isSigPipe, makeFifoPath, makePipe, openFile, readAll, writeAll } from './io.ts';
import { matchPattern } from './pattern.ts';
import { parse, ParseError } from './parser.ts';
import { builtins, specialBuiltins, declClause, readLine } from './builtins.ts';
import { runExternal, lookPath } from './exec.ts';
import { getPrivateCommand, PrivateContextImpl, type PrivateCommand } from './registry.ts';
import { evalTest, testTrace } from './test.ts';
import { printCommand, printFunction } from './printer.ts';

export interface Var {
  str?: string | undefined;
  arr?: Map<number, string>;
  assoc?: Map<string, string>;
  exported?: boolean; readonly?: boolean; integer?: boolean; lower?: boolean; upper?: boolean; nameref?: boolean;
  local?: boolean;
}

export interface Options {
  errtrace?: boolean;
  errexit: boolean; nounset: boolean; xtrace: boolean; pipefail: boolean; noglob: boolean; noexec: boolean;
  noclobber: boolean; allexport: boolean; verbose: boolean; posix: boolean;
}

export const optionLetters: Record<string, keyof Options> = {
  e: 'errexit', E: 'errtrace', u: 'nounset', x: 'xtrace', f: 'noglob', n: 'noexec', C: 'noclobber', a: 'allexport', v: 'verbose',
};

export interface Job { id: number; pid: number; done: Promise<number>; status?: number; reaped?: boolean; num?: number; cmd?: string }

export interface SourceInfo { src: string; lines: number[]; name: string }

let jobSeq = 0;
let fakePid = 0;

function cloneVar(v: Var): Var {
  const n: Var = { ...v };
  if (v.arr) n.arr = new Map(v.arr);
  if (v.assoc) n.assoc = new Map(v.assoc);
  return n;
}

export function toBytes(s: string): string { return Buffer.from(s, 'utf8').toString('latin1'); }
export function fromBytes(s: string): string { return Buffer.from(s, 'latin1').toString('utf8'); }

export class Shell {
  scopes: Map<string, Var>[] = [new Map()];
  funcs = new Map<string, Stmt>();
  /** Source text each function was parsed from (for printing it). */
  funcSrc = new Map<string, string>();
  aliases = new Map<string, string>();
  params: string[] = [];
  arg0 = 'bash';
  /** Name used as prefix of error messages (`$0` for -c, the script path for files). */
  errName = 'bash';
  cwd = process.cwd();
  fds = new FdTable();
  status = 0;
  opts: Options = { errexit: false, nounset: false, xtrace: false, pipefail: false, noglob: false, noexec: false, noclobber: false, allexport: false, verbose: false, posix: false };
  shopt = new Set<string>(['extquote', 'sourcepath', 'progcomp', 'promptvars', 'cmdhist', 'complete_fullquote', 'interactive_comments', 'hostcomplete', 'force_fignore', 'checkwinsize', 'globasciiranges', 'patsub_replacement', 'globskipdots']);
  traps = new Map<string, string>();
  jobs: Job[] = [];
  /** Runs as an asynchronous job: bash reports no `Terminated` for its commands. */
  inBackground = false;
  /** The parent's background jobs, still listed by `jobs` in a subshell (like bash). */
  inheritedJobs: Job[] = [];
  lastBgPid = 0;
  noErrexit = 0;
  funcDepth = 0;
  loopDepth = 0;
  subshell = 0;
  bashpid = process.pid;
  dirStack: string[] = [];
  source: SourceInfo = { src: '', lines: [0], name: 'bash' };
  curPos = 0;
  funcNames: string[] = [];
  /** Line of each function call (parallel to funcNames), for BASH_LINENO/caller. */
  funcLines: number[] = [];
  /** `ulimit` settings made by the script (letter → [soft, hard]); Node cannot call setrlimit. */
  ulimits = new Map<string, [string, string]>();

  /** bash's FUNCNAME/BASH_SOURCE/BASH_LINENO views (index 0 = innermost frame). */
  callStack(name: string): string[] | undefined {
    const file = !this.cMode;
    const depth = this.funcNames.length;
    if (name === 'FUNCNAME') return depth === 0 ? [] : [...this.funcNames.slice().reverse(), ...(file ? ['main'] : [])];
    if (name === 'BASH_LINENO') return [...this.funcLines.slice().reverse().map(String), ...(file ? ['0'] : [])];
    if (name === 'BASH_SOURCE') return [...this.funcNames.map(() => (file ? this.arg0 : 'environment')), ...(file ? [this.arg0] : [])];
    return undefined;
  }
  private isStackVar(name: string): boolean {
    return (name === 'FUNCNAME' || name === 'BASH_SOURCE' || name === 'BASH_LINENO') && !this.getVarRaw(name);
  }
  startTime = Date.now();
  /** Live external processes (for cancellation). */
  children = new Set<number>();
  /** Process groups created for external commands (descendants may outlive the leader). */
  groups = new Set<number>();
  /** Exit status once cancelled (128+signal), shared with subshells through `cancel`. */
  cancelStatus = { value: 0 };
  procGroups = false;
  cancel = new AbortController();
  optind = 1; optchar = 0;
  readonly ex: Expander;
  readonly arith: Arith;

  constructor() {
    this.ex = new Expander(this);
    this.arith = new Arith({
      get: (n, i) => (i === undefined ? this.specialOrVar(n) : this.getElem(n, i)),
      set: (n, i, v) => { if (i === undefined) this.setVar(n, String(v)); else this.setElem(n, i, String(v)); },
      isAssoc: (n) => !!this.resolveVar(n)?.assoc,
      nounset: (n) => { if (this.opts.nounset) throw new ShellError(`${n}: unbound variable`, 127, true); },
      expandWord: (w) => this.ex.literal(w, 'none'),
    });
  }

  get posix(): boolean { return this.opts.posix; }

  // ---- variables -----------------------------------------------------------------------------
  getVarRaw(name: string): Var | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const v = this.scopes[i]!.get(name);
      if (v) return v;
    }
    return undefined;
  }

  resolveVar(name: string): Var | undefined {
    let v = this.getVarRaw(name);
    for (let n = 0; v?.nameref && v.str && n < 10; n++) {
      const t = v.str.replace(/\[.*$/, '');
      v = this.getVarRaw(t);
    }
    return v;
  }

  resolveName(name: string): string {
    let v = this.getVarRaw(name);
    let n = name;
    for (let k = 0; v?.nameref && v.str && k < 10; k++) { n = v.str; v = this.getVarRaw(n.replace(/\[.*$/, '')); }
    return n;
  }

  getVar(name: string): string | undefined {
    const v = this.resolveVar(name);
    if (!v) return undefined;
    if (v.arr) return v.arr.get(0);
    if (v.assoc) return v.assoc.get('0');
    return v.str;
  }

  specialOrVar(name: string): string | undefined {
    const c = name.charCodeAt(0);
    if (c >= 48 && c <= 57) {
      const n = Number(name);
      if (n === 0) return this.arg0;
      return this.params[n - 1];
    }
    switch (name) {
      case '?': return String(this.status);
      case '#': return String(this.params.length);
      case '$': return String(process.pid);
      case '!': return this.lastBgPid ? String(this.lastBgPid) : undefined;
      case '-': return this.flagString();
      case '@': case '*': return this.params.join(name === '*' ? (this.getVar('IFS') ?? ' ').slice(0, 1) : ' ');
      case 'RANDOM': { const v = this.getVarRaw('RANDOM'); if (!v || v.str !== undefined && v.str !== '\0rand') return v ? this.getVar(name) : String(Math.floor(Math.random() * 32768)); return String(Math.floor(Math.random() * 32768)); }
      case 'LINENO': return String(this.lineOf(this.curPos));
      case 'SECONDS': if (!this.getVarRaw('SECONDS')) return String(Math.floor((Date.now() - this.startTime) / 1000)); break;
      case 'BASHPID': return String(this.bashpid);
      case 'BASH_SUBSHELL': return String(this.subshell);
      case 'SHELLOPTS': {
        const o = this.opts;
        const on = ['braceexpand', o.errexit && 'errexit', o.errtrace && 'errtrace', 'hashall', 'interactive-comments', o.allexport && 'allexport', o.noclobber && 'noclobber',
          o.noexec && 'noexec', o.noglob && 'noglob', o.nounset && 'nounset', o.pipefail && 'pipefail', o.posix && 'posix', o.verbose && 'verbose', o.xtrace && 'xtrace'];
        return on.filter(Boolean).sort().join(':');
      }
      case 'BASHOPTS': return [...this.shopt].sort().join(':');
      case 'FUNCNAME': case 'BASH_SOURCE': case 'BASH_LINENO': if (this.isStackVar(name)) return this.callStack(name)![0]; break;
      case 'BASH_COMMAND': if (!this.getVarRaw(name)) return this.curCmd ? printCommand(this.curCmd[0], this.curCmd[1]) : ''; break;
      case 'EPOCHSECONDS': return String(Math.floor(Date.now() / 1000));
      case '_': return this.lastArg;
    }
    return this.getVar(name);
  }

  flagString(): string {
    let s = '';
    const o = this.opts;
    if (o.allexport) s += 'a';
    if (o.errexit) s += 'e';
    if (o.noglob) s += 'f';
    s += 'h';
    if (o.noexec) s += 'n';
    if (o.nounset) s += 'u';
    if (o.verbose) s += 'v';
    if (o.xtrace) s += 'x';
    s += 'B';
    if (o.noclobber) s += 'C';
    if (o.errtrace) s += 'E';
    if (this.cMode && !this.noC) s += 'c';
    return s;
  }

  checkWritable(name: string): void {
    const v = this.resolveVar(name);
    if (v?.readonly) throw new ShellError(`${name}: readonly variable`, 1);
  }

  private applyAttrs(v: Var, val: string): string {
    if (v.integer) val = String(this.arith.evalString(val));
    if (v.lower) val = val.toLowerCase();
    if (v.upper) val = val.toUpperCase();
    return val;
  }

  /** Finds (or creates in the global scope) the variable to assign. */
  private lvalue(name: string): Var {
    let n = name;
    let v = this.getVarRaw(n);
    for (let k = 0; v?.nameref && v.str && k < 10; k++) {
      n = v.str;
      const m = /^(.*)\[(.*)\]$/.exec(n);
      if (m) n = m[1]!;
      v = this.getVarRaw(n);
    }
    if (v) return v;
    v = {};
    if (this.opts.allexport) v.exported = true;
    this.scopes[0]!.set(n, v);
    return v;
  }

  setVar(name: string, val: string, append = false): void {
    if (name === 'RANDOM') { return; }
    const ref = this.getVarRaw(name);
    if (ref?.nameref && ref.str && /\[/.test(ref.str)) {
      const m = /^(.*)\[(.*)\]$/.exec(ref.str)!;
      this.setElem(m[1]!, m[2]!, val, append);
      return;
    }
    const v = this.lvalue(name);
    if (v.readonly) throw new ShellError(`${name}: readonly variable`, 1);
    if (v.integer && append) val = String(this.arith.evalString(`(${v.str ?? '0'})+(${val})`));
    else {
      if (append) val = (v.arr ? v.arr.get(0) ?? '' : v.assoc ? v.assoc.get('0') ?? '' : v.str ?? '') + val;
      val = this.applyAttrs(v, val);
    }
    if (v.arr) v.arr.set(0, val);
    else if (v.assoc) v.assoc.set('0', val);
    else v.str = val;
    if (this.opts.allexport) v.exported = true;
    if (name === 'OPTIND') { this.optind = Number(val) || 1; this.optchar = 0; }
  }

  lastArg = '';

  getElem(name: string, idx: string): string | undefined {
    if (name === '@' || name === '*') return undefined;
    if (this.isStackVar(name)) { const a = this.callStack(name)!; const i = Number(idx); return a[i < 0 ? a.length + i : i]; }
    const v = this.resolveVar(name);
    if (!v) return undefined;
    if (v.assoc) return v.assoc.get(idx);
    let i = Number(idx);
    if (v.arr) {
      if (i < 0) { const keys = [...v.arr.keys()]; const max = keys.length ? Math.max(...keys) : -1; i = max + 1 + i; }
      return v.arr.get(i);
    }
    if (i === 0 || i === -1) return v.str;
    return undefined;
  }

  setElem(name: string, idx: string, val: string, append = false): void {
    const v = this.lvalue(name);
    if (v.readonly) throw new ShellError(`${name}: readonly variable`, 1);
    if (v.assoc) {
      v.assoc.set(idx, this.applyAttrs(v, append ? (v.assoc.get(idx) ?? '') + val : val));
      return;
    }
    if (!v.arr) { v.arr = new Map(); if (v.str !== undefined) v.arr.set(0, v.str); v.str = undefined; }
    let i = Number(idx);
    if (i < 0) {
      const keys = [...v.arr.keys()];
      const max = keys.length ? Math.max(...keys) : -1;
      i = max + 1 + i;
      if (i < 0) throw new ShellError(`${name}[${idx}]: bad array subscript`, 1);
    }
    const cur = v.arr.get(i) ?? '';
    v.arr.set(i, v.integer && append ? String(this.arith.evalString(`(${cur || '0'})+(${val})`)) : this.applyAttrs(v, append ? cur + val : val));
  }

  lvalueArray(name: string): Map<number, string> {
    const v = this.lvalue(name);
    if (!v.arr) { v.arr = new Map(); v.str = undefined; v.assoc = undefined; }
    return v.arr;
  }

  unsetVar(name: string): void {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const v = this.scopes[i]!.get(name);
      if (v) {
        if (v.readonly) throw new ShellError(`${name}: cannot unset: readonly variable`, 1);
        if (v.nameref && v.str) { this.unsetVar(v.str); return; }
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

  arrayKeys(name: string): string[] {
    if (this.isStackVar(name)) return this.callStack(name)!.map((_, i) => String(i));
    const v = this.resolveVar(name);
    if (!v) return [];
    if (v.assoc) return assocOrder(v.assoc).map((e) => e[0]);
    if (v.arr) return [...v.arr.keys()].sort((a, b) => a - b).map(String);
    return v.str === undefined ? [] : ['0'];
  }

  arrayValues(name: string): string[] {
    if (this.isStackVar(name)) return this.callStack(name)!;
    const v = this.resolveVar(name);
    if (!v) return [];
    if (v.assoc) return assocOrder(v.assoc).map((e) => e[1]);
    if (v.arr) return [...v.arr.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
    return v.str === undefined ? [] : [v.str];
  }

  varNames(): string[] {
    const s = new Set<string>();
    for (const sc of this.scopes) for (const [k, v] of sc) if (v.str !== undefined || v.arr || v.assoc) s.add(k);
    return [...s];
  }

  async subscriptText(name: string, idx: ArithmExpr): Promise<string> {
    const p0 = idx.type === 'Word' && idx.Parts.length === 1 ? idx.Parts[0] : undefined;
    if (p0 && p0.type === 'Lit' && (p0.Value === '@' || p0.Value === '*')) return p0.Value;
    const v = this.resolveVar(name);
    if (v?.assoc) {
      if (idx.type === 'Word') return this.ex.literal(idx, 'none');
      const text = arithSource(this.source.src, idx);
      if (text !== undefined) return text;
      return String(await this.arithAst(idx));
    }
    return String(await this.arithAst(idx));
  }

  attrString(name: string): string {
    const v = this.resolveVar(name);
    if (!v) return '';
    let s = '';
    if (v.arr) s += 'a';
    if (v.assoc) s += 'A';
    if (v.integer) s += 'i';
    if (v.lower) s += 'l';
    if (v.nameref) s += 'n';
    if (v.readonly) s += 'r';
    if (v.upper) s += 'u';
    if (v.exported) s += 'x';
    return s;
  }

  declareLine(name: string): string {
    const v = this.getVarRaw(name);
    if (!v) return '';
    const flags = this.attrString(name) || '-';
    const f = flags === '-' ? '--' : '-' + flags;
    if (v.arr) {
      const items = [...v.arr.entries()].sort((a, b) => a[0] - b[0]).map(([k, x]) => `[${k}]=${dq(x)}`);
      return `declare ${f} ${name}=(${items.join(' ')})`;
    }
    if (v.assoc) {
      const items = assocOrder(v.assoc).map(([k, x]) => `[${/^[a-zA-Z0-9_]+$/.test(k) ? k : dq(k)}]=${dq(x)}`);
      return `declare ${f} ${name}=(${items.join(' ')}${items.length ? ' ' : ''})`;
    }
    if (v.str === undefined) return `declare ${f} ${name}`;
    return `declare ${f} ${name}=${dq(v.str)}`;
  }

  userHome(user: string): string | undefined {
    try {
      const pw = fs.readFileSync('/etc/passwd', 'latin1');
      for (const line of pw.split('\n')) {
        const f = line.split(':');
        if (f[0] === user && f[5] !== undefined) return f[5];
      }
    } catch { /* ignore */ }
    return undefined;
  }

  /** Environment for child processes (exported variables), as UTF-8 strings. */
  environ(extra?: Map<string, string>): Record<string, string> {
    const env: Record<string, string> = {};
    const seen = new Set<string>();
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      for (const [k, v] of this.scopes[i]!) {
        if (seen.has(k)) continue;
        seen.add(k);
        if (!v.exported) continue;
        const val = v.arr ? v.arr.get(0) : v.assoc ? undefined : v.str;
        if (val === undefined || v.arr || v.assoc) continue;
        env[fromBytes(k)] = fromBytes(val);
      }
    }
    if (extra) for (const [k, v] of extra) env[fromBytes(k)] = fromBytes(v);
    return env;
  }

  // ---- positions and errors -----------------------------------------------------------------
  lineOf(pos: number): number {
    const l = this.source.lines;
    let lo = 0, hi = l.length - 1;
    while (lo < hi) { const m = (lo + hi + 1) >> 1; if (l[m]! <= pos) lo = m; else hi = m - 1; }
    return lo + 1;
  }

  setSource(src: string, name: string): void {
    const lines = [0];
    for (let i = 0; i < src.length; i++) if (src.charCodeAt(i) === 10) lines.push(i + 1);
    this.source = { src, lines, name };
  }

  /** Writes an error message like bash: `name: line N: msg`. */
  async err(msg: string): Promise<void> {
    const line = this.lineOf(this.curPos);
    // bash names the source of functions defined in a -c string "environment"
    const name = this.funcDepth > 0 && this.cMode && this.sourcing === 0 ? 'environment' : this.errName;
    await this.writeFd(2, `${name}: line ${line}: ${msg}\n`).catch(() => undefined);
  }
  cMode = false;
  noC = false;
  traceLevel = 1;

  async writeFd(n: number, data: string | Buffer): Promise<void> {
    await writeAll(this.fds.get(n), data);
  }

  // ---- subshells -------------------------------------------------------------------------
  clone(): Shell {
    const s = new Shell();
    s.scopes = this.scopes.map((sc) => { const m = new Map<string, Var>(); for (const [k, v] of sc) m.set(k, cloneVar(v)); return m; });
    s.funcs = new Map(this.funcs);
    s.funcSrc = this.funcSrc;
    s.aliases = new Map(this.aliases);
    s.params = this.params.slice();
    s.arg0 = this.arg0; s.errName = this.errName; s.cwd = this.cwd; s.status = this.status;
    s.opts = { ...this.opts }; s.shopt = new Set(this.shopt);
    s.traps = new Map([...this.traps].filter(([k]) => k !== 'EXIT' && k !== 'DEBUG' && (k !== 'ERR' || this.opts.errtrace)));
    s.curCmd = this.curCmd;
    s.lastBgPid = this.lastBgPid; s.funcDepth = this.funcDepth; s.loopDepth = 0; s.subshell = this.subshell + 1;
    s.bashpid = process.pid + 1000 + (++fakePid); s.dirStack = this.dirStack.slice(); s.source = this.source; s.curPos = this.curPos;
    s.funcNames = this.funcNames.slice(); s.inheritedJobs = [...this.inheritedJobs, ...this.jobs]; s.inBackground = this.inBackground; s.funcLines = this.funcLines.slice(); s.ulimits = new Map(this.ulimits); s.startTime = this.startTime; s.children = this.children; s.groups = this.groups; s.procGroups = this.procGroups; s.cancel = this.cancel; s.cancelStatus = this.cancelStatus;
    s.noErrexit = this.noErrexit; s.cMode = this.cMode; s.traceLevel = this.traceLevel;
    s.fds = this.fds.clone();
    return s;
  }

  async runSubshell(fn: (s: Shell) => Promise<number>, sub?: Shell): Promise<number> {
    const s = sub ?? this.clone();
    let st: number;
    try {
      st = await fn(s);
    } catch (e) {
      st = s.handleTopError(e);
    }
    st = await s.runExitTrap(st);
    s.fds.releaseAll();
    return st;
  }

  handleTopError(e: unknown): number {
    if (e instanceof ExitSignal) return e.status;
    if (e instanceof ReturnSignal) return e.status;
    if (e instanceof LoopSignal) return this.status;
    if (isSigPipe(e)) return 141;
    if (e instanceof ShellError) {
      // message already printed by the statement runner
      return e.status;
    }
    throw e;
  }

  async runExitTrap(st: number): Promise<number> {
    const t = this.traps.get('EXIT');
    if (t === undefined) return st;
    this.traps.delete('EXIT');
    this.status = st;
    this.trapDepth++;
    try {
      await this.evalString(t, 'trap');
    } catch (e) {
      if (e instanceof ExitSignal) return e.status;
    } finally { this.trapDepth--; }
    return st;
  }

  // ---- top level -------------------------------------------------------------------------
  async runFile(f: File): Promise<number> {
    let st = 0;
    try {
      let line = -1;
      for (const s of f.Stmts) {
        const l = this.lineOf(s.Position);
        if (l !== line) { line = l; this.aliasSnapshot = this.aliases.size ? new Map(this.aliases) : undefined; }
        st = await this.stmt(s);
      }
      this.aliasSnapshot = undefined;
    } catch (e) {
      st = this.handleTopError(e);
    }
    st = await this.runExitTrap(st);
    await this.waitAll();
    return st;
  }

  async waitAll(): Promise<void> {
    for (const j of this.jobs) await j.done.catch(() => undefined);
  }

  async evalString(src: string, name: string): Promise<number> {
    let f: File;
    const prevSrc = this.source;
    try {
      f = parse(fromBytes(src), this.posix);
    } catch (e) {
      if (e instanceof ParseError) {
        await this.err(`${name}: ${e.message}`.replace(/^eval: /, ''));
        return 2;
      }
      throw e;
    }
    this.setSource(src, prevSrc.name);
    try {
      return await this.stmts(f.Stmts);
    } finally {
      this.source = prevSrc;
    }
  }

  // ---- statements ------------------------------------------------------------------------
  async stmts(list: Stmt[]): Promise<number> {
    let st = 0;
    for (const s of list) st = await this.stmt(s);
    return st;
  }

  async stmt(st: Stmt): Promise<number> {
    if (this.cancel.signal.aborted) throw new ExitSignal(this.cancelStatus.value || 130);
    this.curPos = st.Position;
    if (st.Background) {
      await this.background(st);
      this.status = 0;
      return 0;
    }
    if (st.Cmd && tracedCmd.has(st.Cmd.type)) {
      if (this.trapDepth === 0) this.curCmd = [this.source.src, st];
      if (this.traps.has('DEBUG')) await this.debugTrap();
    }
    let status: number;
    if (st.Negated) this.noErrexit++;
    const psf = this.procSubstCleanups.length;
    try {
      status = await this.stmtInner(st);
    } catch (e) {
      if (e instanceof ShellError) {
        await this.err(e.message);
        if (e.fatal) throw new ExitSignal(e.status);
        status = e.status;
      } else if (e instanceof ArithError) {
        const tok = e.token !== undefined ? ` (error token is "${e.token}")` : '';
        await this.err(e.expr ? `${e.expr}: ${e.message}${tok}` : e.message + tok);
        if (st.Cmd?.type === 'ArithmCmd' || st.Cmd?.type === 'LetClause') status = 1;
        else throw new ExitSignal(1);
      } else if (e instanceof ExitSignal || e instanceof ReturnSignal || e instanceof LoopSignal || isSigPipe(e)) {
        throw e;
      } else {
        // never let an internal error escape as a crash of the worker
        await this.err(`internal error: ${(e as Error)?.message ?? String(e)}`);
        if (process.env['HPATCH_INTERP_DEBUG']) console.error(e);
        status = 1;
      }
    } finally {
      if (st.Negated) this.noErrexit--;
      this.releaseProcSubst(psf);
    }
    if (st.Cmd && st.Cmd.type !== 'BinaryCmd' && errexitApplies(st.Cmd)) this.setPipestatus([status]);
    if (st.Negated) status = status === 0 ? 1 : 0;
    this.status = status;
    if (status !== 0 && !st.Negated && this.noErrexit === 0 && st.Cmd && errexitApplies(st.Cmd)) {
      await this.errTrap();
      if (this.opts.errexit) throw new ExitSignal(status);
    }
    return status;
  }

  async errTrap(): Promise<void> {
    const t = this.traps.get('ERR');
    if (t === undefined || this.inErrTrap) return;
    if (this.funcDepth > 0 && !this.opts.errtrace) return; // not inherited without set -E
    this.inErrTrap = true;
    const saved = this.status;
    this.trapDepth++;
    try { await this.evalString(t, 'trap'); } finally { this.inErrTrap = false; this.status = saved; this.trapDepth--; }
  }
  inErrTrap = false;

  /** Runs the RETURN trap (end of a function or a sourced file); $? is preserved. */
  async returnTrap(): Promise<void> {
    const t = this.traps.get('RETURN');
    if (t === undefined || this.inReturnTrap) return;
    this.inReturnTrap = true;
    const saved = this.status;
    this.trapDepth++;
    try { await this.evalString(t, 'trap'); } finally { this.inReturnTrap = false; this.status = saved; this.trapDepth--; }
  }
  inReturnTrap = false;

  /** The command being run, for $BASH_COMMAND: [source text, statement]. */
  curCmd: [string, Stmt] | undefined;

  /** Runs the DEBUG trap before a simple command, `[[`, `((`; $? is preserved. */
  async debugTrap(): Promise<void> {
    const t = this.traps.get('DEBUG');
    if (t === undefined || this.inDebugTrap) return;
    this.inDebugTrap = true;
    const saved = this.status;
    const savedPos = this.curPos;
    this.trapDepth++;
    try { await this.evalString(t, 'trap'); } finally { this.inDebugTrap = false; this.status = saved; this.curPos = savedPos; this.trapDepth--; }
  }
  inDebugTrap = false;
  /** Traps running: $BASH_COMMAND keeps the command that triggered them. */
  trapDepth = 0;
  sourcing = 0;
  onTrapChange: ((sig: string) => void) | undefined;

  functionText(name: string): string {
    const body = this.funcs.get(name);
    if (!body) return '';
    return printFunction(this.funcSrc.get(name) ?? this.source.src, name, body);
  }

  async declClause(c: Extract<Command, { type: 'DeclClause' }>): Promise<number> {
    let variant = c.Variant.Value;
    if (variant === 'nameref') variant = 'declare';
    if (this.opts.xtrace) await this.trace([variant]);
    return declClause(this, c.Variant.Value === 'nameref' ? 'declare' : variant, c.Variant.Value === 'nameref' ? [{ type: 'Assign', Append: false, Naked: true, Name: null, Index: null, Value: { type: 'Word', Parts: [{ type: 'Lit', ValuePos: 0, ValueEnd: 0, Value: '-n' }] }, Array: null }, ...c.Args] : c.Args);
  }

  private async stmtInner(st: Stmt): Promise<number> {
    if (!st.Cmd) {
      return this.withRedirs(st.Redirs, async () => 0, true);
    }
    if (st.Redirs.length === 0) return this.cmd(st.Cmd);
    // `exec` with only redirections makes them permanent
    const a0 = st.Cmd.type === 'CallExpr' && st.Cmd.Args.length === 1 && st.Cmd.Args[0]!.Parts.length === 1 ? st.Cmd.Args[0]!.Parts[0] : undefined;
    if (a0 && a0.type === 'Lit' && a0.Value === 'exec' && st.Cmd.type === 'CallExpr' && st.Cmd.Assigns.length === 0) {
      await this.applyRedirs(st.Redirs, this.fds);
      return 0;
    }
    return this.withRedirs(st.Redirs, () => this.cmd(st.Cmd!));
  }

  async background(st: Stmt): Promise<void> {
    const sub = this.clone();
    sub.inBackground = true;
    const inner: Stmt = { ...st, Background: false };
    let spawned: (pid: number) => void = () => undefined;
    const first = new Promise<number>((res) => { spawned = res; });
    sub.onSpawn = (pid) => { spawned(pid); sub.onSpawn = undefined; };
    const job: Job = { id: ++jobSeq, pid: 0, done: Promise.resolve(0) };
    job.done = this.runSubshell((s) => s.stmt(inner), sub).then((x) => { job.status = x; return x; });
    job.done.catch(() => undefined);
    const pid = await Promise.race([first, job.done.then(() => 0), new Promise<number>((r) => setTimeout(() => r(0), 30))]);
    job.pid = pid || 200000 + (++fakePid);
    // bash's job number: one more than the highest job still in its table (finished jobs are dropped)
    job.num = 1 + Math.max(0, ...this.jobs.filter((j) => j.num !== undefined && j.status === undefined).map((j) => j.num!));
    job.cmd = this.source.src.slice(st.Position, st.Semicolon).trimEnd();
    this.jobs.push(job);
    this.lastBgPid = job.pid;
  }
  onSpawn: ((pid: number) => void) | undefined;

  async cmd(c: Command): Promise<number> {
    switch (c.type) {
      case 'CallExpr': return this.call(c);
      case 'Block': return this.stmts(c.Stmts);
      case 'Subshell': return this.runSubshell((s) => s.stmts(c.Stmts));
      case 'BinaryCmd': {
        if (c.Op === Tok.andAnd || c.Op === Tok.orOr) {
          this.noErrexit++;
          let x: number;
          try { x = await this.stmt(c.X); } finally { this.noErrexit--; }
          if ((c.Op === Tok.andAnd) === (x === 0)) return this.stmt(c.Y);
          return x;
        }
        return this.pipeline(c);
      }
      case 'IfClause': {
        let cl: typeof c | null = c;
        while (cl) {
          if (cl.Cond.length === 0) return this.stmts(cl.Then); // else branch
          this.noErrexit++;
          let cond: number;
          try { cond = await this.stmts(cl.Cond); } finally { this.noErrexit--; }
          if (cond === 0) return this.stmts(cl.Then);
          cl = cl.Else;
        }
        return 0;
      }
      case 'WhileClause': {
        let st = 0;
        this.loopDepth++;
        try {
          for (;;) {
            this.noErrexit++;
            let cond: number;
            try { cond = await this.stmts(c.Cond); } catch (e) {
              if (e instanceof LoopSignal) { this.noErrexit--; if (await this.loopSignal(e)) break; else { this.noErrexit++; continue; } }
              throw e;
            } finally { this.noErrexit = Math.max(0, this.noErrexit - 1); }
            if ((cond === 0) === c.Until) break;
            try { st = await this.stmts(c.Do); } catch (e) {
              if (e instanceof LoopSignal) { st = 0; if (await this.loopSignal(e)) break; continue; }
              throw e;
            }
          }
        } finally { this.loopDepth--; }
        return st;
      }
      case 'ForClause': return this.forClause(c);
      case 'FuncDecl': {
        this.funcs.set(c.Name.Value, c.Body);
        this.funcSrc.set(c.Name.Value, this.source.src);
        return 0;
      }
      case 'CaseClause': return this.caseClause(c);
      case 'ArithmCmd': {
        let v: bigint;
        if (this.opts.xtrace) await this.traceRaw(`(( ${this.source.src.slice(c.Left + 2, c.Right)} ))`);
        try { v = await this.arithAst(c.X, c.Left + 2, c.Right); } catch (e) {
          if (e instanceof ArithError) { e.expr = '((: ' + e.expr; }
          throw e;
        }
        return v !== 0n ? 0 : 1;
      }
      case 'LetClause': {
        let v = 0n;
        for (const e of c.Exprs) {
          let r = arithRange(this.source.src, e);
          if (r && /^(['"]).*\1$/s.test(this.source.src.slice(r[0], r[1]))) r = [r[0] + 1, r[1] - 1];
          try { v = await this.arithAst(e, r?.[0], r?.[1]); } catch (err) {
            if (err instanceof ArithError && err.expr) err.expr = 'let: ' + err.expr;
            throw err;
          }
        }
        return v !== 0n ? 0 : 1;
      }
      case 'TestClause': {
        if (this.opts.xtrace) await this.traceRaw(`[[ ${await testTrace(this, c.X)} ]]`);
        const r = await evalTest(this, c.X, true);
        return r;
      }
      case 'DeclClause': return this.declClause(c);
      case 'TimeClause': {
        const t0 = process.hrtime.bigint();
        const st = c.Stmt ? await this.stmt(c.Stmt) : 0;
        const dt = Number(process.hrtime.bigint() - t0) / 1e9;
        const fmt = (x: number): string => `${Math.floor(x / 60)}m${(x % 60).toFixed(3)}s`;
        await this.writeFd(2, c.PosixFormat ? `real ${dt.toFixed(2)}\nuser 0.00\nsys 0.00\n` : `\nreal\t${fmt(dt)}\nuser\t0m0.000s\nsys\t0m0.000s\n`);
        return st;
      }
      case 'CoprocClause':
        throw new ShellError('coproc: not supported', 2);
      case 'TestDecl':
        return 0;
    }
  }

  /** Handles break/continue: returns true to break out of this loop. */
  private async loopSignal(e: LoopSignal): Promise<boolean> {
    if (e.levels > 1) { e.levels--; throw e; }
    return e.kind === 'break';
  }

  private async forClause(c: ForClause): Promise<number> {
    let st = 0;
    this.loopDepth++;
    try {
      if (c.Loop.type === 'WordIter') {
        const name = c.Loop.Name.Value;
        const items = c.Loop.InPos ? await this.ex.fields(c.Loop.Items) : this.params.slice();
        if (this.opts.xtrace && !c.Select) await this.traceRaw(`for ${name} in ${items.map(traceWord).join(' ')}`);
        if (c.Select) return await this.selectLoop(name, items, c);
        for (const it of items) {
          this.setVar(name, it);
          try { st = await this.stmts(c.Do); } catch (e) {
            if (e instanceof LoopSignal) { st = 0; if (await this.loopSignal(e)) break; continue; }
            throw e;
          }
        }
        return st;
      }
      const L = c.Loop;
      if (L.Init) await this.arithAst(L.Init);
      for (;;) {
        if (L.Cond && (await this.arithAst(L.Cond)) === 0n) break;
        try { st = await this.stmts(c.Do); } catch (e) {
          if (e instanceof LoopSignal) { st = 0; if (await this.loopSignal(e)) break; }
          else throw e;
        }
        if (L.Post) await this.arithAst(L.Post);
      }
      return st;
    } finally { this.loopDepth--; }
  }

  private async selectLoop(name: string, items: string[], c: ForClause): Promise<number> {
    let st = 0;
    for (;;) {
      let menu = '';
      items.forEach((it, i) => { menu += `${i + 1}) ${it}\n`; });
      await this.writeFd(2, menu + (this.getVar('PS3') ?? '#? '));
      const line = await readLine(this, 0, '\n');
      if (line === null) { await this.writeFd(2, '\n'); return 1; }
      this.setVar('REPLY', line.text);
      const n = Number(line.text.trim());
      this.setVar(name, Number.isInteger(n) && n >= 1 && n <= items.length ? items[n - 1]! : '');
      if (line.text.trim() === '') continue;
      try { st = await this.stmts(c.Do); } catch (e) {
        if (e instanceof LoopSignal) { if (await this.loopSignal(e)) break; continue; }
        throw e;
      }
    }
    return st;
  }

  private async caseClause(c: CaseClause): Promise<number> {
    const w = await this.ex.literal(c.Word);
    let st = 0;
    let fall = false;
    for (let i = 0; i < c.Items.length; i++) {
      const it = c.Items[i]!;
      let match = fall;
      if (!match) {
        for (const p of it.Patterns) {
          const pat = await this.ex.pattern(p);
          if (matchPattern(pat, w, { extglob: true, nocase: this.shopt.has('nocasematch') })) { match = true; break; }
        }
      }
      if (!match) continue;
      st = await this.stmts(it.Stmts);
      if (it.Op === Tok.semiAnd) { fall = true; continue; }
      fall = false;
      if (it.Op === Tok.dblSemiAnd) continue;
      return st;
    }
    return st;
  }

  // ---- pipelines -------------------------------------------------------------------------
  private async pipeline(c: Extract<Command, { type: 'BinaryCmd' }>): Promise<number> {
    const stages: { st: Stmt; all: boolean }[] = [];
    const flatten = (s: Stmt, all: boolean): void => {
      if (s.Cmd && s.Cmd.type === 'BinaryCmd' && (s.Cmd.Op === Tok.or || s.Cmd.Op === Tok.orAnd) && !s.Negated && s.Redirs.length === 0 && !s.Background) {
        flatten(s.Cmd.X, s.Cmd.Op === Tok.orAnd);
        stages.push({ st: s.Cmd.Y, all });
        return;
      }
      stages.unshift({ st: s, all });
    };
    flatten(c.X, c.Op === Tok.orAnd);
    stages.push({ st: c.Y, all: false });
    // stages[i].all: stderr of stage i also goes into the pipe
    const n = stages.length;
    // bash sets $BASH_COMMAND and runs the DEBUG trap in the parent before forking each stage
    for (let i = 0; i < (this.shopt.has('lastpipe') ? n - 1 : n); i++) {
      const sst = stages[i]!.st;
      if (!sst.Cmd || !tracedCmd.has(sst.Cmd.type) || this.trapDepth > 0) continue;
      this.curCmd = [this.source.src, sst];
      if (this.traps.has('DEBUG')) await this.debugTrap();
    }
    const pipes = [];
    for (let i = 0; i < n - 1; i++) pipes.push(makePipe());
    const subs: Shell[] = [];
    for (let i = 0; i < n; i++) {
      const s = this.clone();
      if (i > 0) s.fds.set(0, pipes[i - 1]!.r);
      if (i < n - 1) {
        s.fds.set(1, pipes[i]!.w);
        if (stages[i]!.all) s.fds.set(2, pipes[i]!.w);
      }
      subs.push(s);
    }
    let results: number[];
    if (this.shopt.has('lastpipe')) {
      // the last stage runs in the current shell
      const last = subs[n - 1]!;
      const others = stages.slice(0, -1).map((stg, i) => this.runSubshell((s) => s.stmt(stg.st), subs[i]!));
      const saved = this.fds;
      this.fds = last.fds;
      let lastSt: number;
      try { lastSt = await this.stmt(stages[n - 1]!.st); } finally { this.fds = saved; last.fds.releaseAll(); }
      results = [...(await Promise.all(others)), lastSt];
    } else {
      results = await Promise.all(stages.map((stg, i) => this.runSubshell((s) => s.stmt(stg.st), subs[i]!)));
    }
    this.setPipestatus(results);
    let st = results[n - 1]!;
    if (this.opts.pipefail) { for (let i = n - 1; i >= 0; i--) if (results[i] !== 0) { st = results[i]!; break; } }
    return st;
  }

  setPipestatus(results: number[]): void {
    const v: Var = { arr: new Map(results.map((r, i) => [i, String(r)])) };
    this.scopes[0]!.set('PIPESTATUS', v);
  }

  // ---- substitutions ---------------------------------------------------------------------
  async cmdSubst(stmts: Stmt[]): Promise<string> {
    // $(< file)
    if (stmts.length === 1 && stmts[0]!.Cmd === null && stmts[0]!.Redirs.length === 1 && stmts[0]!.Redirs[0]!.Op === Tok.rdrIn) {
      const p = await this.ex.literal(stmts[0]!.Redirs[0]!.Word);
      try { return fs.readFileSync(this.pathBuf(p)).toString('latin1').replace(/\n+$/, ''); } catch (e: any) {
        await this.err(`${p}: ${errnoMsg(e)}`); return '';
      }
    }
    const p = makePipe();
    const sub = this.clone();
    if (!this.posix && !this.shopt.has('inherit_errexit')) sub.opts.errexit = false;
    sub.traceLevel++;
    sub.fds.set(1, p.w);
    p.w.retain(); p.w.release();
    p.r.retain();
    const reading = readAll(p.r);
    const st = await this.runSubshell((s) => s.stmts(stmts), sub);
    let out = (await reading).toString('latin1');
    p.r.release();
    this.status = st;
    this.lastSubstStatus = st;
    if (out.includes('\0')) {
      // like bash: variables are C strings
      out = out.replace(/\0/g, '');
      await this.err('warning: command substitution: ignored null byte in input').catch(() => undefined);
    }
    return out.replace(/\n+$/, '');
  }
  lastSubstStatus: number | undefined;

  /**
   * `<(cmd)` / `>(cmd)`: a named FIFO (Node cannot make anonymous pipes, and a reopened
   * unlinked FIFO would block once its writer is gone). The subshell opens its end
   * asynchronously, so it cannot finish before the consumer opened the path; when the
   * statement ends, an end nobody opened is unblocked and the FIFO is unlinked.
   */
  async procSubst(p: ProcSubst): Promise<string> {
    const fifo = makeFifoPath();
    const out = p.Op === Tok.cmdOut;
    const sub = this.clone();
    let opened = false;
    const done = new Promise<number>((resolve) => {
      fs.open(fifo, out ? 'r' : 'w', (err, fd) => {
        opened = true;
        if (err) { resolve(1); return; }
        sub.fds.set(out ? 0 : 1, new OsFd(fd, undefined, true, 'procsubst'));
        resolve(this.runSubshell((s) => s.stmts(p.Stmts), sub));
      });
    });
    const job: Job = { id: ++jobSeq, pid: -1, done };
    this.jobs.push(job);
    this.procSubstCleanups.push(() => {
      if (!opened) {
        try {
          const C = fs.constants;
          const fd = fs.openSync(fifo, (out ? C.O_WRONLY : C.O_RDONLY) | C.O_NONBLOCK);
          setTimeout(() => { try { fs.closeSync(fd); } catch { /* */ } }, 0);
        } catch { /* */ }
      }
      try { fs.unlinkSync(fifo); } catch { /* */ }
    });
    return fifo;
  }
  procSubstCleanups: (() => void)[] = [];

  /** Evaluates arithmetic; `start`/`end` locate its source text for error messages. */
  async arithAst(e: ArithmExpr, start?: number, end?: number): Promise<bigint> {
    try {
      return await this.arith.evalAst(e);
    } catch (err) {
      if (err instanceof ArithError && start !== undefined && end !== undefined && !err.expr) {
        const src = this.source.src;
        err.expr = src.slice(start, end);
        if (err.tokenPos !== undefined && err.token === undefined) err.token = src.slice(err.tokenPos, end).replace(/^\s+/, '');
      }
      throw err;
    }
  }

  // ---- redirections ----------------------------------------------------------------------
  pathBuf(p: string): Buffer { return Buffer.from(path.resolve(this.cwd, p), 'latin1'); }

  async withRedirs<T extends number>(redirs: Redirect[], fn: () => Promise<T>, noCmd = false): Promise<number> {
    const saved = this.fds;
    const t = saved.clone();
    try {
      await this.applyRedirs(redirs, t);
    } catch (e) {
      t.releaseAll();
      if (e instanceof ShellError) { await this.err(e.message); return e.status; }
      throw e;
    }
    this.fds = t;
    const psf = this.procSubstCleanups.length;
    try {
      return noCmd ? 0 : await fn();
    } finally {
      this.fds = saved;
      t.releaseAll();
      this.releaseProcSubst(psf);
    }
  }

  releaseProcSubst(from: number): void {
    while (this.procSubstCleanups.length > from) this.procSubstCleanups.pop()!();
  }

  async applyRedirs(redirs: Redirect[], t: FdTable): Promise<void> {
    for (const r of redirs) {
      this.curPos = r.OpPos;
      let fdn: number;
      let varName: string | undefined;
      if (r.N) {
        if (/^\{.*\}$/.test(r.N.Value)) varName = r.N.Value.slice(1, -1);
        fdn = varName ? -1 : Number(r.N.Value);
      } else {
        fdn = r.Op === Tok.rdrIn || r.Op === Tok.rdrInOut || r.Op === Tok.dplIn || r.Op === Tok.hdoc || r.Op === Tok.dashHdoc || r.Op === Tok.wordHdoc ? 0 : 1;
      }
      const alloc = (): number => { let n = 10; while (t.get(n)) n++; return n; };
      const target = async (): Promise<string> => {
        const fields = await this.ex.fields([r.Word!]);
        if (fields.length !== 1) {
          const w = wordSource(this.source.src, r.Word!) ?? await this.ex.literal(r.Word!);
          throw new ShellError(`${w}: ambiguous redirect`, 1);
        }
        return fields[0]!;
      };
      const C = fs.constants;
      const open = async (flags: number): Promise<OsFd> => {
        const p = await target();
        if (this.opts.noclobber && (r.Op === Tok.rdrOut || r.Op === Tok.rdrAll)) {
          try { if (fs.statSync(this.pathBuf(p)).isFile()) throw new ShellError(`${p}: cannot overwrite existing file`, 1); } catch (e) { if (e instanceof ShellError) throw e; }
        }
        try { return openFile(this.pathBuf(p), flags); } catch (e: any) {
          throw new ShellError(`${p}: ${errnoMsg(e)}`, 1);
        }
      };
      const place = (f: OsFd): void => {
        if (varName) { const n = alloc(); t.set(n, f); this.setVar(varName, String(n)); }
        else t.set(fdn, f);
      };
      switch (r.Op) {
        case Tok.rdrOut: case Tok.clbOut: place(await open(C.O_WRONLY | C.O_CREAT | C.O_TRUNC)); break;
        case Tok.appOut: place(await open(C.O_WRONLY | C.O_CREAT | C.O_APPEND)); break;
        case Tok.rdrIn: place(await open(C.O_RDONLY)); break;
        case Tok.rdrInOut: place(await open(C.O_RDWR | C.O_CREAT)); break;
        case Tok.rdrAll: case Tok.appAll: {
          const f = await open(C.O_WRONLY | C.O_CREAT | (r.Op === Tok.appAll ? C.O_APPEND : C.O_TRUNC));
          t.set(1, f); t.set(2, f);
          break;
        }
        case Tok.dplIn: case Tok.dplOut: {
          const w = await this.ex.literal(r.Word);
          if (w === '-') { if (varName) { const n = Number(this.getVar(varName)); t.set(n, undefined); } else t.set(fdn, undefined); break; }
          const m = /^(\d+)(-?)$/.exec(w);
          if (!m) {
            if (r.Op === Tok.dplOut && !r.N) {
              const f = await open(C.O_WRONLY | C.O_CREAT | C.O_TRUNC);
              t.set(1, f); t.set(2, f);
              break;
            }
            throw new ShellError(`${w}: ambiguous redirect`, 1);
          }
          const src = t.get(Number(m[1]));
          if (!src) throw new ShellError(`${m[1]}: Bad file descriptor`, 1);
          place(src);
          if (m[2]) t.set(Number(m[1]), undefined);
          break;
        }
        case Tok.hdoc: case Tok.dashHdoc: case Tok.wordHdoc: {
          let body: string;
          if (r.Op === Tok.wordHdoc) body = (await this.ex.literal(r.Word)) + '\n';
          else {
            const quoted = r.Word!.Parts.some((p) => p.type !== 'Lit') || r.Word!.Parts.some((p) => p.type === 'Lit' && p.Value.includes('\\'));
            if (quoted) body = r.Hdoc ? r.Hdoc.Parts.map((p) => (p.type === 'Lit' ? p.Value : '')).join('') : '';
            else body = await this.ex.heredoc(r.Hdoc);
            if (r.Op === Tok.dashHdoc) body = body.replace(/^\t+/gm, '');
          }
          place(await this.hereDocFd(body));
          break;
        }
        default:
          throw new ShellError('unsupported redirection', 2);
      }
    }
  }

  async hereDocFd(body: string): Promise<OsFd> {
    const buf = Buffer.from(body, 'latin1');
    if (buf.length < 60000) {
      const p = makePipe();
      p.w.retain();
      await writeAll(p.w, buf);
      p.w.release();
      return p.r;
    }
    const tmp = path.join(os.tmpdir(), `hpatch-hdoc-${process.pid}-${++jobSeq}`);
    fs.writeFileSync(tmp, buf, { mode: 0o600 });
    const f = openFile(tmp, fs.constants.O_RDONLY);
    fs.unlinkSync(tmp);
    return f;
  }

  // ---- simple commands -------------------------------------------------------------------
  async assignValue(a: Assign): Promise<void> {
    try {
      await this.assignValue1(a);
    } catch (e) {
      if (e instanceof ShellError && !e.fatal && /readonly variable$/.test(e.message)) throw new ShellError(e.message, 1, true);
      throw e;
    }
  }

  private async assignValue1(a: Assign): Promise<void> {
    const name = a.Name!.Value;
    if (a.Array) {
      await this.assignArray(name, a, false);
      return;
    }
    const val = a.Value ? await this.ex.literal(a.Value, 'assign') : '';
    if (a.Index) {
      const idx = await this.subscriptText(name, a.Index);
      this.setElem(name, idx, val, a.Append);
      return;
    }
    this.setVar(name, val, a.Append);
  }

  async assignArray(name: string, a: Assign, assocHint: boolean): Promise<void> {
    let v = this.resolveVar(name);
    if (v?.readonly) throw new ShellError(`${name}: readonly variable`, 1);
    const isAssoc = !!v?.assoc || assocHint;
    if (isAssoc) {
      const m = a.Append && v?.assoc ? new Map(v.assoc) : new Map<string, string>();
      for (const el of a.Array!.Elems) {
        if (el.Index) {
          const k = el.Index.type === 'Word' ? await this.ex.literal(el.Index, 'none') : String(await this.arithAst(el.Index));
          m.set(k, el.Value ? await this.ex.literal(el.Value) : '');
        }
      }
      if (!v) { v = this.lvalue(name); }
      v.assoc = m; v.arr = undefined; v.str = undefined;
      return;
    }
    const m = a.Append && v?.arr ? new Map(v.arr) : a.Append && v?.str !== undefined ? new Map([[0, v.str]]) : new Map<number, string>();
    let next = m.size ? Math.max(...m.keys()) + 1 : 0;
    for (const el of a.Array!.Elems) {
      if (el.Index) {
        const i = Number(await this.arithAst(el.Index));
        m.set(i, el.Value ? await this.ex.literal(el.Value) : '');
        next = i + 1;
      } else if (el.Value) {
        for (const f of await this.ex.fields([el.Value])) m.set(next++, f);
      }
    }
    if (!v) v = this.lvalue(name);
    const w = this.lvalue(name);
    if (w.integer) for (const [k, x] of m) m.set(k, String(this.arith.evalString(x)));
    w.arr = m; w.assoc = undefined; w.str = undefined;
  }

  /** Alias expansion (only with `shopt -s expand_aliases`, like non-interactive bash). */
  private aliasSource(c: CallExpr): string | undefined {
    if (!this.shopt.has('expand_aliases') || this.aliases.size === 0 || c.Assigns.length) return undefined;
    const w0 = c.Args[0]!;
    const p0 = w0.Parts.length === 1 ? w0.Parts[0] : undefined;
    if (!p0 || p0.type !== 'Lit') return undefined;
    const val = (this.aliasSnapshot ?? this.aliases).get(p0.Value);
    if (val === undefined || this.aliasDepth > 20) return undefined;
    const r0 = wordRange(w0);
    const rl = wordRange(c.Args[c.Args.length - 1]!);
    if (!r0 || !rl) return undefined;
    return val + this.source.src.slice(r0[1], rl[1]);
  }
  aliasDepth = 0;
  /** Aliases as of the start of the current top-level line (bash parses a line before running it). */
  aliasSnapshot: Map<string, string> | undefined;

  private async call(c: CallExpr): Promise<number> {
    this.lastSubstStatus = undefined;
    const aliased = c.Args.length ? this.aliasSource(c) : undefined;
    if (aliased !== undefined) {
      this.aliasDepth++;
      try { return await this.evalString(aliased, 'alias'); } finally { this.aliasDepth--; }
    }
    if (c.Args.length === 0) {
      for (const a of c.Assigns) {
        await this.assignValue(a);
        if (this.opts.xtrace) await this.traceRaw(`${a.Name!.Value}${a.Append ? '+=' : '='}${traceWord(this.getVar(a.Name!.Value) ?? '')}`);
      }
      return this.lastSubstStatus ?? 0;
    }
    const args = await this.ex.fields(c.Args);
    if (args.length) this.lastArg = args[args.length - 1]!;
    if (args.length === 0) {
      for (const a of c.Assigns) await this.assignValue(a);
      return this.lastSubstStatus ?? 0;
    }
    if (this.opts.noexec) return 0;
    // prefix assignments
    let temp: Map<string, Var> | undefined;
    const isSpecial = specialBuiltins.has(args[0]!) && !this.funcs.has(args[0]!);
    if (c.Assigns.length) {
      if (isSpecial && this.posix) {
        for (const a of c.Assigns) await this.assignValue(a);
      } else {
        temp = new Map();
        for (const a of c.Assigns) {
          const name = a.Name!.Value;
          this.checkWritable(name);
          let val = a.Value ? await this.ex.literal(a.Value, 'assign') : '';
          if (a.Append) val = (this.getVar(name) ?? '') + val;
          temp.set(name, { str: val, exported: true });
        }
      }
    }
    if (this.opts.xtrace) await this.trace([...(temp ? [...temp].map(([k, v]) => `${k}=${v.str}`) : []), ...args]);
    if (temp) {
      this.scopes.push(temp);
      try { return await this.callArgs(args, temp); } finally {
        const i = this.scopes.lastIndexOf(temp);
        if (i >= 0) this.scopes.splice(i, 1);
      }
    }
    return this.callArgs(args);
  }

  async trace(words: string[]): Promise<void> {
    await this.traceRaw(words.map(traceWord).join(' '));
  }

  async traceRaw(line: string): Promise<void> {
    const ps4 = this.getVar('PS4') ?? '+ ';
    const prefix = ps4 ? ps4[0]!.repeat(Math.max(0, this.traceLevel - 1)) + ps4 : '';
    await this.writeFd(2, `${prefix}${line}\n`);
  }

  /** Dispatch after expansion: function, builtin, private command, external. */
  async callArgs(args: string[], temp?: Map<string, Var>, opts: { noFunc?: boolean } = {}): Promise<number> {
    const name = args[0]!;
    if (!opts.noFunc) {
      const fn = this.funcs.get(name);
      if (fn) return this.callFunc(name, fn, args.slice(1));
    }
    const b = builtins.get(name);
    if (b) {
      try {
        return await b(this, args);
      } catch (e: any) {
        if (e && typeof e.code === 'string' && (e.code === 'EBADF' || e.code === 'EIO' || e.code === 'ENOSPC')) {
          await this.err(`${name}: write error: ${errnoMsg(e)}`);
          return 1;
        }
        throw e;
      }
    }
    const pc = getPrivateCommand(name);
    if (pc) return this.callPrivate(pc, args);
    return this.external(args, temp);
  }

  async callFunc(name: string, body: Stmt, args: string[]): Promise<number> {
    const savedParams = this.params;
    this.params = args;
    this.scopes.push(new Map());
    this.funcDepth++;
    this.funcNames.push(name);
    this.funcLines.push(this.lineOf(this.curPos));
    const savedLoop = this.loopDepth;
    this.loopDepth = 0;
    // bash: a RETURN trap is not inherited by functions (no functrace); one set inside fires on return
    const savedRet = this.traps.get('RETURN'), savedDebug = this.traps.get('DEBUG');
    if (savedRet !== undefined) this.traps.delete('RETURN');
    if (savedDebug !== undefined) this.traps.delete('DEBUG');
    let st: number;
    try {
      try {
        st = await this.stmt(body);
      } catch (e) {
        if (e instanceof ReturnSignal) st = e.status;
        else throw e;
      }
      await this.returnTrap();
      return st;
    } finally {
      if (savedRet !== undefined) this.traps.set('RETURN', savedRet);
      if (savedDebug !== undefined) this.traps.set('DEBUG', savedDebug);
      this.loopDepth = savedLoop;
      this.funcNames.pop();
      this.funcLines.pop();
      this.funcDepth--;
      this.scopes.pop();
      this.params = savedParams;
    }
  }

  async callPrivate(pc: PrivateCommand, args: string[]): Promise<number> {
    const ctx = new PrivateContextImpl(this, args);
    try {
      return await pc(ctx);
    } catch (e) {
      if (isSigPipe(e)) return 141;
      if (e instanceof ExitSignal || e instanceof ShellError) throw e;
      await this.writeFd(2, `${args[0]}: ${(e as Error)?.message ?? String(e)}\n`).catch(() => undefined);
      return 1;
    }
  }

  async external(args: string[], temp?: Map<string, Var>): Promise<number> {
    const name = args[0]!;
    const found = lookPath(this, name);
    if (found.error) {
      await this.err(`${name}: ${found.error}`);
      return found.status;
    }
    void temp;
    const script = noShebangScript(found.path!);
    if (script === 'binary') { await this.err(`${name}: cannot execute binary file: Exec format error`); return 126; }
    if (script && scriptRunner) return scriptRunner(this, script, args);
    return runExternal(this, found.path!, args);
  }
}

/**
 * A file that execve(2) would reject with ENOEXEC (no `#!`, not ELF) and that does not look binary:
 * bash runs it itself in a fresh subshell; libuv would hand it to /bin/sh instead.
 */
function noShebangScript(p: string): Buffer | 'binary' | undefined {
  let fd: number;
  try { fd = fs.openSync(Buffer.from(p, 'latin1'), 'r'); } catch { return undefined; }
  try {
    const head = Buffer.alloc(80);
    const n = fs.readSync(fd, head, 0, 80, 0);
    if (n >= 2 && head[0] === 0x23 && head[1] === 0x21) return undefined;
    if (n >= 4 && head.readUInt32BE(0) === 0x7f454c46) return undefined;
    const first = head.subarray(0, n);
    const nl = first.indexOf(10);
    if ((nl < 0 ? first : first.subarray(0, nl)).includes(0)) return 'binary';
    return fs.readFileSync(fd);
  } catch { return undefined; } finally { fs.closeSync(fd); }
}

/** Runs a `#!`-less script in a fresh subshell (set by cli.ts, which owns shell construction). */
export let scriptRunner: ((parent: Shell, src: Buffer, args: string[]) => Promise<number>) | undefined;
export function setScriptRunner(f: typeof scriptRunner): void { scriptRunner = f; }

/** Commands that set $BASH_COMMAND and trigger the DEBUG trap. */
const tracedCmd = new Set(['CallExpr', 'TestClause', 'ArithmCmd', 'DeclClause', 'LetClause']);

/** bash's iteration order for associative arrays: FNV-1 hash buckets (1024), newest first. */
function assocOrder(m: Map<string, string>): [string, string][] {
  const ents = [...m.entries()].map((e, i) => ({ e, i, b: fnv1(e[0]) & 1023 }));
  ents.sort((p, q) => p.b - q.b || q.i - p.i);
  return ents.map((x) => x.e);
}

function fnv1(s: string): number {
  let x = 2166136261 >>> 0;
  for (let i = 0; i < s.length; i++) { x = Math.imul(x, 16777619) >>> 0; x = (x ^ s.charCodeAt(i)) >>> 0; }
  return x;
}

/** Source text of an arithmetic expression node (for associative subscripts like m[1+1]). */
function arithSource(src: string, e: ArithmExpr): string | undefined {
  const r = arithRange(src, e);
  return r ? src.slice(r[0], r[1]) : undefined;
}

/** Source range of an arithmetic expression node, when it can be determined. */
function arithRange(src: string, e: ArithmExpr): [number, number] | undefined {
  const range = (n: ArithmExpr): [number, number] | undefined => {
    switch (n.type) {
      case 'Word': {
        const t = wordSource(src, n);
        if (t === undefined) return undefined;
        const f = n.Parts[0]!;
        const a = f.type === 'Lit' ? f.ValuePos : f.type === 'ParamExp' ? f.Dollar : (f as { Left?: number }).Left;
        return a === undefined ? undefined : [a, a + t.length];
      }
      case 'BinaryArithm': { const x = range(n.X), y = range(n.Y); return x && y ? [x[0], y[1]] : undefined; }
      case 'UnaryArithm': { const x = range(n.X); if (!x) return undefined; return n.Post ? [x[0], n.OpPos + 2] : [n.OpPos, x[1]]; }
      case 'ParenArithm': { const p = n as unknown as { Lparen: number; Rparen: number }; return [p.Lparen, p.Rparen + 1]; }
    }
  };
  return range(e);
}

function traceWord(w: string): string { return /^[a-zA-Z0-9_@%+=:,./-]+$/.test(w) ? w : shellQuote(w); }

/** Source-ish text of a word (for messages such as "ambiguous redirect"). */
export function wordSource(src: string, w: Word): string | undefined {
  const r = wordRange(w);
  return r ? src.slice(r[0], r[1]) : undefined;
}

/** Byte range of a word in the source, when it can be determined. */
export function wordRange(w: Word): [number, number] | undefined {
  const first = w.Parts[0];
  const last = w.Parts[w.Parts.length - 1];
  if (!first || !last) return undefined;
  const start = (p: WordPart): number | undefined => {
    switch (p.type) {
      case 'Lit': return p.ValuePos; case 'SglQuoted': case 'DblQuoted': case 'CmdSubst': case 'ArithmExp': return p.Left;
      case 'ParamExp': return p.Dollar; default: return undefined;
    }
  };
  const end = (p: WordPart): number | undefined => {
    switch (p.type) {
      case 'Lit': return p.ValueEnd; case 'SglQuoted': case 'DblQuoted': case 'CmdSubst': return (p as unknown as { Right: number }).Right + 1;
      case 'ArithmExp': return p.Right + 2;
      case 'ParamExp': return p.Short ? p.Param.ValueEnd : (p as unknown as { Rbrace: number }).Rbrace + 1;
      default: return undefined;
    }
  };
  const a = start(first), b = end(last);
  if (a === undefined || b === undefined || b <= a) return undefined;
  return [a, b];
}

function errexitApplies(c: Command): boolean {
  switch (c.type) {
    case 'CallExpr': case 'Subshell': case 'ArithmCmd': case 'TestClause': case 'DeclClause': case 'LetClause': return true;
    case 'BinaryCmd': return c.Op === Tok.or || c.Op === Tok.orAnd;
    default: return false;
  }
}

export function dq(s: string): string {
  return '"' + s.replace(/(["\\$`])/g, '\\$1') + '"';
}

export function errnoMsg(e: any): string {
  switch (e?.code) {
    case 'ENOENT': return 'No such file or directory';
    case 'EACCES': return 'Permission denied';
    case 'EISDIR': return 'Is a directory';
    case 'ENOTDIR': return 'Not a directory';
    case 'EEXIST': return 'File exists';
    case 'EBADF': return 'Bad file descriptor';
    case 'ENOTEMPTY': return 'Directory not empty';
    case 'ELOOP': return 'Too many levels of symbolic links';
    default: return e?.message ?? String(e);
  }
}

export type { TestExpr, Word, WordPart };
