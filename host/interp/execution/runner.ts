// The shell: its state (functions, options, fds, jobs, traps, positions; the variables are its
// store, variables/store.ts, `sh.vars`), the handlers it was given (handlers.ts), subscript
// evaluation, and the dispatch every statement goes through (stmts, stmt, cmd). The work of
// each kind of statement and command is in a module of its own, called as `f(sh, …)` (these
// modules import Shell as a type only; what other parts call stays a method here, one line
// into the module):
//   statements.ts        the statement fast path (stmtSync), `if`, `&&`/`||`, a statement's redirections
//   compound-commands.ts `while`/`until`, `for`, `select`, `case`
//   pipelines.ts         `a | b`; jobs.ts: `cmd &`, coprocesses, the job table
//   subshells.ts         `( … )`, `$( )`, `<( )`, runSubshell
//   simple-commands.ts   simple commands and the dispatch to function, builtin, private command, external
//   assignments.ts       assignments, array literals, `declare`/`local` statements
//   functions.ts         defining and calling functions
//   redirections.ts      redirections and here-documents
//   traps.ts             EXIT, ERR, DEBUG, RETURN and signal traps
//   top-level.ts         reading a script, -c string, sourced file or eval string line by line
//   arithmetic.ts        `((…))`/`let` evaluation and bash's texts for arithmetic errors
//   tracing.ts           xtrace lines and `time`
//   messages.ts          line numbers and error messages
// Expansion lives in words/expand.ts, builtins in builtins/ (reached through builtins/table.ts),
// external processes in external.ts, private commands in private/registry.ts.
import * as fs from 'node:fs';
import { Tok, type ArithmExpr, type Assign, type CallExpr, type Command, type DeclClause, type File, type ProcSubst, type Stmt, type TestExpr, type Word, type WordPart } from '../syntax/ast.ts';
import { Arith, ArithError, hardArith } from '../words/arith.ts';
import { Expander } from '../words/expand.ts';
import { DiscardError, DiscardSignal, ExitSignal, LoopSignal, ReturnSignal, ShellError } from './errors.ts';
import { FdTable, OsFd, isSigPipe, tryWriteSync } from './io.ts';
import { parse } from '../syntax/parser.ts';
import { type DeferredParseError } from '../syntax/reparse.ts';
import type { Handlers } from './handlers.ts';
import type { DeclItem } from '../builtins/declaration-items.ts';
import type { Options } from './options.ts';
import { type Var } from '../variables/var.ts';
import { VarStore } from '../variables/store.ts';
import { wordEnd } from '../syntax/word-range.ts';
import { evalTest, evalTestTraced } from '../words/conditional.ts';
import { printCommand } from '../syntax/printer.ts';
import { bucketOrder } from './bash-hash-order.ts';
import type { CommandHash } from './command-hash.ts';
import type { CompletionSpecs } from '../builtins/completion-specs.ts';
import { virtualPid } from './virtual-pids.ts';
import { isRestricted } from './restricted.ts';
import { HistoryList } from '../syntax/history.ts';
import { err, errLine, errSourceName, lineOf, setSource, writeFd, writeFdSync } from './messages.ts';
import { evalString, runFile, syntaxError, topLevel } from './top-level.ts';
import { debugTrap, errTrap, evalTrap, returnTrap, runPendingTraps } from './traps.ts';
import { cmdSubst, procSubst, releaseProcSubst, subshell } from './subshells.ts';
import { background, cleanupDeadJobs, coproc, signalEnds, waitAll } from './jobs.ts';
import { andOr, ifFrom, stmtInner, stmtSync, subshellCommand } from './statements.ts';
import { caseClause, forClause, whileClause } from './compound-commands.ts';
import { pipeline } from './pipelines.ts';
import { assignArray, assignOnlySync, declClause } from './assignments.ts';
import { call, callArgs } from './simple-commands.ts';
import { callFunc, funcDecl, functionText } from './functions.ts';
import { arithAst, arithCmdError, arithRange, arithSync, spliceArith, subscriptError } from './arithmetic.ts';
import { timeClause, trace, traceRaw } from './tracing.ts';
import { openBuf, pathBuf } from './redirections.ts';
import { arithTextWord } from '../syntax/text-words.ts';
import { rawArith } from '../syntax/reparse-placeholders.ts';
import { shellOptsString } from './options.ts';

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

/** Number of signals with a trap that the CLI catches (see cli.ts). */
export const signalListeners = { count: 0 };

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

  /** How external programs run, redirections open files, and which private commands exist (handlers.ts). */
  readonly handlers: Handlers;

  constructor(handlers: Handlers) {
    this.handlers = handlers;
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
      indexError: (err, p) => subscriptError(this, err, p),
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
  // (messages.ts: line numbers and the shell's messages)
  cMode = false;
  noC = false;
  traceLevel = 1;

  // ---- subshells -------------------------------------------------------------------------
  clone(): Shell {
    const s = new Shell(this.handlers);
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

  // ---- state the execution modules keep on the shell -------------------------------------
  // top-level.ts, traps.ts
  /** Set when the shell sent itself a fatal signal: the CLI dies by it after the EXIT trap. */
  fatalSignal = 0;
  /** Trapped signals that arrived while a command ran (set by the CLI's handlers). */
  pendingSigs: string[] = [];
  /** How many signals the CLI catches for traps (shared by subshells). */
  get signalTraps(): number { return signalListeners.count; }
  /** evalString's string had a syntax error (read by `eval`). */
  evalSyntaxError = false;
  inErrTrap = false;
  inReturnTrap = false;
  inDebugTrap = false;
  /** Traps running: $BASH_COMMAND keeps the command that triggered them. */
  trapDepth = 0;
  sourcing = 0;
  onTrapChange: ((sig: string) => void) | undefined;
  // statements.ts, simple-commands.ts, assignments.ts (and stmt() here)
  /** An error of stmtSync, thrown again by the stmt() that runs the same statement next. */
  replayError: { e: unknown } | undefined;
  /** Items localSync expanded for a `local` that declined to run without a promise. */
  replayDecl: { c: DeclClause; items: DeclItem[] } | undefined;
  /** Arguments commandSync expanded for a builtin that declined to run without a promise. */
  replayArgs: { c: CallExpr; args: string[] } | undefined;
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
  redirFailed: Stmt | undefined;
  /** Set by a builtin's usage error (bash's EX_USAGE…): a POSIX special builtin run directly then exits the shell. */
  usageFailed = false;
  /** `command` builtins running: POSIX mode's assignment errors under them do not exit. */
  commandBuiltin = 0;
  /** bash's jump_to_top_level(FORCE_EOF) in POSIX mode: exit, with 127 at the top of `-c`. */
  forceEof(status = 1): ExitSignal { return new ExitSignal(this.cMode && this.subshell === 0 ? 127 : status); }
  /** Running command_not_found_handle: a command it does not find is not handed to it again. */
  inCnfHandle = false;
  // subshells.ts, pipelines.ts, jobs.ts, compound-commands.ts
  /** A statement whose failure runs no ERR trap (an async simple command). */
  noErrTrap: Stmt | undefined;
  /** The `( … )` a pipeline stage's shell runs as its own body (bash forks once for it). */
  stageSubshell: Command | undefined;
  /** In the subshell of a `( … )`: the parent's text and line for it (a signal report names them). */
  ownCmd: { stmt: Stmt; src: string; line: number } | undefined;
  /** The `( … )` statement about to run (its text for ownCmd; $BASH_COMMAND names it only while ERR is trapped). */
  subshellStmt: Stmt | undefined;
  /** In a pipeline stage that is a `while` loop: the stage's own pipe (its stdin), see readAheadFd. */
  stageStdin: OsFd | undefined;
  onSpawn: ((pid: number) => void) | undefined;
  /** No status message for a command killed by a signal (command substitutions, non-last pipeline stages). */
  quietSignals = false;
  /** Signal that killed the last external command (0: it exited). */
  killedBy = 0;
  lastSubstStatus: number | undefined;
  procSubstCleanups: (() => void)[] = [];
  // tracing.ts, functions.ts
  /** A declaration's stderr before its own redirections: bash traces it before it applies them. */
  traceStderr: OsFd | undefined;
  /** Function calls in progress on the JavaScript stack (callFunc without a promise). */
  syncCalls = 0;

  // ---- statements: the central dispatch --------------------------------------------------
  /**
   * Runs a statement list. The leading statements stmtSync can run take no promise at all (in
   * loop bodies, most often all of them): the status comes back as a number then, and hot loops
   * use it without an `await` (each costs a microtask turn).
   */
  stmts(list: Stmt[]): number | Promise<number> {
    for (let i = 0; i < list.length; i++) {
      const q = stmtSync(this, list[i]!);
      if (typeof q !== 'number') return this.stmtList(list, i, q ?? this.stmt(list[i]!));
    }
    return list.length === 0 ? 0 : this.status;
  }

  /** stmts() from `list[from]` on, whose run `first` has begun. */
  private async stmtList(list: Stmt[], from: number, first: Promise<number>): Promise<number> {
    let st = await first;
    // (index loops on hot paths: for…of allocates an iterator result per step until optimized)
    for (let i = from + 1; i < list.length; i++) {
      const q = stmtSync(this, list[i]!);
      st = typeof q === 'number' ? q : await (q ?? this.stmt(list[i]!));
    }
    return st;
  }

  /** stmtSync's first steps, stmt()'s: the position, and the command $BASH_COMMAND shows. */
  startSync(st: Stmt): void {
    this.curPos = commandPos(st);
    if (this.trapDepth === 0) { this.curCmd = st; this.curCmdSrc = this.source.src; }
  }

  /** stmtSync's last steps, stmt()'s: the status in $? and PIPESTATUS. */
  endSync(status: number): number {
    this.setPipestatus(status);
    this.status = status;
    return status;
  }

  /** Hands what a statement stmtSync began rejected with to stmt(), to handle as its own. */
  replayIn(st: Stmt, e: unknown): Promise<number> {
    this.replayError = { e };
    return this.stmt(st);
  }

  /** Whether a failing status would set off errexit or the ERR trap (stmt() handles those). */
  errexitArmed(): boolean {
    return this.noErrexit === 0 && (this.opts.errexit || this.traps.has('ERR'));
  }

  async stmt(st: Stmt): Promise<number> {
    if (this.cancelStatus.value !== 0) throw new ExitSignal(this.cancelStatus.value);
    if (this.jobKill.sig !== 0) throw new ExitSignal(128 + this.jobKill.sig);
    if (this.pendingSigs.length > 0) await runPendingTraps(this);
    this.curPos = commandPos(st);
    const cmdPos = this.curPos;
    if (st.Background) {
      await background(this, st);
      this.status = 0;
      return 0;
    }
    if (!st.Cmd || tracedCmd.has(st.Cmd.type)) {
      // (a command of redirections only is a simple command for bash; the empty one a bare `!`
      // makes has no text: $BASH_COMMAND keeps the previous command)
      if (this.trapDepth === 0 && (st.Cmd || st.Redirs.length)) { this.curCmd = st; this.curCmdSrc = this.source.src; }
      if (this.traps.has('DEBUG')) await debugTrap(this);
    } else if (st.Cmd?.type === 'Subshell') { subshellCommand(this, st); this.subshellStmt = st; }
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
      const quick = c && c.type === 'CallExpr' && st.Redirs.length === 0 ? assignOnlySync(this, c) : undefined;
      status = quick ?? await (c && st.Redirs.length === 0 ? (c.type === 'CallExpr' ? call(this, c) : this.cmd(c)) : stmtInner(this, st));
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
      releaseProcSubst(this, psf);
    }
    if (st.Cmd && st.Cmd.type !== 'BinaryCmd' && errexitApplies(st.Cmd)) this.setPipestatus(status);
    if (st.Negated) status = status === 0 ? 1 : 0;
    this.status = status;
    if (status !== 0 && !st.Negated && this.noErrexit === 0 && st.Cmd && (errexitApplies(st.Cmd) || this.redirFailed === st)) {
      if (st !== this.noErrTrap) await errTrap(this, cmdPos);
      if (this.opts.errexit) throw new ExitSignal(status);
    }
    return status;
  }

  async cmd(c: Command): Promise<number> {
    switch (c.type) {
      case 'CallExpr': return call(this, c);
      case 'Block': return this.stmts(c.Stmts);
      case 'Subshell': return subshell(this, c);
      case 'BinaryCmd': {
        return c.Op === Tok.andAnd || c.Op === Tok.orOr ? andOr(this, c) : pipeline(this, c);
      }
      case 'IfClause': return ifFrom(this, c);
      case 'WhileClause': return whileClause(this, c);
      case 'ForClause': return forClause(this, c);
      case 'FuncDecl': return funcDecl(this, c);
      case 'CaseClause': return caseClause(this, c);
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
      case 'DeclClause': return declClause(this, c);
      case 'TimeClause': return timeClause(this, c);
      case 'CoprocClause': return coproc(this, c);
      case 'TestDecl':
        return 0;
    }
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

  // ---- what other parts call: entries into the modules that do the work ------------------
  lineOf(pos: number): number { return lineOf(this, pos); }
  setSource(src: string, name: string, file?: string): void { setSource(this, src, name, file); }
  err(msg: string): Promise<void> { return err(this, msg); }
  errLine(msg: string): string { return errLine(this, msg); }
  errSourceName(): string { return errSourceName(this); }
  writeFdSync(n: number, data: string, name: string): number | undefined { return writeFdSync(this, n, data, name); }
  writeFd(n: number, data: string | Buffer): Promise<void> { return writeFd(this, n, data); }
  runFile(f: File, syntaxErr?: DeferredParseError, warning?: { line: number; at: number; message: string }): Promise<number> { return runFile(this, f, syntaxErr, warning); }
  topLevel(list: Stmt[], before?: (s: Stmt) => void, deferred?: { error?: DeferredParseError; hdocWarning?: { fromLine: number; text: string } }, scriptFile?: boolean): Promise<number> { return topLevel(this, list, before, deferred, scriptFile); }
  evalString(src: string, name: string, line?: number): Promise<number> { return evalString(this, src, name, line); }
  syntaxError(e: DeferredParseError, prefix: string): Promise<void> { return syntaxError(this, e, prefix); }
  evalTrap(t: string, line?: number): Promise<number> { return evalTrap(this, t, line); }
  returnTrap(): Promise<void> { return returnTrap(this); }
  cmdSubst(stmts: Stmt[], right?: number, inHeredoc?: boolean): Promise<string> { return cmdSubst(this, stmts, right, inHeredoc); }
  procSubst(p: ProcSubst): Promise<string> { return procSubst(this, p); }
  signalEnds(sig: number): boolean { return signalEnds(this, sig); }
  cleanupDeadJobs(): void { cleanupDeadJobs(this); }
  waitAll(): Promise<void> { return waitAll(this); }
  pathBuf(p: string): Buffer { return pathBuf(this, p); }
  openBuf(p: string, t?: FdTable): Buffer { return openBuf(this, p, t); }
  assignArray(name: string, a: Assign, assocHint: boolean, traced?: boolean, decl?: boolean): Promise<void> { return assignArray(this, name, a, assocHint, traced, decl); }
  callArgs(args: string[], temp?: Map<string, Var>, opts?: { noFunc?: boolean }): Promise<number> { return callArgs(this, args, temp, opts); }
  callFunc(name: string, body: Stmt, args: string[]): number | Promise<number> { return callFunc(this, name, body, args); }
  functionText(name: string): string { return functionText(this, name); }
  arithAst(e: ArithmExpr, start?: number, end?: number): Promise<bigint> { return arithAst(this, e, start, end); }
  arithSync(e: ArithmExpr, start?: number, end?: number): bigint { return arithSync(this, e, start, end); }
  trace(words: string[]): Promise<void> { return trace(this, words); }
  traceRaw(line: string): Promise<void> { return traceRaw(this, line); }
}

/** Statuses as text, made once ($? and PIPESTATUS are set after every statement). */
const STATUS_TEXT = Array.from({ length: 256 }, (_, i) => String(i));

/** A variable with a value array and no other value or attribute. */
function onlyArr(v: Var): boolean {
  return v.str === undefined && !v.assoc && !v.exported && !v.readonly && !v.integer && !v.lower && !v.upper && !v.capcase && !v.trace && !v.nameref && !v.local && !v.declOnly;
}

/** Commands that set $BASH_COMMAND and trigger the DEBUG trap. */
const tracedCmd = new Set(['CallExpr', 'TestClause', 'ArithmCmd', 'DeclClause', 'LetClause']);

/** The words of an arithmetic expression, in source order. */
export function arithWords(e: ArithmExpr, out: Word[] = []): Word[] {
  switch (e.type) {
    case 'Word': out.push(e); break;
    case 'BinaryArithm': arithWords(e.X, out); arithWords(e.Y, out); break;
    case 'UnaryArithm': case 'ParenArithm': arithWords(e.X, out); break;
  }
  return out;
}

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
