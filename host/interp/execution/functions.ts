// Shell functions: defining one, calling one (its frame: positional parameters, a variable scope,
// FUNCNAME/BASH_SOURCE/BASH_LINENO entries, the source its body's positions refer to, which traps
// it inherits; `local -`), without a promise while its body runs without one, and FUNCNEST.
import type { Shell, SourceInfo } from './runner.ts';
import type { FuncDecl, Stmt } from '../syntax/ast.ts';
import { DiscardSignal, ExitSignal, ReturnSignal } from './errors.ts';
import { isName } from '../syntax/names.ts';
import { savedOpts } from '../variables/var.ts';
import { printFunction } from '../syntax/printer.ts';
import { stmtSync } from './statements.ts';
import { badFuncNames } from '../syntax/reparse-placeholders.ts';
import { builtinTable } from '../builtins/table.ts';

/** A function definition (cmd()'s case): checks the name as bash does, then stores the body, its source and line. */
export async function funcDecl(sh: Shell, c: FuncDecl): Promise<number> {
  const bad = badFuncNames.get(c.Name.Value) ?? (/[\\'"`$]/.test(c.Name.Value) ? c.Name.Value : undefined);
  if (bad !== undefined) {
    await sh.err(`\`${bad}': not a valid identifier`);
    if (sh.posix) throw new ExitSignal(2);
    return 1;
  }
  if (sh.posix && (builtinTable.get(c.Name.Value)?.special || !isName(c.Name.Value))) {
    sh.curPos = lastPos(c); // (bash reports the line the definition ends on)
    await sh.err(`\`${c.Name.Value}': ${isName(c.Name.Value) ? 'is a special builtin' : 'not a valid identifier'}`);
    throw new ExitSignal(2);
  }
  if (sh.funcAttrs.get(c.Name.Value)?.includes('r')) { await sh.err(`${c.Name.Value}: readonly function`); return 1; }
  sh.funcs.set(c.Name.Value, c.Body);
  sh.funcSrc.set(c.Name.Value, sh.source.src);
  sh.funcSource.set(c.Name.Value, sh.source);
  sh.funcDefLine.set(c.Name.Value, sh.lineOf(c.Position));
  return 0;
}

export function functionText(sh: Shell, name: string): string {
  const body = sh.funcs.get(name);
  if (!body) return '';
  return printFunction(sh.funcSrc.get(name) ?? sh.source.src, name, body);
}

/**
 * Runs a function: without a promise when stmtSync takes its body whole and no RETURN trap is
 * set when it ends, else the rest through a promise (finishFunc).
 */
export function callFunc(sh: Shell, name: string, body: Stmt, args: string[]): number | Promise<number> {
  // (bash's FUNCNEST: past it the call abandons the command line, as execute_function's DISCARD)
  const nest = sh.funcDepth > 0 ? sh.vars.get('FUNCNEST') : undefined;
  if (nest !== undefined && /^\s*[0-9]{1,9}\s*$/.test(nest) && Number(nest) > 0 && sh.funcDepth >= Number(nest)) {
    // (the line bash names: in a script file that of the calling function's definition in the
    // cases compared, under -c the call's; doc/interpreter.md "Not yet")
    const def = sh.cMode ? undefined : sh.funcDefLine.get(sh.funcNames[sh.funcNames.length - 1] ?? '');
    const line = def ?? sh.lineOf(sh.curPos);
    const msg = `${sh.errSourceName()}: line ${line}: ${name}: maximum function nesting level exceeded (${sh.funcDepth})\n`;
    return sh.writeFd(2, msg).catch(() => undefined).then(() => { throw new DiscardSignal(1); });
  }
  const f = enterFunc(sh, name, body, args);
  let r: number | Promise<number> | undefined;
  // Each level of recursion without a promise costs a few dozen JavaScript frames: past
  // SYNC_CALLS levels the body starts from a fresh stack, in a microtask.
  if (sh.syncCalls >= SYNC_CALLS) return finishFunc(sh, f, Promise.resolve().then(() => sh.stmt(body)));
  sh.syncCalls++;
  try { r = stmtSync(sh, body); } catch (e) {
    if (!(e instanceof ReturnSignal)) { leaveFunc(sh, f); throw e; }
    r = e.status;
  } finally { sh.syncCalls--; }
  if (typeof r === 'number' && !sh.traps.has('RETURN')) { leaveFunc(sh, f); return r; }
  return finishFunc(sh, f, r ?? sh.stmt(body));
}

/** callFunc once its body went on with a promise: `return`, the RETURN trap, then leaveFunc. */
async function finishFunc(sh: Shell, f: FuncFrame, body: number | Promise<number>): Promise<number> {
  try {
    let st: number;
    try { st = await body; } catch (e) {
      if (e instanceof ReturnSignal) st = e.status;
      else throw e;
    }
    await sh.returnTrap();
    return st;
  } finally { leaveFunc(sh, f); }
}

/** A function's frame: parameters, a scope, FUNCNAME/BASH_LINENO entries, its source, its traps. */
function enterFunc(sh: Shell, name: string, body: Stmt, args: string[]): FuncFrame {
  const f: FuncFrame = { params: sh.params, source: sh.source, pos: sh.curPos, loop: sh.loopDepth, ret: sh.traps.get('RETURN'), debug: sh.traps.get('DEBUG'), err: undefined, lastArg: args.length ? args[args.length - 1]! : name };
  sh.params = args;
  sh.vars.pushScope(new Map());
  sh.funcDepth++;
  sh.funcNames.push(name);
  sh.funcLines.push(sh.lineOf(sh.curPos));
  const fsrc = sh.funcSource.get(name);
  sh.funcFiles.push(fsrc?.file ?? '');
  if (fsrc && sh.funcs.get(name) === body) sh.source = fsrc;
  sh.loopDepth = 0;
  // bash: a RETURN trap is not inherited by functions (no functrace); one set inside fires on return.
  // Nor is the ERR trap without errtrace: one set inside is the function's, and stays after it
  // unless it is unset again (then the caller's comes back).
  if (!sh.opts.errtrace) f.err = sh.traps.get('ERR');
  if (f.ret !== undefined) sh.traps.delete('RETURN');
  if (f.debug !== undefined) sh.traps.delete('DEBUG');
  if (f.err !== undefined) sh.traps.delete('ERR');
  return f;
}

function leaveFunc(sh: Shell, f: FuncFrame): void {
  if (f.ret !== undefined) sh.traps.set('RETURN', f.ret);
  if (f.debug !== undefined) sh.traps.set('DEBUG', f.debug);
  if (f.err !== undefined && !sh.traps.has('ERR')) sh.traps.set('ERR', f.err);
  sh.loopDepth = f.loop;
  sh.source = f.source; sh.curPos = f.pos;
  sh.funcNames.pop();
  sh.funcLines.pop();
  sh.funcFiles.pop();
  sh.funcDepth--;
  const sc = sh.vars.popScope();
  const saved = sc && savedOpts.get(sc);
  if (saved) Object.assign(sh.opts, saved); // (`local -`)
  sh.params = f.params;
  sh.vars.lastArg = f.lastArg; // ($_ is the call's last word again, not the body's)
}

/** The position of the last token in an AST node (the largest position in it). */
function lastPos(n: unknown): number {
  if (Array.isArray(n)) return n.reduce((m: number, x) => Math.max(m, lastPos(x)), 0);
  if (!n || typeof n !== 'object') return 0;
  let max = 0;
  for (const [k, v] of Object.entries(n)) max = Math.max(max, typeof v === 'number' ? (k === 'Op' || k === 'Names' ? 0 : v) : lastPos(v));
  return max;
}

/** How many function calls callFunc nests on the JavaScript stack before it takes a promise. */
const SYNC_CALLS = 64;

/** What enterFunc changed and leaveFunc puts back. */
interface FuncFrame {
  params: string[]; source: SourceInfo; pos: number; loop: number;
  ret: string | undefined; debug: string | undefined; err: string | undefined; lastArg: string;
}
