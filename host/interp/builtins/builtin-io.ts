// What builtins write, shared by every family: output to fd 1, `NAME: message` errors, and
// bash's usage errors (`NAME: usage: SYNOPSIS`, status 2).
import type { Shell } from '../execution/runner.ts';
import { HELP_TOPICS } from './help-text.ts';

export const out = (sh: Shell, s: string): Promise<void> => sh.writeFd(1, s);
export async function errOut(sh: Shell, name: string, msg: string): Promise<void> { await sh.err(`${name}: ${msg}`); }

const USAGES: Record<string, string> = {
  eval: 'eval [arg ...]', source: 'source filename [arguments]', '.': '. filename [arguments]',
  builtin: 'builtin [shell-builtin [arg ...]]', alias: 'alias [-p] [name[=value] ... ]', unalias: 'unalias [-a] name [name ...]',
  umask: 'umask [-p] [-S] [mode]', pushd: 'pushd [-n] [+N | -N | dir]', popd: 'popd [-n] [+N | -N]', dirs: 'dirs [-clpv] [+N] [-N]',
  history: 'history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]', getopts: 'getopts optstring name [arg ...]',
};
/** bash's builtin usage error: `NAME: MSG` then `NAME: usage: …` (no script/line prefix); status 2. */
export async function usageErr(sh: Shell, name: string, msg: string | undefined): Promise<number> {
  if (msg !== undefined) await errOut(sh, name, msg);
  await sh.writeFd(2, `${name}: usage: ${USAGES[name] ?? HELP_TOPICS.find((t) => t[0] === name)?.[1] ?? name}\n`);
  sh.usageFailed = true;
  return 2;
}
