// Simple commands: words and prefix-assignment values expanded before redirections (bash's
// order), prefix assignments as a temporary scope, xtrace, and the dispatch of the expanded
// command to a function, a builtin, a private command (private/registry.ts) or an external
// program (external.ts) — with commandSync, the same without a promise for functions and
// SyncBuiltins whose words expand synchronously.
import type { Shell } from './runner.ts';
import type { ArrayExpr, CallExpr, Redirect, Stmt } from '../syntax/ast.ts';
import { ArithError } from '../words/arith.ts';
import { ansiC, shellQuote, singleQuote, traceWord } from '../words/quoting.ts';
import { DiscardError, DiscardSignal, ExitSignal, LoopSignal, ReturnSignal, ShellError } from './errors.ts';
import { isSigPipe } from './io.ts';
import { lookPath, noShebangScript } from './external.ts';
import { errnoMsg } from './errno-message.ts';
import { tempScopes, type Var } from '../variables/var.ts';
import { scriptRunner } from './script-runner.ts';
import { wordRange, wordSource } from '../syntax/word-range.ts';
import { PrivateContextImpl, type PrivateCommand } from '../private/registry.ts';
import { isRestricted, slashCommandError } from './restricted.ts';
import { dropCoprocFds, runSubshell } from './subshells.ts';
import { withRedirs } from './redirections.ts';
import { assignValue, assignValueSync, assignTraced } from './assignments.ts';
import { loneJobs, settleLoneJobs } from './jobs.ts';
import { arithSource } from './arithmetic.ts';
import { badAssigns } from '../syntax/reparse-placeholders.ts';
import { LOCALE_VARS } from '../variables/locale.ts';
import { builtinTable } from '../builtins/table.ts';

/**
 * A simple command, in bash's order: words and prefix-assignment values are expanded first,
 * then `redirs` are applied (so `echo $(cat f) > f` reads f before truncating it, and the
 * xtrace line goes to the stderr in effect before the command's own redirections).
 */
export async function call(sh: Shell, c: CallExpr, redirs: Redirect[] = []): Promise<number> {
  sh.lastSubstStatus = undefined;
  if (c.Args.length === 0) {
    sh.vars.lastArg = '';
    for (const a of c.Assigns) {
      if (sh.opts.xtrace && !a.Array && !(badAssigns.size && badAssigns.has(a.Name!.Value))) { await assignTraced(sh, a); continue; }
      if (!assignValueSync(sh, a)) await assignValue(sh, a);
      if (sh.opts.xtrace) {
        // (an array literal is traced as written: `+ a=(x "y z" $v)`)
        const lit = a.Array ? arrayLiteralSource(sh.source.src, a.Array) : undefined;
        await sh.traceRaw(`${a.Name!.Value}${a.Index ? `[${arithSource(sh.source.src, a.Index) ?? ''}]` : ''}${a.Append ? '+=' : '='}${lit ?? traceWord((a.Index ? sh.vars.getElem(a.Name!.Value, sh.subscriptTextSync(a.Name!.Value, a.Index)) : sh.vars.get(a.Name!.Value)) ?? '', false, true)}`);
      }
    }
    return redirs.length === 0 ? sh.lastSubstStatus ?? 0 : assignOnlyRedirs(sh, redirs);
  }
  const replay = sh.replayArgs;
  if (replay !== undefined) sh.replayArgs = undefined;
  const args = replay?.c === c ? replay.args : sh.ex.canSyncAll(c.Args) ? sh.ex.fieldsSync(c.Args) : await sh.ex.fields(c.Args);
  sh.vars.lastArg = args.length ? args[args.length - 1]! : '';
  if (args.length === 0) {
    for (const a of c.Assigns) await assignValue(sh, a);
    return assignOnlyRedirs(sh, redirs);
  }
  if (sh.opts.noexec) return 0;
  // prefix assignments
  let temp: Map<string, Var> | undefined;
  const isSpecial = builtinTable.get(args[0]!)?.special && (sh.posix || !sh.funcs.has(args[0]!));
  if (c.Assigns.length) {
    if (isSpecial && sh.posix) {
      // (they stay, exported: bash keeps its temporary environment)
      for (const a of c.Assigns) {
        await assignValue(sh, a);
        const v = a.Index ? undefined : sh.vars.resolve(a.Name!.Value);
        if (v) v.exported = true;
      }
    } else {
      temp = new Map();
      tempScopes.add(temp);
      // each binding is visible to the values of the following ones (`a=1 b=$a cmd`)
      sh.vars.pushScope(temp);
      try {
        for (const a of c.Assigns) {
          const name = a.Name!.Value;
          const bad = badAssigns.size ? badAssigns.get(name) : undefined;
          if (bad) { if (bad.discard && !bad.prefix) throw new DiscardError(bad.message); await sh.err(bad.prefix ?? bad.message); continue; }
          // bash reports a readonly prefix assignment and still runs the command without it
          try { sh.vars.checkWritable(name); } catch (e) {
            if (!(e instanceof ShellError)) throw e;
            await sh.err(e.message);
            // (POSIX mode abandons the command and the rest of the line)
            if (sh.posix) throw new DiscardSignal(1);
            continue;
          }
          let val = a.Value ? await sh.ex.literal(a.Value, 'assign') : '';
          if (a.Append) val = (sh.vars.get(name) ?? '') + val;
          temp.set(name, { str: val, exported: true });
        }
      } finally {
        sh.vars.removeScope(temp);
      }
    }
  }
  if (sh.opts.xtrace) {
    // (bash traces each prefix assignment on its own line)
    if (temp) for (const [k, v] of temp) await sh.traceRaw(`${k}=${traceWord(v.str ?? '', sh.vars.utf8Locale(), true)}`);
    await sh.trace(args);
  }
  if (!temp && redirs.length === 0) return callArgs(sh, args);
  const run = async (): Promise<number> => {
    if (!temp) return callArgs(sh, args);
    sh.vars.pushScope(temp);
    // (bash sets the locale of a builtin's or function's temporary LC_ variables, and back after)
    // (for another command only once it ran, when the binding is gone)
    let lc: string[] | undefined;
    for (const k of temp.keys()) if (LOCALE_VARS.has(k)) (lc ??= []).push(k);
    if (lc && (sh.funcs.has(args[0]!) || builtinTable.has(args[0]!))) for (const k of lc) sh.vars.localeChanged(k);
    try { return await callArgs(sh, args, temp); } finally {
      sh.vars.removeScope(temp);
      if (lc) for (const k of lc) sh.vars.localeChanged(k);
    }
  };
  if (!redirs.length) return run();
  // (restricted: a disk command named with a `/` fails before its redirections are made)
  if (isRestricted(sh) && args[0]!.includes('/') && !sh.funcs.has(args[0]!) && !builtinTable.has(args[0]!)) return callArgs(sh, args);
  if (!(isSpecial && sh.posix)) return withRedirs(sh, redirs, run);
  // (a POSIX special builtin's failed redirection exits the shell)
  let ran = false;
  const r = await withRedirs(sh, redirs, () => { ran = true; return run(); });
  if (!ran) throw new ExitSignal(r);
  return r;
}

/** Redirections of a command without words (`x=1 >f`, `>f`): opened, then closed. */
async function assignOnlyRedirs(sh: Shell, redirs: Redirect[]): Promise<number> {
  const st = sh.lastSubstStatus ?? 0;
  if (redirs.length === 0) return st;
  const r = await withRedirs(sh, redirs, async () => 0, true);
  return r !== 0 ? r : st;
}

/** Dispatch after expansion: function, builtin, private command, external. */
export async function callArgs(sh: Shell, args: string[], temp?: Map<string, Var>, opts: { noFunc?: boolean } = {}): Promise<number> {
  const name = args[0]!;
  if (!opts.noFunc && !(sh.posix && builtinTable.get(name)?.special)) {
    const fn = sh.funcs.get(name);
    if (fn) return sh.callFunc(name, fn, args.slice(1));
  }
  const b = sh.disabled?.has(name) ? undefined : builtinTable.get(name)?.run;
  if (b) {
    try {
      sh.usageFailed = false;
      const st = await b(sh, args);
      if (sh.usageFailed) {
        sh.usageFailed = false;
        // (POSIX: a special builtin's usage error exits the shell, unless run through `command`, or
        // where errexit would not act either: a condition, the left of `&&`/`||`, under `!`)
        if (sh.posix && !opts.noFunc && sh.noErrexit === 0 && builtinTable.get(name)?.special) throw new ExitSignal(st);
      }
      return st;
    } catch (e: any) {
      if (e instanceof ArithError && ASSIGNING_BUILTINS.has(name)) e.inBuiltin(name);
      if (e && typeof e.code === 'string' && (e.code === 'EBADF' || e.code === 'EIO' || e.code === 'ENOSPC')) {
        await sh.err(`${name}: write error: ${errnoMsg(e)}`);
        return 1;
      }
      throw e;
    }
  }
  const pc = sh.handlers.privateCommand(name);
  if (pc) return callPrivate(sh, pc, args);
  const rs = slashCommandError(sh, name);
  if (rs) { await sh.err(rs); return 1; }
  return external(sh, args, temp);
}

async function callPrivate(sh: Shell, pc: PrivateCommand, args: string[]): Promise<number> {
  const ctx = new PrivateContextImpl(sh, args);
  try {
    return await pc(ctx);
  } catch (e) {
    if (isSigPipe(e)) return 141;
    if (e instanceof ExitSignal || e instanceof ShellError) throw e;
    await sh.writeFd(2, `${args[0]}: ${(e as Error)?.message ?? String(e)}\n`).catch(() => undefined);
    return 1;
  }
}

async function external(sh: Shell, args: string[], temp?: Map<string, Var>): Promise<number> {
  if (loneJobs.size) await settleLoneJobs();
  const name = args[0]!;
  const found = lookPath(sh, name, true);
  const cnf = found.error === 'command not found' && !name.includes('/') && !sh.inCnfHandle ? sh.funcs.get('command_not_found_handle') : undefined;
  if (cnf) {
    // (bash runs the handler in a separate environment, with the command and its arguments)
    const sub = dropCoprocFds(sh, sh.clone());
    sub.inCnfHandle = true;
    return runSubshell(sh, async (sh) => sh.callFunc('command_not_found_handle', cnf, args), sub);
  }
  if (found.error) {
    // a remembered file that vanished fails in bash's forked child, whose message has no line
    if (found.display && !sh.cMode) await sh.err(`${found.display}: ${found.error}`);
    else if (found.path) await sh.writeFd(2, `${sh.errName}: ${found.display ?? found.path}: ${found.error}\n`).catch(() => undefined);
    else await sh.err(`${found.status === 127 && /[\x00-\x1f\x7f]/.test(name) && !name.includes('/') ? shellQuote(name) : name}: ${found.error}`); // (bash quotes a name with control characters)
    return found.status;
  }
  void temp;
  const script = noShebangScript(found.path!);
  if (script === 'binary') { await sh.err(`${name}: cannot execute binary file: Exec format error`); return 126; }
  if (script && scriptRunner) return scriptRunner(sh, script, args);
  return sh.handlers.exec(sh, found.path!, args);
}

/**
 * stmtSync for a simple command whose first word is the literal name of a function or a
 * SyncBuiltin (no prefix assignment) and whose words expand synchronously: the steps of stmt()
 * and call() without a promise, a function's body through callFunc (a promise once it needs
 * one). When a builtin declines, its expanded arguments wait in `replayArgs` for the call()
 * that stmt() makes next (expansions can have side effects).
 */
export function commandSync(sh: Shell, st: Stmt, c: CallExpr): number | Promise<number> | undefined {
  const ps = c.Args[0]!.Parts, p0 = ps[0];
  const name = ps.length === 1 && p0?.type === 'Lit' ? p0.Value : '';
  // (POSIX mode finds a special builtin before a function)
  const fn = sh.posix && builtinTable.get(name)?.special ? undefined : sh.funcs.get(name);
  const b = fn === undefined && !sh.disabled?.has(name) ? builtinTable.get(name)?.sync : undefined;
  if ((fn === undefined && b === undefined) || c.Assigns.length !== 0 || sh.opts.noexec || sh.errexitArmed() || !sh.ex.canSyncAll(c.Args)) return undefined;
  sh.startSync(st);
  sh.lastSubstStatus = undefined;
  let args: string[], r: number | Promise<number> | undefined;
  try {
    args = sh.ex.fieldsSync(c.Args);
    sh.vars.lastArg = args[args.length - 1]!;
    r = fn !== undefined ? sh.callFunc(name, fn, args.slice(1)) : b!(sh, args);
  } catch (e) {
    // (return, break and continue unwind to their function or loop as they would from stmt())
    if (e instanceof ReturnSignal || e instanceof LoopSignal) throw e;
    sh.replayError = { e };
    return undefined;
  }
  if (r === undefined) { sh.replayArgs = { c, args }; return undefined; }
  if (typeof r === 'number') return sh.endSync(r);
  // (what the function's body rejects with goes to stmt() to handle as its own)
  return r.then((v) => sh.endSync(v), (e: unknown) => sh.replayIn(st, e));
}

/** Builtins that assign variables: an arithmetic error assigning names them. */
const ASSIGNING_BUILTINS = new Set(['declare', 'typeset', 'local', 'export', 'readonly', 'read', 'printf', 'mapfile', 'readarray', 'getopts']);

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
