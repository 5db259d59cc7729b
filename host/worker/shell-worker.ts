// The shell worker (REQ-SHELL-001, doc/shell.md): what `shell <interpreter fields> <exact body>`
// becomes once the installed locator has replaced itself with the snapshot's shell wrapper, which
// starts this from the interpreter's V8 startup snapshot. One execution, no script file, no echo:
//   - bash / sh basenames (also as paths): the body runs in the in-process interpreter, Bash or POSIX
//     mode, the middle fields as shell options; its stdio, cwd and environment are this process's;
//   - anything else: the interpreter runs as a real process with the middle fields as its arguments
//     and the body on an anonymous pipe it reads as /dev/fd/3; stdin, stdout and stderr are inherited.
// The environment passes through unchanged (the locator and wrapper are Perl for that reason: dash
// drops variables whose names are not identifiers, such as exported functions `BASH_FUNC_f%%`).
import { closeSync, constants as C, createWriteStream, openSync, unlinkSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { interpreterIdentity } from '../../isolates/core-v1/interpreter.ts';
import { runInterpCli } from '../interp/cli.ts';
import { makeFifoPath } from '../interp/io.ts';
import { spawnAddon } from '../interp/native-spawn.ts';

/** First argument that selects this role in the interpreter's entries (bin/shell-worker passes it). */
export const SHELL_WORKER_FLAG = '--shell-worker';

/** Status when the worker itself cannot run the script (like a shell's "cannot execute"). */
export const EXIT_NOT_EXECUTED = 126;
const EXIT_NOT_FOUND = 127;

/** Interpreters that read a script path through realpath(3), which a pipe's /dev/fd entry does not survive. */
const REALPATH_MAIN = new Set(['node', 'nodejs']);

export async function runShellWorker(argv: readonly string[]): Promise<number> {
  if (argv.length < 2) {
    process.stderr.write('shell: usage: shell INTERPRETER [ARG...] BODY (the router writes this command)\n');
    return EXIT_NOT_EXECUTED;
  }
  const exe = argv[0]!;
  const middle = argv.slice(1, -1);
  const body = argv[argv.length - 1]!;
  const identity = interpreterIdentity(exe);
  if (identity !== 'external') {
    // `NAME -c -- BODY`: options first, and a body that starts with `-` stays the body. $0 is the selector.
    const name = exe;
    return runInterpCli([...(identity === 'posix' ? ['--posix'] : []), ...middle, '-c', '--', body, name]);
  }
  return runExternal(exe, middle, body);
}

async function runExternal(exe: string, middle: readonly string[], body: string): Promise<number> {
  // (loaded on use, as the interpreter does: child_process in the startup snapshot slows every start)
  const { spawn } = process.getBuiltinModule('node:child_process');
  const base = exe.slice(exe.lastIndexOf('/') + 1);
  const args = [...middle, ...(REALPATH_MAIN.has(base) ? ['--preserve-symlinks-main'] : []), '/dev/fd/3'];
  const [r, w] = scriptPipe();
  // Same process group (no `detached`): a terminal's foreground group keeps the interpreter, so it
  // reads /dev/tty without a background stop, and Ctrl-C reaches it directly.
  let child;
  try {
    child = spawn(exe, args, { stdio: ['inherit', 'inherit', 'inherit', r], env: process.env });
  } finally {
    closeSync(r);
  }
  // Written off the event loop: a body larger than the pipe buffer waits for the interpreter to read.
  const script = createWriteStream('', { fd: w });
  script.on('error', () => { /* the interpreter closed its script early: its status tells */ });
  script.end(Buffer.from(body, 'utf8'));
  // SIGINT/SIGQUIT reach the whole foreground group (the interpreter gets its own); a SIGTERM or
  // SIGHUP sent to this process alone is passed on, so cancellation reaches the interpreter too.
  const forward = (sig: NodeJS.Signals) => () => { try { child.kill(sig); } catch { /* gone */ } };
  for (const sig of ['SIGTERM', 'SIGHUP'] as const) process.on(sig, forward(sig));
  for (const sig of ['SIGINT', 'SIGQUIT'] as const) process.on(sig, () => { /* the child has it */ });
  return new Promise<number>((resolve) => {
    child.once('error', (e: NodeJS.ErrnoException) => {
      const missing = e.code === 'ENOENT';
      process.stderr.write(`shell: ${exe}: ${missing ? 'command not found' : e.code ?? e.message}\n`);
      resolve(missing ? EXIT_NOT_FOUND : EXIT_NOT_EXECUTED);
    });
    child.once('exit', (code, signal) => {
      if (signal !== null) {
        // End the way the interpreter ended, so the caller's shell sees 128+n and its message.
        process.removeAllListeners(signal);
        process.kill(process.pid, signal);
        setTimeout(() => resolve(128 + (osConstants.signals[signal] ?? 0)), 1000).unref();
        return;
      }
      resolve(code ?? EXIT_NOT_EXECUTED);
    });
  });
}


/**
 * [read end, write end] of an anonymous pipe for the script (the interpreter's addon makes one; Node
 * cannot, and its 'pipe' stdio is a socket that `open("/dev/fd/3")` refuses). Without the addon, a
 * FIFO from the interpreter's private directory, unlinked at once, gives the same descriptors.
 */
function scriptPipe(): [number, number] {
  const pair = spawnAddon()?.pipe();
  if (Array.isArray(pair)) return [pair[0], pair[1]];
  const name = makeFifoPath();
  const nb = openSync(name, C.O_RDONLY | C.O_NONBLOCK);
  const w = openSync(name, C.O_WRONLY);
  unlinkSync(name);
  // The interpreter reads a blocking descriptor of the same pipe.
  const r = openSync(`/proc/self/fd/${nb}`, C.O_RDONLY);
  closeSync(nb);
  return [r, w];
}
