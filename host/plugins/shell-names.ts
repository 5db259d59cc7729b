// Names a configured tool cannot take. A configured executor-backed tool runs through a basename
// frontend (`<name> ARG…`), so a shell keyword or builtin would select shell-owned behaviour
// instead of the frontend (REQ-PLUGIN-001); the router's and Codex's own names are taken.
import { CODEX_RESERVED_NAMES, ROUTER_RESERVED_NAMES } from '../registry/tool-names.ts';

/** Bash reserved words that can be tool names (`compgen -k`, Bash 5.2; `{ } ! [[ ]]` cannot match the name pattern). */
export const BASH_KEYWORDS: ReadonlySet<string> = new Set([
  'if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done',
  'in', 'function', 'time', 'coproc',
]);

/** Bash builtins (`compgen -b`, Bash 5.2), POSIX special builtins included. */
export const BASH_BUILTINS: ReadonlySet<string> = new Set([
  '.', ':', '[', 'alias', 'bg', 'bind', 'break', 'builtin', 'caller', 'cd', 'command', 'compgen', 'complete',
  'compopt', 'continue', 'declare', 'dirs', 'disown', 'echo', 'enable', 'eval', 'exec', 'exit', 'export',
  'false', 'fc', 'fg', 'getopts', 'hash', 'help', 'history', 'jobs', 'kill', 'let', 'local', 'logout',
  'mapfile', 'popd', 'printf', 'pushd', 'pwd', 'read', 'readarray', 'readonly', 'return', 'set', 'shift',
  'shopt', 'source', 'suspend', 'test', 'times', 'trap', 'true', 'type', 'typeset', 'ulimit', 'umask',
  'unalias', 'unset', 'wait',
]);


export type ReservedReason = 'bash-keyword' | 'bash-builtin' | 'router' | 'codex';

/** Why `name` cannot be a configured tool name, or null if it can. Codex first: the most specific owner. */
export function reservedNameReason(name: string): ReservedReason | null {
  if (CODEX_RESERVED_NAMES.has(name)) return 'codex';
  if (ROUTER_RESERVED_NAMES.has(name)) return 'router';
  if (BASH_KEYWORDS.has(name)) return 'bash-keyword';
  if (BASH_BUILTINS.has(name)) return 'bash-builtin';
  return null;
}

export function describeReservedReason(reason: ReservedReason): string {
  switch (reason) {
    case 'codex': return 'is reserved by Codex';
    case 'router': return "is reserved by the router's built-in tools";
    case 'bash-keyword': return 'is a Bash keyword, so its frontend would never run';
    case 'bash-builtin': return 'is a Bash builtin, so its frontend would never run';
  }
}
