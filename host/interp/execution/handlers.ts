// What an embedder of the interpreter may replace, as mvdan/sh's interp is given an ExecHandler
// and an OpenHandler: how an external program runs, how a redirection opens a file, and which
// private commands exist. A shell is given its handlers when it is built (launch/cli.ts newShell)
// and its subshells share them; the evaluator and the builtins reach these three only through
// `sh.handlers`. The defaults (the real spawn, open(2) and the private-command registry) are in
// default-handlers.ts; the shell worker gives the hashline commands this way.
import type { Shell } from './runner.ts';
import type { OsFd } from './io.ts';
import type { PrivateCommand } from '../private/registry.ts';

export interface Handlers {
  /**
   * Runs the program at `path` (found on PATH, or named with a slash) with `args`, `args[0]` as
   * typed, on the shell's fds, cwd and exported environment; resolves to its exit status (128+n
   * when a signal ended it).
   */
  readonly exec: (sh: Shell, path: string, args: string[]) => Promise<number>;
  /** Opens `path` (bytes, already resolved against the shell's cwd) for a redirection, with open(2) `flags`. */
  readonly open: (path: Buffer, flags: number) => Promise<OsFd>;
  /** The private command called `name`, if any: dispatched after functions and builtins, before PATH lookup. */
  readonly privateCommand: (name: string) => PrivateCommand | undefined;
}
