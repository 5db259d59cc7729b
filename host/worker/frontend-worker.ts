// The frontend role of hpatch-router (REQ-PLUGIN-001, doc/executor.md): Codex ran `<tool> ARG…`,
// which resolved `<frontend dir>/<tool>` → `<snapshot>/wrappers/<tool>` → the snapshot's launcher →
// this code. Before running anything it verifies the whole chain and the pinned registry; then it
// loads the tool's declaration from the snapshot into an isolate, calls execute once, writes the one
// result and returns its status. Any verification failure: a one-line message and exit 126.
// This role must stay small: no undici, no router HTTP code, no logging framework.
import { lstatSync, readlinkSync, readSync, realpathSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { runtimeBasePath, verifyRuntimeBase } from '../runtime/runtime-base.ts';
import {
  BUILTIN_NAMES, ENTRY_PATH, INTERPRETER_ONLY_FILES, readVerifiedFile, snapshotsDir, TOOL_NAME, verifySnapshot, WRAPPER_TARGET,
  type ManifestPlugin, type Snapshot,
} from '../runtime/snapshot.ts';

/** Not executed: the frontend chain, snapshot or registry did not verify (the shell's "cannot execute"). */
export const EXIT_REFUSED = 126;
/** Executed, but the implementation failed (threw, timed out, exhausted memory, answered garbage): EX_SOFTWARE. */
export const EXIT_EXECUTOR_FAILED = 70;

type Env = Readonly<Record<string, string | undefined>>;

export class FrontendRefusal extends Error {
  override readonly name = 'FrontendRefusal';
}

/** What the worker needs of a plugin isolate (host/plugins/isolate.ts PluginIsolate satisfies it). */
export interface ExecutorIsolate {
  readonly description: unknown;
  execute(req: { tool: string; argv: readonly string[]; cwd: string; readStdin: () => string }): Promise<{ stdout: string; stderr: string; status: number }>;
  dispose(): void;
}

export type IsolateLoader = (opts: { file: string; source: string }) => Promise<ExecutorIsolate>;

export interface ResolvedFrontend {
  readonly tool: string;
  readonly snapshot: Snapshot;
  readonly plugin: ManifestPlugin;
  /** The declaration source, read from the snapshot and checked against the manifest in the same read. */
  readonly source: string;
}

export interface VerifyFrontendOptions {
  /** The path the launcher was invoked as ($0). */
  readonly invokedAs: string;
  readonly env: Env;
  readonly cwd: string;
  /** The bundle entry node is running (process.argv[1]); must be the snapshot's own entry. */
  readonly entryScript: string;
}

/** Verifies the frontend chain and the pinned registry. Throws FrontendRefusal with a concise reason. */
export function verifyFrontend(opts: VerifyFrontendOptions): ResolvedFrontend {
  const refuse = (why: string): never => {
    throw new FrontendRefusal(why);
  };
  const frontend = resolve(opts.cwd, opts.invokedAs);
  const tool = frontend.slice(frontend.lastIndexOf(sep) + 1);
  if (BUILTIN_NAMES.has(tool)) refuse(`${tool} is a built-in name, not a plugin frontend`);
  if (!TOOL_NAME.test(tool)) refuse(`${JSON.stringify(tool)} is not a configured tool name`);

  let base: string;
  try {
    base = verifyRuntimeBase(runtimeBasePath(opts.env));
  } catch (e) {
    return refuse((e as Error).message);
  }

  // 1. The frontend: a symlink, one hop, to <base>/snapshots/<hash>/wrappers/<tool>.
  let target: string;
  try {
    if (!lstatSync(frontend).isSymbolicLink()) refuse(`${frontend} is not a frontend symlink`);
    target = readlinkSync(frontend);
  } catch (e) {
    if (e instanceof FrontendRefusal) throw e;
    return refuse(`cannot read frontend ${frontend}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!isAbsolute(target) || normalize(target) !== target) refuse(`${frontend} does not point into a snapshot`);
  const rel = relative(snapshotsDir(base), target).split(sep);
  if (rel.length !== 3 || !/^[0-9a-f]{64}$/.test(rel[0]!) || rel[1] !== 'wrappers' || rel[2] !== tool) {
    refuse(`${frontend} does not point to its wrapper in an hpatch-router snapshot`);
  }
  for (const dir of [snapshotsDir(base), join(snapshotsDir(base), rel[0]!)]) {
    try {
      if (!lstatSync(dir).isDirectory()) refuse(`${dir} is not a directory`);
    } catch (e) {
      if (e instanceof FrontendRefusal) throw e;
      refuse(`snapshot ${rel[0]} is missing (start hpatch-router again)`);
    }
  }

  // 2. The snapshot: its name authenticates the manifest, the manifest every file and link.
  let snapshot: Snapshot;
  try {
    snapshot = verifySnapshot(join(snapshotsDir(base), rel[0]!), { sizeOnly: INTERPRETER_ONLY_FILES });
  } catch (e) {
    return refuse((e as Error).message);
  }

  // 3. The wrapper targets the snapshot's own launcher (also covered by the manifest; checked explicitly).
  const wrapper = join(snapshot.dir, 'wrappers', tool);
  try {
    if (!lstatSync(wrapper).isSymbolicLink() || readlinkSync(wrapper) !== WRAPPER_TARGET) refuse(`${wrapper} does not target the snapshot's hpatch-router`);
  } catch (e) {
    if (e instanceof FrontendRefusal) throw e;
    refuse(`wrapper ${wrapper} is missing`);
  }

  // 4. The frontend location: the directory this snapshot was made to serve.
  let frontendDir: string;
  try {
    frontendDir = realpathSync(dirname(frontend));
  } catch {
    return refuse(`cannot resolve ${dirname(frontend)}`);
  }
  if (snapshot.manifest.frontendDir !== frontendDir) refuse(`${frontend} is not in the stable frontend directory of snapshot ${snapshot.hash}`);

  // 5. The code running is the snapshot's own entry (the launcher resolved the whole chain).
  let entry: string;
  try {
    entry = realpathSync(opts.entryScript);
  } catch {
    return refuse(`cannot resolve the running entry ${opts.entryScript}`);
  }
  if (entry !== realpathSync(join(snapshot.dir, ENTRY_PATH))) refuse(`the running hpatch-router is not snapshot ${snapshot.hash}'s (${entry})`);

  // 6. The pinned registry: which declaration implements the tool.
  const plugin = snapshot.manifest.plugins.find((p) => p.tools.includes(tool));
  if (plugin === undefined) return refuse(`${tool} is not registered in snapshot ${snapshot.hash}`);
  let source: string;
  try {
    source = readVerifiedFile(snapshot, plugin.file).toString('utf8');
  } catch (e) {
    return refuse((e as Error).message);
  }
  return { tool, snapshot, plugin, source };
}

/** Checks that the loaded declaration is the one the manifest registers for `tool`. */
function describesTool(description: unknown, plugin: ManifestPlugin, tool: string): boolean {
  if (typeof description !== 'object' || description === null) return false;
  const d = description as { id?: unknown; tools?: unknown };
  if (d.id !== plugin.id || !Array.isArray(d.tools)) return false;
  return d.tools.some((t: unknown) => (t as { spec?: { name?: unknown } } | null)?.spec?.name === tool);
}

export interface FrontendWorkerOptions {
  readonly invokedAs: string;
  /** The argv after the frontend name, passed to the executor unchanged. */
  readonly argv: readonly string[];
  readonly env?: Env;
  readonly cwd?: string;
  readonly entryScript?: string;
  readonly stdinFd?: number;
  readonly stdoutFd?: number;
  readonly stderrFd?: number;
  /** Defaults to PluginIsolate.load (imported lazily, only after verification). */
  readonly loadIsolate?: IsolateLoader;
}

/** The frontend role: verify, execute once, write the result. Returns the exit status. */
export async function runFrontendWorker(opts: FrontendWorkerOptions): Promise<number> {
  const stdoutFd = opts.stdoutFd ?? 1;
  const stderrFd = opts.stderrFd ?? 2;
  const name = opts.invokedAs.slice(opts.invokedAs.lastIndexOf('/') + 1) || 'hpatch-router';
  const fail = (status: number, message: string): number => {
    writeAll(stderrFd, `${name}: ${message}\n`);
    return status;
  };
  let resolved: ResolvedFrontend;
  try {
    resolved = verifyFrontend({
      invokedAs: opts.invokedAs,
      env: opts.env ?? process.env,
      cwd: opts.cwd ?? process.cwd(),
      entryScript: opts.entryScript ?? process.argv[1] ?? '',
    });
  } catch (e) {
    return fail(EXIT_REFUSED, `not executed: ${(e as Error).message}`);
  }

  const load = opts.loadIsolate ?? (await defaultLoader());
  let isolate: ExecutorIsolate;
  try {
    isolate = await load({ file: resolved.plugin.origin, source: resolved.source });
  } catch (e) {
    return fail(EXIT_REFUSED, `not executed: cannot load ${resolved.plugin.origin} from snapshot ${resolved.snapshot.hash}: ${(e as Error).message}`);
  }
  try {
    if (!describesTool(isolate.description, resolved.plugin, resolved.tool)) {
      return fail(EXIT_REFUSED, `not executed: the snapshot's declaration does not declare ${resolved.tool} as plugin ${resolved.plugin.id}`);
    }
    const stdin = lazyStdin(opts.stdinFd ?? 0);
    let result: { stdout: string; stderr: string; status: number };
    try {
      // One call, one result: no observation or comparison run (REQ-PLUGIN-001 acceptance 11).
      result = await isolate.execute({ tool: resolved.tool, argv: [...opts.argv], cwd: opts.cwd ?? process.cwd(), readStdin: stdin });
    } catch (e) {
      return fail(EXIT_EXECUTOR_FAILED, `executor failed: ${(e as Error).message}`);
    }
    writeAll(stdoutFd, result.stdout);
    writeAll(stderrFd, result.stderr);
    return result.status;
  } finally {
    try {
      isolate.dispose();
    } catch {
      // Already disposed (memory limit): nothing to release.
    }
  }
}

async function defaultLoader(): Promise<IsolateLoader> {
  const { PluginIsolate } = await import('../plugins/isolate.ts');
  return (o) => PluginIsolate.load(o);
}

/**
 * The frontend's standard input, read synchronously from its own descriptor on the first call and
 * cached: the isolate's control channel is in-process, so fd 0 carries nothing but the user's input,
 * and it is never touched unless the executor asks (a terminal stdin does not block a plugin that
 * does not read it). Invalid UTF-8 becomes U+FFFD.
 */
export function lazyStdin(fd: number): () => string {
  let text: string | undefined;
  return () => {
    text ??= readAllSync(fd).toString('utf8');
    return text;
  };
}

function readAllSync(fd: number): Buffer {
  const chunks: Buffer[] = [];
  const buf = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        pause(2); // an inherited non-blocking descriptor: wait for data instead of failing
        continue;
      }
      if (code === 'EOF' || code === 'EBADF') break; // closed or absent stdin reads as empty
      throw e;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks);
}

/** Writes everything synchronously, so the output is complete before the process exits. A closed reader ends the write. */
function writeAll(fd: number, text: string): void {
  let data = Buffer.from(text, 'utf8');
  while (data.length > 0) {
    let n: number;
    try {
      n = writeSync(fd, data);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        pause(2);
        continue;
      }
      return; // EPIPE/EBADF: nobody reads any more
    }
    data = data.subarray(n);
  }
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
