// The exclusive frontend lock (REQ-PLUGIN-001): a router with configured frontends owns them for its
// whole lifetime, so two routers never retarget each other's symlinks. `<runtime base>/frontends.lock`
// is created O_EXCL and names its holder (pid + start time). A holder that is dead, a zombie, or whose
// pid was reused (different start time) is stale and its lock is taken over — serialized through a
// second O_EXCL file, so two routers recovering the same stale lock cannot both win. See doc/executor.md.
import { closeSync, fsyncSync, openSync, readFileSync, rmSync, writeSync, constants } from 'node:fs';
import { join } from 'node:path';
import { isAlive, parseIdentity, selfIdentity, type ProcessIdentity } from './process-identity.ts';

export const LOCK_FILE = 'frontends.lock';
const BREAK_SUFFIX = '.break';

export class FrontendLockError extends Error {
  override readonly name = 'FrontendLockError';
  constructor(message: string, readonly holder: ProcessIdentity | null) {
    super(message);
  }
}

export interface FrontendLock {
  readonly path: string;
  readonly holder: ProcessIdentity;
  /** Removes the lock if it is still ours; idempotent and synchronous (usable from an 'exit' handler). */
  release(): void;
}

function record(id: ProcessIdentity): string {
  return `${JSON.stringify({ pid: id.pid, start: id.start, since: new Date().toISOString() })}\n`;
}

/** Creates `path` exclusively with `content`; false when it already exists. */
function createExclusive(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

function holderOf(text: string): ProcessIdentity | null {
  try {
    return parseIdentity(JSON.parse(text));
  } catch {
    return null;
  }
}

/** Whether a lock record is live. A record still being written (empty, torn) counts as live for a moment. */
function liveHolder(text: string): ProcessIdentity | null | 'unreadable' {
  const id = holderOf(text);
  if (id === null) return 'unreadable';
  return isAlive(id) ? id : null;
}

/** Acquires the frontend lock in the verified runtime base `base`, or throws FrontendLockError naming the holder. */
export function acquireFrontendLock(base: string): FrontendLock {
  const path = join(base, LOCK_FILE);
  const me = selfIdentity();
  const mine = record(me);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createExclusive(path, mine)) return heldLock(path, me, mine);
    const text = readOrNull(path);
    if (text === null) continue; // released meanwhile: try again
    const holder = liveHolder(text);
    if (holder !== null && holder !== 'unreadable') {
      throw new FrontendLockError(`frontend lock ${path} is held by a running hpatch-router (pid ${holder.pid}); stop it first`, holder);
    }
    if (holder === 'unreadable' && attempt < 2) {
      // Its creator may be between O_EXCL and write: give it a moment before calling it stale.
      sleepMs(50);
      continue;
    }
    breakStale(path, text, me);
  }
  throw new FrontendLockError(`cannot acquire frontend lock ${path}: it keeps changing`, null);
}

/** Removes the stale lock whose content is `staleText`, if it is still that one. */
function breakStale(path: string, staleText: string, me: ProcessIdentity): void {
  const breakPath = path + BREAK_SUFFIX;
  if (!createExclusive(breakPath, record(me))) {
    const other = readOrNull(breakPath);
    const otherId = other === null ? null : holderOf(other);
    if (otherId !== null && isAlive(otherId)) {
      sleepMs(20); // another router is breaking it right now; re-examine afterwards
      return;
    }
    // A breaker died mid-break: clear its marker; the O_EXCL create of the lock still decides.
    rmSync(breakPath, { force: true });
    return;
  }
  try {
    // Only while holding the break marker: unlink exactly the record judged stale, never a fresh lock.
    if (readOrNull(path) === staleText) rmSync(path, { force: true });
  } finally {
    rmSync(breakPath, { force: true });
  }
}

function heldLock(path: string, holder: ProcessIdentity, mine: string): FrontendLock {
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    process.off('exit', release);
    try {
      if (readOrNull(path) === mine) rmSync(path, { force: true });
    } catch {
      // Nothing left to do at exit; a later router treats the record as stale.
    }
  };
  process.on('exit', release);
  return { path, holder, release };
}

/** The current holder of the lock in `base`, if a live process holds it. */
export function frontendLockHolder(base: string): ProcessIdentity | null {
  const text = readOrNull(join(base, LOCK_FILE));
  if (text === null) return null;
  const holder = liveHolder(text);
  return holder === 'unreadable' ? null : holder;
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
