// Exec handler: runs external commands as real processes with the shell's cwd, exported
// environment and fd table (every shell fd is a real OS fd, passed through as-is).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import type { Shell } from './runner.ts';
import { fromBytes } from './runner.ts';

export interface Found { path?: string; error?: string; status: number }

const hashCache = new Map<string, string>();

function isExecFile(p: string): boolean {
  try {
    const st = fs.statSync(p);
    if (!st.isFile()) return false;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch { return false; }
}

/** Resolves a command name through PATH like bash (127 not found, 126 not executable). */
export function lookPath(sh: Shell, name: string): Found {
  if (name.includes('/')) {
    const p = path.resolve(sh.cwd, name);
    const b = Buffer.from(p, 'latin1');
    let st: fs.Stats;
    try { st = fs.statSync(b); } catch { return { error: 'No such file or directory', status: 127 }; }
    if (st.isDirectory()) return { error: 'Is a directory', status: 126 };
    try { fs.accessSync(b, fs.constants.X_OK); } catch { return { error: 'Permission denied', status: 126 }; }
    return { path: p, status: 0 };
  }
  const PATH = sh.getVar('PATH') ?? '/usr/local/bin:/usr/bin:/bin';
  const key = `${PATH}\0${sh.cwd}\0${name}`;
  const cached = hashCache.get(key);
  if (cached && isExecFile(cached)) return { path: cached, status: 0 };
  let denied: string | undefined;
  for (const dir of PATH.split(':')) {
    const p = path.resolve(sh.cwd, dir === '' ? '.' : dir, name);
    if (isExecFile(p)) { hashCache.set(key, p); return { path: p, status: 0 }; }
    try { if (fs.statSync(p).isFile()) denied ??= p; } catch { /* */ }
  }
  if (denied) return { error: 'Permission denied', status: 126 };
  return { error: 'command not found', status: 127 };
}

const signalDescriptions: Record<string, string> = {
  SIGTERM: 'Terminated', SIGKILL: 'Killed', SIGSEGV: 'Segmentation fault', SIGHUP: 'Hangup', SIGUSR1: 'User defined signal 1',
  SIGUSR2: 'User defined signal 2', SIGABRT: 'Aborted', SIGQUIT: 'Quit', SIGALRM: 'Alarm clock', SIGBUS: 'Bus error', SIGFPE: 'Floating point exception',
  SIGILL: 'Illegal instruction', SIGTRAP: 'Trace/breakpoint trap',
};

export function signalNumber(sig: string): number {
  return (osConstants.signals as Record<string, number>)[sig] ?? 0;
}

/** Spawns `file` with argv and waits for it; returns bash-style status (128+n on signal). */
export function runExternal(sh: Shell, file: string, args: string[]): Promise<number> {
  const max = Math.max(2, sh.fds.maxFd());
  const stdio: (number | 'ignore')[] = [];
  for (let i = 0; i <= max; i++) {
    const f = sh.fds.get(i);
    stdio.push(f ? f.fd : 'ignore');
  }
  return new Promise<number>((resolve) => {
    let child;
    try {
      child = spawn(fromBytes(file), args.slice(1).map(fromBytes), {
        argv0: fromBytes(args[0]!),
        cwd: fromBytes(sh.cwd),
        env: sh.environ(),
        stdio,
        detached: sh.procGroups,
      });
    } catch (e: any) {
      void sh.err(`${args[0]}: ${e?.message ?? e}`).then(() => resolve(126));
      return;
    }
    let done = false;
    child.once('error', (e: any) => {
      if (done) return;
      done = true;
      if (e?.code === 'ENOEXEC' || e?.code === 'EACCES') {
        void sh.err(`${args[0]}: ${e.code === 'EACCES' ? 'Permission denied' : 'cannot execute binary file: Exec format error'}`).then(() => resolve(126));
        return;
      }
      void sh.err(`${args[0]}: ${e?.message ?? e}`).then(() => resolve(127));
    });
    const pid = child.pid;
    if (pid !== undefined) {
      sh.children.add(pid);
      if (sh.procGroups) sh.groups.add(pid);
      sh.onSpawn?.(pid);
    }
    child.once('exit', (code, signal) => {
      if (pid !== undefined) {
        sh.children.delete(pid);
        if (sh.groups.has(pid)) { try { process.kill(-pid, 0); } catch { sh.groups.delete(pid); } }
      }
      if (done) return;
      done = true;
      if (code === null && signal && signal !== 'SIGINT' && signal !== 'SIGPIPE' && !sh.inBackground) {
        const desc = signalDescriptions[signal] ?? signal;
        void sh.writeFd(2, signal === 'SIGTERM' ? `${desc}\n` : `${sh.errName}: line ${sh.lineOf(sh.curPos)}: ${pid} ${desc.padEnd(22)}${args.join(' ')}\n`).catch(() => undefined)
          .then(() => resolve(128 + signalNumber(signal)));
        return;
      }
      resolve(code !== null ? code : 128 + signalNumber(signal ?? ''));
    });
  });
}
