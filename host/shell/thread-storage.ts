// Per-thread storage the shell tool owns under the runtime base (REQ-SHELL-001, brief §9):
//   <base>/hpatch-<thread>/            0700
//     .runtime -> <snapshot>/runtime/bin/shell-worker   what the installed `shell` locator follows
//     scripts/<artifact-id>            0600  retained script of one call (`@shell/<artifact-id>`)
// The router (re)binds `.runtime` whenever it emits a worker carrier for the thread, so a restarted
// router or a new snapshot takes over without touching the installed locator. Every operation goes
// through descriptor-relative, no-follow opens (confined-dir.ts), so a path component swapped for
// an escaping symlink mid-operation redirects nothing. Artifacts expire after an hour; at shutdown
// the router cancels expiry and removes what it created.
import { currentHost } from '../runtime/runtime-base.ts';
import { isSafeThreadId } from '../history/thread-id.ts';
import { DEFAULT_MAX_ARGV_VALUE_BYTES } from '../../isolates/core-v1/interpreter.ts';
import { isSafeArtifactId } from '../../isolates/core-v1/shell-header.ts';
import { decodeUtf8 } from '../hashline/fast-rows.ts';
import { ConfinedDir, confinementSupported } from './confined-dir.ts';

export const RUNTIME_LINK = '.runtime';
/** Snapshot-relative path of the private shell wrapper the `.runtime` link targets. */
export const SHELL_WORKER_PATH = 'runtime/bin/shell-worker';
export const SCRIPTS_DIR = 'scripts';
/** How long a retained script stays (REQ-SHELL-001). */
export const ARTIFACT_TTL_MS = 60 * 60 * 1000;
/** The largest script kept or read back: one executor argv value. */
export const MAX_SCRIPT_BYTES = DEFAULT_MAX_ARGV_VALUE_BYTES;

export type ScriptRead =
  | { readonly ok: true; readonly content: string }
  | { readonly ok: false; readonly error: string };

export interface ShellThreadStorageOptions {
  readonly uid?: number;
  readonly ttlMs?: number;
  /**
   * Called right after a storage directory is opened and before anything in it is touched: where a
   * path swap would hurt most. The security tests swap paths here; nothing else sets it.
   */
  readonly afterOpen?: (which: 'thread' | 'scripts') => void;
}

export function threadDirName(threadId: string): string {
  return `hpatch-${threadId}`;
}

export class ShellThreadStorage {
  private readonly uid: number;
  /** Thread directories this router created (removed at close), and those it verified this run. */
  private readonly created = new Set<string>();
  /** Artifacts this router wrote and has not expired yet, with their expiry timers. */
  private readonly artifacts = new Map<string, { threadId: string; id: string; timer: NodeJS.Timeout }>();
  private readonly ttlMs: number;
  private readonly supported = confinementSupported();
  private readonly afterOpen: (which: 'thread' | 'scripts') => void;
  private closed = false;

  constructor(private readonly base: string, private readonly workerTarget: string, opts: ShellThreadStorageOptions = {}) {
    this.uid = opts.uid ?? currentHost().uid;
    this.ttlMs = opts.ttlMs ?? ARTIFACT_TTL_MS;
    this.afterOpen = opts.afterOpen ?? (() => {});
  }

  /** Makes `<base>/hpatch-<thread>/.runtime` point at this router's shell wrapper. Throws on an unsafe id or storage. */
  bind(threadId: string): void {
    if (this.closed) throw new Error('shell storage is closed (the router is stopping)');
    if (!isSafeThreadId(threadId)) throw new Error(`unsafe thread id ${JSON.stringify(threadId.slice(0, 64))}`);
    const base = ConfinedDir.open(this.base, this.uid);
    try {
      const name = threadDirName(threadId);
      const existed = base.exists(name);
      const dir = base.subdir(name, this.uid, true);
      if (!existed) this.created.add(threadId);
      try {
        this.afterOpen('thread');
        if (dir.readLink(RUNTIME_LINK) !== this.workerTarget) dir.replaceLink(RUNTIME_LINK, this.workerTarget);
      } finally {
        dir.close();
      }
    } finally {
      base.close();
    }
  }

  /**
   * Stores `content` as `scripts/<artifactId>` of the thread: a new regular file, never an overwrite.
   * True when the artifact holds exactly `content` afterwards (also when a retry of the same call
   * wrote it before); false for an unsafe id, an existing different artifact or unusable storage.
   */
  retain(threadId: string, artifactId: string, content: string): boolean {
    if (this.closed || !this.supported || !isSafeThreadId(threadId) || !isSafeArtifactId(artifactId)) return false;
    const bytes = Buffer.from(content, 'utf8');
    if (bytes.length > MAX_SCRIPT_BYTES) return false;
    try {
      return this.withScripts(threadId, true, (scripts) => {
        if (scripts.createFile(artifactId, bytes)) {
          this.scheduleExpiry(threadId, artifactId);
          return true;
        }
        const prior = scripts.readFile(artifactId, MAX_SCRIPT_BYTES);
        return prior.ok && prior.bytes.equals(bytes);
      });
    } catch {
      return false;
    }
  }

  /**
   * hpatch's edit of a retained script: replaces `@shell/<artifactId>` with `content` only if it
   * still holds exactly `expected` (what hpatch verified). Null when done, else why not.
   */
  rewrite(threadId: string, artifactId: string, expected: Uint8Array, content: string): string | null {
    if (this.closed || !this.supported) return 'script storage is not available';
    if (!isSafeThreadId(threadId) || !isSafeArtifactId(artifactId)) return `@shell/${artifactId} is not a script reference`;
    const bytes = Buffer.from(content, 'utf8');
    if (bytes.length > MAX_SCRIPT_BYTES) return `the edited script is ${bytes.length} bytes, over the ${MAX_SCRIPT_BYTES}-byte limit`;
    try {
      return this.withScripts(threadId, false, (scripts) => {
        const now = scripts.readFile(artifactId, MAX_SCRIPT_BYTES);
        if (!now.ok) return `@shell/${artifactId} is no longer retained`;
        if (!now.bytes.equals(expected)) return `@shell/${artifactId} changed after hpatch verified it`;
        scripts.replaceFile(artifactId, bytes);
        return null;
      });
    } catch (e) {
      return `@shell/${artifactId} cannot be written: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  /** The current content of `@shell/<artifactId>` in the thread: a regular UTF-8 file in its scripts directory. */
  read(threadId: string, artifactId: string): ScriptRead {
    if (!this.supported) return { ok: false, error: 'script storage needs Linux /proc' };
    return readRetainedScript(this.base, this.uid, threadId, artifactId, this.afterOpen);
  }

  private withScripts<T>(threadId: string, create: boolean, fn: (scripts: ConfinedDir) => T): T {
    return withScriptsDir({ base: this.base, uid: this.uid, threadId, create, afterOpen: this.afterOpen, onCreated: () => this.created.add(threadId) }, fn);
  }

  private scheduleExpiry(threadId: string, artifactId: string): void {
    const key = `${threadId}/${artifactId}`;
    const timer = setTimeout(() => {
      this.artifacts.delete(key);
      this.remove(threadId, artifactId);
    }, this.ttlMs);
    timer.unref();
    this.artifacts.set(key, { threadId, id: artifactId, timer });
  }

  private remove(threadId: string, artifactId: string): void {
    try {
      this.withScripts(threadId, false, (scripts) => scripts.unlink(artifactId));
    } catch {
      // Already gone with its directory, or the storage was swapped away: nothing of ours to remove.
    }
  }

  /** Shutdown: cancels expiry, removes every thread directory this router created and every artifact it wrote elsewhere. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const a of this.artifacts.values()) {
      clearTimeout(a.timer);
      if (!this.created.has(a.threadId)) this.remove(a.threadId, a.id);
    }
    this.artifacts.clear();
    let base: ConfinedDir;
    try {
      base = ConfinedDir.open(this.base, this.uid);
    } catch {
      return; // the base itself is gone or unsafe: nothing of ours can be reached safely
    }
    try {
      for (const threadId of this.created) {
        try {
          base.removeTree(threadDirName(threadId), this.uid, () => this.afterOpen('thread'));
        } catch {
          // Best effort at shutdown; a later router's startup does not depend on it.
        }
      }
    } finally {
      base.close();
    }
  }
}

/**
 * Runs `fn` with a thread's scripts directory, opened descriptor by descriptor from the base and
 * never through a symlink; `create` makes missing directories (0700), reporting a new thread one.
 */
function withScriptsDir<T>(
  o: { base: string; uid: number; threadId: string; create: boolean; afterOpen: (which: 'thread' | 'scripts') => void; onCreated?: () => void },
  fn: (scripts: ConfinedDir) => T,
): T {
  const root = ConfinedDir.open(o.base, o.uid);
  try {
    const name = threadDirName(o.threadId);
    const existed = !o.create || root.exists(name);
    const thread = root.subdir(name, o.uid, o.create);
    if (!existed) o.onCreated?.();
    try {
      o.afterOpen('thread');
      const scripts = thread.subdir(SCRIPTS_DIR, o.uid, o.create);
      try {
        o.afterOpen('scripts');
        return fn(scripts);
      } finally {
        scripts.close();
      }
    } finally {
      thread.close();
    }
  } finally {
    root.close();
  }
}

/**
 * Reads `@shell/<artifactId>` of a thread under `base`, never following a symlink: the router's
 * reruns and the worker's `hread @shell/<id>` share it.
 */
export function readRetainedScript(base: string, uid: number, threadId: string, artifactId: string, afterOpen: (which: 'thread' | 'scripts') => void = () => {}): ScriptRead {
  const ref = `@shell/${artifactId}`;
  if (!isSafeThreadId(threadId)) return { ok: false, error: 'unsafe thread id' };
  if (!isSafeArtifactId(artifactId)) return { ok: false, error: `${ref} is not a script reference` };
  const missing: ScriptRead = { ok: false, error: `${ref} does not exist (or has expired)` };
  let r;
  try {
    r = withScriptsDir({ base, uid, threadId, create: false, afterOpen }, (scripts) => scripts.readFile(artifactId, MAX_SCRIPT_BYTES));
  } catch {
    return missing;
  }
  if (!r.ok) {
    if (r.why === 'missing') return missing;
    return { ok: false, error: `${ref} ${r.why === 'too-large' ? `is larger than ${MAX_SCRIPT_BYTES} bytes` : 'is not a regular file'}` };
  }
  const content = decodeUtf8(r.bytes);
  return content === null ? { ok: false, error: `${ref} is not valid UTF-8` } : { ok: true, content };
}
