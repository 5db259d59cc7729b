// Private commands: in-process commands (hread, hgrep, hsymbol, inspect_file, ...) that the
// interpreter dispatches after expansion, after functions and builtins and before PATH
// lookup. They take part in pipelines and redirections through the same fd table as
// everything else (their stdin/stdout/stderr are the shell's fds 0/1/2 at call time).
import type { Shell } from '../execution/runner.ts';
import { fromBytes } from '../execution/byte-strings.ts';
import { readAll, readSome, writeAll } from '../execution/io.ts';

export interface PrivateContext {
  /** argv[0] is the command name; UTF-8 decoded (invalid bytes become U+FFFD). */
  readonly argv: readonly string[];
  /** argv as raw bytes. */
  readonly argvBytes: readonly Buffer[];
  /** Shell working directory (absolute). */
  readonly cwd: string;
  /** Exported environment, as a child process would see it. */
  readonly env: Readonly<Record<string, string>>;
  /** Aborted when the shell is cancelled (SIGINT/SIGTERM/SIGHUP or an output limit). */
  readonly signal: AbortSignal;
  /** Writes to a shell fd (1 = stdout, 2 = stderr). Rejects with a SIGPIPE error on a closed pipe. */
  write(fd: number, data: string | Uint8Array): Promise<void>;
  stdout(data: string | Uint8Array): Promise<void>;
  stderr(data: string | Uint8Array): Promise<void>;
  /** Reads the next chunk of stdin (fd 0), null at end of input. */
  readChunk(max?: number): Promise<Buffer | null>;
  /** Reads stdin (fd 0) to the end. */
  readAll(): Promise<Buffer>;
}

export type PrivateCommand = (ctx: PrivateContext) => Promise<number> | number;

const registry = new Map<string, PrivateCommand>();

export function registerPrivateCommand(name: string, fn: PrivateCommand): void {
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new Error(`invalid private command name: ${name}`);
  registry.set(name, fn);
}

export function unregisterPrivateCommand(name: string): boolean { return registry.delete(name); }

export function getPrivateCommand(name: string): PrivateCommand | undefined { return registry.get(name); }

export function listPrivateCommands(): string[] { return [...registry.keys()].sort(); }

function toBuf(d: string | Uint8Array): Buffer {
  return typeof d === 'string' ? Buffer.from(d, 'utf8') : Buffer.from(d.buffer, d.byteOffset, d.byteLength);
}

export class PrivateContextImpl implements PrivateContext {
  readonly argv: readonly string[];
  readonly argvBytes: readonly Buffer[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  constructor(private readonly sh: Shell, args: string[]) {
    this.argv = args.map(fromBytes);
    this.argvBytes = args.map((a) => Buffer.from(a, 'latin1'));
    this.cwd = fromBytes(sh.cwd);
    this.env = sh.vars.environ();
    this.signal = sh.cancel.signal;
  }
  write(fd: number, data: string | Uint8Array): Promise<void> { return writeAll(this.sh.fds.get(fd), toBuf(data)); }
  stdout(data: string | Uint8Array): Promise<void> { return this.write(1, data); }
  stderr(data: string | Uint8Array): Promise<void> { return this.write(2, data); }
  readChunk(max = 65536): Promise<Buffer | null> { return readSome(this.sh.fds.get(0), max); }
  readAll(): Promise<Buffer> { return readAll(this.sh.fds.get(0)); }
}
