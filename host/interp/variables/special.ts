// Special and dynamic parameters: the values of `$?`, `$#`, `$-`, `$_`… and of bash's dynamic
// variables (RANDOM, SECONDS, LINENO, BASHPID…), computed at each use from the shell's state
// (VarHost) until a dynamic one is unset. Apart from store.ts, which keeps the variables that are
// stored; VarStore.param sends the names that may be special here.
import type { VarHost } from './host.ts';
import type { VarStore } from './store.ts';

/** bash's dynamic variables: computed at each use until unset, then ordinary variables. */
export const DYNAMIC_VARS = new Set(['RANDOM', 'SRANDOM', 'LINENO', 'SECONDS', 'BASHPID', 'BASH_SUBSHELL', 'BASH_COMMAND', 'EPOCHSECONDS', 'EPOCHREALTIME', 'BASH_ARGV0', 'HISTCMD']);
/** Dynamic variables with the integer attribute (`declare -p`). */
export const INTEGER_DYNAMIC = new Set(['RANDOM', 'SRANDOM', 'SECONDS', 'BASHPID', 'HISTCMD']);
/** Dynamic variables whose assignment bash ignores. */
export const IGNORED_ASSIGN = new Set(['SRANDOM', 'LINENO', 'BASHPID', 'BASH_COMMAND', 'EPOCHSECONDS', 'EPOCHREALTIME', 'HISTCMD']);

/** The value of `name` (not a digit, not lowercase: see VarStore.param), special or not. */
export function specialParam(vars: VarStore, host: VarHost, name: string): string | undefined {
  switch (name) {
    case '?': return String(host.status);
    case '#': return String(host.params.length);
    case '$': return String(process.pid);
    case '!': return host.lastBgPid ? String(host.lastBgPid) : undefined;
    case '-': return flagString(host);
    case '@': case '*': return host.params.join(name === '*' ? (vars.get('IFS') ?? ' ').slice(0, 1) : ' ');
    case 'RANDOM': { const v = vars.raw('RANDOM'); if (v && v.str !== undefined && v.str !== '\0rand') return vars.get(name); return String(nextRandom(vars)); }
    case 'SRANDOM': return String(Math.floor(Math.random() * 4294967296));
    case 'LINENO': return String(host.lineOf(host.curPos));
    case 'SECONDS': return String(vars.seconds.value + Math.floor((Date.now() - vars.seconds.at) / 1000));
    case 'BASHPID': return String(host.bashpid);
    case 'BASH_SUBSHELL': return String(host.subshell);
    case 'SHELLOPTS': return host.shellOptsText();
    case 'BASHOPTS': return [...host.shopt].sort().join(':');
    case 'FUNCNAME': case 'BASH_SOURCE': case 'BASH_LINENO': case 'DIRSTACK': if (vars.isStackVar(name)) return host.callStack(name)![0]; break;
    case 'BASH_COMMAND': return host.curCmdText();
    case 'EPOCHSECONDS': return String(Math.floor(Date.now() / 1000));
    case 'EPOCHREALTIME': return epochRealtime();
    case 'HISTCMD': return host.history.recording ? String(host.history.base + host.history.length - 1) : '0';
    case '_': return vars.lastArg;
    case 'BASH_ARGV0': if (!vars.raw(name)) return host.arg0; break;
  }
  return vars.get(name);
}

/** `$-`: the set options' letters. */
export function flagString(host: VarHost): string {
  let s = '';
  const o = host.opts;
  if (o.allexport) s += 'a';
  if (o.errexit) s += 'e';
  if (o.noglob) s += 'f';
  s += 'h';
  if (o.interactive) s += 'i';
  if (o.noexec) s += 'n';
  if (host.setOpts.get('restricted')) s += 'r';
  if (o.nounset) s += 'u';
  if (o.verbose) s += 'v';
  if (o.xtrace) s += 'x';
  s += 'B';
  if (o.noclobber) s += 'C';
  if (o.errtrace) s += 'E';
  if (host.setOpts.get('histexpand')) s += 'H';
  if (host.cMode && !host.noC) s += 'c';
  return s;
}

/** bash 5.2's brand(): Park-Miller minimal standard, folded to 15 bits; never the same value twice in a row. */
export function nextRandom(vars: VarStore): number {
  let seed: number = vars.rseed ?? Math.floor(Math.random() * 0x7ffffffe) + 1;
  let r: number;
  do {
    const last: number = seed === 0 ? 123459876 : seed;
    const h: number = Math.floor(last / 127773);
    const l: number = last - 127773 * h;
    const t: number = 16807 * l - 2836 * h;
    seed = t < 0 ? t + 0x7fffffff : t;
    r = ((seed >>> 16) ^ (seed & 65535)) & 32767;
  } while (r === vars.lastRandom);
  vars.rseed = seed;
  return (vars.lastRandom = r);
}

/** bash's $EPOCHREALTIME: seconds since the epoch with microseconds (timeOrigin + now() keeps them). */
function epochRealtime(): string {
  const us = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  return `${Math.floor(us / 1e6)}.${String(us % 1e6).padStart(6, '0')}`;
}
