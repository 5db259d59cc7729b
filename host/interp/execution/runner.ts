// The evaluator: shell state (variables, functions, options, fds, cwd) and execution of
// statements and commands. Expansion lives in expand.ts, builtins in builtins.ts, external
// processes in exec.ts, private commands in registry.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  Tok, type ArithmExpr, type ArrayElem, type ArrayExpr, type Assign, type BinaryCmd, type CallExpr, type CaseClause, type Command, type DeclClause, type File, type ForClause, type IfClause,
  type CoprocClause, type ExtGlob, type ParamExp, type ProcSubst, type Redirect, type Stmt, type TestExpr, type Word, type WordPart,
} from '../syntax/ast.ts';
import { Arith, ArithError, hardArith } from '../words/arith.ts';
import { Expander, braceExpand } from '../words/expand.ts';
import { ansiC, shellQuote, singleQuote, traceWord } from '../words/quoting.ts';
import { DiscardError, DiscardSignal, ExitSignal, LoopSignal, ReturnSignal, ShellError } from './errors.ts';
import { FdTable, OsFd, drainHeld, isSigPipe, makeFifoPath, makePipe, openFile, openPath, readAll, readPath, tryWriteSync, writeAll } from './io.ts';
import { matchExtPattern } from '../words/pattern.ts';
import { parse, ParseError } from '../syntax/parser.ts';
import { appendElems, arithTextWord, badAssigns, badFuncNames, declWords, parseScript, rawArith, type DeferredParseError } from '../syntax/reparse.ts';
import { builtins, specialBuiltins, syncBuiltins, declClause, declare, declLastArg, localSync, readLine, shellOptsString, wordOfText, type DeclItem } from '../builtins/builtins.ts';
import { runExternal, lookPath, noShebangScript } from './external.ts';
import { errnoMsg } from './errno-message.ts';
import type { Options } from './options.ts';
import { maxKey, savedOpts, tempScopes, type Var } from '../variables/var.ts';
import { VarStore } from '../variables/store.ts';
import { LOCALE_VARS } from '../variables/locale.ts';
import { scriptRunner } from './script-runner.ts';
import { wordEnd, wordRange, wordSource } from '../syntax/word-range.ts';
import { getPrivateCommand, PrivateContextImpl, type PrivateCommand } from '../private/registry.ts';
import { evalTest, evalTestTraced, testSyncable } from '../words/conditional.ts';
import { printCommand, printFunction, stmtLines } from '../syntax/printer.ts';
import { AliasReader } from '../syntax/alias.ts';
import { bucketOrder } from './bash-hash-order.ts';
import type { CommandHash } from './command-hash.ts';
import type { CompletionSpecs } from '../builtins/completion-specs.ts';
import { sigKey } from './signals.ts';
import { endsProcess, virtualPid } from './virtual-pids.ts';
import { isName } from '../syntax/names.ts';
import { isRestricted, redirectError, slashCommandError } from './restricted.ts';
import { HistoryList } from '../syntax/history.ts';
import { runHistoryLines } from './history-reader.ts';

/**
 * `signal`: the job was killed by this signal; `notified`: bash's status message was shown.
 * `kill`: set for a job that runs in-process (its pid is virtual, virtual-pids.ts): delivers a
 * signal to it as the kill builtin would to a process; false when it has finished.
 */
export interface Job { id: number; pid: number; done: Promise<number>; status?: number; reaped?: boolean; num?: number; cmd?: string; signal?: number; notified?: boolean; procsub?: boolean; kill?: (sig: number) => boolean }

/** `base`: line offset (eval and trap strings count lines from the line that ran them, like bash). */
/** `file`: the sourced file the code comes from (its BASH_SOURCE name); unset for the script itself. */
/** `comsub`: the lines of a `$( )` running (positions `lo`..`hi`), as bash counts them: `base` (the `)`'s line) + the line of the innermost statement in `at` (printer.ts stmtLines). */
export interface SourceInfo {
  src: string; lines: number[]; name: string; base?: number; file?: string; comsub?: { lo: number; hi: number; base: number; at: Array<[number, number]> };
  /** From each offset on, line numbers move by this much (see `discardShift`), in order. */
  shifts?: Array<[number, number]>;
}

let jobSeq = 0;
/**
 * Background jobs that are a lone builtin wait for the shell to go on (as a forked child usually
 * lets its parent's next builtin run first) but finish before any external command starts, as
 * bash's child does while the parent forks and execs (`echo x > f & cat f`).
 */
const loneJobs = new Set<{ start: () => void; done: Promise<number> }>();
export async function settleLoneJobs(): Promise<void> {
  for (const p of [...loneJobs]) { loneJobs.delete(p); p.start(); await p.done.catch(() => 0); }
}
/** Number of signals with a trap that the CLI catches (see cli.ts). */
export const signalListeners = { count: 0 };

/**
 * bash's "error token" for a negative exponent: it is found after the right operand of `**`
 * was read, so the token is the one after that operand, or its last token at the end.
 */
function powErrorToken(rest: string): string {
  const re = /\s*(\*\*|\+\+|--|[-+!~]|[0-9a-zA-Z_#@]+(?:\[[^\]]*\])?|[()]|\S)/y;
  const toks: { at: number; t: string }[] = [];
  for (let m: RegExpExecArray | null; re.lastIndex < rest.length && (m = re.exec(rest));) toks.push({ at: m.index + m[0].length - m[1]!.length, t: m[1]! });
  let i = 0, last = -1;
  for (;;) {
    while (i < toks.length && /^[-+!~]$|^\+\+$|^--$/.test(toks[i]!.t)) i++;
    if (i >= toks.length) break;
    if (toks[i]!.t === '(') {
      let d = 0;
      for (; i < toks.length; i++) { if (toks[i]!.t === '(') d++; else if (toks[i]!.t === ')' && --d === 0) break; }
    }
    last = Math.min(i, toks.length - 1); i++;
    if (i < toks.length && (toks[i]!.t === '++' || toks[i]!.t === '--')) last = i++;
    if (i < toks.length && toks[i]!.t === '**') { i++; continue; }
    break;
  }
  const k = i < toks.length ? i : last;
  return k < 0 ? rest : rest.slice(toks[k]!.at);
}

/** Offset of the first extglob group in these statements outside `[[ ]]` (bash parses those as if extglob were on). */
function findExtGlob(nodes: unknown): { at?: number; inSubst: boolean } {
  // (depth first, in order, with its own stack: a tree can be thousands of levels deep, `$(( x+x+…+x ))`)
  const todo: [unknown, boolean][] = [[nodes, false]];
  while (todo.length) {
    const [n, sub] = todo.pop()!;
    if (n === null || typeof n !== 'object') continue;
    if (Array.isArray(n)) { for (let i = n.length - 1; i >= 0; i--) todo.push([n[i], sub]); continue; }
    const t = (n as { type?: string }).type;
    if (t === 'TestClause') continue;
    if (t === 'ExtGlob') return { at: (n as ExtGlob).OpPos, inSubst: sub };
    const s = sub || (t === 'CmdSubst' && !(n as { Backquotes?: boolean }).Backquotes) || t === 'ProcSubst';
    if (t === 'CmdSubst' && (n as { Backquotes?: boolean }).Backquotes) continue; // (parsed when it runs)
    const keys = Object.keys(n);
    for (let i = keys.length - 1; i >= 0; i--) if (keys[i] !== 'type') todo.push([(n as Record<string, unknown>)[keys[i]!], s]);
  }
  return { at: undefined, inSubst: false };
}

export class Shell {
  funcs = new Map<string, Stmt>();
  /** Function attributes: 'r' readonly, 'x' exported (`export -f`: in the environment of commands). */
  funcAttrs = new Map<string, string>();
  /** Builtins turned off by `enable -n`. */
  disabled: Set<string> | undefined;
  /** Source text each function was parsed from (for printing it). */
  funcSrc = new Map<string, string>();
  /** Source each function was parsed from (its body's positions and lines refer to it). */
  funcSource = new Map<string, SourceInfo>();
  /** The line each function's definition starts on (`declare -F` under extdebug). */
  funcDefLine = new Map<string, number>();
  /** `declare -F NAME` under extdebug: the name, the line and the file it was defined in. */
  funcWhere(name: string): string {
    const src = this.funcSource.get(name);
    return `${name} ${this.funcDefLine.get(name) ?? 0} ${src?.file || (this.cMode ? 'environment' : this.arg0)}`;
  }
  aliases = new Map<string, string>();
  /** bash's hash table of commands found on PATH (see command-hash.ts). */
  commandHash: CommandHash = new Map();
  /** `complete`'s specs (created on first use; a non-interactive shell only stores and lists them). */
  completionSpecs: CompletionSpecs | undefined;
  params: string[] = [];
  arg0 = 'bash';
  /** Name used as prefix of error messages (`$0` for -c, the script path for files). */
  errName = 'bash';
  cwd = process.cwd();
  fds = new FdTable();
  status = 0;
  opts: Options = { errexit: false, nounset: false, xtrace: false, pipefail: false, noglob: false, noexec: false, noclobber: false, allexport: false, verbose: false, posix: false };
  /** `set -o` options without an effect here (emacs, vi, braceexpand…): only their state. */
  setOpts = new Map<string, boolean>([['braceexpand', true], ['hashall', true], ['interactive-comments', true]]);
  shopt = new Set<string>(['extquote', 'sourcepath', 'progcomp', 'promptvars', 'cmdhist', 'complete_fullquote', 'interactive_comments', 'hostcomplete', 'force_fignore', 'checkwinsize', 'globasciiranges', 'patsub_replacement', 'globskipdots']);
  traps = new Map<string, string>();
  /** In a subshell: the parent's traps, which `trap`/`trap -p` list until the subshell changes one. */
  shownTraps: Map<string, string> | undefined;
  jobs: Job[] = [];
  /** Runs as an asynchronous job: bash reports no `Terminated` for its commands. */
  inBackground = false;
  /** > 0 while stdin is redirected by a compound command or a pipe (see background()). */
  stdinRedirected = 0;
  /** The parent's background jobs, still listed by `jobs` in a subshell (like bash). */
  inheritedJobs: Job[] = [];
  /** The last coprocess's two fds (bash tracks one): closed in the subshells this shell starts. */
  coprocFds: Map<number, OsFd> | undefined;
  lastBgPid = 0;
  noErrexit = 0;
  funcDepth = 0;
  loopDepth = 0;
  subshell = 0;
  bashpid = process.pid;
  /**
   * Set when the background job this shell runs (or a subshell of it) is killed: the job stops
   * before its next statement. Shared down clone(); each background job gets its own.
   */
  jobKill = { sig: 0 };
  dirStack: string[] = [];
  /** The history list (history.ts): lines read while `set -o history` is on, and what `history -s`/`-r` add. */
  history = new HistoryList();
  /** The source whose lines history records: the script or -c string (not eval, `.` or traps). */
  historySource: SourceInfo | undefined;
  /** Counts `set` builtin calls that replaced the positional parameters (for `source FILE ARGS`). */
  setParamsCount = 0;
  source: SourceInfo = { src: '', lines: [0], name: 'bash' };
  curPos = 0;
  funcNames: string[] = [];
  /** Line of each function call (parallel to funcNames), for BASH_LINENO/caller. */
  funcLines: number[] = [];
  /** The sourced file each frame's code is from ('' for the script), for BASH_SOURCE. */
  funcFiles: string[] = [];
  /** `ulimit` settings made by the script (letter → [soft, hard]); Node cannot call setrlimit. */
  ulimits = new Map<string, [string, string]>();
  /** The shell's file creation mask (-1: the process's); subshells share the process, so it is applied before creating files/processes. */
  umask = -1;
  applyUmask(): void { if (this.umask >= 0) process.umask(this.umask); }

  /** bash's FUNCNAME/BASH_SOURCE/BASH_LINENO views (index 0 = innermost frame). */
  callStack(name: string): string[] | undefined {
    const file = !this.cMode;
    // (a `source` frame shows in FUNCNAME only within a function)
    if (name === 'FUNCNAME') return this.funcDepth === 0 ? [] : [...this.funcNames.slice().reverse(), ...(file ? ['main'] : [])];
    if (name === 'BASH_LINENO') return [...this.funcLines.slice().reverse().map(String), ...(file ? ['0'] : [])];
    if (name === 'BASH_SOURCE') return [...this.funcFiles.slice().reverse().map((f) => f || (file ? this.arg0 : 'environment')), ...(file ? [this.arg0] : [])];
    if (name === 'DIRSTACK') return [this.cwd, ...this.dirStack];
    return undefined;
  }
  /** FUNCNAME/BASH_SOURCE/BASH_LINENO while they have frames (computed, not stored). */
  isStackVarName(name: string): boolean { return ((name === 'FUNCNAME' || name === 'BASH_SOURCE' || name === 'BASH_LINENO') && this.funcNames.length > 0) || name === 'DIRSTACK'; }
  startTime = Date.now();
  /** The variables (variables/store.ts): scopes, attributes, arrays, special parameters (after startTime: SECONDS counts from it). */
  readonly vars = new VarStore(this);
  /** Live external processes (for cancellation). */
  children = new Set<number>();
  /** Process groups created for external commands (descendants may outlive the leader). */
  groups = new Set<number>();
  /**
   * Exit status once cancelled (128+signal; 0: not cancelled), shared with subshells like `cancel`.
   * Statements test it, not `cancel.signal.aborted` (a validated getter, slow before the JIT).
   */
  cancelStatus = { value: 0 };
  procGroups = false;
  cancel = new AbortController();
  /** Cancels the shell and its subshells (the worker's SIGINT/SIGTERM/SIGHUP without a trap). */
  cancelWith(status: number): void {
    this.cancelStatus.value = status;
    this.cancel.abort();
  }
  optind = 1; optchar = 0;
  readonly ex: Expander;
  readonly arith: Arith;

  constructor() {
    this.ex = new Expander(this);
    this.arith = new Arith({
      get: (n, i) => (i === undefined ? this.vars.param(n) : this.vars.getElem(n, i)),
      set: (n, i, v) => { if (i === undefined) this.vars.set(n, String(v)); else this.vars.setElem(n, i, String(v)); },
      isAssoc: (n) => !!this.vars.resolve(n)?.assoc,
      // (an unset element of a set variable is 0: bash asks only whether the variable exists)
      nounset: (n, indexed) => { if (this.opts.nounset && !(indexed && this.vars.isSet(n))) throw new ShellError(`${n}: unbound variable`, 127, true); },
      expandWord: (w) => this.ex.literal(w, 'none'),
      canExpandSync: (w) => this.ex.canSync(w),
      expandWordSync: (w) => this.ex.literalSync(w, 'none'),
      expandText: async (t) => { const w = arithTextWord(t); return w ? (await this.ex.heredoc(w)).replace(/\n$/, '') : t; },
      spliceSource: (e, values) => spliceArith(this.source.src, e, values),
      subscript: (n, t) => this.refSubscript(n, t),
      nodeText: (n) => this.assocKey(n),
      nodeTextSync: (n) => this.assocKeySync(n),
      indexError: (err, p) => this.subscriptError(err, p),
    });
  }

  get posix(): boolean { return this.opts.posix; }

  // ---- variables -----------------------------------------------------------------------------
  // (the store is variables/store.ts, `this.vars`; here what it asks of the shell, VarHost, and
  // the evaluation of subscripts)
  /** $SHELLOPTS (VarHost). */
  shellOptsText(): string { return shellOptsString(this); }

  /** Writes `text` to stderr at once when it can, else after what is queued (VarHost: the locale's warnings). */
  writeErrNow(text: string): void {
    if (tryWriteSync(this.fds.get(2), text) !== true) this.writeFd(2, text).catch(() => undefined);
  }

  /** The exported functions for the environment of commands (VarHost; none from a restricted shell). */
  exportFunctions(env: Record<string, string>, enc: (s: string) => string): void {
    // bash's encoding of an exported function: BASH_FUNC_name%%=() { body }
    // (a restricted shell gives its commands no functions)
    if (!isRestricted(this)) for (const [f] of bucketOrder(this.funcs, 512)) if (this.funcAttrs.get(f)?.includes('x')) env[`BASH_FUNC_${enc(f)}%%`] = enc('() ' + this.functionText(f).replace(/^[^\n]*\n/, ''));
  }

  /** The subscript of a nameref/indirection target `base[sub]`: expanded, and evaluated arithmetically for an indexed array. */
  refSubscript(base: string, sub: string): string {
    if (sub === '@' || sub === '*') return sub;
    const assoc = !!this.vars.resolve(base)?.assoc;
    if (!/[$`"'\\~]/.test(sub)) return assoc ? sub : String(hardArith(() => this.arith.evalString(sub)));
    const idx = this.refSubscriptAst(base, sub);
    if (!idx || !this.canSyncSubscript(idx)) return assoc ? sub : String(hardArith(() => this.arith.evalString(sub)));
    const saved = this.source;
    this.setSource(`\${${base}[${sub}]}`, saved.name);
    try { return this.subscriptTextSync(base, idx); } finally { this.source = saved; }
  }

  /** refSubscript that may run command substitutions. */
  async refSubscriptAsync(base: string, sub: string): Promise<string> {
    if (sub === '@' || sub === '*' || !/[$`]/.test(sub)) return this.refSubscript(base, sub);
    const idx = this.refSubscriptAst(base, sub);
    if (!idx) return this.refSubscript(base, sub);
    const saved = this.source;
    this.setSource(`\${${base}[${sub}]}`, saved.name);
    try { return await this.subscriptText(base, idx); } finally { this.source = saved; }
  }

  private refSubAsts = new Map<string, ArithmExpr | null>();
  private refSubscriptAst(base: string, sub: string): ArithmExpr | undefined {
    const src = `\${${base}[${sub}]}`;
    let idx = this.refSubAsts.get(src);
    if (idx === undefined) {
      idx = null;
      try {
        const f = parse(src);
        const c = f.Stmts.length === 1 ? f.Stmts[0]!.Cmd : undefined;
        const p = c?.type === 'CallExpr' && c.Args.length === 1 && c.Args[0]!.Parts.length === 1 ? c.Args[0]!.Parts[0]! : undefined;
        if (p?.type === 'ParamExp' && p.Index && !p.Exp && !p.Slice && !p.Repl && !p.Length && !p.Excl) idx = p.Index;
      } catch { /* not a subscript */ }
      this.refSubAsts.set(src, idx);
    }
    return idx ?? undefined;
  }

  async subscriptText(name: string, idx: ArithmExpr): Promise<string> {
    if (this.canSyncSubscript(idx)) return this.subscriptTextSync(name, idx);
    const p0 = idx.type === 'Word' && idx.Parts.length === 1 ? idx.Parts[0] : undefined;
    if (p0 && p0.type === 'Lit' && (p0.Value === '@' || p0.Value === '*')) return p0.Value;
    const v = this.vars.resolve(name);
    if (v?.assoc) {
      return this.assocKey(idx);
    }
    try { return String(await this.arithAst(idx)); } catch (e) { if (e instanceof ArithError) e.hard = true; throw e; }
  }

  /** An associative array's subscript: the words expanded as strings (no arithmetic). */
  async assocKey(idx: ArithmExpr): Promise<string> {
    const raw = rawSubscript(idx);
    // (the text expands as a here-document body: without the newline that ends it)
    if (raw !== undefined) { const w = arithTextWord(raw); return w ? (await this.ex.literal(w, 'none')).replace(/\n$/, '') : raw; }
    if (idx.type === 'Word') return this.ex.literal(idx, 'none');
    const values = new Map<Word, string>();
    for (const w of arithWords(idx)) values.set(w, await this.ex.literal(w, 'none'));
    const text = spliceArith(this.source.src, idx, values, false);
    return text ?? String(await this.arithAst(idx));
  }

  /** assocKey without awaiting (every word must expand synchronously); undefined when the source is unknown. */
  assocKeySync(idx: ArithmExpr): string | undefined {
    const raw = rawSubscript(idx);
    if (raw !== undefined) { const w = arithTextWord(raw); return w ? (this.ex.canSync(w) ? this.ex.literalSync(w, 'none').replace(/\n$/, '') : undefined) : raw; }
    if (idx.type === 'Word') return this.ex.literalSync(idx, 'none');
    const values = new Map<Word, string>();
    for (const w of arithWords(idx)) values.set(w, this.ex.literalSync(w, 'none'));
    return spliceArith(this.source.src, idx, values, false);
  }

  /** Whether subscriptText(_, idx) can be computed without awaiting (structural). */
  canSyncSubscript(idx: ArithmExpr): boolean {
    return this.arith.canSync(idx) && (idx.type !== 'Word' || this.ex.canSync(idx));
  }

  /** subscriptText without awaiting; only when canSyncSubscript(idx). */
  subscriptTextSync(name: string, idx: ArithmExpr): string {
    const p0 = idx.type === 'Word' && idx.Parts.length === 1 ? idx.Parts[0] : undefined;
    if (p0 && p0.type === 'Lit' && (p0.Value === '@' || p0.Value === '*')) return p0.Value;
    const v = this.vars.resolve(name);
    if (v?.assoc) {
      const text = this.assocKeySync(idx);
      if (text !== undefined) return text;
    }
    // `a[$i]`, `a[i]`: a plain variable holding a decimal number is its own value
    const iv = p0 && (p0.type === 'Lit' || (p0.type === 'ParamExp' && !p0.Index && !p0.Exp && !p0.Slice && !p0.Repl && !p0.Length && !p0.Excl && !p0.Names && !p0.Width))
      ? (p0.type === 'Lit' ? p0.Value : p0.Param.Value) : undefined;
    if (iv !== undefined && /^[a-z][a-zA-Z0-9_]*$/.test(iv)) {
      const r = this.vars.raw(iv);
      if (r && !r.nameref && !r.arr && !r.assoc && r.str !== undefined && /^(?:0|[1-9][0-9]{0,17})$/.test(r.str)) return r.str;
    }
    return String(hardArith(() => this.arithSync(idx)));
  }

  /** The locale was UTF-8 when bash would have parsed the running line (for $'\u…'; see topLevel). */
  parseUtf8 = false;

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

  // ---- positions and errors -----------------------------------------------------------------
  lineOf(pos: number): number {
    const c = this.source.comsub;
    if (c && pos >= c.lo && pos <= c.hi) {
      let k = -1;
      for (let i = 0; i < c.at.length && c.at[i]![0] <= pos; i++) k = i;
      if (k >= 0) return c.base + c.at[k]![1];
    }
    const l = this.source.lines;
    let lo = 0, hi = l.length - 1;
    while (lo < hi) { const m = (lo + hi + 1) >> 1; if (l[m]! <= pos) lo = m; else hi = m - 1; }
    let shift = 0;
    for (const [at, d] of this.source.shifts ?? []) { if (at > pos) break; shift += d; }
    return lo + 1 + (this.source.base ?? 0) + shift;
  }

  /**
   * A run-time error abandoned the top-level compound command `s` (of a script, -c string,
   * sourced file or eval string): bash jumps
   * out of it with the line number of the failing command still set, and its parser, which had
   * read on to the command's last line, counts the following lines from there. So every later
   * line number of the file is off by as much (bash 5.2 does this; a function call or a
   * subshell in between puts its line back first).
   */
  private discardShift(s: Stmt): void {
    const r = this.discardDelta(s);
    if (r) (this.source.shifts ??= []).push([r.end + 1, r.d]);
  }

  /** discardShift's shift (negative) and the offset where `s` ends, or undefined. */
  private discardDelta(s: Stmt): { end: number; d: number } | undefined {
    if (!s.Cmd || !['Block', 'IfClause', 'WhileClause', 'ForClause', 'CaseClause'].includes(s.Cmd.type)) return undefined;
    let end = 0;
    const walk = (n: unknown): void => {
      if (Array.isArray(n)) { for (const x of n) walk(x); return; }
      if (!n || typeof n !== 'object') return;
      for (const [k, v] of Object.entries(n)) {
        if (typeof v === 'number') { if (k !== 'Op' && k !== 'Names' && v > end) end = v; } else if (v && typeof v === 'object') walk(v);
      }
    };
    walk(s);
    const d = this.lineOf(this.curPos) - this.lineOf(end);
    return d < 0 && this.curPos >= s.Position ? { end, d } : undefined;
  }

  setSource(src: string, name: string, file = this.source.file): void {
    const lines = [0];
    for (let i = 0; i < src.length; i++) if (src.charCodeAt(i) === 10) lines.push(i + 1);
    this.source = { src, lines, name, file };
  }

  /** Writes an error message like bash: `name: line N: msg`. */
  async err(msg: string): Promise<void> {
    await this.writeFd(2, this.errLine(msg)).catch(() => undefined);
  }

  errLine(msg: string): string {
    // (an eval string's lines count from the eval's line, in a script file and under -c alike)
    const line = this.lineOf(this.curPos);
    return `${this.errSourceName()}: line ${line}: ${msg}\n`;
  }

  /**
   * The name bash's errors start with: BASH_SOURCE[0], the file the running code is from — a
   * function's is the file that defined it (a sourced file, or the script); bash names the source
   * of functions defined in a -c string "environment".
   */
  errSourceName(): string {
    if (this.funcFiles.length === 0) return this.errName;
    const f = this.funcFiles[this.funcFiles.length - 1]!;
    return f !== '' ? f : this.cMode ? 'environment' : this.arg0;
  }

  /**
   * writeFd for a builtin run without a promise (SyncBuiltin), as its status: 0 when written,
   * undefined when nothing was (the builtin then runs the ordinary way), 1 when output stopped part
   * way (a full disk) — the write error reported as callArgs does, as far as stderr takes it at once.
   */
  writeFdSync(n: number, data: string, name: string): number | undefined {
    const r = tryWriteSync(this.fds.get(n), data);
    if (typeof r === 'boolean') return r ? 0 : undefined;
    tryWriteSync(this.fds.get(2), this.errLine(`${name}: write error: ${errnoMsg(r)}`));
    return 1;
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
    s.vars.copyFrom(this.vars);
    s.funcs = new Map(this.funcs); s.funcAttrs = new Map(this.funcAttrs);
    if (this.disabled) s.disabled = new Set(this.disabled);
    s.funcSrc = this.funcSrc; s.funcSource = new Map(this.funcSource); s.funcDefLine = new Map(this.funcDefLine);
    s.aliases = new Map(this.aliases);
    s.commandHash = new Map([...this.commandHash].map(([k, e]) => [k, { ...e }]));
    s.params = this.params.slice();
    s.arg0 = this.arg0; s.errName = this.errName; s.cwd = this.cwd; s.status = this.status;
    s.opts = { ...this.opts }; s.shopt = new Set(this.shopt); s.setOpts = new Map(this.setOpts);
    // caught signals are reset in a subshell (ignored ones stay ignored); EXIT/DEBUG are not inherited
    s.traps = new Map([...this.traps].filter(([k, v]) => k === 'RETURN' || (k === 'ERR' ? this.opts.errtrace : k !== 'EXIT' && k !== 'DEBUG' && v === '')));
    s.shownTraps = this.shownTraps ?? (this.traps.size ? new Map(this.traps) : undefined);
    s.curCmd = this.curCmd; s.curCmdSrc = this.curCmdSrc;
    s.lastBgPid = this.lastBgPid; s.funcDepth = this.funcDepth; s.loopDepth = 0; s.subshell = this.subshell + 1;
    s.bashpid = virtualPid(); s.jobKill = this.jobKill; s.dirStack = this.dirStack.slice(); s.history = this.history.clone(); s.source = this.source; s.curPos = this.curPos;
    s.funcNames = this.funcNames.slice(); s.inheritedJobs = [...this.inheritedJobs, ...this.jobs]; s.inBackground = this.inBackground; s.stdinRedirected = this.stdinRedirected; s.funcLines = this.funcLines.slice(); s.funcFiles = this.funcFiles.slice(); s.ulimits = new Map(this.ulimits); s.startTime = this.startTime; s.parseUtf8 = this.parseUtf8; s.children = this.children; s.groups = this.groups; s.procGroups = this.procGroups; s.cancel = this.cancel; s.cancelStatus = this.cancelStatus;
    s.noErrexit = this.noErrexit; s.cMode = this.cMode; s.traceLevel = this.traceLevel; s.quietSignals = this.quietSignals;
    s.fds = this.fds.clone();
    if (this.umask < 0) try { this.umask = process.umask(); } catch { /* worker thread */ }
    s.umask = this.umask;
    return s;
  }

  /**
   * bash closes the coprocess's fds in a subshell (`( )`, an async command, a pipeline stage) of
   * the shell that started it, so a job there cannot hold its stdin open; not in command or
   * process substitutions or another coprocess, which also forget it (their subshells keep them).
   */
  dropCoprocFds(s: Shell): Shell {
    if (this.coprocFds) for (const [n, f] of this.coprocFds) if (s.fds.get(n) === f) s.fds.set(n, undefined);
    return s;
  }

  async runSubshell(fn: (s: Shell) => number | Promise<number>, sub?: Shell): Promise<number> {
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
    if (e instanceof ExitSignal || e instanceof DiscardSignal) return e.status;
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
      await this.evalString(t, 'trap'); // bash: $LINENO counts from 1 in the EXIT trap
    } catch (e) {
      if (e instanceof ExitSignal) return e.status;
    } finally { this.trapDepth--; }
    return st;
  }

  // ---- top level -------------------------------------------------------------------------
  async runFile(f: File, syntaxErr?: DeferredParseError, warning?: { line: number; at: number; message: string }): Promise<number> {
    let st = 0;
    this.historySource = this.source;
    try {
      const deferred: { error?: DeferredParseError; hdocWarning?: { fromLine: number; text: string } } = { error: syntaxErr };
      if (warning) {
        // printed as bash reads the line where the top-level command with the here-document starts
        let top = f.Stmts[0];
        for (const s of f.Stmts) if (s.Position <= warning.at) top = s;
        const text = `${this.errName}: line ${warning.line}: ${warning.message}\n`;
        deferred.hdocWarning = { fromLine: top ? this.lineOf(top.Position) : 1, text };
      }
      st = await this.topLevel(f.Stmts, undefined, deferred, !this.cMode);
      syntaxErr = deferred.error;
      if (syntaxErr) {
        // the lines before it ran; a `[[ ]]` error leaves the last status (2 under errexit), any other one is 2
        await this.syntaxError(syntaxErr, `${this.errName}: ${this.cMode ? '-c: ' : ''}line ${syntaxErr.line}: `);
        st = syntaxErr.cond && !this.opts.errexit ? this.status : syntaxErr.status ?? (syntaxErr.inCommandSubst && this.cMode ? 127 : 2);
      }
    } catch (e) {
      st = this.handleTopError(e);
    }
    if (this.pendingSigs.length > 0) {
      this.status = st;
      try { await this.runPendingTraps(); } catch (e) { st = this.handleTopError(e); }
    }
    st = await this.runExitTrap(st);
    // the shell's own fds above 2 close as it exits (a coprocess reading one ends, as with bash),
    // before the wait for the jobs that run in this process
    const high = [...this.fds.map.entries()].filter(([n]) => n > 2);
    if (high.length) {
      await drainHeld(high.map(([, f]) => f));
      for (const [n] of high) this.fds.set(n, undefined);
    }
    await this.waitAll();
    // (what builtins held back for this shell's own fds; a pipe's other writers wait for their part)
    await drainHeld([...this.fds.map.values()]);
    return st;
  }

  /** Set when the shell sent itself a fatal signal: the CLI dies by it after the EXIT trap. */
  fatalSignal = 0;
  /** A statement whose failure runs no ERR trap (an async simple command). */
  noErrTrap: Stmt | undefined;
  /** The `( … )` a pipeline stage's shell runs as its own body (bash forks once for it). */
  stageSubshell: Command | undefined;
  /** In the subshell of a `( … )`: the parent's text and line for it (a signal report names them). */
  ownCmd: { stmt: Stmt; src: string; line: number } | undefined;
  /** The `( … )` statement about to run (its text for ownCmd; $BASH_COMMAND names it only while ERR is trapped). */
  private subshellStmt: Stmt | undefined;
  /** Trapped signals that arrived while a command ran (set by the CLI's handlers). */
  pendingSigs: string[] = [];
  /** How many signals the CLI catches for traps (shared by subshells). */
  get signalTraps(): number { return signalListeners.count; }

  /** Runs the traps of pending signals, before the next command as bash does; $? is preserved. */
  async runPendingTraps(): Promise<void> {
    while (this.pendingSigs.length > 0) {
      const t = this.traps.get(this.pendingSigs.shift()!);
      if (!t) continue;
      const saved = this.status;
      this.trapDepth++;
      try { await this.evalTrap(t); } finally { this.trapDepth--; this.status = saved; }
    }
  }

  /**
   * Runs statements the way bash reads a script: one top-level line at a time, so a
   * DiscardError abandons only the rest of its line (statements joined by `;`/`&&`… on the
   * line where the failing one ends) and the next line still runs, with `$?` = 1.
   */
  async topLevel(list: Stmt[], before?: (s: Stmt) => void, deferred?: { error?: DeferredParseError; hdocWarning?: { fromLine: number; text: string } }, scriptFile = false): Promise<number> {
    let st = 0;
    // set -v: the source text read so far is printed up to `vAt` (undefined: not tracked while verbose was off)
    let vAt: number | undefined = 0;
    for (let i = 0; i < list.length; i++) {
      const s = list[i]!;
      before?.(s);
      if (deferred?.hdocWarning && this.lineOf(s.Position) >= deferred.hdocWarning.fromLine) {
        await this.writeFd(2, deferred.hdocWarning.text).catch(() => undefined);
        deferred.hdocWarning = undefined;
      }
      // with history on, the script is read line by line and each line recorded (history-reader.ts)
      // (from the line after the previous statement's: comment lines between are read and recorded too)
      if (this.source === this.historySource && this.history.recording && this.startsLine(s.Position)) return runHistoryLines(this, i > 0 ? Math.min(s.Position, this.verboseEnd(list, i - 1).end) : s.Position, st, deferred, scriptFile);
      // once aliases exist, the rest is read line by line with aliases expanded on the text
      if (this.aliases.size && this.shopt.has('expand_aliases') && this.startsLine(s.Position)) return this.runAliased(s.Position, st, deferred, scriptFile);
      const newLine = i === 0 || !this.sameLine(list[i - 1]!, s);
      if (newLine) {
        if (this.opts.verbose) vAt = await this.verboseLines(list, i, vAt);
        else vAt = undefined;
        // bash decodes $'\u…' when it parses a line, in the locale of that moment
        this.parseUtf8 = this.vars.utf8Escapes();
      }
      if (deferred && newLine && !this.shopt.has('extglob')) {
        // bash reads a line's commands before running them, and without extglob `@(` is a syntax error
        const group = [s];
        for (let j = i; j + 1 < list.length && this.sameLine(list[j]!, list[j + 1]!); j++) group.push(list[j + 1]!);
        const { at, inSubst } = findExtGlob(group);
        if (at !== undefined) {
          const line = this.lineOf(at) - (this.source.base ?? 0);
          const from = this.source.lines[line - 1] ?? 0;
          const nl = this.source.src.indexOf('\n', from);
          deferred.error = { line, message: "syntax error near unexpected token `('", context: this.source.src.slice(from, nl < 0 ? undefined : nl), cond: false, err: new ParseError(line, 1, 'extglob', false), status: inSubst && this.cMode ? 127 : undefined };
          return st;
        }
      }
      try {
        st = await this.stmt(s);
      } catch (e) {
        if (!(e instanceof DiscardSignal) || (e.hard && !scriptFile)) throw e;
        st = this.status = e.status;
        this.discardShift(s);
        while (i + 1 < list.length && this.sameLine(list[i]!, list[i + 1]!)) i++;
      }
      // (`set -v` on this line: bash had read the line already, it prints from the next one on)
      if (this.opts.verbose && vAt === undefined) vAt = this.verboseEnd(list, i).end;
    }
    if (this.opts.verbose) await this.verboseRest(vAt, deferred?.error?.line);
    // a syntax error after the lines that ran may be alias text (`alias e='for i in 1; do echo '`)
    const pe = deferred?.error?.prefixEnd;
    if (pe !== undefined && this.aliases.size && this.shopt.has('expand_aliases')) return this.runAliased(pe, st, deferred, scriptFile);
    return st;
  }

  /**
   * `set -v`: prints the source lines bash reads for the top-level line that starts at list[i]
   * (from `from`, the end of what was printed, else from its first line): up to the end of the
   * last line of its statements, here-document bodies included, but not the lines bash reads
   * while it parses a `$(…)` or `<(…)` (bash does not echo those). Returns the new end.
   */
  private async verboseLines(list: Stmt[], i: number, from: number | undefined): Promise<number> {
    const src = this.source.src;
    const { end, skip } = this.verboseEnd(list, i);
    if (from === undefined) from = src.lastIndexOf('\n', list[i]!.Position - 1) + 1;
    let out = '';
    for (let at = from; at < end;) {
      const nl = src.indexOf('\n', at);
      const next = nl < 0 || nl + 1 > end ? end : nl + 1;
      if (!skip.some(([l, r]) => l < at && at <= r)) out += src.slice(at, next);
      at = next;
    }
    if (out && !out.endsWith('\n')) out += '\n';
    if (out) await this.writeFd(2, out).catch(() => undefined);
    return end;
  }

  /** The end of the top-level line starting at list[i] (see verboseLines) and its `$(…)`/`<(…)` spans. */
  private verboseEnd(list: Stmt[], i: number): { end: number; skip: [number, number][] } {
    let j = i;
    while (j > 0 && this.sameLine(list[j - 1]!, list[j]!)) j--;
    let k = i;
    while (k + 1 < list.length && this.sameLine(list[k]!, list[k + 1]!)) k++;
    let max = 0;
    const skip: [number, number][] = [];
    const walk = (n: unknown, hdoc: boolean): void => {
      if (Array.isArray(n)) { for (const x of n) walk(x, hdoc); return; }
      if (!n || typeof n !== 'object') return;
      const o = n as Record<string, unknown>;
      if (!hdoc && o['type'] === 'CmdSubst' && !o['Backquotes']) skip.push([o['Left'] as number, o['Right'] as number]);
      else if (!hdoc && o['type'] === 'ProcSubst') skip.push([o['OpPos'] as number, o['Rparen'] as number]);
      for (const key in o) {
        const v = o[key];
        if (typeof v === 'number') { if (key !== 'Op' && key !== 'Names' && v > max) max = v; } else if (v && typeof v === 'object') walk(v, hdoc || key === 'Hdoc');
      }
    };
    for (let m = j; m <= k; m++) walk(list[m], false);
    const src = this.source.src;
    const nl = src.indexOf('\n', max);
    return { end: nl < 0 ? src.length : nl + 1, skip };
  }

  /**
   * `set -v` at the end of a source: the lines after its last command (comments, blank lines),
   * or up to the end of line `errLine` (a syntax error's, which bash read before it failed).
   */
  private async verboseRest(from: number | undefined, errLine?: number): Promise<void> {
    const src = this.source.src;
    if (from === undefined || from >= src.length) return;
    let out = src.slice(from, errLine === undefined ? undefined : this.source.lines[errLine]);
    if (out === '') return;
    if (!out.endsWith('\n')) out += '\n';
    await this.writeFd(2, out).catch(() => undefined);
  }

  /** Whether `pos` is the first thing on its line of the current source. */
  private startsLine(pos: number): boolean {
    const src = this.source.src;
    for (let i = pos - 1; i >= 0; i--) {
      const c = src.charCodeAt(i);
      if (c === 10) return true;
      if (c !== 32 && c !== 9) return false;
    }
    return true;
  }

  /**
   * Reads and runs the current source from `start` the way bash does once aliases exist: one
   * command line at a time (more lines while it is incomplete), aliases expanded on the text
   * (alias.ts) and then parsed. A syntax error ends the reading; it replaces `deferred.error`
   * (the caller reports it like any other), with its line counted in the whole source.
   */
  async runAliased(start: number, st: number, deferred?: { error?: DeferredParseError }, scriptFile = false): Promise<number> {
    const orig = this.source;
    const base = orig.base ?? 0;
    const rd = new AliasReader(orig.src, start, (n) => (this.shopt.has('expand_aliases') ? this.aliases.get(n) : undefined));
    let line = this.lineOf(start) - base;
    let shift = 0;
    // set -v: bash echoes the source lines as it reads them, before alias expansion
    let echoed = start;
    if (deferred) deferred.error = undefined;
    try {
      while (!rd.done) {
        // (`set -o history` on the line before: reading goes on line by line, recorded)
        if (orig === this.historySource && this.history.recording && deferred) { this.source = orig; return runHistoryLines(this, rd.srcPos, st, deferred, scriptFile); }
        rd.reset();
        let text = '';
        let parsed: ReturnType<typeof parseScript> | undefined;
        // leading newlines keep the chunk's line numbers (and $LINENO, messages) those of the source
        const pad = '\n'.repeat(line - 1);
        for (let l = rd.nextLine(); l !== null; l = rd.nextLine()) {
          const at = rd.srcPos;
          if (at > echoed) {
            const nl = orig.src.indexOf('\n', at - 1), end = nl < 0 ? orig.src.length : nl + 1;
            const raw = orig.src.slice(echoed, end);
            echoed = end;
            if (this.opts.verbose) await this.writeFd(2, raw.endsWith('\n') ? raw : raw + '\n').catch(() => undefined);
          }
          text += l;
          parsed = parseScript(pad + text, this.posix);
          if (!parsed.error || !parsed.error.err.incomplete || rd.done) break;
        }
        if (!parsed) break;
        this.setSource(parsed.src, orig.name);
        if (orig.base !== undefined || shift !== 0) this.source.base = base + shift;
        const list = parsed.file.Stmts;
        for (let i = 0; i < list.length; i++) {
          try {
            st = await this.stmt(list[i]!);
          } catch (e) {
            if (!(e instanceof DiscardSignal) || (e.hard && !scriptFile)) throw e;
            st = this.status = e.status;
            // (the chunks that follow count their lines from the failing command's, see discardShift)
            shift += this.discardDelta(list[i]!)?.d ?? 0;
            break;
          }
        }
        if (parsed.error) {
          if (deferred) deferred.error = parsed.error;
          return st;
        }
        for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) === 10) line++;
      }
    } finally {
      this.source = orig;
    }
    return st;
  }

  /** Whether `b` follows `a` on the same source line (`a; b`), i.e. bash parsed them together. */
  private sameLine(a: Stmt, b: Stmt): boolean {
    if (!(a.Semicolon > 0)) return false;
    const src = this.source.src;
    for (let i = a.Semicolon; i < b.Position && i < src.length; i++) if (src.charCodeAt(i) === 10) return false;
    return true;
  }

  /**
   * bash's cleanup_dead_jobs, after the shell waited for a foreground command: finished jobs
   * leave the job table (until then `jobs` lists them as Done, and their numbers stay taken).
   */
  cleanupDeadJobs(): void {
    for (let i = 0; i < this.jobs.length; i++) { const j = this.jobs[i]!; if (j.status !== undefined) j.num = undefined; }
  }

  async waitAll(): Promise<void> {
    for (const j of this.jobs) await j.done.catch(() => undefined);
  }

  /** A trap other than EXIT: like `eval`, bash traces its commands one level deeper. */
  async evalTrap(t: string, line?: number): Promise<number> {
    this.traceLevel++;
    try { return await this.evalString(t, 'trap', line); } finally { this.traceLevel--; }
  }

  /** `line`: the script line the string counts its lines from (eval, traps). */
  async evalString(src: string, name: string, line?: number): Promise<number> {
    const prevSrc = this.source;
    const parsed = parseScript(src, this.posix);
    const f = parsed.file;
    const at = this.lineOf(this.curPos);
    this.setSource(parsed.src, prevSrc.name);
    if (line !== undefined && line > 1) this.source.base = line - 1;
    try {
      const st = await this.topLevel(f.Stmts, undefined, parsed);
      if (!parsed.error) return st;
    } finally {
      this.source = prevSrc;
    }
    const e = parsed.error;
    await this.syntaxError(e, `${this.errSourceName()}: ${name}: line ${at + e.line - 1}: `);
    // (bash's parse_matched_pair errors do not count: POSIX mode goes on after those)
    this.evalSyntaxError = !e.matchedPair;
    return e.status ?? 2;
  }
  /** evalString's string had a syntax error (read by `eval`). */
  evalSyntaxError = false;

  /** Prints a syntax error (found by reparse.ts) like bash: its message, then the offending line. */
  async syntaxError(e: DeferredParseError, prefix: string): Promise<void> {
    if (!e.message) return;
    if (e.raw) prefix = `${this.errName}: `;
    let out = `${prefix}${e.message}\n`;
    if (e.context !== undefined) out += `${prefix}\`${e.context}'\n`;
    await this.writeFd(2, out).catch(() => undefined);
  }

  // ---- statements ------------------------------------------------------------------------
  /**
   * Runs a statement list. The leading statements stmtSync can run take no promise at all (in
   * loop bodies, most often all of them): the status comes back as a number then, and hot loops
   * use it without an `await` (each costs a microtask turn).
   */
  stmts(list: Stmt[]): number | Promise<number> {
    for (let i = 0; i < list.length; i++) {
      const q = this.stmtSync(list[i]!);
      if (typeof q !== 'number') return this.stmtList(list, i, q ?? this.stmt(list[i]!));
    }
    return list.length === 0 ? 0 : this.status;
  }

  /** stmts() from `list[from]` on, whose run `first` has begun. */
  private async stmtList(list: Stmt[], from: number, first: Promise<number>): Promise<number> {
    let st = await first;
    // (index loops on hot paths: for…of allocates an iterator result per step until optimized)
    for (let i = from + 1; i < list.length; i++) {
      const q = this.stmtSync(list[i]!);
      st = typeof q === 'number' ? q : await (q ?? this.stmt(list[i]!));
    }
    return st;
  }

  /**
   * stmt() without a promise for the statements loops run most — assignments whose words expand
   * synchronously, and `((…))` whose expression does — taking the same steps as stmt() when
   * nothing around them waits (no pending signal or cancellation, no DEBUG trap, no xtrace; for
   * `((…))`, no errexit or ERR trap that its status could set off). undefined: nothing was done,
   * run stmt(). An error is handed to stmt() (`replayError`), which reports it like its own.
   * Keep in step with stmt().
   */
  private stmtSync(st: Stmt): number | Promise<number> | undefined {
    const c = st.Cmd;
    if (!c || st.Redirs.length !== 0 || st.Negated || st.Background) return undefined;
    if (this.pendingSigs.length > 0 || this.traps.has('DEBUG') || this.opts.xtrace || this.cancelStatus.value !== 0 || this.jobKill.sig !== 0) return undefined;
    // (a declined statement's error or arguments wait for the stmt() that runs it next)
    if (this.replayError !== undefined || this.replayArgs !== undefined || this.replayDecl !== undefined) return undefined;
    switch (c.type) {
      case 'CallExpr':
        if (c.Args.length !== 0) return this.commandSync(st, c);
        // (assignments without command substitution have status 0: no ERR trap, no errexit)
        if (!this.assignsOnlySync(c)) return undefined;
        this.startSync(st);
        try { return this.endSync(this.assignOnlySync(c, true)!); } catch (e) { this.replayError = { e }; return undefined; }
      case 'ArithmCmd':
        if (!c.X || !this.arith.canSync(c.X) || this.errexitArmed()) return undefined;
        this.startSync(st);
        try { return this.endSync(this.arithSync(c.X, c.Left + 2, c.Right) !== 0n ? 0 : 1); } catch (e) { this.replayError = { e: arithCmdError(e) }; return undefined; }
      case 'TestClause':
        if (!testSyncable(this, c.X) || this.errexitArmed()) return undefined;
        this.startSync(st);
        try {
          const r = evalTest(this, c.X);
          // (a promise only after an arithmetic error it reports)
          return typeof r === 'number' ? this.endSync(r) : r.then((v) => this.endSync(v));
        } catch (e) { this.replayError = { e }; return undefined; }
      case 'BinaryCmd':
        if (c.Op !== Tok.andAnd && c.Op !== Tok.orOr) return undefined;
        this.curPos = st.Position;
        return this.andOr(c);
      case 'CaseClause':
        return this.caseSync(st, c);
      case 'Block':
        this.curPos = st.Position;
        return this.stmts(c.Stmts);
      case 'DeclClause':
        return this.localSync(st, c);
      case 'IfClause': {
        this.curPos = st.Position;
        const r = this.ifFrom(c);
        return typeof r === 'number' ? (this.status = r) : r.then((v) => (this.status = v));
      }
      default:
        return undefined;
    }
  }

  /**
   * `x && y` / `x || y` (cmd() and stmtSync): each side through stmtSync, else stmt(); a promise
   * only once a side needs one. errexit is off while `x` runs.
   */
  private andOr(c: BinaryCmd): number | Promise<number> {
    let x: number | Promise<number>;
    this.noErrexit++;
    try { x = this.stmtSync(c.X) ?? this.stmt(c.X); } finally { this.noErrexit--; }
    if (typeof x !== 'number') return this.andOrRest(c, x);
    if ((c.Op === Tok.andAnd) !== (x === 0)) return x;
    return this.stmtSync(c.Y) ?? this.stmt(c.Y);
  }

  /** andOr once `x` went on with a promise (errexit stays off until it ends). */
  private async andOrRest(c: BinaryCmd, pending: Promise<number>): Promise<number> {
    let x: number;
    this.noErrexit++;
    try { x = await pending; } finally { this.noErrexit--; }
    if ((c.Op === Tok.andAnd) !== (x === 0)) return x;
    return this.stmtSync(c.Y) ?? this.stmt(c.Y);
  }

  /** `if`/`elif`/`else` from clause `cl` on: without a promise while its conditions and branch need none. */
  private ifFrom(cl: IfClause | null): number | Promise<number> {
    for (; cl; cl = cl.Else) {
      if (cl.Cond.length === 0) return this.stmts(cl.Then); // else branch
      let cond: number | Promise<number>;
      this.noErrexit++;
      try { cond = this.stmts(cl.Cond); } finally { this.noErrexit--; }
      if (typeof cond !== 'number') return this.ifAfter(cl, cond);
      if (cond === 0) return this.stmts(cl.Then);
    }
    return 0;
  }

  /** ifFrom once a condition went on with a promise (errexit stays off while it runs). */
  private async ifAfter(cl: IfClause, pending: Promise<number>): Promise<number> {
    let cond: number;
    this.noErrexit++;
    try { cond = await pending; } finally { this.noErrexit--; }
    return cond === 0 ? this.stmts(cl.Then) : this.ifFrom(cl.Else);
  }

  /** stmtSync's first steps, stmt()'s: the position, and the command $BASH_COMMAND shows. */
  private startSync(st: Stmt): void {
    this.curPos = commandPos(st);
    if (this.trapDepth === 0) { this.curCmd = st; this.curCmdSrc = this.source.src; }
  }

  /** stmtSync's last steps, stmt()'s: the status in $? and PIPESTATUS. */
  private endSync(status: number): number {
    this.setPipestatus(status);
    this.status = status;
    return status;
  }

  /** An error of stmtSync, thrown again by the stmt() that runs the same statement next. */
  private replayError: { e: unknown } | undefined;

  /** Hands what a statement stmtSync began rejected with to stmt(), to handle as its own. */
  private replayIn(st: Stmt, e: unknown): Promise<number> {
    this.replayError = { e };
    return this.stmt(st);
  }

  /** Whether a failing status would set off errexit or the ERR trap (stmt() handles those). */
  private errexitArmed(): boolean {
    return this.noErrexit === 0 && (this.opts.errexit || this.traps.has('ERR'));
  }

  /**
   * stmtSync for a simple command whose first word is the literal name of a function or a
   * SyncBuiltin (no prefix assignment) and whose words expand synchronously: the steps of stmt()
   * and call() without a promise, a function's body through callFunc (a promise once it needs
   * one). When a builtin declines, its expanded arguments wait in `replayArgs` for the call()
   * that stmt() makes next (expansions can have side effects).
   */
  private commandSync(st: Stmt, c: CallExpr): number | Promise<number> | undefined {
    const ps = c.Args[0]!.Parts, p0 = ps[0];
    const name = ps.length === 1 && p0?.type === 'Lit' ? p0.Value : '';
    // (POSIX mode finds a special builtin before a function)
    const fn = this.posix && specialBuiltins.has(name) ? undefined : this.funcs.get(name);
    const b = fn === undefined && !this.disabled?.has(name) ? syncBuiltins.get(name) : undefined;
    if ((fn === undefined && b === undefined) || c.Assigns.length !== 0 || this.opts.noexec || this.errexitArmed() || !this.ex.canSyncAll(c.Args)) return undefined;
    this.startSync(st);
    this.lastSubstStatus = undefined;
    let args: string[], r: number | Promise<number> | undefined;
    try {
      args = this.ex.fieldsSync(c.Args);
      this.vars.lastArg = args[args.length - 1]!;
      r = fn !== undefined ? this.callFunc(name, fn, args.slice(1)) : b!(this, args);
    } catch (e) {
      // (return, break and continue unwind to their function or loop as they would from stmt())
      if (e instanceof ReturnSignal || e instanceof LoopSignal) throw e;
      this.replayError = { e };
      return undefined;
    }
    if (r === undefined) { this.replayArgs = { c, args }; return undefined; }
    if (typeof r === 'number') return this.endSync(r);
    // (what the function's body rejects with goes to stmt() to handle as its own)
    return r.then((v) => this.endSync(v), (e: unknown) => this.replayIn(st, e));
  }
  /**
   * stmtSync for `local NAME[=VALUE]…` whose values expand synchronously (builtins' localSync).
   * When localSync declines after the values were expanded, they wait in `replayDecl` for the
   * declClause() that stmt() makes next.
   */
  private localSync(st: Stmt, c: DeclClause): number | undefined {
    if (c.Variant.Value !== 'local' || c.Args.length === 0 || this.funcDepth === 0 || this.errexitArmed()) return undefined;
    for (const a of c.Args) if (!a.Name || a.Index || a.Array || a.Append || (a.Naked && (a.Value || declWords.has(a.Name.Value))) || (a.Value && !this.ex.canSync(a.Value))) return undefined;
    this.startSync(st);
    const items: DeclItem[] = [];
    let r: number | undefined;
    try {
      for (const a of c.Args) items.push({ name: a.Name!.Value, value: a.Naked ? undefined : a.Value ? this.ex.literalSync(a.Value, 'assign') : '' });
      r = localSync(this, items);
    } catch (e) { this.replayError = { e }; return undefined; }
    if (r === undefined) { this.replayDecl = { c, items }; return undefined; }
    return this.endSync(r);
  }
  /** Items localSync expanded for a `local` that declined to run without a promise. */
  private replayDecl: { c: DeclClause; items: DeclItem[] } | undefined;

  /** Arguments commandSync expanded for a builtin that declined to run without a promise. */
  private replayArgs: { c: CallExpr; args: string[] } | undefined;

  async stmt(st: Stmt): Promise<number> {
    if (this.cancelStatus.value !== 0) throw new ExitSignal(this.cancelStatus.value);
    if (this.jobKill.sig !== 0) throw new ExitSignal(128 + this.jobKill.sig);
    if (this.pendingSigs.length > 0) await this.runPendingTraps();
    this.curPos = commandPos(st);
    const cmdPos = this.curPos;
    if (st.Background) {
      await this.background(st);
      this.status = 0;
      return 0;
    }
    if (!st.Cmd || tracedCmd.has(st.Cmd.type)) {
      // (a command of redirections only is a simple command for bash; the empty one a bare `!`
      // makes has no text: $BASH_COMMAND keeps the previous command)
      if (this.trapDepth === 0 && (st.Cmd || st.Redirs.length)) { this.curCmd = st; this.curCmdSrc = this.source.src; }
      if (this.traps.has('DEBUG')) await this.debugTrap();
    } else if (st.Cmd?.type === 'Subshell') { this.subshellCommand(st); this.subshellStmt = st; }
    let status: number;
    // (bash ignores failures under `!` only when errexit is on as it starts: else a `set -e`
    // inside a function it calls, or the ERR trap, still sees them)
    const negIgnore = st.Negated && this.opts.errexit;
    if (negIgnore) this.noErrexit++;
    const psf = this.procSubstCleanups.length;
    try {
      const replay = this.replayError;
      if (replay !== undefined) { this.replayError = undefined; throw replay.e; }
      const c = st.Cmd;
      // (a simple command without redirections goes straight to call(), assignments without a promise at all)
      const quick = c && c.type === 'CallExpr' && st.Redirs.length === 0 ? this.assignOnlySync(c) : undefined;
      status = quick ?? await (c && st.Redirs.length === 0 ? (c.type === 'CallExpr' ? this.call(c) : this.cmd(c)) : this.stmtInner(st));
    } catch (e) {
      if (e instanceof ShellError) {
        await this.err(e.message);
        // bash -c exits 127 after a fatal expansion error at its top level; a script file or a subshell exits 1
        if (e.fatal) throw new ExitSignal(this.cMode && this.subshell === 0 && e.status === 127 ? 127 : 1);
        if (e instanceof DiscardError) throw this.posix && this.commandBuiltin === 0 && !e.hard ? this.forceEof(e.status) : e.exitsUnderErrexit && this.opts.errexit ? new ExitSignal(e.status) : new DiscardSignal(e.status, e.hard);
        status = e.status;
      } else if (e instanceof ArithError) {
        if (st.Cmd?.type === 'DeclClause') e.inBuiltin(st.Cmd.Variant.Value === 'nameref' ? 'declare' : st.Cmd.Variant.Value);
        await this.err(e.report());
        // (an error in a subscript jumps to the top level even there, as bash's does)
        if ((st.Cmd?.type === 'ArithmCmd' || st.Cmd?.type === 'LetClause' || (st.Cmd?.type === 'ForClause' && st.Cmd.Loop.type === 'CStyleLoop')) && !e.subscript) status = 1;
        else throw this.posix && this.commandBuiltin === 0 ? this.forceEof(1) : new DiscardSignal(1, e.hard);
      } else if (e instanceof ExitSignal || e instanceof DiscardSignal || e instanceof ReturnSignal || e instanceof LoopSignal || isSigPipe(e)) {
        throw e;
      } else {
        // never let an internal error escape as a crash of the worker
        await this.err(`internal error: ${(e as Error)?.message ?? String(e)}`);
        if (process.env['HPATCH_INTERP_DEBUG']) console.error(e);
        status = 1;
      }
    } finally {
      if (negIgnore) this.noErrexit--;
      this.releaseProcSubst(psf);
    }
    if (st.Cmd && st.Cmd.type !== 'BinaryCmd' && errexitApplies(st.Cmd)) this.setPipestatus(status);
    if (st.Negated) status = status === 0 ? 1 : 0;
    this.status = status;
    if (status !== 0 && !st.Negated && this.noErrexit === 0 && st.Cmd && (errexitApplies(st.Cmd) || this.redirFailed === st)) {
      if (st !== this.noErrTrap) await this.errTrap(cmdPos);
      if (this.opts.errexit) throw new ExitSignal(status);
    }
    return status;
  }

  /** A `( … )` about to run: bash shows it in $BASH_COMMAND then, but only while an ERR trap is set. */
  private subshellCommand(st: Stmt): void {
    if (this.trapDepth === 0 && this.traps.has('ERR')) { this.curCmd = st; this.curCmdSrc = this.source.src; }
  }

  /** Runs the ERR trap; `pos`: the failed command ($LINENO in the trap is its line). */
  async errTrap(pos?: number): Promise<void> {
    const t = this.traps.get('ERR');
    if (t === undefined || this.inErrTrap) return;
    this.inErrTrap = true;
    const saved = this.status;
    const savedPos = this.curPos;
    if (pos !== undefined) this.curPos = pos;
    this.trapDepth++;
    const ps = this.pipestatusNow();
    try { await this.evalTrap(t, this.lineOf(this.curPos)); } finally { this.inErrTrap = false; this.status = saved; this.curPos = savedPos; this.trapDepth--; this.setPipestatus(ps); }
  }
  inErrTrap = false;

  /** PIPESTATUS's values now: bash keeps them across the ERR and DEBUG traps. */
  private pipestatusNow(): number[] {
    const v = this.vars.globalVar('PIPESTATUS');
    return v?.arr ? [...v.arr.values()].map(Number) : [this.status];
  }

  /** Runs the RETURN trap (end of a function or a sourced file); $? is preserved. */
  async returnTrap(): Promise<void> {
    const t = this.traps.get('RETURN');
    if (t === undefined || this.inReturnTrap) return;
    this.inReturnTrap = true;
    const saved = this.status;
    this.trapDepth++;
    try { await this.evalTrap(t, this.lineOf(this.curPos)); } finally { this.inReturnTrap = false; this.status = saved; this.trapDepth--; }
  }
  inReturnTrap = false;

  /**
   * The command being run, for $BASH_COMMAND: a statement of the source text `curCmdSrc`, or the
   * text of a loop/case head (two fields, not a pair: this is set for every statement).
   */
  curCmd: Stmt | string | undefined;
  curCmdSrc = '';
  /** $BASH_COMMAND's text of curCmd. */
  curCmdText(): string {
    const c = this.curCmd;
    return typeof c === 'string' || !c ? c ?? '' : printCommand(this.curCmdSrc, c);
  }

  /** Runs the DEBUG trap before a simple command, `[[`, `((`; $? is preserved. */
  async debugTrap(): Promise<void> {
    const t = this.traps.get('DEBUG');
    if (t === undefined || this.inDebugTrap) return;
    this.inDebugTrap = true;
    const saved = this.status;
    const savedPos = this.curPos;
    this.trapDepth++;
    const ps = this.pipestatusNow();
    try { await this.evalTrap(t, this.lineOf(this.curPos)); } finally { this.inDebugTrap = false; this.status = saved; this.curPos = savedPos; this.trapDepth--; this.setPipestatus(ps); }
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

  async declClause(c: DeclClause): Promise<number> {
    let variant = c.Variant.Value;
    if (variant === 'nameref') variant = 'declare';
    try {
      const replay = this.replayDecl;
      if (replay !== undefined) {
        this.replayDecl = undefined;
        if (replay.c === c) { this.vars.lastArg = declLastArg(variant, replay.items); return await declare(this, variant, replay.items); }
      }
      return await declClause(this, c.Variant.Value === 'nameref' ? 'declare' : variant, c.Variant.Value === 'nameref' ? [{ type: 'Assign', Append: false, Naked: true, Name: null, Index: null, Value: { type: 'Word', Parts: [{ type: 'Lit', ValuePos: 0, ValueEnd: 0, Value: '-n' }] }, Array: null }, ...c.Args] : c.Args);
    } catch (e: any) {
      // (`declare -p >&-`: a write error, reported as callArgs reports a builtin's)
      if (e && typeof e.code === 'string' && (e.code === 'EBADF' || e.code === 'EIO' || e.code === 'ENOSPC')) {
        await this.err(`${variant}: write error: ${errnoMsg(e)}`);
        return 1;
      }
      throw e;
    }
  }

  private async stmtInner(st: Stmt): Promise<number> {
    if (!st.Cmd) {
      return this.withRedirs(st.Redirs, async () => 0, true);
    }
    if (st.Redirs.length === 0) return this.cmd(st.Cmd);
    // `exec` with only redirections makes them permanent
    const dashes = (w: Word | undefined): boolean => w === undefined || (w.Parts.length === 1 && w.Parts[0]!.type === 'Lit' && w.Parts[0]!.Value === '--');
    const a0 = st.Cmd.type === 'CallExpr' && st.Cmd.Args.length <= 2 && dashes(st.Cmd.Args[1]) && st.Cmd.Args[0]?.Parts.length === 1 ? st.Cmd.Args[0]!.Parts[0] : undefined;
    if (a0 && a0.type === 'Lit' && a0.Value === 'exec' && st.Cmd.type === 'CallExpr') {
      if (this.opts.xtrace && st.Cmd.Assigns.length === 0) await this.trace(st.Cmd.Args.length > 1 ? ['exec', '--'] : ['exec']);
      if (!this.posix) await this.applyRedirs(st.Redirs, this.fds);
      else {
        // (a POSIX special builtin's failed redirection exits the shell)
        try { await this.applyRedirs(st.Redirs, this.fds); } catch (e) {
          if (!(e instanceof ShellError)) throw e;
          await this.err(e.message);
          throw new ExitSignal(e.status);
        }
      }
      // (prefix assignments: as for any special builtin, kept only in POSIX mode)
      return st.Cmd.Assigns.length === 0 ? 0 : this.call(st.Cmd);
    }
    // a simple command expands its words before its redirections (bash order)
    if (st.Cmd.type === 'CallExpr') return this.call(st.Cmd, st.Redirs);
    let ran = false;
    const inRedir = st.Redirs.some(redirectsStdin);
    if (inRedir) this.stdinRedirected++;
    // (a declaration is a simple command too: its xtrace line goes to the stderr before its redirections)
    const traced = st.Cmd.type === 'DeclClause' && this.opts.xtrace && this.traceStderr === undefined;
    if (traced) this.traceStderr = this.fds.get(2);
    let r: number;
    try { r = await this.withRedirs(st.Redirs, () => { ran = true; return this.cmd(st.Cmd!); }); } finally { if (inRedir) this.stdinRedirected--; if (traced) this.traceStderr = undefined; }
    if (!ran && r !== 0) this.redirFailed = st; // a compound command's failed redirection: set -e/ERR apply
    return r;
  }
  redirFailed: Stmt | undefined;
  /** Set by a builtin's usage error (bash's EX_USAGE…): a POSIX special builtin run directly then exits the shell. */
  usageFailed = false;
  /** `command` builtins running: POSIX mode's assignment errors under them do not exit. */
  commandBuiltin = 0;
  /** bash's jump_to_top_level(FORCE_EOF) in POSIX mode: exit, with 127 at the top of `-c`. */
  forceEof(status = 1): ExitSignal { return new ExitSignal(this.cMode && this.subshell === 0 ? 127 : status); }

  /** In a pipeline stage that is a `while` loop: the stage's own pipe (its stdin), see readAheadFd. */
  stageStdin: OsFd | undefined;

  /**
   * The stdin a `while` loop may read ahead from (instead of a byte at a time, as bash reads a
   * pipe so that a command run later gets the rest): only the pipe of a pipeline stage that is
   * this very loop, so nothing reads it after the loop, and only when the loop runs nothing but
   * builtins that read through the same buffer or not at all: no other process, no subshell
   * command, no function, alias, eval or trap.
   */
  private readAheadFd(c: Extract<Command, { type: 'WhileClause' }>): OsFd | undefined {
    const f = this.stageStdin;
    if (!f || this.fds.get(0) !== f || this.traps.size > 0 || (this.aliases.size > 0 && this.shopt.has('expand_aliases'))) return undefined;
    const names = loopCommands(c);
    if (!names) return undefined;
    for (const n of names) if (this.funcs.has(n)) return undefined;
    return f;
  }

  async background(st: Stmt, coproc = false): Promise<void> {
    const sub = coproc ? this.clone() : this.dropCoprocFds(this.clone());
    sub.inBackground = true;
    // bash without job control: an async command reads /dev/null, unless its stdin is redirected
    // (by the command itself, by a compound command around it, or a pipe into its pipeline
    // stage); an async pipeline keeps the shell's stdin
    const pipeline = st.Cmd?.type === 'BinaryCmd' && (st.Cmd.Op === Tok.or || st.Cmd.Op === Tok.orAnd);
    if (this.stdinRedirected === 0 && !pipeline && !st.Redirs.some(redirectsStdin)) sub.fds.set(0, openFile('/dev/null', fs.constants.O_RDONLY));
    sub.jobKill = { sig: 0 };
    const inner: Stmt = { ...st, Background: false };
    if (st.Cmd?.type === 'CallExpr') sub.noErrTrap = inner; // bash execs an async simple command: no ERR trap
    let spawnedPid = 0;
    let spawned: (pid: number) => void = () => undefined;
    const first = new Promise<number>((res) => { spawned = res; });
    sub.onSpawn = (pid) => { spawnedPid = pid; spawned(pid); sub.onSpawn = undefined; };
    const job: Job = { id: ++jobSeq, pid: 0, done: Promise.resolve(0) };
    // a lone builtin (no process to wait for, for `$!`) starts after the shell went on, like a forked child usually does
    const a0 = inner.Cmd?.type === 'CallExpr' && inner.Cmd.Args[0]?.Parts.length === 1 ? inner.Cmd.Args[0].Parts[0] : undefined;
    // (it still runs before the shell's next external command: see settleLoneJobs)
    const lone = a0?.type === 'Lit' && builtins.has(a0.Value) && !this.disabled?.has(a0.Value) && !this.funcs.has(a0.Value) && !getPrivateCommand(a0.Value) && !['eval', 'source', '.', 'command', 'builtin', 'exec', 'trap', 'wait', 'kill', 'jobs', 'fg', 'bg', 'disown', 'read', 'mapfile', 'readarray'].includes(a0.Value);
    // bash forks once for the job: a simple command is exec'd there (its pid is `$!`); anything
    // else runs in that subshell, `( list ) &` too (not in a subshell of it)
    const external = inner.Cmd?.type === 'CallExpr' && inner.Cmd.Args.length > 0 && !lone && !(a0?.type === 'Lit' && (this.funcs.has(a0.Value) || (builtins.has(a0.Value) && !this.disabled?.has(a0.Value))));
    const list = inner.Cmd?.type === 'Subshell' && inner.Redirs.length === 0 ? inner.Cmd.Stmts : undefined;
    let pending: { start: () => void; done: Promise<number> } | undefined;
    const body = lone ? async (s: Shell) => {
      await new Promise<void>((r) => { pending = { start: r, get done() { return job.done; } }; loneJobs.add(pending); setImmediate(r); });
      loneJobs.delete(pending!);
      return s.stmt(inner);
    } : list ? (s: Shell) => s.stmts(list) : (s: Shell) => s.stmt(inner);
    let killed: (status: number) => void = () => undefined;
    const ran = this.runSubshell(body, sub);
    job.done = Promise.race([ran, new Promise<number>((r) => { killed = r; })])
      .then((x) => { job.status = x; if (sub.killedBy && x === 128 + sub.killedBy) job.signal = sub.killedBy; return x; });
    job.done.catch(() => undefined);
    const pid = lone ? 0 : await Promise.race([first, ran.then(() => 0), new Promise<number>((r) => setTimeout(() => r(0), 30))]);
    job.pid = external && pid ? pid : sub.bashpid;
    if (job.pid === sub.bashpid) {
      // an in-process job (its pid is virtual): a signal ends it like a forked subshell (it stops
      // before its next statement, its status is 128+n at once; a command it is running goes on,
      // as bash's children do) unless it traps or ignores the signal
      job.kill = (sig) => {
        if (job.status !== undefined) return false;
        if (external && spawnedPid) { try { process.kill(spawnedPid, sig); } catch { /* gone */ } return true; }
        if (!sub.signalEnds(sig)) return true;
        sub.jobKill.sig = sig;
        sub.killedBy = sig;
        killed(128 + sig);
        return true;
      };
    }
    // bash's job number: one more than the highest job still in its table (finished jobs are dropped)
    job.num = 1 + Math.max(0, ...this.jobs.filter((j) => j.num !== undefined).map((j) => j.num!));
    job.cmd = this.source.src.slice(st.Position, st.Semicolon).trimEnd();
    this.jobs.push(job);
    this.lastBgPid = job.pid;
  }
  /** `coproc [NAME] cmd`: a background job whose stdin and stdout are pipes to the shell, at the
   * fds in NAME[1] and NAME[0] (bash's: the highest free ones below 64, 63 and 60 at first). */
  async coproc(c: CoprocClause): Promise<number> {
    const name = c.Name ? await this.ex.literal(c.Name) : 'COPROC';
    const toCo = makePipe(), fromCo = makePipe();
    const saved = this.fds, t = saved.clone();
    t.set(0, toCo.r); t.set(1, fromCo.w);
    this.fds = t;
    this.stdinRedirected++; // (its stdin is the pipe, not background()'s /dev/null)
    try { await this.background({ ...c.Stmt, Background: true }, true); } finally { this.fds = saved; t.releaseAll(); this.stdinRedirected--; }
    // bash opens both pipes at high fds, then closes the coprocess's ends (the 2nd and 3rd)
    const free: number[] = [];
    for (let n = 63; n > 2 && free.length < 4; n--) if (!this.fds.get(n)) free.push(n);
    const rfd = free[0] ?? 63, wfd = free[3] ?? 60;
    this.fds.set(rfd, fromCo.r);
    this.fds.set(wfd, toCo.w);
    this.vars.unset(name);
    this.vars.setElem(name, '0', String(rfd));
    this.vars.setElem(name, '1', String(wfd));
    this.vars.set(`${name}_PID`, String(this.lastBgPid));
    this.coprocFds = new Map([[rfd, fromCo.r], [wfd, toCo.w]]);
    return 0;
  }

  /**
   * A signal sent to this in-process shell (a job or subshell, whose pid is virtual): a trapped
   * one runs its trap before the next statement, an ignored or non-terminating one does nothing;
   * true when it ends the shell instead.
   */
  signalEnds(sig: number): boolean {
    const trap = this.traps.get(sigKey(sig));
    if (trap !== undefined) { if (trap !== '') this.pendingSigs.push(sigKey(sig)); return false; }
    return endsProcess(sig);
  }
  onSpawn: ((pid: number) => void) | undefined;
  /** No status message for a command killed by a signal (command substitutions, non-last pipeline stages). */
  quietSignals = false;
  /** Signal that killed the last external command (0: it exited). */
  killedBy = 0;

  async cmd(c: Command): Promise<number> {
    switch (c.type) {
      case 'CallExpr': return this.call(c);
      case 'Block': return this.stmts(c.Stmts);
      case 'Subshell': {
        // (a pipeline stage that is a `( … )` is that subshell itself: no second level)
        if (this.stageSubshell === c) { this.stageSubshell = undefined; return this.stmts(c.Stmts); }
        const sub = this.dropCoprocFds(this.clone());
        // (a `( … )` that kills itself is reported by the parent, as this command at its line)
        if (this.subshellStmt?.Cmd === c) sub.ownCmd = { stmt: this.subshellStmt, src: this.source.src, line: this.lineOf(this.curPos) };
        const r = await this.runSubshell((s) => s.stmts(c.Stmts), sub); this.cleanupDeadJobs(); return r;
      }
      case 'BinaryCmd': {
        return c.Op === Tok.andAnd || c.Op === Tok.orOr ? this.andOr(c) : this.pipeline(c);
      }
      case 'IfClause': return this.ifFrom(c);
      case 'WhileClause': {
        let st = 0;
        this.loopDepth++;
        const ahead = this.readAheadFd(c);
        if (ahead) ahead.readAhead++;
        try {
          for (;;) {
            const y = loopTick(); if (y) await y;
            this.noErrexit++;
            let cond: number;
            try { const r = this.stmts(c.Cond); cond = typeof r === 'number' ? r : await r; } catch (e) {
              if (e instanceof LoopSignal) { this.noErrexit--; if (await this.loopSignal(e)) break; else { this.noErrexit++; continue; } }
              throw e;
            } finally { this.noErrexit = Math.max(0, this.noErrexit - 1); }
            if ((cond === 0) === c.Until) break;
            try { const r = this.stmts(c.Do); st = typeof r === 'number' ? r : await r; } catch (e) {
              if (e instanceof LoopSignal) { st = e.status; if (await this.loopSignal(e)) break; continue; }
              throw e;
            }
          }
        } finally { this.loopDepth--; if (ahead) ahead.readAhead--; }
        return st;
      }
      case 'ForClause': return this.forClause(c);
      case 'FuncDecl': {
        const bad = badFuncNames.get(c.Name.Value) ?? (/[\\'"`$]/.test(c.Name.Value) ? c.Name.Value : undefined);
        if (bad !== undefined) {
          await this.err(`\`${bad}': not a valid identifier`);
          if (this.posix) throw new ExitSignal(2);
          return 1;
        }
        if (this.posix && (specialBuiltins.has(c.Name.Value) || !isName(c.Name.Value))) {
          this.curPos = lastPos(c); // (bash reports the line the definition ends on)
          await this.err(`\`${c.Name.Value}': ${isName(c.Name.Value) ? 'is a special builtin' : 'not a valid identifier'}`);
          throw new ExitSignal(2);
        }
        if (this.funcAttrs.get(c.Name.Value)?.includes('r')) { await this.err(`${c.Name.Value}: readonly function`); return 1; }
        this.funcs.set(c.Name.Value, c.Body);
        this.funcSrc.set(c.Name.Value, this.source.src);
        this.funcSource.set(c.Name.Value, this.source);
        this.funcDefLine.set(c.Name.Value, this.lineOf(c.Position));
        return 0;
      }
      case 'CaseClause': return this.caseClause(c);
      case 'ArithmCmd': {
        let v: bigint;
        if (this.opts.xtrace) {
          // (bash shows the text expanded)
          let t = this.source.src.slice(c.Left + 2, c.Right);
          if (/[$`]/.test(t) && !/\$\((?!\()|`/.test(t)) { const w = arithTextWord(t); if (w) t = (await this.ex.heredoc(w)).replace(/\n$/, ''); }
          await this.traceRaw(`(( ${t} ))`);
        }
        try { v = await this.arithAst(c.X, c.Left + 2, c.Right); } catch (e) { throw arithCmdError(e); }
        return v !== 0n ? 0 : 1;
      }
      case 'LetClause': {
        let v = 0n;
        if (this.opts.xtrace) {
          const words = c.Exprs.map((e) => {
            const r = arithRange(this.source.src, e);
            const t = r ? this.source.src.slice(r[0], r[1]) : '';
            return /^(['"]).*\1$/s.test(t) ? t.slice(1, -1) : t;
          });
          await this.trace(['let', ...words]);
        }
        for (const e of c.Exprs) {
          let r = arithRange(this.source.src, e);
          if (r && /^(['"]).*\1$/s.test(this.source.src.slice(r[0], r[1]))) r = [r[0] + 1, r[1] - 1];
          this.arith.inLet = true;
          try { v = await this.arithAst(e, r?.[0], r?.[1]); } catch (err) {
            if (err instanceof ArithError && err.expr && !err.subscript) {
              err.expr = 'let: ' + err.expr.trim(); // (a word: no blanks around it)
              if (err.token !== undefined) err.token = err.token.replace(/\s+$/, '');
              else err.message = err.message.replace(/\s+("\))$/, '$1');
            }
            throw err;
          } finally { this.arith.inLet = false; }
        }
        return v !== 0n ? 0 : 1;
      }
      case 'TestClause': {
        if (this.opts.xtrace) return evalTestTraced(this, c.X);
        return evalTest(this, c.X);
      }
      case 'DeclClause': return this.declClause(c);
      case 'TimeClause': {
        const t0 = process.hrtime.bigint();
        const st = c.Stmt ? await this.stmt(c.Stmt) : 0;
        const dt = Number(process.hrtime.bigint() - t0) / 1e9;
        const fmt = (x: number): string => `${Math.floor(x / 60)}m${(x % 60).toFixed(3)}s`;
        const tf = c.PosixFormat ? undefined : this.vars.get('TIMEFORMAT');
        if (tf !== undefined) {
          const bad = /%(.?)/.exec(tf.replace(/%(?:[0-9]?l?[RUS]|P|%)/g, ''));
          if (bad) await this.err(`TIMEFORMAT: \`${bad[1]}': invalid format character`);
          else if (tf !== '') await this.writeFd(2, timeFormat(tf, dt) + '\n');
          return st;
        }
        await this.writeFd(2, c.PosixFormat ? `real ${dt.toFixed(2)}\nuser 0.00\nsys 0.00\n` : `\nreal\t${fmt(dt)}\nuser\t0m0.000s\nsys\t0m0.000s\n`);
        return st;
      }
      case 'CoprocClause': return this.coproc(c);
      case 'TestDecl':
        return 0;
    }
  }

  /** Handles break/continue: returns true to break out of this loop. */
  private async loopSignal(e: LoopSignal): Promise<boolean> {
    if (e.levels > 1) { e.levels--; throw e; }
    return e.kind === 'break';
  }

  /** bash also runs the DEBUG trap before a `for` iteration, each `for ((…))` part and `case`. */
  private async headDebugTrap(pos: number, text?: () => string): Promise<void> {
    this.curPos = pos; // ($LINENO in a loop head is the head's line)
    if (!this.traps.has('DEBUG')) return;
    if (text && this.trapDepth === 0) this.curCmd = text();
    await this.debugTrap();
  }

  private async forClause(c: ForClause): Promise<number> {
    let st = 0;
    this.loopDepth++;
    try {
      if (c.Loop.type === 'WordIter') {
        const name = c.Loop.Name.Value;
        if (!isName(name)) { await this.err(`\`${name}': not a valid identifier`); return 1; }
        const items = c.Loop.InPos ? await this.ex.fields(c.Loop.Items) : this.params.slice();
        if (c.Select) return await this.selectLoop(name, items, c);
        const head = (): string => `for ${name}${c.Loop.type === 'WordIter' && c.Loop.InPos ? ` in ${c.Loop.Items.map((w) => wordSource(this.source.src, w) ?? '').join(' ')}` : ''}`;
        for (let k = 0; k < items.length; k++) {
          const y = loopTick(); if (y) await y;
          const it = items[k]!;
          if (this.traps.has('DEBUG')) await this.headDebugTrap(c.ForPos, head); else this.curPos = c.ForPos;
          // (bash traces the loop head, words unexpanded, before each iteration)
          if (this.opts.xtrace) await this.traceRaw(c.Loop.type === 'WordIter' && c.Loop.InPos ? head() : `for ${name} in "$@"`);
          // (a nameref loop variable is pointed at each word in turn, like bash)
          const ref = this.vars.raw(name);
          if (ref?.nameref && !ref.readonly) ref.str = it;
          else if (!this.posix) this.vars.set(name, it);
          else {
            // (POSIX mode: a readonly loop variable exits the shell)
            try { this.vars.set(name, it); } catch (e) {
              if (!(e instanceof ShellError) || !/readonly variable$/.test(e.message)) throw e;
              await this.err(e.message);
              throw this.forceEof(1);
            }
          }
          try { const r = this.stmts(c.Do); st = typeof r === 'number' ? r : await r; } catch (e) {
            if (e instanceof LoopSignal) { st = e.status; if (await this.loopSignal(e)) break; continue; }
            throw e;
          }
        }
        return st;
      }
      const L = c.Loop;
      // $BASH_COMMAND for each part: `((text))`, the source up to its `;`/`))`, leading blanks dropped
      const part = (e: ArithmExpr | null) => (): string => {
        const r = e ? arithRange(this.source.src, e) : undefined;
        if (!r) return '(())';
        const src = this.source.src;
        let end = r[1];
        while (end < src.length && (src[end] === ' ' || src[end] === '\t')) end++;
        return `((${src.slice(r[0], end)}))`;
      };
      // xtrace: `(( text ))` for each part as evaluated, its text expanded; an empty part is `1`
      const traceHead = async (e: ArithmExpr | null): Promise<void> => {
        if (!this.opts.xtrace) return;
        let t = e ? part(e)().slice(2, -2) : '1';
        if (/[$`]/.test(t) && !/\$\((?!\()|`/.test(t)) { const w = arithTextWord(t); if (w) t = (await this.ex.heredoc(w)).replace(/\n$/, ''); }
        await this.traceRaw(`(( ${t} ))`);
      };
      await this.headDebugTrap(c.ForPos, part(L.Init));
      await traceHead(L.Init);
      // (an arithmetic error in the head ends the loop with status 1, like a failed `((…))`)
      const headError = async (e: unknown): Promise<number> => {
        if (!(e instanceof ArithError) || e.subscript) throw e; // (a subscript's: see stmt())
        await this.err((arithCmdError(e) as ArithError).report());
        return 1;
      };
      try { if (L.Init) await this.arithAst(L.Init); } catch (e) { return await headError(e); }
      for (;;) {
        const y = loopTick(); if (y) await y;
        if (this.traps.has('DEBUG')) await this.headDebugTrap(c.ForPos, part(L.Cond)); else this.curPos = c.ForPos;
        await traceHead(L.Cond);
        try {
          if (L.Cond && (this.arith.canSync(L.Cond) ? this.arithSync(L.Cond) : await this.arithAst(L.Cond)) === 0n) break;
        } catch (e) { return await headError(e); }
        try { const r = this.stmts(c.Do); st = typeof r === 'number' ? r : await r; } catch (e) {
          if (e instanceof LoopSignal) { st = e.status; if (await this.loopSignal(e)) break; }
          else throw e;
        }
        if (this.traps.has('DEBUG')) await this.headDebugTrap(c.ForPos, part(L.Post)); else this.curPos = c.ForPos;
        await traceHead(L.Post);
        try {
          if (L.Post) { if (this.arith.canSync(L.Post)) this.arithSync(L.Post); else await this.arithAst(L.Post); }
        } catch (e) { return await headError(e); }
      }
      return st;
    } finally { this.loopDepth--; }
  }

  private async selectLoop(name: string, items: string[], c: ForClause): Promise<number> {
    // bash's select_query: the menu is shown first and again after an empty reply; EOF prints a
    // newline on stdout and ends the loop with status 1
    let st = 0;
    let showMenu = true;
    // (bash traces the head once, words unexpanded)
    if (this.opts.xtrace) await this.traceRaw(`select ${name} in ${c.Loop.type === 'WordIter' && c.Loop.InPos ? c.Loop.Items.map((w) => wordSource(this.source.src, w) ?? '').join(' ') : '"$@"'}`);
    for (;;) {
      let menu = '';
      if (showMenu) items.forEach((it, i) => { menu += `${i + 1}) ${it}\n`; });
      await this.writeFd(2, menu + (this.vars.get('PS3') ?? '#? '));
      const line = await readLine(this, 0, '\n', -1, false);
      if (line !== null) this.vars.set('REPLY', line.text.replace(/\\([\s\S])/g, '$1'));
      if (line === null || line.eof) { await this.writeFd(1, '\n'); return 1; }
      const reply = this.vars.get('REPLY') ?? '';
      if (reply === '') { showMenu = true; continue; }
      const m = /^[ \t\n]*([-+]?[0-9]+)[ \t\n]*$/.exec(reply);
      const n = m ? Number(m[1]) : 0;
      this.vars.set(name, n >= 1 && n <= items.length ? items[n - 1]! : '');
      try { const r = this.stmts(c.Do); st = typeof r === 'number' ? r : await r; } catch (e) {
        if (!(e instanceof LoopSignal)) throw e;
        if (await this.loopSignal(e)) break;
      }
      showMenu = this.vars.get('REPLY') === '';
    }
    return st;
  }

  private async caseClause(c: CaseClause): Promise<number> {
    await this.headDebugTrap(c.Case, () => `case ${wordSource(this.source.src, c.Word) ?? ''} in `);
    if (this.opts.xtrace) await this.traceRaw(`case ${wordSource(this.source.src, c.Word) ?? ''} in`);
    return this.caseFrom(c, await this.ex.literal(c.Word), 0, false, 0);
  }

  /**
   * stmtSync for `case` whose word and patterns all expand synchronously: the word is expanded and
   * the items run as caseClause runs them (a promise once a body needs one).
   */
  private caseSync(st: Stmt, c: CaseClause): number | Promise<number> | undefined {
    let sync = syncCases.get(c);
    if (sync === undefined) syncCases.set(c, sync = this.ex.canSync(c.Word) && c.Items.every((it) => this.ex.canSyncAll(it.Patterns)));
    if (!sync) return undefined;
    this.curPos = c.Case;
    let r: number | Promise<number>;
    // (an error, or break/continue/return from a body, goes to stmt() to handle as its own)
    try { r = this.caseFrom(c, this.ex.literalSync(c.Word), 0, false, 0); } catch (e) { this.replayError = { e }; return undefined; }
    if (typeof r === 'number') return (this.status = r);
    return r.then((v) => (this.status = v), (e: unknown) => this.replayIn(st, e));
  }

  /**
   * The items of `case` from `i` on for the word's value `w`: the first whose pattern matches (or,
   * after `;&`, the next) runs, and its `;;&` / `;&` go on; `st` is the status if none runs.
   * Patterns are expanded in order until one matches, bodies run through stmts(): a promise only
   * once one of them needs it.
   */
  private caseFrom(c: CaseClause, w: string, i: number, fall: boolean, st: number): number | Promise<number> {
    for (; i < c.Items.length; i++) {
      const it = c.Items[i]!;
      const m = fall || this.caseMatch(it, w);
      if (m instanceof Promise) {
        const k = i;
        return m.then((yes) => (yes ? this.caseBody(c, w, k) : this.caseFrom(c, w, k + 1, false, st)));
      }
      if (m) return this.caseBody(c, w, i);
    }
    return st;
  }

  /** Runs item `i` of `case`, then what its terminator says. */
  private caseBody(c: CaseClause, w: string, i: number): number | Promise<number> {
    const op = c.Items[i]!.Op;
    const next = (st: number): number | Promise<number> =>
      op === Tok.semiAnd || op === Tok.dblSemiAnd ? this.caseFrom(c, w, i + 1, op === Tok.semiAnd, st) : st;
    const r = this.stmts(c.Items[i]!.Stmts);
    return typeof r === 'number' ? next(r) : r.then(next);
  }

  /** Whether one of the item's patterns matches `w` (expanded in order, up to the first that does). */
  private caseMatch(it: CaseClause['Items'][number], w: string, from = 0): boolean | Promise<boolean> {
    const ps = it.Patterns, nocase = this.shopt.has('nocasematch');
    for (let k = from; k < ps.length; k++) {
      const p = ps[k]!;
      const m = nocase ? null : this.ex.constMatcher(p);
      if (m !== null) { if (m(w)) return true; continue; }
      if (!this.ex.canSync(p)) return this.ex.pattern(p).then((pat) => this.casePatternMatches(pat, w) || this.caseMatch(it, w, k + 1));
      if (this.casePatternMatches(this.ex.patternSync(p), w)) return true;
    }
    return false;
  }

  private casePatternMatches(pat: string, w: string): boolean {
    return matchExtPattern(pat, w, this.shopt.has('nocasematch'), this.ex);
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
    // (only for simple commands: a stage that is `((…))` or `[[…]]` does both in its subshell; a
    // `( … )` stage sets $BASH_COMMAND when an ERR trap is set, as one outside a pipeline does)
    for (let i = 0; i < (this.shopt.has('lastpipe') ? n - 1 : n); i++) {
      const sst = stages[i]!.st;
      if (this.trapDepth > 0) continue;
      if (sst.Cmd?.type === 'Subshell') { this.subshellCommand(sst); continue; }
      if (sst.Cmd && !simpleCmd.has(sst.Cmd.type)) continue;
      this.curCmd = sst; this.curCmdSrc = this.source.src;
      this.curPos = sst.Position;
      if (this.traps.has('DEBUG')) await this.debugTrap();
    }
    const pipes = [];
    for (let i = 0; i < n - 1; i++) pipes.push(makePipe());
    const subs: Shell[] = [];
    for (let i = 0; i < n; i++) {
      const s = this.dropCoprocFds(this.clone());
      if (i > 0) { s.fds.set(0, pipes[i - 1]!.r); s.stdinRedirected++; }
      const sst = stages[i]!.st;
      if (i > 0 && sst.Cmd?.type === 'WhileClause' && sst.Redirs.length === 0 && !sst.Background && !(i === n - 1 && this.shopt.has('lastpipe'))) s.stageStdin = pipes[i - 1]!.r;
      // bash runs a simple command in its pipeline child and exits: its failure runs no ERR trap there
      // (nor does a `( … )` stage there: the shell runs ERR for the last stage when it waits for it)
      if (sst.Cmd && (simpleCmd.has(sst.Cmd.type) || sst.Cmd.type === 'Subshell') && !(i === n - 1 && this.shopt.has('lastpipe'))) s.noErrTrap = sst;
      if (sst.Cmd?.type === 'Subshell' && !(i === n - 1 && this.shopt.has('lastpipe'))) s.stageSubshell = sst.Cmd;
      if (i < n - 1) {
        s.quietSignals = true;
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
    this.cleanupDeadJobs();
    const lastSt = stages[n - 1]!.st;
    if (lastSt.Cmd?.type === 'Subshell' && !lastSt.Negated && !this.shopt.has('lastpipe') && results[n - 1] !== 0 && this.noErrexit === 0) {
      // bash waits for a last stage that is a `( … )` as for one outside a pipeline: its failure
      // runs the ERR trap, and exits under errexit, before the pipeline's own status is looked at
      this.status = results[n - 1]!;
      await this.errTrap(lastSt.Position);
      if (this.opts.errexit) throw new ExitSignal(results[n - 1]!);
    }
    let st = results[n - 1]!;
    if (this.opts.pipefail) { for (let i = n - 1; i >= 0; i--) if (results[i] !== 0) { st = results[i]!; break; } }
    return st;
  }

  setPipestatus(results: number[] | number): void {
    // after most commands: one status, and the variable is still the one set here (updated in place)
    const cur = this.vars.globalVar('PIPESTATUS');
    const one = typeof results === 'number' ? results : results.length === 1 ? results[0]! : undefined;
    if (one !== undefined && cur !== undefined && cur === this.pipestatusVar && cur.arr?.size === 1 && cur.arr.has(0) && onlyArr(cur)) {
      cur.arr.set(0, STATUS_TEXT[one] ?? String(one));
      return;
    }
    const list = typeof results === 'number' ? [results] : results;
    const v: Var = { arr: new Map(list.map((r, i) => [i, String(r)])) };
    this.pipestatusVar = v;
    this.vars.putGlobal('PIPESTATUS', v);
  }
  /** The PIPESTATUS variable setPipestatus created last. */
  private pipestatusVar: Var | undefined;

  // ---- substitutions ---------------------------------------------------------------------
  async cmdSubst(stmts: Stmt[], right?: number, inHeredoc = false): Promise<string> {
    // $(< file)
    if (stmts.length === 1 && stmts[0]!.Cmd === null && stmts[0]!.Redirs.length === 1 && stmts[0]!.Redirs[0]!.Op === Tok.rdrIn) {
      const p = await this.ex.literal(stmts[0]!.Redirs[0]!.Word);
      let text: string;
      try { text = (await readPath(this.openBuf(p))).toString('latin1'); } catch (e: any) {
        if (e?.code === 'EISDIR') { this.status = this.lastSubstStatus = 0; return ''; } // (opens; reading fails quietly)
        await this.err(`${p}: ${errnoMsg(e)}`);
        this.status = this.lastSubstStatus = 1;
        return '';
      }
      this.status = this.lastSubstStatus = 0;
      if (text.includes('\0')) {
        text = text.replace(/\0/g, '');
        await this.err('warning: command substitution: ignored null byte in input').catch(() => undefined);
      }
      return text.replace(/\n+$/, '');
    }
    const p = makePipe();
    const sub = this.clone();
    if (!this.posix && !this.shopt.has('inherit_errexit')) sub.opts.errexit = false;
    sub.traceLevel++;
    sub.quietSignals = true;
    sub.fds.set(1, p.w);
    p.w.retain(); p.w.release();
    p.r.retain();
    // (a `$( )` spanning lines or holding compound commands: bash's line numbers, see SourceInfo)
    if (right !== undefined && stmts.length && this.source.src.charCodeAt(right) === 41) {
      // (in a here-document bash parses the text as it expands the body: lines from the command's)
      const lo = stmts[0]!.Position;
      if (inHeredoc) sub.source = { ...this.source, comsub: { lo, hi: right, base: this.lineOf(this.curPos), at: stmts.map((s) => [s.Position, this.lineOf(s.Position) - this.lineOf(lo)]) } };
      else if (stmts.length > 1 || (stmts[0]!.Cmd && stmts[0]!.Cmd.type !== 'CallExpr') || this.source.src.slice(lo, right).includes('\n')) {
        sub.source = { ...this.source, comsub: { lo, hi: right, base: this.lineOf(right), at: stmtLines(this.source.src, stmts) } };
      }
    }
    const reading = readAll(p.r);
    const st = await this.runSubshell((s) => s.stmts(stmts), sub);
    let out = (await reading).toString('latin1');
    p.r.release();
    this.cleanupDeadJobs();
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

  /** `<(<file)`: like `$(<file)`, the file's contents (bash does this for process substitution too). */
  async catFile(w: Word): Promise<number> {
    const p = await this.ex.literal(w);
    let data: Buffer;
    try { data = await readPath(this.openBuf(p)); } catch (e: any) {
      await this.err(`${p}: ${errnoMsg(e)}`);
      return 1;
    }
    await this.writeFd(1, data);
    return 0;
  }

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
    sub.quietSignals = true;
    let opened = false;
    // (the cleanup's end of a FIFO nobody opened, held until the subshell's open is through)
    let partner: number | undefined;
    const done = new Promise<number>((resolve) => {
      fs.open(fifo, out ? 'r' : 'w', (err, fd) => {
        opened = true;
        if (partner !== undefined) { try { fs.closeSync(partner); } catch { /* */ } partner = undefined; }
        if (err) { resolve(1); return; }
        sub.fds.set(out ? 0 : 1, new OsFd(fd, undefined, true, 'procsubst'));
        resolve(this.runSubshell((s) => (!out && isFileRead(p.Stmts) ? s.catFile(p.Stmts[0]!.Redirs[0]!.Word!) : s.stmts(p.Stmts)), sub));
      });
    });
    const job: Job = { id: ++jobSeq, pid: virtualPid(), done, procsub: true };
    this.jobs.push(job);
    this.lastBgPid = job.pid; // bash sets $! to the process substitution (`wait $!` waits for it)
    this.procSubstCleanups.push(() => {
      if (!opened) {
        // nobody opened the other end: the subshell's open, waiting in a libuv thread (or still
        // queued for one), gets a partner. Both ends at once (O_RDWR never blocks, never fails
        // for want of a reader), kept until that open returns: a partner closed sooner, or a
        // writer-only one refused (ENXIO) while the thread had found the FIFO but not yet joined
        // it as a reader, left it waiting on an unlinked FIFO for ever, and `wait` with it.
        try { partner = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK); } catch { /* */ }
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
      this.arithErrorSource(err, start, end, e);
      throw err;
    }
  }

  /** arithAst without awaiting; only when arith.canSync(e). */
  arithSync(e: ArithmExpr, start?: number, end?: number): bigint {
    try {
      return this.arith.evalSync(e);
    } catch (err) {
      this.arithErrorSource(err, start, end, e);
      throw err;
    }
  }

  /** An error in `a[…]`'s subscript inside an expression: bash reports the text between the brackets. */
  private subscriptError(err: unknown, p: ParamExp): void {
    if (!(err instanceof ArithError) || err.expr) return;
    const src = this.source.src, r = arithRange(src, p.Index!);
    let end = r?.[1];
    if (end !== undefined) { while (src[end] === ' ' || src[end] === '\t' || src[end] === '\n') end++; if (src[end] !== ']') end = undefined; }
    if (end !== undefined && src[p.Param.ValueEnd] === '[') this.arithErrorSource(err, p.Param.ValueEnd + 1, end);
    else this.arithErrorSource(err, undefined, undefined, p.Index!);
    // (bash evaluates it apart and its error jumps to the top level: it ends a `-c` string)
    if (err.expr) { err.subscript = true; err.hard = true; }
  }

  private arithErrorSource(err: unknown, start?: number, end?: number, e?: ArithmExpr): void {
    if (err instanceof ArithError && !err.expr && err.tokenPos === undefined && err.textExpr !== undefined) {
      // (an error in text the expression expanded to: bash reports that text)
      err.expr = err.textExpr;
      err.textToken();
      if (err.message === 'exponent less than 0' && err.textTokenPos !== undefined) err.token = powErrorToken(err.textExpr.slice(err.textTokenPos));
      return;
    }
    if (err instanceof ArithError && start === undefined && e) [start, end] = arithRange(this.source.src, e) ?? [];
    if (err instanceof ArithError && start !== undefined && end !== undefined && !err.expr) {
      const src = this.source.src;
      // (bash shows the text after its expansions: `$1 / 0` with $1=3 is `3 / 0`)
      const values = e ? this.arith.wordValues(e) : undefined;
      const text = (a: number, b: number): string => values?.size ? spliceRange(src, a, b, values) : src.slice(a, b);
      err.expr = text(start, err.srcEnd ?? end);
      if (err.srcEnd !== undefined && /[$`]/.test(err.expr)) err.expr = err.numberText;
      if (rawArith.size && err.expr.includes('__hpA')) err.expr = err.expr.replace(/ ?(__hpA\d+) \n*/g, (m, n: string) => rawArith.get(n) ?? m);
      if (err.tokenPos !== undefined && err.token === undefined) {
        err.token = text(err.tokenPos, end).replace(/^\s+/, '');
        if (err.message === 'exponent less than 0') err.token = powErrorToken(err.token);
      }
    }
  }

  // ---- redirections ----------------------------------------------------------------------
  pathBuf(p: string): Buffer { return Buffer.from(path.resolve(this.cwd, p), 'latin1'); }

  /**
   * pathBuf for a file to open: /dev/stdin, /dev/stdout, /dev/stderr and /dev/fd/N name this
   * shell's fds (`t`: the table being redirected), not the process's, which an in-process
   * subshell or pipeline stage does not share. Opened again through /proc, as bash's are.
   */
  openBuf(p: string, t: FdTable = this.fds): Buffer {
    const m = /^\/dev\/(?:(stdin)|(stdout)|(stderr)|fd\/(\d+))$/.exec(p);
    if (!m) return this.pathBuf(p);
    const f = t.get(m[1] ? 0 : m[2] ? 1 : m[3] ? 2 : Number(m[4]));
    // (never the process's own fd of that number: one of Node's, or another job's)
    if (!f) throw Object.assign(new Error(`${p}: no such fd`), { code: 'ENOENT' });
    return Buffer.from(`/proc/self/fd/${f.fd}`);
  }

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

  /** The variable of a `{var}` redirection: a name, or an array element (`{a[1]}`). */
  private setFdVar(v: string, n: string): void {
    const m = /^([^[]+)\[(.*)\]$/.exec(v);
    if (m) this.vars.setElem(m[1]!, this.vars.resolve(m[1]!)?.assoc ? m[2]! : String(hardArith(() => this.arith.evalString(m[2]!))), n);
    else this.vars.set(v, n);
  }
  private getFdVar(v: string): string | undefined {
    const m = /^([^[]+)\[(.*)\]$/.exec(v);
    if (m) return this.vars.getElem(m[1]!, this.vars.resolve(m[1]!)?.assoc ? m[2]! : String(hardArith(() => this.arith.evalString(m[2]!))));
    return this.vars.get(v);
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
        fdn = defaultRedirFd(r.Op);
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
        // (restricted: every open for writing, `>&FILE` included, is refused)
        // (bash names a `{var}>FILE` redirection by its variable here)
        if ((flags & (C.O_WRONLY | C.O_RDWR)) !== 0) { const re = redirectError(this, varName ?? p); if (re) throw new ShellError(re, 1); }
        if (this.opts.noclobber && (r.Op === Tok.rdrOut || r.Op === Tok.rdrAll)) {
          try { if (fs.statSync(this.pathBuf(p)).isFile()) throw new ShellError(`${p}: cannot overwrite existing file`, 1); } catch (e) { if (e instanceof ShellError) throw e; }
        }
        this.applyUmask();
        if (p === '') throw new ShellError(': No such file or directory', 1); // (open(2) of "")
        try { return await openPath(this.openBuf(p, t), flags); } catch (e: any) {
          throw new ShellError(`${p}: ${errnoMsg(e)}`, 1);
        }
      };
      const place = (f: OsFd): void => {
        if (varName) { const n = alloc(); t.set(n, f); this.setFdVar(varName, String(n)); }
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
          const w = await target(); // (globbed and split like a file name: one word or an ambiguous redirect)
          if (w === '-') { if (varName) { const n = Number(this.getFdVar(varName)); t.set(n, undefined); } else t.set(fdn, undefined); break; }
          const m = /^(\d+)(-?)$/.exec(w);
          if (!m) {
            if (r.Op === Tok.dplOut && (!r.N || r.N.Value === '1')) { // (`>&FILE` and `1>&FILE`: stdout and stderr)
              const f = await open(C.O_WRONLY | C.O_CREAT | C.O_TRUNC);
              t.set(1, f); t.set(2, f);
              break;
            }
            throw new ShellError(`${w}: ambiguous redirect`, 1);
          }
          const src = t.get(Number(m[1]));
          if (!src) {
            // (bash's redirection_error guesses which fd is bad: the target of a literal `<&5`
            // or `5-`; for an expanded word, the word as written when it is dup'd onto the
            // default fd, else the fd being set)
            const p0 = r.Word!.Parts[0];
            const lit = r.Word!.Parts.length === 1 && p0?.type === 'Lit' && /^\d+-?$/.test(p0.Value);
            const which = lit || varName ? m[1]! : !m[2] && fdn === defaultRedirFd(r.Op) ? (wordSource(this.source.src, r.Word!) ?? m[1]!) : String(fdn);
            throw new ShellError(`${which}: Bad file descriptor`, 1);
          }
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
    if (this.assignValueSync(a)) return;
    try {
      await this.assignValue1(a);
    } catch (e) {
      throw this.assignError(e);
    }
  }

  /** call() for a command of assignments only, when all expand synchronously (no xtrace); undefined otherwise. */
  private assignOnlySync(c: CallExpr, checked = false): number | undefined {
    if (this.opts.xtrace || (!checked && !this.assignsOnlySync(c))) return undefined;
    const as = c.Assigns;
    this.lastSubstStatus = undefined;
    this.vars.lastArg = '';
    for (let i = 0; i < as.length; i++) this.assignValueSync(as[i]!, true);
    return this.lastSubstStatus ?? 0;
  }

  /** Whether `c` is assignments only, each of which expands synchronously. */
  private assignsOnlySync(c: CallExpr): boolean {
    if (c.Args.length !== 0) return false;
    const as = c.Assigns;
    for (let i = 0; i < as.length; i++) if (!this.canAssignSync(as[i]!)) return false;
    return true;
  }

  private canAssignSync(a: Assign): boolean {
    if (badAssigns.size && badAssigns.has(a.Name!.Value)) return false; // assignValue1 reports it
    return !a.Array && (!a.Value || this.ex.canSync(a.Value)) && (!a.Index || this.canSyncSubscript(a.Index));
  }

  /** assignValue without awaiting when its words expand synchronously; false (nothing done) otherwise. */
  assignValueSync(a: Assign, checked = false): boolean {
    if (!checked && !this.canAssignSync(a)) return false;
    const name = a.Name!.Value;
    if (badAssigns.size && badAssigns.has(name)) return false;
    try {
      // as assignValue1
      const val = a.Value ? this.ex.literalSync(a.Value, 'assign') : '';
      if (a.Index) this.vars.setElem(name, this.assocKeyChecked(a, this.subscriptTextSync(name, a.Index)), val, a.Append);
      else this.vars.set(name, val, a.Append);
    } catch (e) {
      throw this.assignError(e);
    }
    return true;
  }

  private assignError(e: unknown): unknown {
    if (e instanceof ShellError && !e.fatal && !(e instanceof DiscardError) && /readonly variable$|^\S+\[.*\]: bad array subscript$/.test(e.message)) return new DiscardError(e.message, 1, false, true);
    return e;
  }

  /** assignValue1 of a scalar under xtrace: the trace shows the expanded word before it is assigned (as bash, with the PS4 before it). */
  private async assignTraced(a: Assign): Promise<void> {
    const name = a.Name!.Value;
    let val: string;
    try { val = a.Value ? await this.ex.literal(a.Value, 'assign') : ''; } catch (e) { throw this.assignError(e); }
    await this.traceRaw(`${name}${a.Index ? `[${arithSource(this.source.src, a.Index) ?? ''}]` : ''}${a.Append ? '+=' : '='}${traceWord(val, this.vars.utf8Locale(), true)}`);
    try {
      if (a.Index) this.vars.setElem(name, this.assocKeyChecked(a, await this.subscriptText(name, a.Index)), val, a.Append);
      else this.vars.set(name, val, a.Append);
    } catch (e) { throw this.assignError(e); }
  }

  /** An associative array's key in `a[k]=v`: an empty one is bash's error (the rest of the line is dropped). */
  private assocKeyChecked(a: Assign, key: string): string {
    if (key === '' && this.vars.resolve(a.Name!.Value)?.assoc) throw new DiscardError(`${a.Name!.Value}[${arithSource(this.source.src, a.Index!) ?? ''}]: bad array subscript`, 1, false, true);
    return key;
  }

  private async assignValue1(a: Assign): Promise<void> {
    const name = a.Name!.Value;
    const bad = badAssigns.size ? badAssigns.get(name) : undefined;
    if (bad) throw bad.discard ? new DiscardError(bad.message) : new ShellError(bad.message, 1);
    if (a.Array) {
      await this.assignArray(name, a, false);
      return;
    }
    const val = a.Value ? await this.ex.literal(a.Value, 'assign') : '';
    if (a.Index) {
      const idx = this.assocKeyChecked(a, await this.subscriptText(name, a.Index));
      this.vars.setElem(name, idx, val, a.Append);
      return;
    }
    this.vars.set(name, val, a.Append);
  }

  /** `traced`: a declaration's array under xtrace, shown as bash does once its values are expanded (`+ a=('x' ['3']='y')`). */
  async assignArray(name: string, a: Assign, assocHint: boolean, traced = false, decl = false): Promise<void> {
    const ref = this.vars.raw(name);
    // (a nameref without a target becomes the array; a plain assignment warns)
    if (ref?.nameref && ref.str === undefined) { if (!decl) await this.err(`warning: ${name}: removing nameref attribute`); ref.nameref = false; }
    let v = this.vars.resolve(name);
    if (v?.readonly) throw new ShellError(`${name}: readonly variable`, 1);
    const isAssoc = !!v?.assoc || assocHint;
    const elems = a.Array!.Elems;
    if (isAssoc) {
      const m = a.Append && v?.assoc ? new Map(v.assoc) : new Map<string, string>();
      if (elems.length && !elems[0]!.Index) {
        // bash 5.1+: `(key value key value …)`; later `[k]=v` words are plain keys or values here
        const words: string[] = [];
        for (const el of elems) {
          let w = el.Value ? await this.ex.literal(el.Value, 'none') : '';
          if (el.Index) w = `[${await this.assocKey(el.Index)}]=${w}`;
          words.push(w);
        }
        for (let i = 0; i < words.length; i += 2) m.set(words[i]!, v ? this.vars.applyAttrs(v, words[i + 1] ?? '') : words[i + 1] ?? '');
      } else {
        const shown: string[] = [];
        for (const el of elems) {
          if (el.Index) {
            const k = await this.assocKey(el.Index);
            // bash 5.2 does not expand a tilde after `[key]=` in associative arrays
            const x = el.Value ? await this.ex.literal(el.Value, 'none') : '';
            // (`[k]+=v` appends to the value before this assignment, or the current one with `+=(…)`)
            const val = appendElems.has(el) ? ((a.Append ? m.get(k) : v?.assoc?.get(k)) ?? '') + x : x;
            m.set(k, v ? this.vars.applyAttrs(v, val) : val);
            if (traced) shown.push(`[${singleQuote(k)}]=${singleQuote(x)}`);
          } else if (el.Value) {
            // (bash shows the word as written, single-quoted in a `declare`)
            let w = wordSource(this.source.src, el.Value) ?? `'${await this.ex.literal(el.Value, 'none')}'`;
            if (decl) w = singleQuote(w);
            await this.err(`${name}: ${w}: must use subscript when assigning associative array`);
          }
        }
        if (traced) await this.traceRaw(`${name}${a.Append ? '+=' : '='}(${shown.join(' ')})`);
      }
      if (!v) { v = this.vars.lvalue(name); }
      v.assoc = m; v.arr = undefined; v.str = undefined; v.declOnly = undefined;
      return;
    }
    // bash expands every value first, then clears the array and assigns the elements in
    // order; a `[i]` subscript is evaluated when its element is assigned (it sees the
    // elements assigned before it)
    const items: ({ idx: ArithmExpr; val: string; append?: boolean } | { vals: string[] })[] = [];
    for (const el of elems) {
      // `[i]=a{b,c}`: brace expansion makes the whole element plain words (`[i]=ab` `[i]=ac`)
      const braced = el.Index && el.Value && braceExpand(el.Value)[0] !== el.Value ? this.elemWord(el) : undefined;
      if (braced) items.push({ vals: await this.ex.fields([braced]) });
      else if (el.Index) items.push({ idx: el.Index, val: el.Value ? await this.ex.literal(el.Value, 'assign') : '', append: appendElems.has(el) });
      else if (el.Value) items.push({ vals: await this.ex.fields([el.Value]) });
    }
    if (traced) {
      const shown = items.map((it) => ('idx' in it ? `[${singleQuote(arithSource(this.source.src, it.idx) ?? '')}]=${singleQuote(it.val)}` : it.vals.map(singleQuote).join(' ')));
      await this.traceRaw(`${name}${a.Append ? '+=' : '='}(${shown.filter((x) => x !== '').join(' ')})`);
    }
    const m = a.Append && v?.arr ? v.arr : a.Append && v?.str !== undefined ? new Map([[0, v.str]]) : new Map<number, string>();
    const w = this.vars.lvalue(name);
    w.arr = m; w.assoc = undefined; w.str = undefined; w.declOnly = undefined;
    let next = maxKey(m) + 1;
    const put = (i: number, x: string): void => { m.set(i, this.vars.applyAttrs(w, x)); };
    for (const it of items) {
      if ('idx' in it) {
        let i = Number(await this.arithAst(it.idx));
        if (i < 0) {
          const max = maxKey(m);
          if (max + 1 + i < 0) { await this.err(`[${arithSource(this.source.src, it.idx) ?? i}]=${it.val}: bad array subscript`); continue; }
          i = max + 1 + i;
        }
        if (it.append && m.has(i)) {
          const old = m.get(i)!;
          m.set(i, w.integer ? String(hardArith(() => this.arith.evalString(old)) + hardArith(() => this.arith.evalString(it.val))) : old + it.val);
        } else put(i, it.val);
        next = i + 1;
      } else for (const f of it.vals) put(next++, f);
    }
  }


  /** An indexed element `[i]=v` of an array literal as one word of its source text. */
  private elemWord(el: ArrayElem): Word | undefined {
    const src = this.source.src, r = arithRange(src, el.Index!), v = el.Value ? wordRange(el.Value) : undefined;
    const lb = r ? src.lastIndexOf('[', r[0]) : -1;
    return lb < 0 || !v ? undefined : wordOfText(src.slice(lb, v[1]));
  }

  /**
   * A simple command, in bash's order: words and prefix-assignment values are expanded first,
   * then `redirs` are applied (so `echo $(cat f) > f` reads f before truncating it, and the
   * xtrace line goes to the stderr in effect before the command's own redirections).
   */
  private async call(c: CallExpr, redirs: Redirect[] = []): Promise<number> {
    this.lastSubstStatus = undefined;
    if (c.Args.length === 0) {
      this.vars.lastArg = '';
      for (const a of c.Assigns) {
        if (this.opts.xtrace && !a.Array && !(badAssigns.size && badAssigns.has(a.Name!.Value))) { await this.assignTraced(a); continue; }
        if (!this.assignValueSync(a)) await this.assignValue(a);
        if (this.opts.xtrace) {
          // (an array literal is traced as written: `+ a=(x "y z" $v)`)
          const lit = a.Array ? arrayLiteralSource(this.source.src, a.Array) : undefined;
          await this.traceRaw(`${a.Name!.Value}${a.Index ? `[${arithSource(this.source.src, a.Index) ?? ''}]` : ''}${a.Append ? '+=' : '='}${lit ?? traceWord((a.Index ? this.vars.getElem(a.Name!.Value, this.subscriptTextSync(a.Name!.Value, a.Index)) : this.vars.get(a.Name!.Value)) ?? '', false, true)}`);
        }
      }
      return redirs.length === 0 ? this.lastSubstStatus ?? 0 : this.assignOnlyRedirs(redirs);
    }
    const replay = this.replayArgs;
    if (replay !== undefined) this.replayArgs = undefined;
    const args = replay?.c === c ? replay.args : this.ex.canSyncAll(c.Args) ? this.ex.fieldsSync(c.Args) : await this.ex.fields(c.Args);
    this.vars.lastArg = args.length ? args[args.length - 1]! : '';
    if (args.length === 0) {
      for (const a of c.Assigns) await this.assignValue(a);
      return this.assignOnlyRedirs(redirs);
    }
    if (this.opts.noexec) return 0;
    // prefix assignments
    let temp: Map<string, Var> | undefined;
    const isSpecial = specialBuiltins.has(args[0]!) && (this.posix || !this.funcs.has(args[0]!));
    if (c.Assigns.length) {
      if (isSpecial && this.posix) {
        // (they stay, exported: bash keeps its temporary environment)
        for (const a of c.Assigns) {
          await this.assignValue(a);
          const v = a.Index ? undefined : this.vars.resolve(a.Name!.Value);
          if (v) v.exported = true;
        }
      } else {
        temp = new Map();
        tempScopes.add(temp);
        // each binding is visible to the values of the following ones (`a=1 b=$a cmd`)
        this.vars.pushScope(temp);
        try {
          for (const a of c.Assigns) {
            const name = a.Name!.Value;
            const bad = badAssigns.size ? badAssigns.get(name) : undefined;
            if (bad) { if (bad.discard && !bad.prefix) throw new DiscardError(bad.message); await this.err(bad.prefix ?? bad.message); continue; }
            // bash reports a readonly prefix assignment and still runs the command without it
            try { this.vars.checkWritable(name); } catch (e) {
              if (!(e instanceof ShellError)) throw e;
              await this.err(e.message);
              // (POSIX mode abandons the command and the rest of the line)
              if (this.posix) throw new DiscardSignal(1);
              continue;
            }
            let val = a.Value ? await this.ex.literal(a.Value, 'assign') : '';
            if (a.Append) val = (this.vars.get(name) ?? '') + val;
            temp.set(name, { str: val, exported: true });
          }
        } finally {
          this.vars.removeScope(temp);
        }
      }
    }
    if (this.opts.xtrace) {
      // (bash traces each prefix assignment on its own line)
      if (temp) for (const [k, v] of temp) await this.traceRaw(`${k}=${traceWord(v.str ?? '', this.vars.utf8Locale(), true)}`);
      await this.trace(args);
    }
    if (!temp && redirs.length === 0) return this.callArgs(args);
    const run = async (): Promise<number> => {
      if (!temp) return this.callArgs(args);
      this.vars.pushScope(temp);
      // (bash sets the locale of a builtin's or function's temporary LC_ variables, and back after)
      // (for another command only once it ran, when the binding is gone)
      let lc: string[] | undefined;
      for (const k of temp.keys()) if (LOCALE_VARS.has(k)) (lc ??= []).push(k);
      if (lc && (this.funcs.has(args[0]!) || builtins.has(args[0]!))) for (const k of lc) this.vars.localeChanged(k);
      try { return await this.callArgs(args, temp); } finally {
        this.vars.removeScope(temp);
        if (lc) for (const k of lc) this.vars.localeChanged(k);
      }
    };
    if (!redirs.length) return run();
    // (restricted: a disk command named with a `/` fails before its redirections are made)
    if (isRestricted(this) && args[0]!.includes('/') && !this.funcs.has(args[0]!) && !builtins.has(args[0]!)) return this.callArgs(args);
    if (!(isSpecial && this.posix)) return this.withRedirs(redirs, run);
    // (a POSIX special builtin's failed redirection exits the shell)
    let ran = false;
    const r = await this.withRedirs(redirs, () => { ran = true; return run(); });
    if (!ran) throw new ExitSignal(r);
    return r;
  }

  /** Redirections of a command without words (`x=1 >f`, `>f`): opened, then closed. */
  private async assignOnlyRedirs(redirs: Redirect[]): Promise<number> {
    const st = this.lastSubstStatus ?? 0;
    if (redirs.length === 0) return st;
    const r = await this.withRedirs(redirs, async () => 0, true);
    return r !== 0 ? r : st;
  }

  async trace(words: string[]): Promise<void> {
    const utf8 = this.vars.utf8Locale();
    await this.traceRaw(words.map((w) => traceWord(w, utf8)).join(' '));
  }

  async traceRaw(line: string): Promise<void> {
    let ps4 = this.vars.get('PS4') ?? '+ ';
    if (/[$`\\]/.test(ps4)) ps4 = await this.ex.promptString(ps4);
    const prefix = ps4 ? ps4[0]!.repeat(Math.max(0, this.traceLevel - 1)) + ps4 : '';
    // (only the command's own line: what the builtin traces as it assigns comes after the redirections)
    const pre = this.traceStderr;
    if (pre) { this.traceStderr = undefined; await writeAll(pre, `${prefix}${line}\n`); return; }
    // (BASH_XTRACEFD names an open fd for the trace; otherwise it goes to stderr)
    const xfd = this.vars.get('BASH_XTRACEFD');
    const fd = xfd !== undefined && /^[0-9]{1,4}$/.test(xfd) && this.fds.get(Number(xfd)) ? Number(xfd) : 2;
    await this.writeFd(fd, `${prefix}${line}\n`);
  }
  /** A declaration's stderr before its own redirections: bash traces it before it applies them. */
  private traceStderr: OsFd | undefined;

  /** Dispatch after expansion: function, builtin, private command, external. */
  async callArgs(args: string[], temp?: Map<string, Var>, opts: { noFunc?: boolean } = {}): Promise<number> {
    const name = args[0]!;
    if (!opts.noFunc && !(this.posix && specialBuiltins.has(name))) {
      const fn = this.funcs.get(name);
      if (fn) return this.callFunc(name, fn, args.slice(1));
    }
    const b = this.disabled?.has(name) ? undefined : builtins.get(name);
    if (b) {
      try {
        this.usageFailed = false;
        const st = await b(this, args);
        if (this.usageFailed) {
          this.usageFailed = false;
          // (POSIX: a special builtin's usage error exits the shell, unless run through `command`, or
          // where errexit would not act either: a condition, the left of `&&`/`||`, under `!`)
          if (this.posix && !opts.noFunc && this.noErrexit === 0 && specialBuiltins.has(name)) throw new ExitSignal(st);
        }
        return st;
      } catch (e: any) {
        if (e instanceof ArithError && ASSIGNING_BUILTINS.has(name)) e.inBuiltin(name);
        if (e && typeof e.code === 'string' && (e.code === 'EBADF' || e.code === 'EIO' || e.code === 'ENOSPC')) {
          await this.err(`${name}: write error: ${errnoMsg(e)}`);
          return 1;
        }
        throw e;
      }
    }
    const pc = getPrivateCommand(name);
    if (pc) return this.callPrivate(pc, args);
    const rs = slashCommandError(this, name);
    if (rs) { await this.err(rs); return 1; }
    return this.external(args, temp);
  }

  /**
   * Runs a function: without a promise when stmtSync takes its body whole and no RETURN trap is
   * set when it ends, else the rest through a promise (finishFunc).
   */
  callFunc(name: string, body: Stmt, args: string[]): number | Promise<number> {
    // (bash's FUNCNEST: past it the call abandons the command line, as execute_function's DISCARD)
    const nest = this.funcDepth > 0 ? this.vars.get('FUNCNEST') : undefined;
    if (nest !== undefined && /^\s*[0-9]{1,9}\s*$/.test(nest) && Number(nest) > 0 && this.funcDepth >= Number(nest)) {
      // (the line bash names: in a script file that of the calling function's definition in the
      // cases compared, under -c the call's; doc/interpreter.md "Not yet")
      const def = this.cMode ? undefined : this.funcDefLine.get(this.funcNames[this.funcNames.length - 1] ?? '');
      const line = def ?? this.lineOf(this.curPos);
      const msg = `${this.errSourceName()}: line ${line}: ${name}: maximum function nesting level exceeded (${this.funcDepth})\n`;
      return this.writeFd(2, msg).catch(() => undefined).then(() => { throw new DiscardSignal(1); });
    }
    const f = this.enterFunc(name, body, args);
    let r: number | Promise<number> | undefined;
    // Each level of recursion without a promise costs a few dozen JavaScript frames: past
    // SYNC_CALLS levels the body starts from a fresh stack, in a microtask.
    if (this.syncCalls >= SYNC_CALLS) return this.finishFunc(f, Promise.resolve().then(() => this.stmt(body)));
    this.syncCalls++;
    try { r = this.stmtSync(body); } catch (e) {
      if (!(e instanceof ReturnSignal)) { this.leaveFunc(f); throw e; }
      r = e.status;
    } finally { this.syncCalls--; }
    if (typeof r === 'number' && !this.traps.has('RETURN')) { this.leaveFunc(f); return r; }
    return this.finishFunc(f, r ?? this.stmt(body));
  }

  /** Function calls in progress on the JavaScript stack (callFunc without a promise). */
  private syncCalls = 0;

  /** callFunc once its body went on with a promise: `return`, the RETURN trap, then leaveFunc. */
  private async finishFunc(f: FuncFrame, body: number | Promise<number>): Promise<number> {
    try {
      let st: number;
      try { st = await body; } catch (e) {
        if (e instanceof ReturnSignal) st = e.status;
        else throw e;
      }
      await this.returnTrap();
      return st;
    } finally { this.leaveFunc(f); }
  }

  /** A function's frame: parameters, a scope, FUNCNAME/BASH_LINENO entries, its source, its traps. */
  private enterFunc(name: string, body: Stmt, args: string[]): FuncFrame {
    const f: FuncFrame = { params: this.params, source: this.source, pos: this.curPos, loop: this.loopDepth, ret: this.traps.get('RETURN'), debug: this.traps.get('DEBUG'), err: undefined, lastArg: args.length ? args[args.length - 1]! : name };
    this.params = args;
    this.vars.pushScope(new Map());
    this.funcDepth++;
    this.funcNames.push(name);
    this.funcLines.push(this.lineOf(this.curPos));
    const fsrc = this.funcSource.get(name);
    this.funcFiles.push(fsrc?.file ?? '');
    if (fsrc && this.funcs.get(name) === body) this.source = fsrc;
    this.loopDepth = 0;
    // bash: a RETURN trap is not inherited by functions (no functrace); one set inside fires on return.
    // Nor is the ERR trap without errtrace: one set inside is the function's, and stays after it
    // unless it is unset again (then the caller's comes back).
    if (!this.opts.errtrace) f.err = this.traps.get('ERR');
    if (f.ret !== undefined) this.traps.delete('RETURN');
    if (f.debug !== undefined) this.traps.delete('DEBUG');
    if (f.err !== undefined) this.traps.delete('ERR');
    return f;
  }

  /** `local -`: the set options as they were, restored when the function returns (per function depth). */
  localDash: Map<number, { opts: Options; setOpts: Map<string, boolean> }> | undefined;
  saveLocalOpts(): void {
    const m = (this.localDash ??= new Map());
    if (!m.has(this.funcDepth)) m.set(this.funcDepth, { opts: { ...this.opts }, setOpts: new Map(this.setOpts) });
  }

  private leaveFunc(f: FuncFrame): void {
    const dash = this.localDash?.get(this.funcDepth);
    if (dash) { this.localDash!.delete(this.funcDepth); Object.assign(this.opts, dash.opts); this.setOpts = dash.setOpts; }
    if (f.ret !== undefined) this.traps.set('RETURN', f.ret);
    if (f.debug !== undefined) this.traps.set('DEBUG', f.debug);
    if (f.err !== undefined && !this.traps.has('ERR')) this.traps.set('ERR', f.err);
    this.loopDepth = f.loop;
    this.source = f.source; this.curPos = f.pos;
    this.funcNames.pop();
    this.funcLines.pop();
    this.funcFiles.pop();
    this.funcDepth--;
    const sc = this.vars.popScope();
    const saved = sc && savedOpts.get(sc);
    if (saved) Object.assign(this.opts, saved); // (`local -`)
    this.params = f.params;
    this.vars.lastArg = f.lastArg; // ($_ is the call's last word again, not the body's)
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

  /** Running command_not_found_handle: a command it does not find is not handed to it again. */
  inCnfHandle = false;

  async external(args: string[], temp?: Map<string, Var>): Promise<number> {
    if (loneJobs.size) await settleLoneJobs();
    const name = args[0]!;
    const found = lookPath(this, name, true);
    const cnf = found.error === 'command not found' && !name.includes('/') && !this.inCnfHandle ? this.funcs.get('command_not_found_handle') : undefined;
    if (cnf) {
      // (bash runs the handler in a separate environment, with the command and its arguments)
      const sub = this.dropCoprocFds(this.clone());
      sub.inCnfHandle = true;
      return this.runSubshell(async (sh) => sh.callFunc('command_not_found_handle', cnf, args), sub);
    }
    if (found.error) {
      // a remembered file that vanished fails in bash's forked child, whose message has no line
      if (found.display && !this.cMode) await this.err(`${found.display}: ${found.error}`);
      else if (found.path) await this.writeFd(2, `${this.errName}: ${found.display ?? found.path}: ${found.error}\n`).catch(() => undefined);
      else await this.err(`${found.status === 127 && /[\x00-\x1f\x7f]/.test(name) && !name.includes('/') ? shellQuote(name) : name}: ${found.error}`); // (bash quotes a name with control characters)
      return found.status;
    }
    void temp;
    const script = noShebangScript(found.path!);
    if (script === 'binary') { await this.err(`${name}: cannot execute binary file: Exec format error`); return 126; }
    if (script && scriptRunner) return scriptRunner(this, script, args);
    return runExternal(this, found.path!, args);
  }
}

/** Whether a redirection's target is fd 0. */
function redirectsStdin(r: Redirect): boolean {
  return r.N ? r.N.Value === '0' : defaultRedirFd(r.Op) === 0;
}

/** The fd a redirection without a number applies to: 0 for input ones, else 1. */
function defaultRedirFd(op: number): number {
  return op === Tok.rdrIn || op === Tok.rdrInOut || op === Tok.dplIn || op === Tok.hdoc || op === Tok.dashHdoc || op === Tok.wordHdoc ? 0 : 1;
}

/** A variable with a value array and no other value or attribute. */
/** Statuses as text, made once ($? and PIPESTATUS are set after every statement). */
const STATUS_TEXT = Array.from({ length: 256 }, (_, i) => String(i));

let loopTicks = 0;
let lastYield = 0;
/**
 * Called by loops at each iteration. A loop whose body runs in-process never waits for the event
 * loop (statements chain microtasks, or run with no promise at all), so a CPU-bound one would keep
 * signal handlers (cancellation), timers and other in-process jobs from ever running: every ~10
 * ms it yields a turn of the event loop. (A counter first: reading the clock each time costs more.)
 */
function loopTick(): Promise<void> | undefined {
  if (++loopTicks < 128) return undefined;
  loopTicks = 0;
  const now = performance.now();
  if (now - lastYield < 10 && now >= lastYield) return undefined;
  lastYield = now;
  return new Promise((r) => setImmediate(r));
}

/** The position of the last token in an AST node (the largest position in it). */
function lastPos(n: unknown): number {
  if (Array.isArray(n)) return n.reduce((m: number, x) => Math.max(m, lastPos(x)), 0);
  if (!n || typeof n !== 'object') return 0;
  let max = 0;
  for (const [k, v] of Object.entries(n)) max = Math.max(max, typeof v === 'number' ? (k === 'Op' || k === 'Names' ? 0 : v) : lastPos(v));
  return max;
}

/** An arithmetic error in `((…))`: bash names the command in the message. */
function arithCmdError(e: unknown): unknown {
  if (e instanceof ArithError && !e.subscript) e.expr = '((: ' + e.expr.replace(/^[ \t]+/, '');
  return e;
}

function onlyArr(v: Var): boolean {
  return v.str === undefined && !v.assoc && !v.exported && !v.readonly && !v.integer && !v.lower && !v.upper && !v.capcase && !v.trace && !v.nameref && !v.local && !v.declOnly;
}

/** Builtins a read-ahead loop may run (see Shell.readAheadFd): they start no process and read stdin only through `read`. */
const readAheadSafe = new Set([':', 'true', 'false', 'echo', 'printf', 'test', '[', 'read', 'shift', 'break', 'continue', 'exit', 'unset', 'set', 'getopts', 'cd', 'pwd']);
const loopCmdCache = new WeakMap<object, Set<string> | null>();

/** The command names a loop runs, when all are literal readAheadSafe builtins and it has no substitution, function definition or background job; else null. */
function loopCommands(c: Command): Set<string> | null {
  let r = loopCmdCache.get(c);
  if (r === undefined) {
    const names = new Set<string>();
    r = onlySafeCommands(c, names) ? names : null;
    loopCmdCache.set(c, r);
  }
  return r;
}

function onlySafeCommands(n: unknown, names: Set<string>): boolean {
  if (Array.isArray(n)) { for (const x of n) if (!onlySafeCommands(x, names)) return false; return true; }
  if (n === null || typeof n !== 'object') return true;
  const o = n as Record<string, unknown>;
  switch (o['type']) {
    case 'CmdSubst': case 'ProcSubst': case 'FuncDecl': case 'CoprocClause': case 'Subshell': return false;
    case 'Stmt': if (o['Background'] || o['Coprocess']) return false; break;
    case 'CallExpr': {
      const w = (o as unknown as CallExpr).Args[0];
      if (w) {
        const p = w.Parts.length === 1 ? w.Parts[0]! : undefined;
        if (!p || p.type !== 'Lit' || !readAheadSafe.has(p.Value)) return false;
        names.add(p.Value);
      }
      break;
    }
  }
  for (const k in o) if (k !== 'type' && !onlySafeCommands(o[k], names)) return false;
  return true;
}

/** Builtins that assign variables: an arithmetic error assigning names them. */
const ASSIGNING_BUILTINS = new Set(['declare', 'typeset', 'local', 'export', 'readonly', 'read', 'printf', 'mapfile', 'readarray', 'getopts']);

/** Commands that set $BASH_COMMAND and trigger the DEBUG trap. */
const tracedCmd = new Set(['CallExpr', 'TestClause', 'ArithmCmd', 'DeclClause', 'LetClause']);
/** bash's simple commands among them (`((…))` and `[[…]]` are compound). */
const simpleCmd = new Set(['CallExpr', 'DeclClause', 'LetClause']);

/** Source text of an arithmetic expression node (for associative subscripts like m[1+1]). */
function arithSource(src: string, e: ArithmExpr): string | undefined {
  const r = arithRange(src, e);
  return r ? src.slice(r[0], r[1]) : undefined;
}

/** The words of an arithmetic expression, in source order. */
export function arithWords(e: ArithmExpr, out: Word[] = []): Word[] {
  switch (e.type) {
    case 'Word': out.push(e); break;
    case 'BinaryArithm': arithWords(e.X, out); arithWords(e.Y, out); break;
    case 'UnaryArithm': case 'ParenArithm': arithWords(e.X, out); break;
  }
  return out;
}

/**
 * The source of `e` with the words in `values` replaced by their text, when every range is known:
 * an error message's expression (`toClose`: bash's text runs on to the `))`), or an associative
 * array's key written like arithmetic (`A[$i,$j]`, `A[$k+1]`: bash expands it as a string).
 */
function spliceArith(src: string, e: ArithmExpr, values: Map<Word, string>, toClose = true): string | undefined {
  const whole = arithRange(src, e);
  if (!whole) return undefined;
  if (toClose) while (whole[1] < src.length && ' \t\n'.includes(src[whole[1]]!)) whole[1]++;
  const cuts: [number, number, string][] = [];
  for (const [w, v] of values) {
    const r = arithRange(src, w);
    if (!r || r[0] < whole[0] || r[1] > whole[1]) return undefined;
    cuts.push([r[0], r[1], v]);
  }
  cuts.sort((a, b) => a[0] - b[0]);
  let out = '', at = whole[0];
  for (const [a, b, v] of cuts) {
    if (a < at) return undefined;
    out += src.slice(at, a) + v;
    at = b;
  }
  return out + src.slice(at, whole[1]);
}

/**
 * bash's TIMEFORMAT for `time`: `%[p][l]R`, `U`, `S` (seconds, `p` fraction digits, 3 by default,
 * truncated; `l`: MMmSS.FFs), `%P` (CPU percentage), `%%`. User and system times are not measured (0).
 */
function timeFormat(f: string, real: number): string {
  return f.replace(/%(?:([0-9]?)(l?)([RUS])|(P)|%)/g, (m, p: string, l: string, k: string, pc: string) => {
    if (m === '%%') return '%';
    if (pc) return real > 0 ? '0.00' : '100.00';
    const secs = k === 'R' ? real : 0;
    const digits = p === '' ? 3 : Math.min(Number(p), 3);
    const ms = Math.floor(secs * 1000);
    const whole = l ? Math.floor(ms / 1000) % 60 : Math.floor(ms / 1000);
    const frac = digits ? '.' + String(ms % 1000).padStart(3, '0').slice(0, digits) : '';
    return l ? `${Math.floor(ms / 60000)}m${whole}${frac}s` : `${whole}${frac}`;
  });
}

/** src[a, b) with each word of `values` that lies inside it replaced by its text. */
function spliceRange(src: string, a: number, b: number, values: Map<Word, string>): string {
  const cuts: [number, number, string][] = [];
  for (const [w, v] of values) {
    const r = arithRange(src, w);
    if (r && r[0] >= a && r[1] <= b) cuts.push([r[0], r[1], v]);
  }
  cuts.sort((x, y) => x[0] - y[0]);
  let out = '', at = a;
  for (const [x, y, v] of cuts) {
    if (x < at) continue;
    out += src.slice(at, x) + v;
    at = y;
  }
  return out + src.slice(at, b);
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

/** bash's sh_single_quote, as xtrace shows a declaration's array values. */
/** An array literal's source as bash's xtrace shows it: `(elem elem …)`, words as written. */
function arrayLiteralSource(src: string, a: ArrayExpr): string | undefined {
  const parts: string[] = [];
  for (const e of a.Elems) {
    let w = e.Value ? wordSource(src, e.Value) : '';
    // ($'…' is decoded when bash reads it: it shows the text single-quoted)
    const r = e.Value && w !== undefined ? wordRange(e.Value) : undefined;
    if (r) {
      for (let i = e.Value!.Parts.length - 1; i >= 0; i--) {
        const p = e.Value!.Parts[i]!;
        if (p.type !== 'SglQuoted' || !p.Dollar || src[p.Left] !== '$' || p.Left < r[0] || p.Right >= r[1]) continue;
        w = w!.slice(0, p.Left - r[0]) + singleQuote(ansiC(p.Value, false)) + w!.slice(p.Right + 1 - r[0]);
      }
    }
    if (w === undefined) return undefined;
    if (e.Index) { const i = arithSource(src, e.Index); if (i === undefined) return undefined; parts.push(`[${i}]=${w}`); } else parts.push(w);
  }
  return `(${parts.join(' ')})`;
}

/** How many function calls callFunc nests on the JavaScript stack before it takes a promise. */
const SYNC_CALLS = 64;

/** What enterFunc changed and leaveFunc puts back. */
interface FuncFrame {
  params: string[]; source: SourceInfo; pos: number; loop: number;
  ret: string | undefined; debug: string | undefined; err: string | undefined; lastArg: string;
}

/** caseSync's structural check per `case`: its word and every pattern expand synchronously. */
const syncCases = new WeakMap<CaseClause, boolean>();

const commandPositions = new WeakMap<Stmt, number>();
/** Where bash numbers a statement: a simple command's is where its second word ends (its parser's lookahead). */
function commandPos(st: Stmt): number {
  let p = commandPositions.get(st);
  if (p === undefined) commandPositions.set(st, (p = findCommandPos(st)));
  return p;
}
function findCommandPos(st: Stmt): number {
  const c = st.Cmd;
  if (c?.type === 'CallExpr' && c.Args.length > 1 && c.Assigns.length === 0) {
    const end = wordEnd(c.Args[1]!);
    if (end !== undefined && end - 1 > st.Position) return end - 1;
  }
  // (assignments alone: where the first one ends; `((…))`: its closing parentheses)
  if (c?.type === 'CallExpr' && c.Args.length === 0 && c.Assigns[0]?.Value) {
    const end = wordEnd(c.Assigns[0].Value);
    if (end !== undefined && end - 1 > st.Position) return end - 1;
  }
  if (c?.type === 'ArithmCmd' && c.Right > st.Position) return c.Right;
  return st.Position;
}

/** `< file` alone (the `$(<file)` idiom). */
function isFileRead(stmts: Stmt[]): boolean {
  return stmts.length === 1 && stmts[0]!.Cmd === null && stmts[0]!.Redirs.length === 1 && stmts[0]!.Redirs[0]!.Op === Tok.rdrIn;
}

function errexitApplies(c: Command): boolean {
  switch (c.type) {
    case 'CallExpr': case 'Subshell': case 'ArithmCmd': case 'TestClause': case 'DeclClause': case 'LetClause': return true;
    case 'BinaryCmd': return c.Op === Tok.or || c.Op === Tok.orAnd;
    default: return false;
  }
}

export type { TestExpr, Word, WordPart };

/** The text of a subscript reparse.ts kept for run time (`${h[new key]}`: its placeholder word), or undefined. */
function rawSubscript(idx: ArithmExpr): string | undefined {
  const p = idx.type === 'Word' && idx.Parts.length === 1 ? idx.Parts[0]! : undefined;
  return p?.type === 'Lit' && rawArith.size && rawArith.has(p.Value) ? rawArith.get(p.Value) : undefined;
}
