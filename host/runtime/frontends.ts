// Stable frontends (REQ-PLUGIN-001): for each configured executor-backed tool, a symlink beside the
// installed hpatch-router whose basename is the tool name and whose target is the tool's wrapper in
// the router's authenticated snapshot. Startup creates a missing one, keeps a current one, replaces
// (atomically) one that points at the same tool's wrapper in an older authenticated snapshot of the
// same runtime base, and reports anything else as a startup problem. See doc/executor.md.
import { randomBytes } from 'node:crypto';
import { accessSync, constants, lstatSync, readdirSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { BUILTIN_NAMES, LAUNCHER_PATH, snapshotsDir, TOOL_NAME, verifySnapshot, wrapperPath } from './snapshot.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Test and operator override of the stable frontend directory. */
export const FRONTEND_DIR_ENV = 'HPATCH_FRONTEND_DIR';

const CONFLICT = 'configured-tool symlink conflicts';

/**
 * Where frontends go: `$HPATCH_FRONTEND_DIR` if set, else the directory of the path the launcher was
 * invoked as (e.g. `$PREFIX/bin` — symlinks are not resolved, so frontends sit beside the stable
 * `hpatch-router` on PATH, not inside the replaceable lib dir). Null when neither is known (the
 * bundle was started with plain `node`).
 */
export function frontendDirectory(env: Env, invokedAs: string | undefined, cwd: string = process.cwd()): string | null {
  const override = env[FRONTEND_DIR_ENV];
  if (override !== undefined && override !== '') return resolve(cwd, override);
  if (invokedAs !== undefined && invokedAs !== '') return dirname(resolve(cwd, invokedAs));
  return null;
}

/** Why frontends cannot be managed in `dir`, or null. */
export function frontendDirProblem(dir: string): string | null {
  try {
    if (!statSync(dir).isDirectory()) return `${CONFLICT}: frontend directory ${dir} is not a directory`;
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (e) {
    return `${CONFLICT}: frontend directory ${dir} is unusable (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  return null;
}

export type FrontendState =
  | { readonly kind: 'missing' }
  | { readonly kind: 'current' }
  /** The same tool's wrapper in another snapshot of this base that verifies (or was already pruned). */
  | { readonly kind: 'prior'; readonly target: string }
  | { readonly kind: 'conflict'; readonly problem: string };

/** Classifies `<dir>/<tool>` against the wrapper it should point at. Read-only. */
export function inspectFrontend(dir: string, tool: string, base: string, wanted: string | null): FrontendState {
  const path = join(dir, tool);
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'conflict', problem: `${CONFLICT}: cannot inspect ${path}: ${(e as Error).message}` };
  }
  if (!st.isSymbolicLink()) {
    return { kind: 'conflict', problem: `${CONFLICT}: ${path} exists and is not a symlink (move it away, or rename the tool)` };
  }
  const target = readlinkSync(path);
  if (wanted !== null && target === wanted) return { kind: 'current' };
  const why = priorProblem(target, tool, base);
  if (why === null) return { kind: 'prior', target };
  return { kind: 'conflict', problem: `${CONFLICT}: ${path} points to ${target}, ${why}` };
}

/** Null when `target` is `<base>/snapshots/<hash>/wrappers/<tool>` of a snapshot that verifies or no longer exists. */
function priorProblem(target: string, tool: string, base: string): string | null {
  if (!isAbsolute(target) || normalize(target) !== target) return 'not an hpatch-router snapshot wrapper';
  const rel = relative(snapshotsDir(base), target).split(sep);
  if (rel.length !== 3 || !/^[0-9a-f]{64}$/.test(rel[0]!) || rel[1] !== 'wrappers') return 'not an hpatch-router snapshot wrapper';
  if (rel[2] !== tool) return `the wrapper of another tool (${rel[2]})`;
  const snapDir = join(snapshotsDir(base), rel[0]!);
  try {
    lstatSync(snapDir);
  } catch {
    return null; // pruned: the link is ours (it names our private base) and serves nothing any more
  }
  try {
    const snap = verifySnapshot(snapDir);
    if (!snap.manifest.plugins.some((p) => p.tools.includes(tool))) return 'a snapshot that does not register this tool';
  } catch (e) {
    return `a snapshot that fails verification (${(e as Error).message})`;
  }
  return null;
}

export interface FrontendsInput {
  readonly dir: string;
  readonly tools: readonly string[];
  readonly base: string;
  /** The current snapshot directory; null to check for conflicts only (e.g. when the registry is invalid). */
  readonly snapshotDir: string | null;
}

export interface FrontendStep {
  readonly tool: string;
  readonly path: string;
  readonly state: FrontendState;
}

/** Read-only: every problem the frontends would have, and what applying them would do. */
export function planFrontends(input: FrontendsInput): { problems: string[]; steps: FrontendStep[] } {
  const problems: string[] = [];
  const dirProblem = frontendDirProblem(input.dir);
  if (dirProblem !== null) return { problems: [dirProblem], steps: [] };
  const steps: FrontendStep[] = [];
  for (const tool of input.tools) {
    if (!TOOL_NAME.test(tool) || BUILTIN_NAMES.has(tool)) {
      problems.push(`${CONFLICT}: ${JSON.stringify(tool)} cannot have a frontend (built-in or unsafe name)`);
      continue;
    }
    const wanted = input.snapshotDir === null ? null : wrapperPath(input.snapshotDir, tool);
    const state = inspectFrontend(input.dir, tool, input.base, wanted);
    if (state.kind === 'conflict') problems.push(state.problem);
    steps.push({ tool, path: join(input.dir, tool), state });
  }
  return { problems, steps };
}

export interface FrontendsResult {
  readonly problems: string[];
  readonly created: string[];
  readonly replaced: string[];
  readonly verified: string[];
  /** Frontends of tools no longer configured (links into this base's snapshots), removed. */
  readonly retired: string[];
}

/**
 * Creates or verifies every frontend. The caller holds the frontend lock. Nothing is written when any
 * frontend conflicts; each change is a single atomic step, and the result is re-verified.
 */
export function ensureFrontends(input: FrontendsInput & { readonly snapshotDir: string }): FrontendsResult {
  const result: FrontendsResult = { problems: [], created: [], replaced: [], verified: [], retired: [] };
  const plan = planFrontends(input);
  if (plan.problems.length > 0) return { ...result, problems: plan.problems };
  for (const step of plan.steps) {
    const wanted = wrapperPath(input.snapshotDir, step.tool);
    try {
      if (step.state.kind === 'missing') {
        // Direct create: fails (EEXIST) rather than clobber something that appeared meanwhile.
        symlinkSync(wanted, step.path);
        result.created.push(step.path);
      } else if (step.state.kind === 'prior') {
        const tmp = join(input.dir, `.${step.tool}.hpatch-${process.pid}-${randomBytes(4).toString('hex')}`);
        symlinkSync(wanted, tmp);
        try {
          renameSync(tmp, step.path);
        } catch (e) {
          rmSync(tmp, { force: true });
          throw e;
        }
        result.replaced.push(step.path);
      }
      const problem = frontendProblem(step.path, wanted, input.snapshotDir);
      if (problem !== null) result.problems.push(problem);
      else if (step.state.kind === 'current') result.verified.push(step.path);
    } catch (e) {
      result.problems.push(`${CONFLICT}: cannot install ${step.path}: ${(e as Error).message}`);
    }
  }
  if (result.problems.length === 0) result.retired.push(...retireFrontends(input.dir, input.tools, input.base));
  return result;
}

/**
 * Removes frontends of tools that are no longer configured, so a removed plugin's name stops
 * resolving. Only links that are exactly `<name>` → `<base>/snapshots/<hash>/wrappers/<name>` of
 * this runtime base are ours to remove; everything else in the directory is left alone.
 */
function retireFrontends(dir: string, tools: readonly string[], base: string): string[] {
  const configured = new Set(tools);
  const retired: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return retired;
  }
  for (const name of names) {
    if (configured.has(name) || !TOOL_NAME.test(name)) continue;
    const path = join(dir, name);
    try {
      if (!lstatSync(path).isSymbolicLink()) continue;
      const target = readlinkSync(path);
      if (!isAbsolute(target) || normalize(target) !== target) continue;
      const rel = relative(snapshotsDir(base), target).split(sep);
      if (rel.length !== 3 || !/^[0-9a-f]{64}$/.test(rel[0]!) || rel[1] !== 'wrappers' || rel[2] !== name) continue;
      rmSync(path);
      retired.push(path);
    } catch {
      // Vanished or unreadable meanwhile: not ours to insist on.
    }
  }
  return retired;
}

/** Null when `path` is a symlink to `wanted` that resolves to the snapshot's launcher. */
export function frontendProblem(path: string, wanted: string, snapshotDir: string): string | null {
  try {
    if (!lstatSync(path).isSymbolicLink() || readlinkSync(path) !== wanted) return `${CONFLICT}: ${path} changed while it was being installed`;
    if (realpathSync(path) !== realpathSync(join(snapshotDir, LAUNCHER_PATH))) return `${CONFLICT}: ${path} does not resolve to the snapshot's hpatch-router`;
  } catch (e) {
    return `${CONFLICT}: ${path} is unusable: ${(e as Error).message}`;
  }
  return null;
}
