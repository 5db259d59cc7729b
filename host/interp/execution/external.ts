// Exec handler: runs external commands as real processes with the shell's cwd, exported
// environment and fd table (every shell fd is a real OS fd, passed through as-is).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { constants as osConstants } from 'node:os';
import type { Stmt } from '../syntax/ast.ts';
import { printCommand } from '../syntax/printer.ts';
import type { Shell } from './runner.ts';
import { fromBytes } from './byte-strings.ts';
import { drainHeld, type OsFd } from './io.ts';
import { spawnAddon } from './native-spawn.ts';
import { sigNumber } from './signals.ts';

export interface Found { path?: string; error?: string; status: number; display?: string }


export function isExecFile(p: string): boolean {
  try {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st?.isFile()) return false;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch { return false; }
}

/** Resolves a command name through PATH like bash (127 not found, 126 not executable). */
/**
 * Resolves a command name like bash: a name with `/` as a path, otherwise through bash's hash
 * table, then PATH. `remember` (running the command) records a PATH hit in the hash table.
 */
export function lookPath(sh: Shell, name: string, remember = false): Found {
  if (name.includes('/')) {
    const p = path.resolve(sh.cwd, name);
    const b = Buffer.from(p, 'latin1');
    let st: fs.Stats;
    try { st = fs.statSync(b); } catch (e: any) { return e?.code === 'ENAMETOOLONG' ? { error: 'File name too long', status: 126 } : { error: 'No such file or directory', status: 127 }; }
    if (st.isDirectory()) return { error: 'Is a directory', status: 126 };
    try { fs.accessSync(b, fs.constants.X_OK); } catch { return { error: 'Permission denied', status: 126 }; }
    return { path: p, status: 0 };
  }
  const known = sh.commandHash.get(name);
  if (known) {
    if (remember) known.hits++;
    // bash execs the remembered file without searching again
    return isExecFile(known.path) ? { path: known.path, status: 0 } : { path: known.path, error: 'No such file or directory', status: 127 };
  }
  const PATH = sh.vars.get('PATH') ?? ''; // (unset: like an empty PATH, as in bash)
  if (PATH === '') {
    // bash runs the name as a file in the current directory, without remembering it
    const p = path.resolve(sh.cwd, name);
    if (isExecFile(p)) return { path: p, status: 0 };
    return fs.statSync(Buffer.from(p, 'latin1'), { throwIfNoEntry: false })?.isFile() ? { error: 'Permission denied', status: 126 } : { error: 'No such file or directory', status: 127 };
  }
  let denied: string | undefined, deniedShown: string | undefined;
  for (const dir of PATH.split(':')) {
    const p = path.resolve(sh.cwd, dir === '' ? '.' : dir, name);
    if (isExecFile(p)) { if (remember) sh.commandHash.set(name, { path: p, hits: 1 }); return { path: p, status: 0 }; }
    try { if (!denied && fs.statSync(p, { throwIfNoEntry: false })?.isFile()) { denied = p; deniedShown = (dir || '.') + (dir.endsWith('/') ? '' : '/') + name; } } catch { /* */ }
  }
  // bash falls back to the first non-executable file (type/command -v report it, running it gives 126)
  if (denied) return { path: denied, error: 'Permission denied', status: 126, display: deniedShown };
  return { error: 'command not found', status: 127 };
}

export const signalDescriptions: Record<string, string> = {
  SIGTERM: 'Terminated', SIGKILL: 'Killed', SIGSEGV: 'Segmentation fault', SIGHUP: 'Hangup', SIGUSR1: 'User defined signal 1',
  SIGUSR2: 'User defined signal 2', SIGABRT: 'Aborted', SIGQUIT: 'Quit', SIGALRM: 'Alarm clock', SIGBUS: 'Bus error', SIGFPE: 'Floating point exception',
  SIGILL: 'Illegal instruction', SIGTRAP: 'Trace/breakpoint trap',
};

export function signalNumber(sig: string): number {
  return (osConstants.signals as Record<string, number>)[sig] ?? 0;
}

/** Whether bash reports a foreground command killed by `signal` (not for command substitutions, earlier pipeline stages, trapped signals). */
export function reportsSignal(sh: Shell, signal: string): boolean {
  return signal !== 'SIGINT' && signal !== 'SIGPIPE' && !sh.inBackground && !sh.quietSignals && !sh.traps.has(signal.slice(3));
}

/** bash's status message for a foreground command killed by a signal (`fallback`: its text when no command is current). */
export function reportSignal(sh: Shell, signal: string, pid: number, fallback: string, own?: { stmt: Stmt; src: string; line: number }): Promise<void> {
  const desc = signalDescriptions[signal] ?? signal;
  const text = own ? printCommand(own.src, own.stmt) : sh.curCmd && typeof sh.curCmd !== 'string' ? sh.curCmdText() : fallback;
  return sh.writeFd(2, signal === 'SIGTERM' ? `${desc}\n` : `${sh.errName}: line ${own ? own.line : sh.lineOf(sh.curPos)}: ${String(pid).padStart(5)} ${desc.padEnd(24)}${text}\n`).catch(() => undefined);
}

/** Signals the shell ignores (`trap '' SIG`): a command starts with them ignored, as in bash. */
function ignoredSignals(sh: Shell): Int32Array | undefined {
  let out: number[] | undefined;
  for (const [k, v] of sh.traps) {
    const n = v === '' ? sigNumber(k) : undefined;
    if (n !== undefined && n > 0) (out ??= []).push(n);
  }
  return out && Int32Array.from(out);
}

/**
 * Spawns `file` with argv and waits for it; returns bash-style status (128+n on signal). Through
 * posix_spawn (native-spawn.ts) when the addon is there, else child_process. Either way the child
 * gets the shell's fds as they are (a closed one stays closed), its cwd and exported environment
 * (with `_` set to the command's path, last, like bash), and a new session and process group
 * when the shell makes groups.
 */
export function runExternal(sh: Shell, found: string, args: string[]): Promise<number> {
  // (a name with a slash is exec'd as typed, relative to the cwd: a `#!` script sees it as $0)
  const file = args[0]!.includes('/') && path.resolve(sh.cwd, args[0]!) === found ? args[0]! : found;
  const max = Math.max(2, sh.fds.maxFd());
  const stdio: number[] = [], fds: (OsFd | undefined)[] = [];
  for (let i = 0; i <= max; i++) {
    const f = sh.fds.get(i);
    fds.push(f);
    stdio.push(f ? f.fd : -1);
  }
  // (output builtins held back for the pipes the child writes to goes first)
  const d = drainHeld(fds);
  if (d !== undefined) return d.then(() => runExternal(sh, found, args));
  return new Promise<number>((resolve) => {
    let pid: number | undefined, done = false;
    const failed = (code: string | undefined, message: string): void => {
      if (done) return;
      done = true;
      if (code === 'ENOEXEC' || code === 'EACCES') {
        void sh.err(`${args[0]}: ${code === 'EACCES' ? 'Permission denied' : 'cannot execute binary file: Exec format error'}`).then(() => resolve(126));
        return;
      }
      // (the file is there: its `#!` interpreter, or the ELF loader, is missing)
      void sh.err(`${args[0]}: ${code === 'ENOENT' ? 'cannot execute: required file not found' : message}`).then(() => resolve(127));
    };
    const exited = (code: number | null, signal: string | null): void => {
      if (pid !== undefined) {
        sh.children.delete(pid);
        if (sh.groups.has(pid)) { try { process.kill(-pid, 0); } catch { sh.groups.delete(pid); } }
      }
      if (done) return;
      done = true;
      if (!sh.inBackground) sh.cleanupDeadJobs();
      sh.killedBy = code === null && signal ? signalNumber(signal) : 0;
      if (code === null && signal && reportsSignal(sh, signal)) {
        void reportSignal(sh, signal, pid ?? 0, args.join(' ')).then(() => resolve(128 + signalNumber(signal)));
        return;
      }
      const st = code !== null ? code : 128 + signalNumber(signal ?? '');
      // a trapped signal the command sent to the shell is delivered after its exit: let it arrive first
      if (sh.signalTraps > 0) setImmediate(() => resolve(st)); else resolve(st);
    };
    sh.applyUmask();
    const addon = spawnAddon();
    if (addon) {
      const env = Object.entries({ ...sh.vars.environ(undefined, true), _: file }).map(([k, v]) => Buffer.from(`${k}=${v}`, 'latin1'));
      const r = addon.spawn(Buffer.from(file, 'latin1'), args.map((a) => Buffer.from(a, 'latin1')), env, Buffer.from(sh.cwd, 'latin1'), Int32Array.from(stdio), sh.procGroups,
        (code, sig) => exited(code >= 0 ? code : sig > 0 ? null : 127, code >= 0 || sig <= 0 ? null : signalName(sig)), ignoredSignals(sh));
      if (r < 0) { const code = errnoName(-r); failed(code, `spawn ${fromBytes(file)} ${code}`); return; }
      pid = r;
    } else {
      let child;
      try {
        // (loaded here: child_process in the startup snapshot costs every start ~10% more)
        child = process.getBuiltinModule('node:child_process').spawn(fromBytes(file), args.slice(1).map(fromBytes), {
          argv0: fromBytes(args[0]!),
          cwd: fromBytes(sh.cwd),
          env: { ...sh.vars.environ(), _: fromBytes(file) },
          // (libuv gives a closed fd 0-2 /dev/null instead)
          stdio: stdio.map((n) => (n < 0 ? 'ignore' : n)),
          detached: sh.procGroups,
        });
      } catch (e: any) {
        void sh.err(`${args[0]}: ${e?.message ?? e}`).then(() => resolve(126));
        return;
      }
      child.once('error', (e: any) => failed(e?.code, e?.message ?? String(e)));
      child.once('exit', exited);
      pid = child.pid;
    }
    if (pid !== undefined) {
      sh.children.add(pid);
      if (sh.procGroups) sh.groups.add(pid);
      sh.onSpawn?.(pid);
    }
  });
}

export function signalName(n: number): string {
  return Object.entries(osConstants.signals).find(([, v]) => v === n)?.[0] ?? `SIG${n}`;
}

function errnoName(n: number): string {
  return Object.entries(osConstants.errno).find(([, v]) => v === n)?.[0] ?? `errno ${n}`;
}

/**
 * A file that execve(2) would reject with ENOEXEC (no `#!`, not ELF) and that does not look binary:
 * bash runs it itself in a fresh subshell; libuv would hand it to /bin/sh instead.
 */
export function noShebangScript(p: string): Buffer | 'binary' | undefined {
  let fd: number;
  try { fd = fs.openSync(Buffer.from(p, 'latin1'), 'r'); } catch { return undefined; }
  try {
    const head = Buffer.alloc(80);
    const n = fs.readSync(fd, head, 0, 80, 0);
    if (n >= 2 && head[0] === 0x23 && head[1] === 0x21) return undefined;
    if (n >= 4 && head.readUInt32BE(0) === 0x7f454c46) return undefined;
    const first = head.subarray(0, n);
    const nl = first.indexOf(10);
    if ((nl < 0 ? first : first.subarray(0, nl)).includes(0)) return 'binary';
    return fs.readFileSync(fd);
  } catch { return undefined; } finally { fs.closeSync(fd); }
}
