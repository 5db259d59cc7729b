// The direct-carrier rule of the built-in shell tool (REQ-SHELL-001, acceptance 7): an implicit-Bash
// body without directives stays the command itself — no helper, no worker — when it is one simple
// external call on one line. Judged with the parser the shell worker runs the body with
// (host/interp/syntax/reparse.ts), so the router and the worker never disagree about what the body is.
import type { Stmt, WordPart } from '../interp/syntax/ast.ts';
import { parseScript } from '../interp/syntax/reparse.ts';
import { BASH_BUILTINS, BASH_KEYWORDS } from '../plugins/shell-names.ts';
import { ROUTER_RESERVED_NAMES } from '../registry/tool-names.ts';
import { staticWord } from './static-word.ts';

export type DirectDecision =
  | { readonly direct: true; /** The body without its one optional final line terminator. */ readonly command: string }
  | { readonly direct: false; readonly reason: string };

/**
 * Whether `body` (the complete input of an implicit-Bash call with no directive) may run as the
 * direct carrier: at most one final line terminator, parses in Bash mode exactly as written (no
 * syntax error and none of the parser's compatibility patches), one statement that is a
 * non-background, non-negated simple call, its command word static and neither a Bash builtin or
 * keyword nor one of the router's private commands, and no command or process substitution
 * anywhere in it.
 */
export function decideDirect(body: string): DirectDecision {
  const command = body.endsWith('\r\n') ? body.slice(0, -2) : body.endsWith('\n') ? body.slice(0, -1) : body;
  if (/[\r\n]/.test(command)) return helper('more than one line');
  if (command.trim() === '') return helper('empty');
  const latin1 = Buffer.from(command, 'utf8').toString('latin1');
  let parsed;
  try {
    parsed = parseScript(latin1, false);
  } catch {
    return helper('does not parse');
  }
  if (parsed.error !== undefined || parsed.warning !== undefined) return helper('does not parse');
  if (parsed.src !== latin1) return helper('parses only with compatibility rewrites');
  const stmts = parsed.file.Stmts;
  if (stmts.length !== 1) return helper(stmts.length === 0 ? 'no command' : 'more than one statement');
  const stmt = stmts[0]!;
  if (stmt.Background) return helper('runs in the background');
  if (stmt.Negated) return helper('is negated');
  if (stmt.Coprocess) return helper('is a coprocess');
  const cmd = stmt.Cmd;
  if (cmd === null || cmd.type !== 'CallExpr') return helper(cmd === null ? 'no command' : `is a ${cmd.type}`);
  const first = cmd.Args[0];
  if (first === undefined) return helper('only assignments');
  const name = staticWord(first);
  if (name === null) return helper('the command name is not static');
  if (BASH_BUILTINS.has(name) || BASH_KEYWORDS.has(name)) return helper(`${name} is a shell builtin`);
  if (ROUTER_RESERVED_NAMES.has(name)) return helper(`${name} is a private command`);
  if (hasSubstitution(stmt)) return helper('contains a command or process substitution');
  return { direct: true, command };
}

function helper(reason: string): DirectDecision {
  return { direct: false, reason };
}

/** Any CmdSubst or ProcSubst node below `node` (a generic walk: every AST object has a `type`). */
function hasSubstitution(node: Stmt | WordPart | object): boolean {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
    } else if (typeof v === 'object' && v !== null) {
      const t = (v as { type?: unknown }).type;
      if (t === 'CmdSubst' || t === 'ProcSubst') return true;
      for (const x of Object.values(v)) if (typeof x === 'object' && x !== null) stack.push(x);
    }
  }
  return false;
}
