// Descriptor-relative, no-follow file operations for the router's per-thread storage. Node has no
// openat/mkdirat/symlinkat, so a directory is opened once with O_DIRECTORY|O_NOFOLLOW and every later
// operation names its entries through `/proc/self/fd/<fd>/<name>`: the kernel resolves that prefix to
// the opened directory itself, never by walking its path again, so swapping a path component for a
// symlink after the open cannot redirect anything (the swapped name is no longer the directory the
// descriptor holds). Final components are single safe names, opened O_NOFOLLOW. Linux only.
import {
  closeSync, constants as C, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, renameSync,
  rmdirSync, symlinkSync, unlinkSync, writeSync, readSync,
} from 'node:fs';

export class ConfinementError extends Error {
  override readonly name = 'ConfinementError';
}

const DIR_FLAGS = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;
let tmpCount = 0;

/** Whether descriptor-relative paths work here (Linux with /proc mounted). */
export function confinementSupported(): boolean {
  try {
    const fd = openSync('/', DIR_FLAGS);
    try {
      return lstatSync(`/proc/self/fd/${fd}/.`).isDirectory();
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** An open directory whose entries are reached only through its descriptor. */
export class ConfinedDir {
  private constructor(readonly fd: number, readonly label: string) {}

  /** Opens an existing private directory by absolute path (the last component must not be a symlink). */
  static open(path: string, uid: number): ConfinedDir {
    return ConfinedDir.fromFd(openDir(path, path), path, uid);
  }

  /** The entry path the kernel resolves through this descriptor. */
  at(name: string): string {
    assertName(name);
    return `/proc/self/fd/${this.fd}/${name}`;
  }

  /** Opens (creating it 0700 if missing) the private subdirectory `name`; a symlink there is refused. */
  subdir(name: string, uid: number, create: boolean): ConfinedDir {
    const path = this.at(name);
    const label = `${this.label}/${name}`;
    // Open first: a failed mkdir or open costs a thrown error, so the common case (it exists) has none.
    let fd = tryOpenDir(path);
    if (fd === 'ENOENT' && create) {
      try {
        mkdirSync(path, { mode: 0o700 });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new ConfinementError(`cannot create ${label}: ${code(e)}`);
      }
      fd = tryOpenDir(path);
    }
    if (typeof fd === 'string') throw new ConfinementError(`cannot open ${label}: ${fd === 'ELOOP' || fd === 'ENOTDIR' ? 'not a directory (a symlink or file is in its place)' : fd}`);
    return ConfinedDir.fromFd(fd, label, uid);
  }

  /** Whether the entry `name` exists (whatever it is; never following it). */
  exists(name: string): boolean {
    try {
      lstatSync(this.at(name));
      return true;
    } catch {
      return false;
    }
  }

  /** The target of the symlink `name`, or null when it is missing or not a symlink. */
  readLink(name: string): string | null {
    try {
      return lstatSync(this.at(name)).isSymbolicLink() ? readlinkSync(this.at(name)) : null;
    } catch {
      return null;
    }
  }

  /** Makes `name` a symlink to `target`, atomically replacing what is there (never following it). */
  replaceLink(name: string, target: string): void {
    // (a private directory: the temporary name only has to be unique, not unguessable)
    const tmp = `.tmp-${process.pid}-${Date.now().toString(36)}-${++tmpCount}`;
    symlinkSync(target, this.at(tmp));
    try {
      renameSync(this.at(tmp), this.at(name));
    } catch (e) {
      try { unlinkSync(this.at(tmp)); } catch { /* already gone */ }
      throw new ConfinementError(`cannot place ${this.label}/${name}: ${code(e)}`);
    }
  }

  /** Creates `name` as a new regular file (O_EXCL|O_NOFOLLOW) holding `bytes`; false when it exists. */
  createFile(name: string, bytes: Uint8Array, mode = 0o600): boolean {
    let fd: number;
    try {
      fd = openSync(this.at(name), C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, mode);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw new ConfinementError(`cannot create ${this.label}/${name}: ${code(e)}`);
    }
    try {
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    } catch (e) {
      closeSync(fd);
      try { unlinkSync(this.at(name)); } catch { /* nothing to undo */ }
      throw new ConfinementError(`cannot write ${this.label}/${name}: ${code(e)}`);
    }
    closeSync(fd);
    return true;
  }

  /** Atomically replaces the entry `name` with a new regular file holding `bytes` (written aside, then renamed over it). */
  replaceFile(name: string, bytes: Uint8Array, mode = 0o600): void {
    const tmp = `.tmp-${process.pid}-${Date.now().toString(36)}-${++tmpCount}`;
    if (!this.createFile(tmp, bytes, mode)) throw new ConfinementError(`cannot write ${this.label}/${name}: temporary name taken`);
    try {
      renameSync(this.at(tmp), this.at(name));
    } catch (e) {
      try { unlinkSync(this.at(tmp)); } catch { /* already gone */ }
      throw new ConfinementError(`cannot replace ${this.label}/${name}: ${code(e)}`);
    }
  }

  /** Reads the regular file `name` (O_NOFOLLOW: a symlink is refused), at most `max` bytes. */
  readFile(name: string, max: number): RegularFileRead {
    return readRegularFile(this.at(name), max, { noFollow: true });
  }

  /** Removes the entry `name` if it is a file or symlink (never following it). */
  unlink(name: string): void {
    try {
      unlinkSync(this.at(name));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new ConfinementError(`cannot remove ${this.label}/${name}: ${code(e)}`);
    }
  }

  /** Removes the subdirectory `name` and everything in it, descending only through no-follow opens. */
  removeTree(name: string, uid: number, afterOpen?: () => void): void {
    let sub: ConfinedDir;
    try {
      sub = this.subdir(name, uid, false);
    } catch {
      this.unlink(name); // a symlink or file put in its place: remove the entry itself, not its target
      return;
    }
    try {
      afterOpen?.();
      for (const entry of sub.list()) {
        let isDir = false;
        try { isDir = lstatSync(sub.at(entry)).isDirectory(); } catch { continue; }
        if (isDir) sub.removeTree(entry, uid, afterOpen);
        else sub.unlink(entry);
      }
    } finally {
      sub.close();
    }
    try {
      rmdirSync(this.at(name));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new ConfinementError(`cannot remove ${this.label}/${name}: ${code(e)}`);
    }
  }

  list(): string[] {
    return readdirSync(`/proc/self/fd/${this.fd}`);
  }

  close(): void {
    try { closeSync(this.fd); } catch { /* closed */ }
  }

  private static fromFd(fd: number, label: string, uid: number): ConfinedDir {
    const st = fstatSync(fd);
    const problem = st.uid !== uid ? `owned by uid ${st.uid}, not ${uid}` : (st.mode & 0o077) !== 0 ? 'has group/other access' : null;
    if (problem !== null) {
      closeSync(fd);
      throw new ConfinementError(`unsafe directory ${label}: ${problem}`);
    }
    return new ConfinedDir(fd, label);
  }
}

/** The descriptor of the directory at `path` (never following a final symlink), or the error code. */
function tryOpenDir(path: string): number | string {
  try {
    return openSync(path, DIR_FLAGS);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? String(e);
  }
}

export type RegularFileRead =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly why: 'missing' | 'directory' | 'not-regular' | 'too-large' | 'unreadable'; readonly size?: number; readonly code?: string };

/**
 * The bytes of the regular file at `path`, at most `max` of them: opened O_NONBLOCK and checked on
 * the descriptor, so a FIFO or device swapped in can never block the read, and a file that grows
 * past the bound while read is still refused. `noFollow` refuses a symlink as the last component.
 */
export function readRegularFile(path: string, max: number, opts: { readonly noFollow?: boolean } = {}): RegularFileRead {
  let fd: number;
  try {
    fd = openSync(path, C.O_RDONLY | C.O_NONBLOCK | (opts.noFollow ? C.O_NOFOLLOW : 0));
  } catch (e) {
    const c = (e as NodeJS.ErrnoException).code ?? String(e);
    // ELOOP: a symlink refused by noFollow; ENXIO/EOPNOTSUPP: a socket (or a device with nothing behind it).
    return { ok: false, why: c === 'ENOENT' ? 'missing' : c === 'ELOOP' || c === 'ENXIO' || c === 'EOPNOTSUPP' ? 'not-regular' : 'unreadable', code: c };
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return { ok: false, why: 'directory' };
    if (!st.isFile()) return { ok: false, why: 'not-regular' };
    if (st.size > max) return { ok: false, why: 'too-large', size: st.size };
    // (unsafe: only the bytes read are ever exposed)
    const buf = Buffer.allocUnsafe(st.size + 1);
    let n = 0;
    for (let r; n < buf.length && (r = readSync(fd, buf, n, buf.length - n, null)) > 0; ) n += r;
    if (n > max) return { ok: false, why: 'too-large', size: n };
    return { ok: true, bytes: buf.subarray(0, n) };
  } catch (e) {
    return { ok: false, why: 'unreadable', code: (e as NodeJS.ErrnoException).code ?? String(e) };
  } finally {
    closeSync(fd);
  }
}

function openDir(path: string, label: string): number {
  try {
    return openSync(path, DIR_FLAGS);
  } catch (e) {
    const c = (e as NodeJS.ErrnoException).code;
    throw new ConfinementError(`cannot open ${label}: ${c === 'ELOOP' || c === 'ENOTDIR' ? 'not a directory (a symlink or file is in its place)' : code(e)}`);
  }
}

function assertName(name: string): void {
  if (name === '' || name === '.' || name === '..' || /[/\0]/.test(name)) throw new ConfinementError(`unsafe name ${JSON.stringify(name.slice(0, 64))}`);
}

function code(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
}
