// Builtins that direct a script's flow: `:`, true and false; exit and logout; return, break,
// continue; shift; running other code in this shell (eval, source/., exec); and caller, which
// reports the call stack.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Shell } from '../execution/runner.ts';
import { errnoMsg } from '../execution/errno-message.ts';
import { scriptRunner } from '../execution/script-runner.ts';
import { parseScript } from '../syntax/reparse.ts';
import { DiscardError, ExitSignal, LoopSignal, ReturnSignal } from '../execution/errors.ts';
import { readPath } from '../execution/io.ts';
import { lookPath, noShebangScript } from '../execution/external.ts';
import { isRestricted, restrictedMsg } from '../execution/restricted.ts';
import { def, type SyncBuiltin } from './table.ts';
import { errOut, out, usageErr } from './builtin-io.ts';
import { int64Arg, simpleOpts } from './argument-parsing.ts';

def(['true'], async () => 0, { sync: () => 0 });
def([':'], async () => 0, { special: true, sync: () => 0 });
def(['false'], async () => 1, { sync: () => 1 });

// ---- exit / return / loops ---------------------------------------------------------------
function statusArg(sh: Shell, a: string | undefined, name: string): number | string {
  if (a === undefined) return sh.status;
  // (bash's legal_number: out of the 64-bit range is no number)
  if (int64Arg(a) === undefined) return `${name}: ${a}: numeric argument required`;
  return Number(BigInt.asUintN(8, BigInt(a.trim())));
}

def(['exit'], async (sh, args) => {
  const v = statusArg(sh, args[1], 'exit');
  if (typeof v === 'string') { await sh.err(v); throw new ExitSignal(2); }
  if (args.length > 2) throw new DiscardError('exit: too many arguments', 1, true);
  throw new ExitSignal(v);
}, { special: true });
// (non-interactive bash: no login shell)
def(['logout'], async (sh) => { await errOut(sh, 'logout', "not login shell: use `exit'"); return 1; });
def(['return'], async (sh, args) => {
  const v = statusArg(sh, args[1], 'return');
  if (typeof v === 'string') {
    await sh.err(v);
    if (sh.funcDepth === 0 && !sh.sourcing) { await errOut(sh, 'return', "can only `return' from a function or sourced script"); sh.usageFailed = true; return 2; }
    throw new ReturnSignal(2);
  }
  if (args.length > 2) throw new DiscardError('return: too many arguments', 1, true);
  if (sh.funcDepth === 0 && !sh.sourcing) { await errOut(sh, 'return', "can only `return' from a function or sourced script"); sh.usageFailed = true; return 2; }
  throw new ReturnSignal(v);
}, { special: true, sync: returnSync });
// `return [N]` in a function, `break [N]`/`continue [N]` in a loop, without a promise: they
// throw their signal at once (Shell.commandSync lets it through); anything to report declines.
function returnSync(sh: Shell, args: string[]): number | undefined {
  const v = statusArg(sh, args[1], 'return');
  if (typeof v === 'string' || args.length > 2 || (sh.funcDepth === 0 && !sh.sourcing)) return undefined;
  throw new ReturnSignal(v);
}
for (const kind of ['break', 'continue'] as const) {
  const sync: SyncBuiltin = (sh, args) => {
    const n = args[1] === undefined ? 1 : /^\s*[-+]?\d+\s*$/.test(args[1]) ? Number(args[1]) : 0;
    if (sh.loopDepth === 0 || args.length > 2 || n < 1) return undefined;
    throw new LoopSignal(kind, Math.min(n, sh.loopDepth));
  };
  def([kind], async (sh, args) => {
    let n = 1;
    // (POSIX mode says nothing)
    if (sh.loopDepth === 0) { if (!sh.posix) await errOut(sh, kind, "only meaningful in a `for', `while', or `until' loop"); return 0; }
    if (args[1] !== undefined) {
      if (!/^\s*[-+]?\d+\s*$/.test(args[1])) { await errOut(sh, kind, `${args[1]}: numeric argument required`); throw new ExitSignal(128); }
      if (args.length > 2) throw new DiscardError(`${kind}: too many arguments`, 1, true);
      n = Number(args[1]);
      // (bash then leaves every enclosing loop)
      if (n < 1) { await errOut(sh, kind, `${args[1]}: loop count out of range`); throw new LoopSignal('break', sh.loopDepth, 1); }
    }
    throw new LoopSignal(kind, Math.min(n, sh.loopDepth));
  }, { special: true, sync });
}

def(['shift'], async (sh, args) => {
  const n = args[1] === undefined ? 1 : /^\s*[-+]?\d+\s*$/.test(args[1]) ? Number(args[1]) : NaN;
  if (!Number.isInteger(n)) { await errOut(sh, 'shift', `${args[1]}: numeric argument required`); return 1; }
  if (n < 0) { await errOut(sh, 'shift', `${args[1]}: shift count out of range`); return 1; }
  if (args.length > 2) throw new DiscardError('shift: too many arguments', 1, true);
  if (n > sh.params.length) {
    if (sh.shopt.has('shift_verbose')) await errOut(sh, 'shift', `${args[1] === undefined ? '' : `${args[1]}: `}shift count out of range`);
    return 1;
  }
  sh.params = sh.params.slice(n);
  return 0;
}, { special: true });

// ---- eval / source / exec -------------------------------------------------------------------
def(['eval'], async (sh, args) => {
  const o = await simpleOpts(sh, args, '');
  if (typeof o === 'number') return o;
  const src = args.slice(o.i).join(' ');
  if (src.trim() === '') {
    // (set -v: bash echoes what it reads of a blank string)
    if (sh.opts.verbose && src !== '') await sh.writeFd(2, src.endsWith('\n') ? src : src + '\n').catch(() => undefined);
    return 0;
  }
  sh.evalSyntaxError = false;
  // (xtrace shows the commands of an eval string one level deeper, as bash does)
  sh.traceLevel++;
  let st: number;
  try { st = await sh.evalString(src, 'eval', sh.lineOf(sh.curPos)); } finally { sh.traceLevel--; }
  // (a syntax error: in POSIX mode the shell exits, see Shell.callArgs)
  if (sh.evalSyntaxError) { sh.evalSyntaxError = false; sh.usageFailed = true; }
  return st;
}, { special: true });

def(['source', '.'], async (sh, args) => {
  const o = await simpleOpts(sh, args, '');
  if (typeof o === 'number') return o;
  if (o.i > 1) args = [args[0]!, ...args.slice(o.i)];
  const file = args[1];
  if (file === undefined) return usageErr(sh, args[0]!, 'filename argument required');
  if (isRestricted(sh) && file.includes('/')) { await errOut(sh, args[0]!, restrictedMsg(file)); return 1; }
  let p: string | undefined;
  if (!file.includes('/')) {
    for (const dir of (sh.vars.get('PATH') ?? '').split(':')) {
      const c = path.resolve(sh.cwd, dir || '.', file);
      try { if (fs.statSync(Buffer.from(c, 'latin1')).isFile()) { p = c; break; } } catch { /* */ }
    }
  }
  // (POSIX mode does not look in the current directory for a name without a slash)
  if (p === undefined && sh.posix && !file.includes('/') && file !== '') { await errOut(sh, args[0]!, `${file}: file not found`); sh.usageFailed = true; return 1; }
  p ??= path.resolve(sh.cwd, file);
  let src: string;
  try {
    if (file === '') throw Object.assign(new Error(), { code: 'ENOENT' });
    // (`/dev/stdin`, `/dev/fd/N`: the shell's own fds, a here-document or pipe)
    src = (await readPath(sh.openBuf(p))).toString('latin1');
  } catch (e) {
    await ((e as NodeJS.ErrnoException).code === 'EISDIR' ? errOut(sh, args[0]!, `${file}: is a directory`) : errOut(sh, file, errnoMsg(e)));
    await sh.returnTrap(); // bash runs the RETURN trap even when the file cannot be read
    sh.usageFailed = true; // (POSIX mode: the shell exits)
    return 1;
  }
  const parsed = parseScript(src, sh.posix);
  const f = parsed.file;
  const savedSrc = sh.source, savedParams = sh.params, savedErr = sh.errName;
  const hasArgs = args.length > 2;
  if (hasArgs) sh.params = args.slice(2);
  const setCount = sh.setParamsCount;
  const line = sh.lineOf(sh.curPos);
  sh.setSource(parsed.src, file, file);
  sh.errName = file;
  sh.sourcing++;
  sh.traceLevel++; // (xtrace: a sourced file's commands one level deeper)
  // a call frame, as bash shows it in FUNCNAME, BASH_SOURCE and BASH_LINENO
  sh.funcNames.push('source'); sh.funcLines.push(line); sh.funcFiles.push(file);
  try {
    let st: number;
    try {
      // (bash warns of a here-document that runs to the end of the file as it reads its command)
      const w = parsed.warning;
      let top = f.Stmts[0];
      if (w) for (const s of f.Stmts) if (s.Position <= w.at) top = s;
      st = await sh.topLevel(f.Stmts, undefined, w ? Object.assign(parsed, { hdocWarning: { fromLine: top ? sh.lineOf(top.Position) : 1, text: `${file}: line ${w.line}: ${w.message}\n` } }) : parsed);
      if (parsed.error) {
        // bash ran the lines before the syntax error
        await sh.syntaxError(parsed.error, `${file}: line ${parsed.error.line}: `);
        st = parsed.error.status ?? 2;
        // (POSIX mode: the shell exits; not after bash's parse_matched_pair errors)
        if (!parsed.error.matchedPair) sh.usageFailed = true;
      }
    } catch (e) {
      if (e instanceof ReturnSignal) st = e.status;
      else throw e;
    }
    await sh.returnTrap();
    return st;
  } finally {
    sh.sourcing--;
    sh.traceLevel--;
    sh.funcNames.pop(); sh.funcLines.pop(); sh.funcFiles.pop();
    sh.source = savedSrc;
    sh.errName = savedErr;
    // bash keeps the parameters `set` gave a file sourced with arguments outside any function
    if (hasArgs && !(sh.funcDepth === 0 && sh.setParamsCount !== setCount)) sh.params = savedParams;
  }
}, { special: true });

def(['exec'], async (sh, args) => {
  let i = 1;
  let argv0: string | undefined;
  let login = false;
  while (args[i]?.startsWith('-') && args[i] !== '--' && args[i] !== '-') {
    const bad = args[i] === '-a' ? undefined : [...args[i]!.slice(1)].find((c) => c !== 'c' && c !== 'l');
    if (bad !== undefined) return usageErr(sh, 'exec', `-${bad}: invalid option`);
    if (args[i] === '-a') { argv0 = args[++i]; } else if (args[i]!.includes('l')) login = true;
    i++;
  }
  if (args[i] === '--') i++;
  const rest = args.slice(i);
  if (rest.length === 0) return 0;
  if (isRestricted(sh)) { await errOut(sh, 'exec', restrictedMsg()); return 1; }
  if (argv0 !== undefined || login) rest[0] = (login ? '-' : '') + (argv0 ?? rest[0]!);
  const found = lookPath(sh, args[i]!);
  if (found.error) {
    const name = args[i]!;
    if (found.error === 'command not found') await errOut(sh, 'exec', `${name}: not found`);
    else {
      // (bash names the file by its full path here)
      const full = name.includes('/') ? path.resolve(sh.cwd, name) : found.path ?? name;
      await sh.err(`${full}: ${found.error}`);
      if (found.status === 126) await errOut(sh, 'exec', `${full}: cannot execute: ${found.error}`);
    }
    throw new ExitSignal(found.status);
  }
  // a `#!`-less script runs in place, its $0 the full path (as in bash); posix_spawn would refuse it
  const script = noShebangScript(found.path!);
  if (script === 'binary') {
    // (bash names it by its full path, then reports errno 0 as well)
    await sh.err(`${found.path}: cannot execute binary file: Exec format error`);
    await sh.err(`${found.path}: Success`);
    throw new ExitSignal(126);
  }
  // (the command replaces the shell: no EXIT trap runs after it, in a subshell neither)
  sh.traps.delete('EXIT');
  if (script && scriptRunner) throw new ExitSignal(await scriptRunner(sh, script, [found.path!, ...rest.slice(1)]));
  const st = await sh.handlers.exec(sh, found.path!, rest);
  throw new ExitSignal(st);
}, { special: true });

def(['caller'], async (sh, args) => {
  const f = sh.callStack('FUNCNAME')!, l = sh.callStack('BASH_LINENO')!, src = sh.callStack('BASH_SOURCE')!;
  if (args.length < 2) {
    if (l[0] === undefined) return 1;
    await out(sh, `${l[0]} ${src[1] ?? 'NULL'}\n`);
    return 0;
  }
  const a = args[1]!;
  if (!/^\d+$/.test(a)) {
    if (l[0] === undefined) return 1;
    await errOut(sh, 'caller', `${a}: invalid number`);
    await sh.writeFd(2, 'caller: usage: caller [expr]\n');
    return 2;
  }
  const n = Number(a);
  if (f[n + 1] === undefined) return 1;
  await out(sh, `${l[n]} ${f[n + 1]} ${src[n + 1]}\n`);
  return 0;
});
