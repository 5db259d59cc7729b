// What the variable store needs from the shell that holds it (the Shell implements it): the
// state special parameters show ($0, $?, $-, LINENO, BASH_COMMAND…), the side effects of some
// assignments (OPTIND, PATH), arithmetic for integer variables and subscripts, and error output.
// An interface, so that variables/ never imports the evaluator.
import type { Options } from '../execution/options.ts';

export interface VarHost {
  // ---- special parameters
  readonly arg0: string;
  readonly params: readonly string[];
  readonly status: number;
  readonly lastBgPid: number;
  readonly bashpid: number;
  readonly subshell: number;
  /** The position of the running command (LINENO is its line, `lineOf`). */
  readonly curPos: number;
  lineOf(pos: number): number;
  /** When the shell started (SECONDS counts from it). */
  readonly startTime: number;
  readonly opts: Options;
  /** `set -o` options without an effect here, and the restricted flag (`$-`). */
  readonly setOpts: ReadonlyMap<string, boolean>;
  readonly shopt: ReadonlySet<string>;
  /** Running a -c string (`$-` shows `c` unless `noC`). */
  readonly cMode: boolean;
  readonly noC: boolean;
  readonly history: { readonly recording: boolean; readonly base: number; readonly length: number };
  /** $BASH_COMMAND. */
  curCmdText(): string;
  /** FUNCNAME, BASH_SOURCE, BASH_LINENO and DIRSTACK, computed from the shell's frames. */
  callStack(name: string): string[] | undefined;
  /** $SHELLOPTS. */
  shellOptsText(): string;

  // ---- what assignments change besides the variable
  optind: number;
  optchar: number;
  readonly commandHash: { clear(): void };

  // ---- values
  /** For the integer attribute and RANDOM's seed. */
  readonly arith: { evalString(text: string): bigint };
  /** The subscript of a nameref's target `base[sub]`, expanded (see Shell.refSubscript). */
  refSubscript(base: string, sub: string): string;

  // ---- messages
  /** An error message, like bash: `name: line N: msg`. */
  err(msg: string): Promise<void>;
  /** `msg` as bash's error line (`name: line N: msg\n`). */
  errLine(msg: string): string;
  /** Writes `text` to stderr at once when it can (else after what is queued). */
  writeErrNow(text: string): void;

  // ---- the environment of commands
  /** Adds the exported functions (bash's `BASH_FUNC_name%%`) to `env`, names and values through `enc`. */
  exportFunctions(env: Record<string, string>, enc: (s: string) => string): void;
}
