// The shell worker (REQ-SHELL-001, doc/shell.md): what `shell bash|sh [OPTION...] <exact body>`
// becomes once the installed locator has replaced itself with the snapshot's shell wrapper
// (bin/shell-worker), which starts this from the interpreter's V8 startup snapshot. The body runs in
// the in-process interpreter, Bash or POSIX mode, the middle fields as shell options, $0 the
// selector; stdio, cwd and environment are this process's. One execution, no script file, no echo.
// Private commands (hread, hgrep, hsymbol, inspect_file) are dispatched after expansion like any command.
// (Other interpreters never start node: the wrapper execs them with the body on /dev/fd/3.)
import { interpreterIdentity } from '../../isolates/core-v1/interpreter.ts';
import { hashlineCommand } from '../hashline/private-commands.ts';
import { defaultHandlers } from '../interp/execution/default-handlers.ts';
import { runInterpCli } from '../interp/launch/cli.ts';

/** First argument that selects this role in the interpreter's entries (bin/shell-worker passes it). */
export const SHELL_WORKER_FLAG = '--shell-worker';

/** Status when the worker itself cannot run the script (like a shell's "cannot execute"). */
export const EXIT_NOT_EXECUTED = 126;

export async function runShellWorker(argv: readonly string[]): Promise<number> {
  if (argv.length < 2) {
    process.stderr.write('shell: usage: shell INTERPRETER [ARG...] BODY (the router writes this command)\n');
    return EXIT_NOT_EXECUTED;
  }
  const exe = argv[0]!;
  const middle = argv.slice(1, -1);
  const body = argv[argv.length - 1]!;
  const identity = interpreterIdentity(exe);
  if (identity === 'external') {
    // bin/shell-worker execs every other interpreter itself; only bash and sh come here.
    process.stderr.write(`shell: not executed: ${exe} is not bash or sh (the snapshot's shell wrapper runs other interpreters)\n`);
    return EXIT_NOT_EXECUTED;
  }
  // The private commands exist only here, inside a shell body (never on PATH, never frontends):
  // given to this one interpreter as its handler, not registered process-wide.
  // `NAME -c -- BODY`: options first, and a body that starts with `-` stays the body. $0 is the selector.
  return runInterpCli([...(identity === 'posix' ? ['--posix'] : []), ...middle, '-c', '--', body, exe], { ...defaultHandlers, privateCommand: hashlineCommand });
}
