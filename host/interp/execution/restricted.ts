// bash's restricted mode (`bash -r`, `--restricted`, `set -r`; "The Restricted Shell" in its
// manual). The flag lives in setOpts ('restricted', shown in `$-` but not by `set -o`, where bash
// has no such name) so subshells inherit it; `shopt restricted_shell` says whether the shell
// *started* restricted and cannot be changed. Each builtin that bash restricts asks here.
import type { Shell } from './runner.ts';

/** The variables a shell started restricted makes readonly (bash's maybe_make_restricted). */
export const RESTRICTED_VARS = ['PATH', 'SHELL', 'ENV', 'BASH_ENV', 'HISTFILE'];

export function isRestricted(sh: Shell): boolean {
  return sh.setOpts.get('restricted') === true;
}

/**
 * Startup of `bash -r`: the restriction plus the readonly variables (kept unset when unset, as
 * `declare -r ENV`). `set -r` later sets only the flag: bash leaves PATH and the others writable then.
 */
export function startRestricted(sh: Shell): void {
  sh.setOpts.set('restricted', true);
  sh.shopt.add('restricted_shell');
  for (const n of RESTRICTED_VARS) sh.vars.putGlobal(n, { ...(sh.vars.globalVar(n) ?? {}), readonly: true });
}

/** bash's sh_restricted message: `NAME: restricted` or just `restricted`. */
export function restrictedMsg(what?: string): string {
  return what === undefined ? 'restricted' : `${what}: restricted`;
}

/** A disk command named with a `/` (execute_disk_command refuses it before any redirection). */
export function slashCommandError(sh: Shell, name: string): string | undefined {
  return isRestricted(sh) && name.includes('/') ? `${name}: restricted: cannot specify \`/' in command names` : undefined;
}

/** The error of an output redirection to `file` in a restricted shell, else undefined. */
export function redirectError(sh: Shell, file: string): string | undefined {
  return isRestricted(sh) ? `${file}: restricted: cannot redirect output` : undefined;
}

/** The key in setOpts of bash's `save_restricted` (not an option name `set -o` knows). */
const SAVED = ' restricted_shell saved';

/**
 * `shopt -s`/`-u restricted_shell` sets it to what it was the first time either ran: whether
 * the shell was restricted then (bash's set_restricted_shell), which `set -r` may have made so.
 */
export function setRestrictedShell(sh: Shell): void {
  let saved = sh.setOpts.get(SAVED);
  if (saved === undefined) sh.setOpts.set(SAVED, saved = isRestricted(sh));
  if (saved) sh.shopt.add('restricted_shell'); else sh.shopt.delete('restricted_shell');
}
