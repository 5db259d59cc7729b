// Per-thread storage the shell tool owns under the runtime base (REQ-SHELL-001, brief §9):
//   <base>/hpatch-<thread>/            0700
//     .runtime -> <snapshot>/runtime/bin/shell-worker   what the installed `shell` locator follows
// The router (re)binds `.runtime` whenever it emits a worker carrier for the thread, so a restarted
// router or a new snapshot takes over without touching the installed locator. Every operation goes
// through descriptor-relative, no-follow opens (confined-dir.ts); at shutdown the router removes the
// thread directories it created.
import { currentHost } from '../runtime/runtime-base.ts';
import { isSafeThreadId } from '../history/thread-id.ts';
import { ConfinedDir } from './confined-dir.ts';

export const RUNTIME_LINK = '.runtime';
/** Snapshot-relative path of the private shell wrapper the `.runtime` link targets. */
export const SHELL_WORKER_PATH = 'runtime/bin/shell-worker';

export function threadDirName(threadId: string): string {
  return `hpatch-${threadId}`;
}

export class ShellThreadStorage {
  private readonly uid: number;
  /** Thread directories this router created (removed at close), and those it verified this run. */
  private readonly created = new Set<string>();
  private readonly bound = new Set<string>();
  private closed = false;

  constructor(private readonly base: string, private readonly workerTarget: string, uid: number = currentHost().uid) {
    this.uid = uid;
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
        if (dir.readLink(RUNTIME_LINK) !== this.workerTarget) dir.replaceLink(RUNTIME_LINK, this.workerTarget);
        this.bound.add(threadId);
      } finally {
        dir.close();
      }
    } finally {
      base.close();
    }
  }

  /** Shutdown: removes every thread directory this router created (never following a swapped-in symlink). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    let base: ConfinedDir;
    try {
      base = ConfinedDir.open(this.base, this.uid);
    } catch {
      return; // the base itself is gone or unsafe: nothing of ours can be reached safely
    }
    try {
      for (const threadId of this.created) {
        try {
          base.removeTree(threadDirName(threadId), this.uid);
        } catch {
          // Best effort at shutdown; a later router's startup does not depend on it.
        }
      }
    } finally {
      base.close();
    }
  }
}
