// Process-scoped, content-addressed snapshots of the router's runtime (brief §3, REQ-PLUGIN-001).
// At startup the router copies its launcher, its dist/ bundle and the exact source of every loaded
// plugin declaration into `<runtime base>/snapshots/<sha256(manifest.json)>/`, so executor-side
// processes never run the (re)installable tree. The directory name authenticates the manifest and
// the manifest authenticates every file and symlink; verifySnapshot re-checks all of it on each use.
// Layout and limits: doc/executor.md.
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync,
  symlinkSync, utimesSync, writeFileSync, type Stats,
} from 'node:fs';
import { basename, dirname, join, posix } from 'node:path';
import { ensurePrivateSubdir } from './runtime-base.ts';
import { isAlive, parseIdentity, selfIdentity } from './process-identity.ts';
import { ROUTER_RESERVED_NAMES, TOOL_NAME } from '../registry/tool-names.ts';

export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
}

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 'hpatch-snapshot/1';
/** Snapshot-relative paths of the launcher and the bundle entry it runs. */
export const LAUNCHER_PATH = 'runtime/bin/hpatch-router';
/** The private shell wrapper the per-thread `.runtime` link targets (host/shell/thread-storage.ts). */
export const SHELL_WRAPPER_PATH = 'runtime/bin/shell-worker';
/**
 * Files only the shell worker's interpreter runs: its V8 startup snapshot, the snapshot's stamp and
 * the shell parser it loads beside it. Frontends never run them, so a frontend checks their presence
 * and size, not their content (hashing 7 MB would cost every plugin call ~15 ms).
 */
export const INTERPRETER_ONLY_FILES: ReadonlySet<string> = new Set(['runtime/dist/interp.blob', 'runtime/dist/interp.blob.stamp', 'runtime/dist/mvdan-sh.js']);
export const ENTRY_PATH = 'runtime/dist/hpatch-router.mjs';
export const NODE_MODULES_PATH = 'runtime/node_modules';
/** Every wrapper is a relative symlink to the snapshot's own launcher (relative: the snapshot is built in a temp dir and renamed). */
export const WRAPPER_TARGET = '../runtime/bin/hpatch-router';
export const SNAPSHOTS_DIR = 'snapshots';
export const PINS_DIR = 'pins';

/** A configured executor-backed tool name: also a safe single path component. */
export { TOOL_NAME } from '../registry/tool-names.ts';
/** Built-in names never get a frontend or snapshot wrapper (the shell locator path is separate). */
export const BUILTIN_NAMES: ReadonlySet<string> = new Set([...ROUTER_RESERVED_NAMES, 'hpatch-router']);

const HASH = /^[0-9a-f]{64}$/;

export interface ManifestFile {
  readonly path: string;
  readonly sha256: string;
  readonly size: number;
  readonly executable: boolean;
}

export interface ManifestLink {
  readonly path: string;
  readonly target: string;
}

export interface ManifestPlugin {
  /** Snapshot-relative path of the declaration's source (under plugins/). */
  readonly file: string;
  /** Where the router discovered it (for messages only; the worker never reads it). */
  readonly origin: string;
  readonly id: string;
  /** Executor-backed tools it declares; each has a wrapper at wrappers/<tool>. */
  readonly tools: readonly string[];
}

export interface Manifest {
  readonly format: typeof MANIFEST_FORMAT;
  /** The stable frontend directory (realpath) this snapshot's wrappers serve, or null when it serves none. */
  readonly frontendDir: string | null;
  readonly files: readonly ManifestFile[];
  readonly links: readonly ManifestLink[];
  readonly plugins: readonly ManifestPlugin[];
}

export interface SnapshotPlugin {
  /** The declaration file the router discovered. */
  readonly origin: string;
  readonly id: string;
  /** The exact bytes the router loaded and validated (not re-read from disk, so no reinstall race). */
  readonly source: string | Uint8Array;
  readonly tools: readonly string[];
}

export interface SnapshotInput {
  /** A verified runtime base (runtime-base.ts). */
  readonly base: string;
  /** The install tree: `bin/hpatch-router` and `dist/` (node_modules is referenced, not copied). */
  readonly installRoot: string;
  readonly plugins: readonly SnapshotPlugin[];
  /** Realpath of the stable frontend directory, or null without configured executor-backed tools. */
  readonly frontendDir: string | null;
}

export interface Snapshot {
  readonly dir: string;
  readonly hash: string;
  readonly manifest: Manifest;
}

interface PlannedFile extends ManifestFile {
  readonly bytes: Buffer;
  /** Kept on the copy: the launcher trusts interp.blob.stamp only while its mtime is the node binary's. */
  readonly mtime?: Date;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export function snapshotsDir(base: string): string {
  return join(base, SNAPSHOTS_DIR);
}

export function snapshotDirOf(base: string, hash: string): string {
  return join(base, SNAPSHOTS_DIR, hash);
}

export function wrapperPath(snapshotDir: string, tool: string): string {
  return join(snapshotDir, 'wrappers', tool);
}

/** The install root of a running bundle entry (`<root>/dist/hpatch-router.mjs`). */
export function installRootOf(entryScript: string): string {
  return dirname(dirname(realpathSync(entryScript)));
}

// ---------------------------------------------------------------------------------------------
// Building the manifest

function readInstallFiles(installRoot: string): PlannedFile[] {
  const files: PlannedFile[] = [];
  const add = (abs: string, rel: string, executable: boolean): void => {
    const st = lstatSync(abs);
    if (!st.isFile()) throw new SnapshotError(`${abs} is not a regular file`);
    const bytes = readFileSync(abs);
    files.push({ path: rel, sha256: sha256(bytes), size: bytes.length, executable, bytes, ...(rel.endsWith('.stamp') ? { mtime: st.mtime } : {}) });
  };
  add(join(installRoot, 'bin', 'hpatch-router'), LAUNCHER_PATH, true);
  add(join(installRoot, 'bin', 'shell-worker'), SHELL_WRAPPER_PATH, true);
  const walk = (absDir: string, relDir: string): void => {
    for (const ent of readdirSync(absDir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const abs = join(absDir, ent.name);
      const rel = posix.join(relDir, ent.name);
      if (ent.isDirectory()) walk(abs, rel);
      else if (ent.isFile()) {
        // Source maps only serve debugging and V8 code caches are written lazily per machine.
        // Everything else in dist/ can be loaded at run time — the interpreter's startup snapshot
        // too (interp.blob, its .stamp and its parser mvdan-sh.js): the shell worker starts from it.
        if (!/\.(map|cache)$/.test(ent.name)) add(abs, rel, false);
      } else throw new SnapshotError(`${abs}: dist/ may contain only regular files and directories`);
    }
  };
  const dist = join(installRoot, 'dist');
  try {
    walk(dist, 'runtime/dist');
  } catch (e) {
    if (e instanceof SnapshotError) throw e;
    throw new SnapshotError(`cannot read ${dist}: ${(e as Error).message}`);
  }
  if (!files.some((f) => f.path === ENTRY_PATH)) throw new SnapshotError(`${join(installRoot, 'dist', 'hpatch-router.mjs')} is missing (run make build)`);
  return files;
}

function pluginFileName(index: number, origin: string): string {
  const safe = basename(origin).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return `plugins/${String(index).padStart(3, '0')}-${safe}`;
}

function planSnapshot(input: SnapshotInput): { manifest: Manifest; bytes: Buffer; files: PlannedFile[] } {
  let files: PlannedFile[];
  try {
    files = readInstallFiles(input.installRoot);
  } catch (e) {
    if (e instanceof SnapshotError) throw e;
    throw new SnapshotError(`cannot read the install at ${input.installRoot}: ${(e as Error).message}`);
  }
  const links: ManifestLink[] = [];
  const plugins: ManifestPlugin[] = [];
  const seen = new Set<string>();
  input.plugins.forEach((p, i) => {
    const file = pluginFileName(i, p.origin);
    const bytes = typeof p.source === 'string' ? Buffer.from(p.source, 'utf8') : Buffer.from(p.source);
    files.push({ path: file, sha256: sha256(bytes), size: bytes.length, executable: false, bytes });
    for (const tool of p.tools) {
      if (!TOOL_NAME.test(tool) || BUILTIN_NAMES.has(tool)) throw new SnapshotError(`${p.origin}: ${JSON.stringify(tool)} cannot have an executor frontend`);
      if (seen.has(tool)) throw new SnapshotError(`tool ${tool} is declared twice`);
      seen.add(tool);
      links.push({ path: `wrappers/${tool}`, target: WRAPPER_TARGET });
    }
    plugins.push({ file, origin: p.origin, id: p.id, tools: [...p.tools] });
  });
  // node_modules holds the native isolated-vm build: referenced from the install, not copied (doc/executor.md).
  try {
    links.push({ path: NODE_MODULES_PATH, target: realpathSync(join(input.installRoot, 'node_modules')) });
  } catch {
    // No node_modules beside the install: nothing to reference (the worker then fails to load isolated-vm clearly).
  }
  const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  files.sort(byPath);
  links.sort(byPath);
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    frontendDir: input.frontendDir,
    files: files.map(({ path, sha256: h, size, executable }) => ({ path, sha256: h, size, executable })),
    links,
    plugins,
  };
  return { manifest, bytes: Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`, 'utf8'), files };
}

/** The hash a snapshot of `input` would have, without writing anything. */
export function snapshotHashOf(input: SnapshotInput): string {
  return sha256(planSnapshot(input).bytes);
}

// ---------------------------------------------------------------------------------------------
// Creating

/**
 * Creates (or reuses, after verifying it) the snapshot of `input` and returns it. `beforeWrite` runs
 * once the hash is known and before anything is written or reused: pin there, so a concurrent prune
 * cannot remove the snapshot between its verification and its use.
 */
export function createSnapshot(input: SnapshotInput, hooks: { readonly beforeWrite?: (hash: string) => void } = {}): Snapshot {
  const planned = planSnapshot(input);
  const hash = sha256(planned.bytes);
  hooks.beforeWrite?.(hash);
  const root = ensurePrivateSubdir(input.base, SNAPSHOTS_DIR);
  const dir = join(root, hash);
  const existing = tryVerify(dir);
  if (existing !== null) return touch(existing);
  if (exists(dir)) discard(root, dir); // present but not authentic: never reuse, rebuild

  const tmp = join(root, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    mkdirSync(tmp, { mode: 0o700 });
    for (const f of planned.files) {
      const abs = join(tmp, f.path);
      mkdirSync(dirname(abs), { recursive: true, mode: 0o700 });
      writeFileSync(abs, f.bytes, { mode: 0o600, flag: 'wx' });
      if (f.mtime !== undefined) utimesSync(abs, f.mtime, f.mtime);
      // Read-only: a snapshot is never edited in place, only replaced.
      chmodSync(abs, f.executable ? 0o500 : 0o400);
    }
    for (const l of planned.manifest.links) {
      const abs = join(tmp, l.path);
      mkdirSync(dirname(abs), { recursive: true, mode: 0o700 });
      symlinkSync(l.target, abs);
    }
    writeFileSync(join(tmp, MANIFEST_FILE), planned.bytes, { mode: 0o400, flag: 'wx' });
    try {
      renameSync(tmp, dir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // A concurrent router installed the same snapshot first: use theirs once it verifies.
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
      rmSync(tmp, { recursive: true, force: true });
      return touch(verifySnapshot(dir));
    }
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    if (e instanceof SnapshotError) throw e;
    throw new SnapshotError(`cannot create snapshot ${dir}: ${(e as Error).message}`);
  }
  return verifySnapshot(dir);
}

function tryVerify(dir: string): Snapshot | null {
  try {
    return verifySnapshot(dir);
  } catch {
    return null;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Moves an entry aside (atomic) and removes it; a reader in progress keeps its open files. */
function discard(root: string, path: string): void {
  const trash = join(root, `.trash-${process.pid}-${randomBytes(6).toString('hex')}`);
  renameSync(path, trash);
  rmSync(trash, { recursive: true, force: true });
}

/** The directory's mtime records the last time a router used it (prune's grace period starts there). */
function touch(s: Snapshot): Snapshot {
  const now = new Date();
  try {
    utimesSync(s.dir, now, now);
  } catch {
    // Best effort: only the prune grace period depends on it.
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Verifying

/**
 * Verifies a snapshot directory completely: its name is the sha256 of its manifest, the manifest is
 * well-formed, every listed file has its size and hash, every listed symlink its exact target, and
 * nothing else is present. Throws SnapshotError naming the first mismatch.
 */
export function verifySnapshot(dir: string, opts: { readonly sizeOnly?: ReadonlySet<string> } = {}): Snapshot {
  const hash = basename(dir);
  if (!HASH.test(hash)) throw new SnapshotError(`${dir} is not a snapshot directory`);
  const st = lstatOrNull(dir);
  if (st === null || !st.isDirectory()) throw new SnapshotError(`snapshot ${hash} is missing or not a directory`);
  const manifestPath = join(dir, MANIFEST_FILE);
  const mst = lstatOrNull(manifestPath);
  if (mst === null || !mst.isFile()) throw new SnapshotError(`snapshot ${hash}: manifest missing`);
  const bytes = readFileSync(manifestPath);
  if (sha256(bytes) !== hash) throw new SnapshotError(`snapshot ${hash}: manifest does not match the snapshot name`);
  const manifest = parseManifest(bytes, hash);

  const expected = new Map<string, 'file' | 'link' | 'dir'>([[MANIFEST_FILE, 'file']]);
  const addParents = (p: string): void => {
    for (let d = posix.dirname(p); d !== '.'; d = posix.dirname(d)) expected.set(d, 'dir');
  };
  for (const f of manifest.files) {
    expected.set(f.path, 'file');
    addParents(f.path);
  }
  for (const l of manifest.links) {
    expected.set(l.path, 'link');
    addParents(l.path);
  }
  const found = new Set<string>();
  const walk = (rel: string): void => {
    for (const ent of readdirSync(rel === '' ? dir : join(dir, rel), { withFileTypes: true })) {
      const p = rel === '' ? ent.name : `${rel}/${ent.name}`;
      const kind = expected.get(p);
      const actual = ent.isSymbolicLink() ? 'link' : ent.isDirectory() ? 'dir' : ent.isFile() ? 'file' : 'other';
      if (kind === undefined) throw new SnapshotError(`snapshot ${hash}: unexpected entry ${p}`);
      if (kind !== actual) throw new SnapshotError(`snapshot ${hash}: ${p} is a ${actual}, expected a ${kind}`);
      found.add(p);
      if (actual === 'dir') walk(p);
    }
  };
  walk('');
  for (const p of expected.keys()) if (!found.has(p)) throw new SnapshotError(`snapshot ${hash}: ${p} is missing`);
  for (const f of manifest.files) {
    if (opts.sizeOnly?.has(f.path)) {
      if (lstatSync(join(dir, f.path)).size !== f.size) throw new SnapshotError(`snapshot ${hash}: ${f.path} was modified`);
      continue;
    }
    const content = readFileSync(join(dir, f.path));
    if (content.length !== f.size || sha256(content) !== f.sha256) throw new SnapshotError(`snapshot ${hash}: ${f.path} was modified`);
  }
  for (const l of manifest.links) {
    if (readlinkSync(join(dir, l.path)) !== l.target) throw new SnapshotError(`snapshot ${hash}: symlink ${l.path} was retargeted`);
  }
  return { dir, hash, manifest };
}

/** Reads one manifest file of a verified snapshot and checks it again: the bytes returned are the bytes hashed. */
export function readVerifiedFile(snapshot: Snapshot, path: string): Buffer {
  const entry = snapshot.manifest.files.find((f) => f.path === path);
  if (entry === undefined) throw new SnapshotError(`snapshot ${snapshot.hash}: ${path} is not in the manifest`);
  const bytes = readFileSync(join(snapshot.dir, path));
  if (bytes.length !== entry.size || sha256(bytes) !== entry.sha256) throw new SnapshotError(`snapshot ${snapshot.hash}: ${path} was modified`);
  return bytes;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function parseManifest(bytes: Buffer, hash: string): Manifest {
  const bad = (why: string): SnapshotError => new SnapshotError(`snapshot ${hash}: malformed manifest (${why})`);
  let m: unknown;
  try {
    m = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw bad('not JSON');
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) throw bad('not an object');
  const o = m as Record<string, unknown>;
  if (o['format'] !== MANIFEST_FORMAT) throw bad('unknown format');
  const frontendDir = o['frontendDir'];
  if (frontendDir !== null && (typeof frontendDir !== 'string' || !frontendDir.startsWith('/'))) throw bad('frontendDir');
  // Snapshot-relative paths: plain components only, so joining them can never leave the snapshot.
  const relPath = (v: unknown): v is string =>
    typeof v === 'string' && v !== '' && v.split('/').every((c) => c !== '' && c !== '.' && c !== '..') && v !== MANIFEST_FILE;
  const files = o['files'];
  if (!Array.isArray(files)) throw bad('files');
  for (const f of files as unknown[]) {
    const r = f as Record<string, unknown>;
    if (typeof f !== 'object' || f === null || !relPath(r['path']) || typeof r['sha256'] !== 'string' || !HASH.test(r['sha256'])
      || typeof r['size'] !== 'number' || !Number.isSafeInteger(r['size']) || typeof r['executable'] !== 'boolean') throw bad('file entry');
  }
  const links = o['links'];
  if (!Array.isArray(links)) throw bad('links');
  for (const l of links as unknown[]) {
    const r = l as Record<string, unknown>;
    if (typeof l !== 'object' || l === null || !relPath(r['path']) || typeof r['target'] !== 'string' || r['target'] === '') throw bad('link entry');
  }
  const paths = [...(files as ManifestFile[]).map((f) => f.path), ...(links as ManifestLink[]).map((l) => l.path)];
  if (new Set(paths).size !== paths.length) throw bad('duplicate path');
  if (!(files as ManifestFile[]).some((f) => f.path === LAUNCHER_PATH && f.executable)) throw bad('no launcher');
  if (!(files as ManifestFile[]).some((f) => f.path === ENTRY_PATH)) throw bad('no entry');
  const plugins = o['plugins'];
  if (!Array.isArray(plugins)) throw bad('plugins');
  const tools = new Set<string>();
  for (const p of plugins as unknown[]) {
    const r = p as Record<string, unknown>;
    if (typeof p !== 'object' || p === null || typeof r['file'] !== 'string' || !r['file'].startsWith('plugins/')
      || !(files as ManifestFile[]).some((f) => f.path === r['file']) || typeof r['origin'] !== 'string' || typeof r['id'] !== 'string'
      || !Array.isArray(r['tools'])) throw bad('plugin entry');
    for (const t of r['tools'] as unknown[]) {
      if (typeof t !== 'string' || !TOOL_NAME.test(t) || BUILTIN_NAMES.has(t) || tools.has(t)) throw bad('plugin tool');
      tools.add(t);
    }
  }
  // Wrappers: exactly one per registered tool, each targeting the snapshot's own launcher.
  for (const l of links as ManifestLink[]) {
    if (!l.path.startsWith('wrappers/')) {
      if (l.path !== NODE_MODULES_PATH || !l.target.startsWith('/')) throw bad(`link ${l.path}`);
      continue;
    }
    const tool = l.path.slice('wrappers/'.length);
    if (!tools.delete(tool) || l.target !== WRAPPER_TARGET) throw bad(`wrapper ${l.path}`);
  }
  if (tools.size > 0) throw bad('tool without wrapper');
  return m as Manifest;
}

// ---------------------------------------------------------------------------------------------
// Pins and pruning

export interface SnapshotPin {
  readonly file: string;
  /** Removes the pin and marks the snapshot as just used; idempotent. */
  release(): void;
}

/** Records that this process uses snapshot `hash`, so a concurrent prune keeps it. Write it before creating the snapshot. */
export function pinSnapshot(base: string, hash: string): SnapshotPin {
  const pins = ensurePrivateSubdir(base, PINS_DIR);
  const me = selfIdentity();
  const file = join(pins, `${me.pid}-${me.start ?? 'x'}-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(file, `${JSON.stringify({ pid: me.pid, start: me.start, snapshot: hash })}\n`, { mode: 0o600, flag: 'wx' });
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      rmSync(file, { force: true });
      const now = new Date();
      try {
        utimesSync(snapshotDirOf(base, hash), now, now);
      } catch {
        // The snapshot may already be gone; nothing to mark.
      }
    },
  };
}

/** Snapshot hashes pinned by live processes; dead pins are removed on the way. */
export function livePins(base: string): Set<string> {
  const live = new Set<string>();
  const pins = join(base, PINS_DIR);
  let names: string[];
  try {
    names = readdirSync(pins);
  } catch {
    return live;
  }
  for (const name of names) {
    const file = join(pins, name);
    let record: Record<string, unknown> | null = null;
    try {
      record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      record = null;
    }
    const id = parseIdentity(record);
    const snap = record?.['snapshot'];
    if (id !== null && typeof snap === 'string' && isAlive(id)) live.add(snap);
    else if (id !== null && !isAlive(id)) rmSync(file, { force: true });
    // An unreadable pin may be one being written right now: leave it alone.
  }
  return live;
}

export interface PruneOptions {
  /** Hashes never removed (the caller's own snapshot). */
  readonly keep?: readonly string[];
  /** Unpinned snapshots younger than this (by directory mtime) stay: a command started just before a restart may still run from them. */
  readonly graceMs?: number;
  readonly now?: number;
}

export const DEFAULT_PRUNE_GRACE_MS = 60 * 60 * 1000;

/** Removes snapshots no live process pins, past the grace period, and abandoned temp dirs. Best effort; returns what it removed. */
export function pruneSnapshots(base: string, opts: PruneOptions = {}): string[] {
  const root = snapshotsDir(base);
  const keep = new Set([...(opts.keep ?? []), ...livePins(base)]);
  const grace = opts.graceMs ?? DEFAULT_PRUNE_GRACE_MS;
  const now = opts.now ?? Date.now();
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return removed;
  }
  for (const name of names) {
    const path = join(root, name);
    const st = lstatOrNull(path);
    if (st === null || now - st.mtimeMs < grace) continue;
    const temp = /^\.(?:tmp|trash)-(\d+)-/.exec(name);
    if (temp !== null) {
      if (isAlive({ pid: Number(temp[1]), start: null }) && name.startsWith('.tmp-')) continue;
    } else if (!HASH.test(name) || keep.has(name)) continue;
    try {
      discard(root, path);
      removed.push(name);
    } catch {
      // Another router pruned it first.
    }
  }
  return removed;
}
