// The router's executor-side startup, in one call (doc/executor.md): runtime base → frontend lock
// (only with configured frontends) → pinned snapshot → frontends → prune. Every problem is returned
// for the startup report; on any problem everything this call took is released again.
import { realpathSync } from 'node:fs';
import { acquireFrontendLock, FrontendLockError, frontendLockHolder, type FrontendLock } from './frontend-lock.ts';
import { ensureFrontends, frontendDirectory, planFrontends } from './frontends.ts';
import { invokedAs as launcherInvokedAs } from './invocation.ts';
import { openRuntimeBase, runtimeBasePath, verifyRuntimeBase } from './runtime-base.ts';
import { createSnapshot, pinSnapshot, pruneSnapshots, type Snapshot, type SnapshotPin, type SnapshotPlugin } from './snapshot.ts';

type Env = Readonly<Record<string, string | undefined>>;

export interface ExecutorRuntimeOptions {
  readonly env: Env;
  /** The install tree of the running router (installRootOf(process.argv[1]) in production). */
  readonly installRoot: string;
  /** Every loaded configured plugin with its executor-backed tools and the exact source that was validated. */
  readonly plugins: readonly SnapshotPlugin[];
  /** Defaults to the launcher's HPATCH_INVOKED_AS (invocation.ts). */
  readonly invokedAs?: string;
  /** Overrides the frontend directory (else HPATCH_FRONTEND_DIR, else beside the invoked launcher). */
  readonly frontendDir?: string;
  readonly pruneGraceMs?: number;
}

export interface ExecutorRuntime {
  readonly base: string;
  readonly snapshot: Snapshot;
  /** Null when no configured executor-backed tool exists (built-in-only registry: no lock either). */
  readonly frontendDir: string | null;
  readonly frontends: readonly string[];
  readonly lock: FrontendLock | null;
  /** Unpins the snapshot and releases the lock; frontends stay (a later router replaces them). Idempotent, synchronous. */
  release(): void;
}

export type ExecutorRuntimeResult =
  | { readonly ok: true; readonly runtime: ExecutorRuntime }
  | { readonly ok: false; readonly problems: readonly string[] };

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function toolsOf(plugins: readonly SnapshotPlugin[]): string[] {
  return plugins.flatMap((p) => p.tools);
}

function resolveFrontendDir(opts: Pick<ExecutorRuntimeOptions, 'env' | 'invokedAs' | 'frontendDir'>): { dir: string | null; problem: string | null } {
  const dir = opts.frontendDir ?? frontendDirectory(opts.env, opts.invokedAs ?? launcherInvokedAs());
  if (dir === null) {
    return { dir: null, problem: 'configured-tool symlink conflicts: the stable frontend directory is unknown (start hpatch-router through its launcher, or set HPATCH_FRONTEND_DIR)' };
  }
  try {
    return { dir: realpathSync(dir), problem: null };
  } catch (e) {
    return { dir: null, problem: `configured-tool symlink conflicts: frontend directory ${dir} is unusable (${(e as NodeJS.ErrnoException).code ?? message(e)})` };
  }
}

/** Router startup (hpatch mode, after the registry validated): everything executor-side, or every problem. */
export function startExecutorRuntime(opts: ExecutorRuntimeOptions): ExecutorRuntimeResult {
  let base: string;
  try {
    base = openRuntimeBase(opts.env);
  } catch (e) {
    return { ok: false, problems: [`runtime directory: ${message(e)}`] };
  }
  const tools = toolsOf(opts.plugins);
  const problems: string[] = [];
  let frontendDir: string | null = null;
  if (tools.length > 0) {
    const fd = resolveFrontendDir(opts);
    if (fd.problem !== null) problems.push(fd.problem);
    frontendDir = fd.dir;
  }

  let lock: FrontendLock | null = null;
  let pin: SnapshotPin | null = null;
  const releaseAll = (): void => {
    process.off('exit', releaseAll);
    pin?.release();
    lock?.release();
  };
  // A router that exits without calling release (process.exit in a signal handler) still unpins.
  process.on('exit', releaseAll);
  if (tools.length > 0) {
    try {
      lock = acquireFrontendLock(base);
    } catch (e) {
      problems.push(e instanceof FrontendLockError ? e.message : `frontend lock: ${message(e)}`);
    }
  }
  let snapshot: Snapshot | null = null;
  try {
    snapshot = createSnapshot(
      { base, installRoot: opts.installRoot, plugins: opts.plugins, frontendDir },
      { beforeWrite: (hash) => { pin = pinSnapshot(base, hash); } },
    );
  } catch (e) {
    problems.push(`snapshot: ${message(e)}`);
  }
  // Frontends are touched only by the lock holder, and only when nothing else failed.
  const frontends: string[] = [];
  if (problems.length === 0 && snapshot !== null && frontendDir !== null) {
    const r = ensureFrontends({ dir: frontendDir, tools, base, snapshotDir: snapshot.dir });
    problems.push(...r.problems);
    frontends.push(...r.created, ...r.replaced, ...r.verified);
  }
  if (problems.length > 0 || snapshot === null) {
    releaseAll();
    return { ok: false, problems };
  }
  try {
    pruneSnapshots(base, { keep: [snapshot.hash], ...(opts.pruneGraceMs !== undefined ? { graceMs: opts.pruneGraceMs } : {}) });
  } catch {
    // Pruning is housekeeping; it never fails startup.
  }
  return { ok: true, runtime: { base, snapshot, frontendDir, frontends, lock, release: releaseAll } };
}

/**
 * Read-only companion for a startup that already failed elsewhere (e.g. an invalid registry): the
 * frontend problems the given tools would have, so they are reported together. Writes nothing.
 */
export function frontendStartupProblems(opts: Pick<ExecutorRuntimeOptions, 'env' | 'invokedAs' | 'frontendDir'> & { readonly tools: readonly string[] }): string[] {
  if (opts.tools.length === 0) return [];
  let base: string;
  try {
    base = verifyRuntimeBase(runtimeBasePath(opts.env));
  } catch (e) {
    // No base yet is fine here: conflicts are still checked against it.
    base = runtimeBasePath(opts.env);
    if (!/ENOENT/.test(message(e))) return [`runtime directory: ${message(e)}`];
  }
  const fd = resolveFrontendDir(opts);
  if (fd.problem !== null || fd.dir === null) return [fd.problem ?? 'frontend directory unknown'];
  const problems = planFrontends({ dir: fd.dir, tools: opts.tools, base, snapshotDir: null }).problems;
  const holder = frontendLockHolder(base);
  if (holder !== null && holder.pid !== process.pid) problems.push(`frontend lock is held by a running hpatch-router (pid ${holder.pid}); stop it first`);
  return problems;
}
