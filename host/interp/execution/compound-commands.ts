// Compound commands that loop or branch on patterns: `while`/`until`, `for` (word lists and
// `for ((…))`), `select`, and `case` — with the DEBUG trap and xtrace of their heads, break and
// continue, the read-ahead a `while read` pipeline stage may use, the event-loop yield of long
// loops, and case's run without a promise when its words expand synchronously (caseSync).
// (`if` and `&&`/`||` are statements.ts's: they are the statement fast path's own.)
import type { Shell } from './runner.ts';
import { Tok, type ArithmExpr, type CallExpr, type CaseClause, type Command, type ForClause, type Stmt, type WhileClause } from '../syntax/ast.ts';
import { ArithError } from '../words/arith.ts';
import { LoopSignal, ShellError } from './errors.ts';
import { OsFd } from './io.ts';
import { matchExtPattern } from '../words/pattern.ts';
import { wordSource } from '../syntax/word-range.ts';
import { isName } from '../syntax/names.ts';
import { debugTrap } from './traps.ts';
import { arithCmdError, arithRange } from './arithmetic.ts';
import { arithTextWord } from '../syntax/text-words.ts';
import { readLine } from './read-line.ts';

/** `while`/`until` (cmd()'s case): the condition with errexit off, then the body, until the condition says stop. */
export async function whileClause(sh: Shell, c: WhileClause): Promise<number> {
  let st = 0;
  sh.loopDepth++;
  const ahead = readAheadFd(sh, c);
  if (ahead) ahead.readAhead++;
  try {
    for (;;) {
      const y = loopTick(); if (y) await y;
      sh.noErrexit++;
      let cond: number;
      try { const r = sh.stmts(c.Cond); cond = typeof r === 'number' ? r : await r; } catch (e) {
        if (e instanceof LoopSignal) { sh.noErrexit--; if (await loopSignal(sh, e)) break; else { sh.noErrexit++; continue; } }
        throw e;
      } finally { sh.noErrexit = Math.max(0, sh.noErrexit - 1); }
      if ((cond === 0) === c.Until) break;
      try { const r = sh.stmts(c.Do); st = typeof r === 'number' ? r : await r; } catch (e) {
        if (e instanceof LoopSignal) { st = e.status; if (await loopSignal(sh, e)) break; continue; }
        throw e;
      }
    }
  } finally { sh.loopDepth--; if (ahead) ahead.readAhead--; }
  return st;
}

/**
 * The stdin a `while` loop may read ahead from (instead of a byte at a time, as bash reads a
 * pipe so that a command run later gets the rest): only the pipe of a pipeline stage that is
 * this very loop, so nothing reads it after the loop, and only when the loop runs nothing but
 * builtins that read through the same buffer or not at all: no other process, no subshell
 * command, no function, alias, eval or trap.
 */
function readAheadFd(sh: Shell, c: Extract<Command, { type: 'WhileClause' }>): OsFd | undefined {
  const f = sh.stageStdin;
  if (!f || sh.fds.get(0) !== f || sh.traps.size > 0 || (sh.aliases.size > 0 && sh.shopt.has('expand_aliases'))) return undefined;
  const names = loopCommands(c);
  if (!names) return undefined;
  for (const n of names) if (sh.funcs.has(n)) return undefined;
  return f;
}

/** Handles break/continue: returns true to break out of this loop. */
async function loopSignal(sh: Shell, e: LoopSignal): Promise<boolean> {
  if (e.levels > 1) { e.levels--; throw e; }
  return e.kind === 'break';
}

/** bash also runs the DEBUG trap before a `for` iteration, each `for ((…))` part and `case`. */
async function headDebugTrap(sh: Shell, pos: number, text?: () => string): Promise<void> {
  sh.curPos = pos; // ($LINENO in a loop head is the head's line)
  if (!sh.traps.has('DEBUG')) return;
  if (text && sh.trapDepth === 0) sh.curCmd = text();
  await debugTrap(sh);
}

export async function forClause(sh: Shell, c: ForClause): Promise<number> {
  let st = 0;
  sh.loopDepth++;
  try {
    if (c.Loop.type === 'WordIter') {
      const name = c.Loop.Name.Value;
      if (!isName(name)) { await sh.err(`\`${name}': not a valid identifier`); return 1; }
      const items = c.Loop.InPos ? await sh.ex.fields(c.Loop.Items) : sh.params.slice();
      if (c.Select) return await selectLoop(sh, name, items, c);
      const head = (): string => `for ${name}${c.Loop.type === 'WordIter' && c.Loop.InPos ? ` in ${c.Loop.Items.map((w) => wordSource(sh.source.src, w) ?? '').join(' ')}` : ''}`;
      for (let k = 0; k < items.length; k++) {
        const y = loopTick(); if (y) await y;
        const it = items[k]!;
        if (sh.traps.has('DEBUG')) await headDebugTrap(sh, c.ForPos, head); else sh.curPos = c.ForPos;
        // (bash traces the loop head, words unexpanded, before each iteration)
        if (sh.opts.xtrace) await sh.traceRaw(c.Loop.type === 'WordIter' && c.Loop.InPos ? head() : `for ${name} in "$@"`);
        // (a nameref loop variable is pointed at each word in turn, like bash)
        const ref = sh.vars.raw(name);
        if (ref?.nameref && !ref.readonly) ref.str = it;
        else if (!sh.posix) sh.vars.set(name, it);
        else {
          // (POSIX mode: a readonly loop variable exits the shell)
          try { sh.vars.set(name, it); } catch (e) {
            if (!(e instanceof ShellError) || !/readonly variable$/.test(e.message)) throw e;
            await sh.err(e.message);
            throw sh.forceEof(1);
          }
        }
        try { const r = sh.stmts(c.Do); st = typeof r === 'number' ? r : await r; } catch (e) {
          if (e instanceof LoopSignal) { st = e.status; if (await loopSignal(sh, e)) break; continue; }
          throw e;
        }
      }
      return st;
    }
    const L = c.Loop;
    // $BASH_COMMAND for each part: `((text))`, the source up to its `;`/`))`, leading blanks dropped
    const part = (e: ArithmExpr | null) => (): string => {
      const r = e ? arithRange(sh.source.src, e) : undefined;
      if (!r) return '(())';
      const src = sh.source.src;
      let end = r[1];
      while (end < src.length && (src[end] === ' ' || src[end] === '\t')) end++;
      return `((${src.slice(r[0], end)}))`;
    };
    // xtrace: `(( text ))` for each part as evaluated, its text expanded; an empty part is `1`
    const traceHead = async (e: ArithmExpr | null): Promise<void> => {
      if (!sh.opts.xtrace) return;
      let t = e ? part(e)().slice(2, -2) : '1';
      if (/[$`]/.test(t) && !/\$\((?!\()|`/.test(t)) { const w = arithTextWord(t); if (w) t = (await sh.ex.heredoc(w)).replace(/\n$/, ''); }
      await sh.traceRaw(`(( ${t} ))`);
    };
    await headDebugTrap(sh, c.ForPos, part(L.Init));
    await traceHead(L.Init);
    // (an arithmetic error in the head ends the loop with status 1, like a failed `((…))`)
    const headError = async (e: unknown): Promise<number> => {
      if (!(e instanceof ArithError) || e.subscript) throw e; // (a subscript's: see stmt())
      await sh.err((arithCmdError(e) as ArithError).report());
      return 1;
    };
    try { if (L.Init) await sh.arithAst(L.Init); } catch (e) { return await headError(e); }
    for (;;) {
      const y = loopTick(); if (y) await y;
      if (sh.traps.has('DEBUG')) await headDebugTrap(sh, c.ForPos, part(L.Cond)); else sh.curPos = c.ForPos;
      await traceHead(L.Cond);
      try {
        if (L.Cond && (sh.arith.canSync(L.Cond) ? sh.arithSync(L.Cond) : await sh.arithAst(L.Cond)) === 0n) break;
      } catch (e) { return await headError(e); }
      try { const r = sh.stmts(c.Do); st = typeof r === 'number' ? r : await r; } catch (e) {
        if (e instanceof LoopSignal) { st = e.status; if (await loopSignal(sh, e)) break; }
        else throw e;
      }
      if (sh.traps.has('DEBUG')) await headDebugTrap(sh, c.ForPos, part(L.Post)); else sh.curPos = c.ForPos;
      await traceHead(L.Post);
      try {
        if (L.Post) { if (sh.arith.canSync(L.Post)) sh.arithSync(L.Post); else await sh.arithAst(L.Post); }
      } catch (e) { return await headError(e); }
    }
    return st;
  } finally { sh.loopDepth--; }
}

async function selectLoop(sh: Shell, name: string, items: string[], c: ForClause): Promise<number> {
  // bash's select_query: the menu is shown first and again after an empty reply; EOF prints a
  // newline on stdout and ends the loop with status 1
  let st = 0;
  let showMenu = true;
  // (bash traces the head once, words unexpanded)
  if (sh.opts.xtrace) await sh.traceRaw(`select ${name} in ${c.Loop.type === 'WordIter' && c.Loop.InPos ? c.Loop.Items.map((w) => wordSource(sh.source.src, w) ?? '').join(' ') : '"$@"'}`);
  for (;;) {
    let menu = '';
    if (showMenu) items.forEach((it, i) => { menu += `${i + 1}) ${it}\n`; });
    await sh.writeFd(2, menu + (sh.vars.get('PS3') ?? '#? '));
    const line = await readLine(sh, 0, '\n', -1, false);
    if (line !== null) sh.vars.set('REPLY', line.text.replace(/\\([\s\S])/g, '$1'));
    if (line === null || line.eof) { await sh.writeFd(1, '\n'); return 1; }
    const reply = sh.vars.get('REPLY') ?? '';
    if (reply === '') { showMenu = true; continue; }
    const m = /^[ \t\n]*([-+]?[0-9]+)[ \t\n]*$/.exec(reply);
    const n = m ? Number(m[1]) : 0;
    sh.vars.set(name, n >= 1 && n <= items.length ? items[n - 1]! : '');
    try { const r = sh.stmts(c.Do); st = typeof r === 'number' ? r : await r; } catch (e) {
      if (!(e instanceof LoopSignal)) throw e;
      if (await loopSignal(sh, e)) break;
    }
    showMenu = sh.vars.get('REPLY') === '';
  }
  return st;
}

export async function caseClause(sh: Shell, c: CaseClause): Promise<number> {
  await headDebugTrap(sh, c.Case, () => `case ${wordSource(sh.source.src, c.Word) ?? ''} in `);
  if (sh.opts.xtrace) await sh.traceRaw(`case ${wordSource(sh.source.src, c.Word) ?? ''} in`);
  return caseFrom(sh, c, await sh.ex.literal(c.Word), 0, false, 0);
}

/**
 * stmtSync for `case` whose word and patterns all expand synchronously: the word is expanded and
 * the items run as caseClause runs them (a promise once a body needs one).
 */
export function caseSync(sh: Shell, st: Stmt, c: CaseClause): number | Promise<number> | undefined {
  let sync = syncCases.get(c);
  if (sync === undefined) syncCases.set(c, sync = sh.ex.canSync(c.Word) && c.Items.every((it) => sh.ex.canSyncAll(it.Patterns)));
  if (!sync) return undefined;
  sh.curPos = c.Case;
  let r: number | Promise<number>;
  // (an error, or break/continue/return from a body, goes to stmt() to handle as its own)
  try { r = caseFrom(sh, c, sh.ex.literalSync(c.Word), 0, false, 0); } catch (e) { sh.replayError = { e }; return undefined; }
  if (typeof r === 'number') return (sh.status = r);
  return r.then((v) => (sh.status = v), (e: unknown) => sh.replayIn(st, e));
}

/**
 * The items of `case` from `i` on for the word's value `w`: the first whose pattern matches (or,
 * after `;&`, the next) runs, and its `;;&` / `;&` go on; `st` is the status if none runs.
 * Patterns are expanded in order until one matches, bodies run through stmts(): a promise only
 * once one of them needs it.
 */
function caseFrom(sh: Shell, c: CaseClause, w: string, i: number, fall: boolean, st: number): number | Promise<number> {
  for (; i < c.Items.length; i++) {
    const it = c.Items[i]!;
    const m = fall || caseMatch(sh, it, w);
    if (m instanceof Promise) {
      const k = i;
      return m.then((yes) => (yes ? caseBody(sh, c, w, k) : caseFrom(sh, c, w, k + 1, false, st)));
    }
    if (m) return caseBody(sh, c, w, i);
  }
  return st;
}

/** Runs item `i` of `case`, then what its terminator says. */
function caseBody(sh: Shell, c: CaseClause, w: string, i: number): number | Promise<number> {
  const op = c.Items[i]!.Op;
  const next = (st: number): number | Promise<number> =>
    op === Tok.semiAnd || op === Tok.dblSemiAnd ? caseFrom(sh, c, w, i + 1, op === Tok.semiAnd, st) : st;
  const r = sh.stmts(c.Items[i]!.Stmts);
  return typeof r === 'number' ? next(r) : r.then(next);
}

/** Whether one of the item's patterns matches `w` (expanded in order, up to the first that does). */
function caseMatch(sh: Shell, it: CaseClause['Items'][number], w: string, from = 0): boolean | Promise<boolean> {
  const ps = it.Patterns, nocase = sh.shopt.has('nocasematch');
  for (let k = from; k < ps.length; k++) {
    const p = ps[k]!;
    const m = nocase ? null : sh.ex.constMatcher(p);
    if (m !== null) { if (m(w)) return true; continue; }
    if (!sh.ex.canSync(p)) return sh.ex.pattern(p).then((pat) => casePatternMatches(sh, pat, w) || caseMatch(sh, it, w, k + 1));
    if (casePatternMatches(sh, sh.ex.patternSync(p), w)) return true;
  }
  return false;
}

function casePatternMatches(sh: Shell, pat: string, w: string): boolean {
  return matchExtPattern(pat, w, sh.shopt.has('nocasematch'), sh.ex);
}

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

/** Builtins a read-ahead loop may run (see readAheadFd): they start no process and read stdin only through `read`. */
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

/** caseSync's structural check per `case`: its word and every pattern expand synchronously. */
const syncCases = new WeakMap<CaseClause, boolean>();
