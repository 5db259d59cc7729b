// `hpatch-router interp [--posix] [-e -u -x -o opt ...] (-c SCRIPT [NAME [ARG...]] | FILE [ARG...])`
// stdio inherited, exit status the script's. Parse errors (and Bash-only syntax under
// --posix) are reported as `name: line:col: message` with status 2 before anything runs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isatty } from 'node:tty';
import { constants as osConstants, userInfo } from 'node:os';
import { parseScript } from '../syntax/reparse.ts';
import { Shell, signalListeners } from '../execution/runner.ts';
import { toBytes, fromBytes } from '../execution/byte-strings.ts';
import { longOptNames, optionLetters, setLongOpt, shoptNames, type Options } from '../execution/options.ts';
import type { Handlers } from '../execution/handlers.ts';
import { defaultHandlers } from '../execution/default-handlers.ts';
import { setScriptRunner } from '../execution/script-runner.ts';
import { inheritedFd, pendingBlockingOps, unblockOpens } from '../execution/io.ts';
import '../builtins/all.ts';
import { isName } from '../syntax/names.ts';
import { startRestricted } from '../execution/restricted.ts';

export interface RunOptions {
  posix?: boolean;
  /** $0 and the error-message prefix. */
  name?: string;
  params?: string[];
  /** Shell fds: defaults to the process's 0, 1, 2. */
  fds?: Record<number, number>;
  cwd?: string;
  /** The environment (default: this process's, byte for byte); `envIsBytes`: its strings are already the interpreter's byte strings. */
  env?: Record<string, string | undefined>;
  envIsBytes?: boolean;
  opts?: Partial<Options>;
  /** Give each external command its own process group (default: when no std fd is a TTY). */
  procGroups?: boolean;
  /** The script came from -c (affects error-message names inside functions, like bash). */
  cMode?: boolean;
  /** `shopt` options to turn on (true) or off (false) at startup (`-O`/`+O`). */
  shopts?: Map<string, boolean>;
  /** `set -o` options without an effect here (`-o vi`…). */
  setOpts?: Map<string, boolean>;
  /** `bash -r` / `--restricted`: a restricted shell from the start (restricted.ts). */
  restricted?: boolean;
  /** How external programs run, redirections open and private commands are found (default: defaultHandlers). */
  handlers?: Handlers;
}

/** Builds a shell with the process-like initial state. */
/** An environment of JavaScript strings as the interpreter's byte strings. */
function envBytes(env: NodeJS.ProcessEnv): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out.push([toBytes(k), toBytes(v)]);
  return out;
}

/**
 * This process's environment, byte for byte: node's process.env drops a name that is not UTF-8
 * and turns such bytes in a value into U+FFFD, and a child must get what the interpreter was given
 * (REQ-SHELL-001 9). So the entries are read from /proc/self/environ, as process.env has them
 * now: a name it no longer has (the launcher's tunables, removed at start) is left out, and a
 * value it has changed since is its own.
 */
function processEnviron(): Array<[string, string]> {
  let raw: string;
  try { raw = fs.readFileSync('/proc/self/environ', 'latin1'); } catch { return envBytes(process.env); }
  const out: Array<[string, string]> = [];
  const seen = new Set<string>();
  for (const e of raw.split('\0')) {
    const eq = e.indexOf('=', 1);
    if (eq < 0) continue;
    const k = e.slice(0, eq), v = e.slice(eq + 1);
    const name = fromBytes(k);
    if (toBytes(name) !== k) { out.push([k, v]); continue; } // (not UTF-8: process.env cannot hold it)
    const now = process.env[name];
    if (now === undefined || seen.has(name)) continue;
    seen.add(name);
    out.push([k, fromBytes(v) === now ? v : toBytes(now)]);
  }
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !seen.has(k)) out.push([toBytes(k), toBytes(v)]);
  return out;
}

export function newShell(o: RunOptions = {}): Shell {
  const sh = new Shell(o.handlers ?? defaultHandlers);
  if (o.opts) Object.assign(sh.opts, o.opts);
  if (o.posix) setLongOpt(sh, 'posix', true); // (as `set -o posix`: its shopt options too)
  if (o.opts?.interactive) {
    // (no job control, history or prompts here: just the visible option state of `bash -i`)
    for (const n of ['emacs', 'history', 'histexpand']) setLongOpt(sh, n, true);
    sh.shopt.add('expand_aliases');
  }
  for (const [n, on] of o.shopts ?? []) if (on) sh.shopt.add(n); else sh.shopt.delete(n);
  for (const [n, on] of o.setOpts ?? []) if (o.opts?.interactive || (n !== 'vi' && n !== 'emacs')) setLongOpt(sh, n, on); // (line editing: interactive only)
  const env = o.env ?? process.env;
  const foreign = new Map<string, string>();
  for (const [k, v] of o.env ? (o.envIsBytes ? Object.entries(o.env).filter((e): e is [string, string] => e[1] !== undefined) : envBytes(o.env)) : processEnviron()) {
    if (!isName(k)) { foreign.set(k, v); continue; }
    sh.vars.putGlobal(k, { str: v, exported: true });
  }
  sh.vars.foreignEnv = foreign;
  sh.cwd = toBytes(o.cwd ?? process.cwd());
  // bash keeps an imported absolute PWD that names the working directory (through symlinks)
  const pwd = sh.vars.get('PWD');
  if (pwd?.startsWith('/') && sameFile(pwd, sh.cwd)) sh.cwd = path.resolve(pwd);
  else sh.vars.set('PWD', sh.cwd);
  const vars = sh.vars;
  vars.putGlobal('PWD', { ...(vars.globalVar('PWD') ?? {}), str: sh.cwd, exported: true });
  // an OLDPWD that is not a directory becomes exported without a value, as in bash
  const old = vars.globalVar('OLDPWD')?.str;
  if (old === undefined || !isDir(old)) vars.putGlobal('OLDPWD', { exported: true });
  if (!vars.globalVar('IFS')) vars.putGlobal('IFS', { str: ' \t\n' });
  if (!vars.globalVar('PS4')) vars.putGlobal('PS4', { str: '+ ' });
  if (!vars.globalVar('OPTIND')) vars.putGlobal('OPTIND', { str: '1', integer: true });
  if (!vars.globalVar('PATH')) vars.putGlobal('PATH', { str: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' });
  vars.putGlobal('BASH_VERSION', { str: '5.2.15(1)-release' });
  vars.putGlobal('BASH_VERSINFO', { arr: new Map([[0, '5'], [1, '2'], [2, '15'], [3, '1'], [4, 'release'], [5, 'x86_64-pc-linux-gnu']]), readonly: true });
  vars.putGlobal('PPID', { str: String(process.ppid), readonly: true, integer: true });
  vars.putGlobal('UID', { str: String(process.getuid?.() ?? 0), readonly: true, integer: true });
  vars.putGlobal('EUID', { str: String(process.geteuid?.() ?? 0), readonly: true, integer: true });
  vars.putGlobal('SHLVL', { str: String((Number(env['SHLVL']) || 0) + 1), exported: true });
  // (bash keeps these from the environment when they are there)
  if (!vars.globalVar('HOSTNAME')) vars.putGlobal('HOSTNAME', { str: toBytes(os_hostname()) });
  // (bash sets SHELL, not exported, to the user's login shell when the environment has none)
  if (!vars.globalVar('SHELL')) vars.putGlobal('SHELL', { str: toBytes(loginShell()) });
  if (!vars.globalVar('OSTYPE')) vars.putGlobal('OSTYPE', { str: 'linux-gnu' });
  if (!vars.globalVar('HOSTTYPE')) vars.putGlobal('HOSTTYPE', { str: 'x86_64' });
  if (!vars.globalVar('MACHTYPE')) vars.putGlobal('MACHTYPE', { str: 'x86_64-pc-linux-gnu' });
  vars.putGlobal('OPTERR', { str: '1' });
  // SHELLOPTS/BASHOPTS: readonly, computed on use; from the environment they turn options on
  for (const [k, set] of [['SHELLOPTS', (n: string) => { if (longOptNames.includes(n)) setLongOpt(sh, n, true); }], ['BASHOPTS', (n: string) => { if (shoptNames.includes(n)) sh.shopt.add(n); }]] as const) {
    const fromEnv = env[k];
    // (a restricted shell does not parse them, as bash)
    if (fromEnv !== undefined && !o.restricted) for (const n of fromEnv.split(':')) set(n);
    vars.putGlobal(k, { str: '', readonly: true, exported: fromEnv !== undefined });
  }
  vars.putGlobal('BASH', { str: fs.existsSync('/usr/bin/bash') ? '/usr/bin/bash' : '/bin/bash' });
  const fds = o.fds ?? { 0: 0, 1: 1, 2: 2 };
  for (const [n, fd] of Object.entries(fds)) sh.fds.set(Number(n), inheritedFd(fd));
  sh.arg0 = o.name ?? 'bash';
  // bash starts with $_ from the environment, else its own argv[0]
  sh.vars.lastArg = vars.globalVar('_')?.str ?? 'bash';
  sh.vars.envUnderscore = vars.globalVar('_') !== undefined ? 2 : 0;
  sh.errName = sh.arg0;
  sh.params = o.params ?? [];
  sh.procGroups = o.procGroups ?? !(safeTty(0) || safeTty(1) || safeTty(2));
  // (bash restricts the shell once its startup files are read: there are none here)
  if (o.restricted) startRestricted(sh);
  // (`-o history` or SHELLOPTS at startup shows as on but records nothing, as in bash: history.ts)
  sh.history.recording = false;
  return sh;
}

// bash runs an executable without `#!` in a subshell reset to a new shell's state: exported
// variables only, no functions/aliases/traps, default options, $0 and positional parameters from argv.
setScriptRunner(async (parent, src, args) => {
  const name = args[0]!;
  const parsed = parseScript(src.toString('latin1'), false);
  const sh = newShell({ name, params: args.slice(1), env: parent.vars.environ(undefined, true), envIsBytes: true, cwd: fromBytes(parent.cwd), fds: {}, procGroups: parent.procGroups, handlers: parent.handlers });
  sh.fds = parent.fds.clone();
  sh.cMode = false;
  sh.ulimits = new Map(parent.ulimits);
  sh.children = parent.children; sh.groups = parent.groups; sh.cancel = parent.cancel; sh.cancelStatus = parent.cancelStatus;
  sh.setSource(parsed.src, name);
  try {
    return await sh.runFile(parsed.file, parsed.error, parsed.warning);
  } finally {
    sh.fds.releaseAll();
  }
});

function sameFile(a: string, b: string): boolean {
  try {
    const x = fs.statSync(Buffer.from(a, 'latin1')), y = fs.statSync(Buffer.from(b, 'latin1'));
    return x.dev === y.dev && x.ino === y.ino;
  } catch { return false; }
}
function isDir(p: string): boolean { try { return fs.statSync(Buffer.from(p, 'latin1')).isDirectory(); } catch { return false; } }
/** The user's login shell (bash's default SHELL), looked up once per process. */
function loginShell(): string {
  if (shellOfUser === undefined) { try { shellOfUser = userInfo().shell || '/bin/sh'; } catch { shellOfUser = '/bin/sh'; } }
  return shellOfUser;
}
let shellOfUser: string | undefined;
function os_hostname(): string { try { return fs.readFileSync('/proc/sys/kernel/hostname', 'utf8').trim(); } catch { return 'localhost'; } }
function safeTty(fd: number): boolean { try { return isatty(fd); } catch { return false; } }

export interface ScriptResult { status: number }

/** Parses and runs a script in-process. `src` is the script as bytes. */
export async function runScript(src: Buffer, o: RunOptions = {}): Promise<number> {
  const name = o.name ?? 'bash';
  const parsed = parseScript(src.toString('latin1'), !!o.posix);
  const sh = newShell(o);
  sh.cMode = o.cMode ?? true;
  sh.setSource(parsed.src, name);
  return sh.runFile(parsed.file, parsed.error, parsed.warning);
}


/** bash's invocation error: `bash: -X: invalid option` and its usage text (status 2). */
function badOption(sh: string, opt: string): number {
  process.stderr.write(`${sh}: ${opt}: invalid option\nUsage:\t${sh} [GNU long option] [option] ...\n\t${sh} [GNU long option] [option] script-file ...\nGNU long options:\n` +
    ['debug', 'debugger', 'dump-po-strings', 'dump-strings', 'help', 'init-file', 'login', 'noediting', 'noprofile', 'norc', 'posix', 'pretty-print', 'rcfile', 'restricted', 'verbose', 'version'].map((o) => `\t--${o}\n`).join('') +
    'Shell options:\n\t-ilrsD or -c command or -O shopt_option\t\t(invocation only)\n\t-abefhkmnptuvxBCEHPT or -o option\n');
  return 2;
}

function usage(): number {
  process.stderr.write('usage: hpatch-router interp [--posix] [-euxo opt] -c SCRIPT [NAME [ARG...]] | FILE [ARG...]\n');
  return 2;
}

/** `handlers`: what the embedder gives the shell it runs (the shell worker: its private commands). */
export async function runInterpCli(argv: readonly string[], handlers: Handlers = defaultHandlers): Promise<number> {
  let posix = false;
  let script: Buffer | undefined;
  let name = 'bash';
  const opts: Partial<Options> = {};
  let i = 0;
  let cmdMode = false, stdinMode = false, restricted = false;
  const shopts = new Map<string, boolean>(), setOpts = new Map<string, boolean>();
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--posix') { posix = true; continue; }
    if (a === '-') { i++; break; }
    // startup-file options: there are no startup files to read (a login shell reads none either)
    if (a === '--norc' || a === '--noprofile' || a === '--login' || a === '--noediting') { if (a === '--login') shopts.set('login_shell', true); continue; }
    if ((a === '--rcfile' || a === '--init-file') && i + 1 < argv.length) { i++; continue; }
    if (a === '--help' || a === '--version') {
      process.stdout.write(`GNU bash, version 5.2.15(1)-release${a === '--help' ? '-' : ' '}(x86_64-pc-linux-gnu)\n` + (a === '--help'
        ? 'Usage:\tbash [GNU long option] [option] ...\n\tbash [GNU long option] [option] script-file ...\n(hpatch-router interp: an in-process bash interpreter)\n'
        : 'This is the in-process interpreter of hpatch-router, not GNU bash.\n'));
      return 0;
    }
    if (a === '--') { i++; break; }
    if (a === '--verbose') { opts.verbose = true; continue; }
    if (a === '--restricted') { restricted = true; continue; }
    if (a === '--debug' || a === '--debugger') continue;
    if (a.startsWith('--')) return badOption('bash', a);
    // option letters, possibly grouped; each `o`/`O` takes the next argument (`-oo errexit noglob`);
    // like bash, any word starting with `-` or `+` before the operands is options (`bash -c '+ x'`)
    if (/^[-+]/.test(a)) {
      const on = a[0] === '-';
      const sh = 'bash';
      for (const c of a.slice(1)) {
        if (c === 'o' || c === 'O') {
          const o = argv[++i];
          if (o === undefined) return usage();
          if (c === 'O') {
            if (!shoptNames.includes(o)) { process.stderr.write(`${sh}: ${o}: invalid shell option name\n`); return 2; }
            shopts.set(o, on);
          } else if (['errexit', 'nounset', 'xtrace', 'pipefail', 'noglob', 'noexec', 'noclobber', 'allexport', 'verbose', 'errtrace'].includes(o)) (opts as Record<string, boolean>)[o] = on;
          else if (o === 'posix') posix = on;
          else if (longOptNames.includes(o)) setOpts.set(o, on);
          else { process.stderr.write(`${sh}: ${o}: invalid option name\n`); return 2; }
          continue;
        }
        if (c === 'c') { cmdMode = true; continue; }
        if (c === 'l') { shopts.set('login_shell', true); continue; } // login shell: no startup files here
        if (c === 'i') { opts.interactive = on; continue; }
        if (c === 's') { stdinMode = true; continue; }
        if (c === 'r') { if (on) restricted = true; continue; }
        if (c === 'H') { setOpts.set('histexpand', on); continue; }
        const o = optionLetters[c];
        if (o) (opts as Record<string, boolean>)[o] = on;
        else return badOption(sh, `${a[0]}${c}`);
      }
      continue;
    }
    break;
  }
  const rest = argv.slice(i);
  if (cmdMode) {
    if (rest.length === 0) { process.stderr.write(`bash: -c: option requires an argument\n`); return 2; }
    script = Buffer.from(rest[0]!, 'utf8');
    name = rest[1] ?? 'bash';
    return run(script, name, rest.slice(2).map(toBytes), posix, opts, true, shopts, setOpts, restricted, handlers);
  }
  if (rest.length === 0 || stdinMode) {
    // script from stdin
    const chunks: Buffer[] = [];
    const buf = Buffer.alloc(65536);
    for (;;) {
      let n = 0;
      try { n = fs.readSync(0, buf, 0, buf.length, null); } catch (e: any) { if (e.code === 'EAGAIN') { await new Promise((r) => setTimeout(r, 5)); continue; } if (e.code === 'EOF') break; throw e; }
      if (n === 0) break;
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
    return run(Buffer.concat(chunks), 'bash', rest.map(toBytes), posix, opts, false, shopts, setOpts, restricted, handlers);
  }
  const file = rest[0]!;
  try {
    script = fs.readFileSync(file);
  } catch (e: any) {
    process.stderr.write(`bash: ${file}: ${e.code === 'ENOENT' ? 'No such file or directory' : e.message}\n`);
    return 127;
  }
  // bash's check_binary_file: a NUL before the first newline of the first 80 bytes
  const head = script.subarray(0, 80);
  const nl = head.indexOf(10);
  if (head.subarray(0, nl < 0 ? head.length : nl).includes(0)) {
    process.stderr.write(`${file}: ${file}: cannot execute binary file\n`);
    return 126;
  }
  return run(script, file, rest.slice(1).map(toBytes), posix, opts, false, shopts, setOpts, restricted, handlers);
}

async function run(script: Buffer, name: string, params: string[], posix: boolean, opts: Partial<Options>, cMode = false, shopts?: Map<string, boolean>, setOpts?: Map<string, boolean>, restricted = false, handlers: Handlers = defaultHandlers): Promise<number> {
  const o: RunOptions = { posix, name: toBytes(name), params, opts, shopts, setOpts, restricted, handlers };
  const parsed = parseScript(script.toString('latin1'), posix);
  const sh = newShell(o);
  sh.cMode = cMode;
  sh.setSource(parsed.src, name);
  sh.vars.startupLocale();
  installSignalHandlers(sh);
  const st = await sh.runFile(parsed.file, parsed.error, parsed.warning);
  if (sh.cancel.signal.aborted) {
    // bounded grace period, then make sure no descendant keeps running
    await new Promise((r) => setTimeout(r, 100));
    killChildren(sh, 'SIGKILL');
    if (pendingBlockingOps() > 0) await new Promise(() => undefined); // the signal handler re-raises
    return sh.cancelStatus.value;
  }
  killGroupsQuietly(sh);
  if (sh.fatalSignal) {
    // `kill -SIG $$` without a trap: end like bash, by the signal itself (after the EXIT trap ran)
    const name = Object.entries(osConstants.signals).find(([, n]) => n === sh.fatalSignal)?.[0] as NodeJS.Signals | undefined;
    if (name && name !== 'SIGPIPE') { // (Node ignores SIGPIPE for good: exit 141 instead)
      process.removeAllListeners(name);
      process.kill(process.pid, name);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  return st;
}

const SIGS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const SIGNUM: Record<string, number> = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 };

/**
 * Cancellation (SIGINT/SIGTERM/SIGHUP): stop the script, signal every external process
 * group it created (so descendants that keep the shell's streams open die too), escalate
 * to SIGKILL after a bounded wait, and exit 128+n. On a PTY (no own groups) the direct
 * children are signalled and the wait on the inherited pipes is bounded the same way.
 */
function installSignalHandlers(sh: Shell): void {
  for (const sig of SIGS) {
    process.on(sig, () => {
      const trap = sh.traps.get(sig.slice(3));
      if (trap !== undefined && trap !== '') {
        void sh.evalTrap(trap);
        return;
      }
      if (trap === '') return;
      const status = 128 + SIGNUM[sig]!;
      sh.cancelWith(status);
      killChildren(sh, sig);
      unblockOpens();
      // a builtin blocked reading a socket in a libuv thread would make process.exit() hang
      // (libuv joins its threads at exit): then die by the signal itself, like a shell does
      const reraise = (): void => { process.removeAllListeners(sig); process.kill(process.pid, sig); };
      setTimeout(() => { killChildren(sh, 'SIGKILL'); if (pendingBlockingOps() > 0) reraise(); }, 300).unref();
      setTimeout(reraise, 1500).unref();
    });
  }
  // Other trapped signals: the trap runs before the shell's next command, like bash. SIGUSR1 is
  // always caught, or Node would start its inspector instead of acting like a shell.
  const caught = new Set<string>();
  const listen = (key: string): void => {
    const sig = `SIG${key}` as NodeJS.Signals;
    if (caught.has(key) || (SIGS as readonly string[]).includes(sig) || !(sig in osConstants.signals)) return;
    const onSig = (): void => {
      const trap = sh.traps.get(key);
      if (trap === undefined) {
        // no trap (any more): the default action, by the signal itself
        process.removeListener(sig, onSig);
        caught.delete(key);
        process.kill(process.pid, sig);
        return;
      }
      if (trap !== '') sh.pendingSigs.push(key);
    };
    try { process.on(sig, onSig); caught.add(key); } catch { /* not catchable */ }
  };
  listen('USR1');
  const trapped = new Set<string>();
  sh.onTrapChange = (key) => {
    if (sh.traps.has(key) && `SIG${key}` in osConstants.signals) { listen(key); trapped.add(key); } else trapped.delete(key);
    signalListeners.count = trapped.size;
  };
}

export function killChildren(sh: Shell, sig: NodeJS.Signals): void {
  for (const pgid of sh.groups) {
    try { process.kill(-pgid, sig); } catch { sh.groups.delete(pgid); }
  }
  for (const pid of sh.children) {
    try { process.kill(pid, sig); } catch { /* gone */ }
  }
}

function killGroupsQuietly(sh: Shell): void {
  // groups whose leader exited normally are left alone (like bash); just forget them
  sh.groups.clear();
}

export { fromBytes };
