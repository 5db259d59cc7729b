// The per-user runtime base (brief §9): the private directory that holds snapshots, pins and the
// frontend lock. Everything executor-side trusts only what lives under it, so both the router and
// every worker verify it on each use: a real directory (not a symlink), owned by the current uid,
// with no group or other access. See doc/executor.md.
import { lstatSync, mkdirSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, normalize, resolve } from 'node:path';

export class RuntimeBaseError extends Error {
  override readonly name = 'RuntimeBaseError';
}

type Env = Readonly<Record<string, string | undefined>>;

/** Test and operator override; gets the same checks as the default locations. */
export const RUNTIME_DIR_ENV = 'HPATCH_RUNTIME_DIR';

export interface RuntimeBaseHost {
  readonly uid: number;
  readonly tmpdir: string;
}

export function currentHost(): RuntimeBaseHost {
  if (typeof process.getuid !== 'function') throw new RuntimeBaseError('the executor runtime needs a POSIX platform (no process.getuid)');
  return { uid: process.getuid(), tmpdir: tmpdir() };
}

/**
 * Where the runtime base is, without creating it: `$HPATCH_RUNTIME_DIR` (absolute) if set, else
 * `$XDG_RUNTIME_DIR/hpatch-router` when XDG_RUNTIME_DIR is absolute and itself private, else
 * `<tmpdir>/hpatch-router-<uid>`. The router and the worker compute it the same way from the same
 * environment (Codex passes the environment through to the commands it runs).
 */
export function runtimeBasePath(env: Env, host: RuntimeBaseHost = currentHost()): string {
  const override = env[RUNTIME_DIR_ENV];
  if (override !== undefined && override !== '') {
    if (!isAbsolute(override)) throw new RuntimeBaseError(`$${RUNTIME_DIR_ENV} must be an absolute path: ${override}`);
    return resolve(override);
  }
  const xdg = env['XDG_RUNTIME_DIR'];
  if (xdg && isAbsolute(xdg) && privateDirProblem(normalize(xdg), host.uid) === null) return join(normalize(xdg), 'hpatch-router');
  return join(host.tmpdir, `hpatch-router-${host.uid}`);
}

/** Why `dir` is not a private directory of `uid`, or null. Never follows a symlink. */
export function privateDirProblem(dir: string, uid: number): string | null {
  let st: Stats;
  try {
    st = lstatSync(dir);
  } catch (e) {
    return `cannot inspect ${dir}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
  }
  if (st.isSymbolicLink()) return `${dir} is a symlink`;
  if (!st.isDirectory()) return `${dir} is not a directory`;
  if (st.uid !== uid) return `${dir} is owned by uid ${st.uid}, not ${uid}`;
  if ((st.mode & 0o077) !== 0) return `${dir} has group/other access (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')})`;
  return null;
}

/** Verifies an existing runtime base (the worker never creates one). Throws RuntimeBaseError. */
export function verifyRuntimeBase(dir: string, uid: number = currentHost().uid): string {
  const problem = privateDirProblem(dir, uid);
  if (problem !== null) throw new RuntimeBaseError(`unsafe runtime directory: ${problem}`);
  return dir;
}

/** The router's side: create the base (mode 0700; the parent must exist) if missing, then verify it. */
export function ensureRuntimeBase(dir: string, uid: number = currentHost().uid): string {
  try {
    // Not recursive: a missing parent means the location is wrong, not something to invent.
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new RuntimeBaseError(`cannot create runtime directory ${dir}: ${(e as Error).message}`);
    }
  }
  return verifyRuntimeBase(dir, uid);
}

/** A private subdirectory of the base (snapshots/, pins/), created 0700 and verified the same way. */
export function ensurePrivateSubdir(base: string, name: string, uid: number = currentHost().uid): string {
  return ensureRuntimeBase(join(base, name), uid);
}

/** The runtime base for `env`, created and verified (router startup). */
export function openRuntimeBase(env: Env, host: RuntimeBaseHost = currentHost()): string {
  return ensureRuntimeBase(runtimeBasePath(env, host), host.uid);
}
