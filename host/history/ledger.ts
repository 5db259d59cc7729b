// The ledger: the durable record of every contributed call the router translated into a carrier,
// one append-only file per Codex thread (<dir>/<threadId>.ledger, framing in ledger-log.ts).
// Replay reads it to restore the model's original calls; see doc/ledger.md for the design.
import { constants as FS, promises as fsp, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { sameCarrier, type Carrier } from '../carriers/carrier.ts';
import { checkReply, type CallReply, type EditedFile } from './call-reply.ts';
import { decodeRecords, encodeRecord } from './ledger-log.ts';
import { UnsafeThreadIdError, assertSafeThreadId, isSafeThreadId } from './thread-id.ts';

export { UnsafeThreadIdError } from './thread-id.ts';

export interface LedgerEntry {
  readonly threadId: string;
  readonly callId: string;
  /** Identity of the contribution, e.g. "builtin:shell", "plugin:acme:lint". */
  readonly contribution: string;
  /** Original model-visible tool name. */
  readonly tool: string;
  /** Exact JSON text of the model's original call item. */
  readonly original: string;
  /** Exact carrier payload emitted to Codex. */
  readonly carrier: Carrier;
  /**
   * Lines the model reads before the call's output when history is restored (the shell tool's
   * `retained`/`script_ref` and its warnings). Absent when there are none.
   */
  readonly notes?: readonly string[];
  /** The router-rendered output the model reads instead of the carrier's (hpatch). Built-in tools only. */
  readonly reply?: CallReply;
}

/** Bounds of an entry's notes: they are model-visible text the router adds to every later request. */
export const MAX_NOTES = 16;
export const MAX_NOTE_CHARS = 1000;

/** A thread's entries as of the `Ledger.thread()` call; call it again to see later records. */
export interface ThreadLedger {
  readonly threadId: string;
  /** All recorded variants for a call id, oldest first (a stream retry may record a different carrier for the same call id). */
  entries(callId: string): readonly LedgerEntry[];
  /** Number of entries (all variants of all call ids). */
  readonly size: number;
  /** The files of every recorded edit (hpatch replies), oldest first: recovery ancestry reads them. */
  editedFiles(): readonly EditedFile[];
}

export interface LedgerOptions {
  /** Loaded threads kept in memory (least recently used are dropped). Default 256. */
  readonly maxCachedThreads?: number;
  /**
   * A thread read for a request gets its file's mtime set to now when it is older than this (default
   * one hour): mtime is the thread's last use, which retention goes by, even for a thread whose
   * requests record nothing new.
   */
  readonly touchAfterMs?: number;
}

export class LedgerError extends Error {
  override readonly name: string = 'LedgerError';
}

/** The ledger directory is unusable or unsafe; nothing was read or written. */
export class LedgerDirectoryError extends LedgerError {
  override readonly name = 'LedgerDirectoryError';
  constructor(readonly dir: string, problem: string) {
    super(`ledger directory ${dir} ${problem}`);
  }
}

/**
 * A thread file holds damage other than a torn tail: a bad record followed by valid ones, a
 * damaged complete record, or a checksum-valid record that is not a ledger entry. The file is
 * left untouched; nothing in the thread is served until it is repaired (see doc/ledger.md).
 */
export class LedgerCorruptError extends LedgerError {
  override readonly name = 'LedgerCorruptError';
  constructor(readonly file: string, readonly offset: number, readonly reason: string) {
    super(`ledger file ${file} is corrupt at byte offset ${offset}: ${reason}; the file was left untouched`);
  }
}

/** The same call id and carrier were recorded with a different original call: never ambiguous history. */
export class LedgerConflictError extends LedgerError {
  override readonly name = 'LedgerConflictError';
  constructor(readonly threadId: string, readonly callId: string) {
    super(
      `ledger conflict in thread ${threadId}: call ${JSON.stringify(callId)} already has this exact carrier ` +
        'recorded for a different original call (contribution, tool or original differ)',
    );
  }
}

const RECORD_VERSION = 1;
const DEFAULT_MAX_CACHED = 256;
const DEFAULT_TOUCH_AFTER_MS = 60 * 60 * 1000;
const ENTRY_KEYS = ['v', 'threadId', 'callId', 'contribution', 'tool', 'carrier', 'original'];
/** Optional keys, present only when set (records without them keep the original shape). */
const OPTIONAL_KEYS = ['notes', 'reply'];
const EMPTY: readonly LedgerEntry[] = Object.freeze([]);

/** Variants of one call id; `seqs[i]` is the thread-wide position of `list[i]` (for snapshots). */
interface Variants {
  readonly list: LedgerEntry[];
  readonly seqs: number[];
  frozen: readonly LedgerEntry[] | undefined;
}

/** A loaded thread. Mutated only inside the thread's serialized chain. */
class ThreadState {
  readonly byCall = new Map<string, Variants>();
  /** Edited files in record order, with the thread-wide position of their entry. */
  readonly edits: Array<{ readonly seq: number; readonly file: EditedFile }> = [];
  count = 0;
  /** Bytes of the file as loaded or last written; an append first checks the file still has this size. */
  size = 0;
  /** End of the last valid record; `size - validBytes` is a torn tail to truncate before appending. */
  validBytes = 0;
  /**
   * Whether this process has fsync'd the file and its directory since loading it. Until then the
   * content read may be a crashed process's unsynced writes, or its new name not yet durable.
   */
  synced = false;
  /** The file's mtime as last read or set by this process (ms since the epoch); 0 when there is no file. */
  usedAt = 0;

  constructor(readonly threadId: string, readonly file: string, public exists: boolean) {}

  variants(callId: string): readonly LedgerEntry[] {
    return this.byCall.get(callId)?.list ?? EMPTY;
  }

  add(entry: LedgerEntry): void {
    let v = this.byCall.get(entry.callId);
    if (!v) this.byCall.set(entry.callId, (v = { list: [], seqs: [], frozen: undefined }));
    v.list.push(entry);
    if (entry.reply?.kind === 'edit') for (const file of entry.reply.files) this.edits.push({ seq: this.count, file });
    v.seqs.push(this.count++);
    v.frozen = undefined;
  }

  view(): ThreadLedger {
    return new ThreadView(this, this.count);
  }
}

class ThreadView implements ThreadLedger {
  constructor(private readonly state: ThreadState, readonly size: number) {}

  get threadId(): string {
    return this.state.threadId;
  }

  editedFiles(): readonly EditedFile[] {
    return this.state.edits.filter((e) => e.seq < this.size).map((e) => e.file);
  }

  entries(callId: string): readonly LedgerEntry[] {
    const v = this.state.byCall.get(callId);
    if (!v) return EMPTY;
    let n = v.seqs.length;
    while (n > 0 && v.seqs[n - 1]! >= this.size) n--;
    if (n === v.list.length) return (v.frozen ??= Object.freeze(v.list.slice()));
    return n === 0 ? EMPTY : Object.freeze(v.list.slice(0, n));
  }
}

export class Ledger {
  /** Loaded threads in least-recently-used order (Map iteration order). */
  private readonly cache = new Map<string, ThreadState>();
  /** Tail of each thread's operation chain: loads and appends of one thread never overlap. */
  private readonly chains = new Map<string, Promise<void>>();
  private closed = false;

  private constructor(readonly dir: string, private readonly maxCached: number, private readonly touchAfterMs: number) {}

  /**
   * Opens (creating with mode 0700 if missing) the ledger directory. Refuses a directory that is a
   * symlink, not a directory, owned by another user, or writable by group or others: anyone who can
   * write there could plant entries that replay would restore as model calls.
   */
  static async open(dir: string, options: LedgerOptions = {}): Promise<Ledger> {
    const maxCached = options.maxCachedThreads ?? DEFAULT_MAX_CACHED;
    if (!Number.isInteger(maxCached) || maxCached < 1) throw new RangeError('maxCachedThreads must be a positive integer');
    const touchAfterMs = options.touchAfterMs ?? DEFAULT_TOUCH_AFTER_MS;
    if (!(touchAfterMs >= 0)) throw new RangeError('touchAfterMs must be a non-negative number');
    const abs = path.resolve(dir);
    await prepareDirectory(abs);
    return new Ledger(abs, maxCached, touchAfterMs);
  }

  /** Path of a thread's file; throws UnsafeThreadIdError for an id that is not one plain component. */
  fileFor(threadId: string): string {
    assertSafeThreadId(threadId);
    return path.join(this.dir, `${threadId}.ledger`);
  }

  /** The thread's entries. Throws LedgerCorruptError when its file is damaged beyond a torn tail. */
  async thread(threadId: string): Promise<ThreadLedger> {
    this.assertOpen();
    assertSafeThreadId(threadId);
    const cached = this.cache.get(threadId);
    if (cached) {
      this.remember(cached);
      this.touchIfDue(cached);
      return cached.view();
    }
    return this.serialize(threadId, async () => {
      const state = await this.stateFor(threadId);
      this.touchIfDue(state);
      return state.view();
    });
  }

  /**
   * Removes the thread's file if it has been idle since `idleSince` (ms since the epoch): its mtime
   * is older, and this process has not used the thread since. Runs in the thread's chain, so it never
   * overlaps this process's own reads and appends. Resolves with the bytes removed, or null when
   * the file is kept or gone. A planted symlink or foreign file is never removed (LedgerError).
   */
  async removeIfIdle(threadId: string, idleSince: number): Promise<number | null> {
    this.assertOpen();
    const file = this.fileFor(threadId);
    return this.serialize(threadId, async () => {
      const cached = this.cache.get(threadId);
      if (cached && cached.usedAt >= idleSince) return null;
      let fh: FileHandle;
      try {
        fh = await fsp.open(file, FS.O_RDONLY | FS.O_NOFOLLOW | FS.O_NONBLOCK);
      } catch (err) {
        if (errno(err) === 'ENOENT') return null;
        throw openError(file, err);
      }
      let st: Stats;
      try {
        st = await fh.stat();
        checkThreadFile(file, st);
      } finally {
        await fh.close();
      }
      if (st.mtimeMs >= idleSince) return null;
      // The name must still be the file just judged (not replaced meanwhile) right before unlinking.
      const now = await lstatOrNull(file);
      if (!now || now.ino !== st.ino || now.dev !== st.dev || now.mtimeMs !== st.mtimeMs) return null;
      await fsp.unlink(file);
      this.cache.delete(threadId);
      return st.size;
    });
  }

  /**
   * Durably records a translation: resolves after the record is written and fsync'd (and the
   * directory fsync'd when this process has not yet done so for the file). An entry equal to a
   * recorded one is not written again; the same call id and carrier with a different original
   * call is a LedgerConflictError.
   */
  async record(entry: LedgerEntry): Promise<void> {
    this.assertOpen();
    const e = normalizeEntry(entry);
    return this.serialize(e.threadId, () => this.append(e));
  }

  /** Waits for pending operations; later calls fail. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.chains.values());
    this.cache.clear();
  }

  private assertOpen(): void {
    if (this.closed) throw new LedgerError(`ledger ${this.dir} is closed`);
  }

  private serialize<T>(threadId: string, op: () => Promise<T>): Promise<T> {
    const run = (this.chains.get(threadId) ?? Promise.resolve()).then(op);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.chains.set(threadId, tail);
    void tail.then(() => {
      if (this.chains.get(threadId) === tail) this.chains.delete(threadId);
    });
    return run;
  }

  /**
   * Marks a thread in use: sets its file's mtime to now when it is older than touchAfterMs. Queued
   * in the thread's chain; the request does not wait for it, and a failure only leaves mtime older.
   */
  private touchIfDue(state: ThreadState): void {
    const now = Date.now();
    if (!state.exists || now - state.usedAt < this.touchAfterMs) return;
    state.usedAt = now;
    void this.serialize(state.threadId, async () => {
      const fh = await fsp.open(state.file, FS.O_RDONLY | FS.O_NOFOLLOW | FS.O_NONBLOCK);
      try {
        checkThreadFile(state.file, await fh.stat());
        await fh.utimes(now / 1000, now / 1000);
      } finally {
        await fh.close();
      }
    }).catch(() => {});
  }

  private remember(state: ThreadState): void {
    this.cache.delete(state.threadId);
    this.cache.set(state.threadId, state);
    while (this.cache.size > this.maxCached) {
      const oldest = this.cache.keys().next().value as string;
      this.cache.delete(oldest);
    }
  }

  /** Inside the chain: the cached state, or a fresh load. */
  private async stateFor(threadId: string): Promise<ThreadState> {
    const state = this.cache.get(threadId) ?? (await this.load(threadId));
    this.remember(state);
    return state;
  }

  private async load(threadId: string): Promise<ThreadState> {
    const file = this.fileFor(threadId);
    let fh: FileHandle;
    try {
      // O_NONBLOCK: a FIFO planted at the name must not hang the open; it is refused below.
      fh = await fsp.open(file, FS.O_RDONLY | FS.O_NOFOLLOW | FS.O_NONBLOCK);
    } catch (err) {
      if (errno(err) === 'ENOENT') return new ThreadState(threadId, file, false);
      throw openError(file, err);
    }
    let buf: Buffer;
    let mtimeMs: number;
    try {
      const st = await fh.stat();
      checkThreadFile(file, st);
      mtimeMs = st.mtimeMs;
      buf = await fh.readFile();
    } finally {
      await fh.close();
    }
    const decoded = decodeRecords(buf);
    if (decoded.corruptAt !== undefined) throw new LedgerCorruptError(file, decoded.corruptAt, decoded.reason ?? 'invalid record');
    const state = new ThreadState(threadId, file, true);
    state.usedAt = mtimeMs;
    state.size = buf.length;
    state.validBytes = decoded.validBytes;
    decoded.records.forEach((json, i) => {
      const entry = parseEntry(json, threadId);
      if (typeof entry === 'string') throw new LedgerCorruptError(file, decoded.offsets[i]!, entry);
      state.add(entry);
    });
    return state;
  }

  private async append(entry: LedgerEntry): Promise<void> {
    const state = await this.stateFor(entry.threadId);
    for (const prior of state.variants(entry.callId)) {
      if (!sameCarrier(prior.carrier, entry.carrier)) continue;
      if (prior.contribution === entry.contribution && prior.tool === entry.tool && prior.original === entry.original) {
        // Already recorded, perhaps by a process that crashed before its fsync: make it durable now.
        if (!state.synced) await this.sync(state);
        return;
      }
      throw new LedgerConflictError(entry.threadId, entry.callId);
    }
    const bytes = encodeRecord(serializeEntry(entry));
    try {
      await this.write(state, bytes);
      // The write's fsync covered the whole file; its name needs the directory synced once.
      if (!state.synced) {
        await fsyncDirectory(this.dir);
        state.synced = true;
      }
    } catch (err) {
      // The file's state is unknown now: forget it so the next operation reloads (and recovers) it.
      this.cache.delete(state.threadId);
      throw err;
    }
    state.add(entry);
  }

  private async write(state: ThreadState, bytes: Buffer): Promise<void> {
    const create = !state.exists;
    const flags = create
      ? FS.O_WRONLY | FS.O_APPEND | FS.O_CREAT | FS.O_EXCL | FS.O_NOFOLLOW
      : FS.O_WRONLY | FS.O_APPEND | FS.O_NOFOLLOW | FS.O_NONBLOCK;
    let fh: FileHandle;
    try {
      fh = await fsp.open(state.file, flags, 0o600);
    } catch (err) {
      if (create && errno(err) === 'EEXIST') throw changedOutside(state.file, 'it was created');
      throw openError(state.file, err);
    }
    try {
      const st = await fh.stat();
      checkThreadFile(state.file, st);
      if (st.size !== state.size) throw changedOutside(state.file, `it is ${st.size} bytes, expected ${state.size}`);
      if (state.validBytes < state.size) {
        // Recovery: drop the torn tail so the new record never follows garbage. The fsync below
        // covers the new size too; a crash before it leaves a torn tail again, which is fine.
        await fh.truncate(state.validBytes);
      }
      const { bytesWritten } = await fh.write(bytes, 0, bytes.length);
      if (bytesWritten !== bytes.length) {
        throw new LedgerError(`short write to ${state.file} (${bytesWritten} of ${bytes.length} bytes)`);
      }
      await fh.sync();
    } finally {
      await fh.close();
    }
    state.exists = true;
    state.usedAt = Date.now();
    state.size = state.validBytes + bytes.length;
    state.validBytes = state.size;
  }

  /**
   * Makes what was loaded durable: the file, and its name in the directory (a new file's name is
   * durable only once its directory is fsync'd; a crashed creator may not have done it).
   */
  private async sync(state: ThreadState): Promise<void> {
    if (!state.exists) return;
    const fh = await fsp.open(state.file, FS.O_RDONLY | FS.O_NOFOLLOW | FS.O_NONBLOCK).catch((err: unknown) => {
      throw openError(state.file, err);
    });
    try {
      checkThreadFile(state.file, await fh.stat());
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fsyncDirectory(this.dir);
    state.synced = true;
  }
}

async function prepareDirectory(dir: string): Promise<void> {
  let st = await lstatOrNull(dir);
  if (!st) {
    const first = await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    // Make each created directory's name durable in its parent.
    if (first !== undefined) {
      for (let d = dir; ; d = path.dirname(d)) {
        await fsyncDirectory(path.dirname(d));
        if (d === first || path.dirname(d) === d) break;
      }
    }
    st = await fsp.lstat(dir);
  }
  const problem = ledgerDirProblem(st, process.getuid?.());
  if (problem) throw new LedgerDirectoryError(dir, problem.kind === 'mode' ? `${problem.text}; use chmod 700` : problem.text);
}

/** Why the ledger refuses a directory with these stats, or null (`hpatch-router doctor` asks the same). */
export function ledgerDirProblem(st: Stats, uid: number | undefined): { readonly kind: 'symlink' | 'not-dir' | 'owner' | 'mode'; readonly text: string } | null {
  if (st.isSymbolicLink()) return { kind: 'symlink', text: 'is a symbolic link; refusing to follow it' };
  if (!st.isDirectory()) return { kind: 'not-dir', text: 'exists but is not a directory' };
  if (uid !== undefined && st.uid !== uid) return { kind: 'owner', text: `is owned by uid ${st.uid}, not by the current user (uid ${uid})` };
  if ((st.mode & 0o022) !== 0) return { kind: 'mode', text: `is writable by group or others (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')})` };
  return null;
}

async function lstatOrNull(p: string): Promise<Stats | null> {
  try {
    return await fsp.lstat(p);
  } catch (err) {
    if (errno(err) === 'ENOENT') return null;
    throw err;
  }
}

async function fsyncDirectory(dir: string): Promise<void> {
  const fh = await fsp.open(dir, FS.O_RDONLY | (FS.O_DIRECTORY ?? 0));
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

function checkThreadFile(file: string, st: Stats): void {
  if (!st.isFile()) throw new LedgerError(`ledger file ${file} is not a regular file; refusing to use it`);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) throw new LedgerError(`ledger file ${file} is owned by uid ${st.uid}; refusing to use it`);
}

function openError(file: string, err: unknown): Error {
  const code = errno(err);
  // O_NOFOLLOW reports a symlink as ELOOP (Linux, macOS) or EMLINK (FreeBSD).
  if (code === 'ELOOP' || code === 'EMLINK') return new LedgerError(`ledger file ${file} is a symbolic link; refusing to follow it`);
  return err instanceof Error ? err : new LedgerError(String(err));
}

function changedOutside(file: string, what: string): LedgerError {
  return new LedgerError(
    `ledger file ${file} changed outside this router process (${what}); is another router using this ledger directory?`,
  );
}

function errno(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? (err as NodeJS.ErrnoException).code : undefined;
}

/** Canonical frozen copy with exactly the carrier's own fields (no `namespace: undefined`). */
function makeCarrier(kind: Carrier['kind'], namespace: string | undefined, payload: string): Carrier {
  const ns = namespace === undefined ? {} : { namespace };
  return Object.freeze(kind === 'exec_command' ? { kind, ...ns, arguments: payload } : { kind, ...ns, input: payload });
}

function serializeEntry(e: LedgerEntry): string {
  // Fixed key order, and nothing time- or process-dependent: a retry produces the same bytes.
  return JSON.stringify({
    v: RECORD_VERSION,
    threadId: e.threadId,
    callId: e.callId,
    contribution: e.contribution,
    tool: e.tool,
    carrier: e.carrier,
    original: e.original,
    ...(e.notes !== undefined ? { notes: e.notes } : {}),
    ...(e.reply !== undefined ? { reply: e.reply } : {}),
  });
}

/** A frozen copy of valid notes, undefined for none (absent or empty), or why they are invalid. */
function checkNotes(v: unknown): readonly string[] | undefined | string {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length > MAX_NOTES || !v.every((n) => typeof n === 'string' && n.length > 0 && n.length <= MAX_NOTE_CHARS)) {
    return `notes must be at most ${MAX_NOTES} non-empty strings of at most ${MAX_NOTE_CHARS} characters`;
  }
  return v.length === 0 ? undefined : Object.freeze([...v] as string[]);
}

function isNonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

/** Validates a carrier; returns the canonical copy or a reason. */
function checkCarrier(c: unknown, strictKeys: boolean): Carrier | string {
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return 'carrier is not an object';
  const o = c as Record<string, unknown>;
  const payloadKey = o.kind === 'exec_command' ? 'arguments' : o.kind === 'code_mode_exec' ? 'input' : undefined;
  if (payloadKey === undefined) return `unknown carrier kind ${JSON.stringify(o.kind)}`;
  if (o.namespace !== undefined && typeof o.namespace !== 'string') return 'carrier namespace is not a string';
  if (typeof o[payloadKey] !== 'string') return `carrier ${payloadKey} is not a string`;
  if (strictKeys) {
    const extra = Object.keys(o).filter((k) => k !== 'kind' && k !== 'namespace' && k !== payloadKey);
    if (extra.length > 0) return `carrier has unexpected fields ${extra.join(', ')}`;
  }
  return makeCarrier(o.kind as Carrier['kind'], o.namespace as string | undefined, o[payloadKey] as string);
}

/** record()'s input check: a programming error surfaces before anything is written. */
function normalizeEntry(entry: LedgerEntry): LedgerEntry {
  if (typeof entry !== 'object' || entry === null) throw new TypeError('ledger entry must be an object');
  const e = entry as unknown as Record<string, unknown>;
  if (typeof e.threadId !== 'string' || !isSafeThreadId(e.threadId)) throw new UnsafeThreadIdError(e.threadId);
  for (const key of ['callId', 'contribution', 'tool'] as const) {
    if (!isNonEmptyString(e[key])) throw new TypeError(`ledger entry ${key} must be a non-empty string`);
  }
  if (typeof e.original !== 'string') throw new TypeError('ledger entry original must be a string');
  const carrier = checkCarrier(e.carrier, false);
  if (typeof carrier === 'string') throw new TypeError(`ledger entry ${carrier}`);
  const notes = checkNotes(e.notes);
  if (typeof notes === 'string') throw new TypeError(`ledger entry ${notes}`);
  const reply = e.reply === undefined ? undefined : checkReply(e.reply);
  if (typeof reply === 'string') throw new TypeError(`ledger entry ${reply}`);
  return Object.freeze({
    threadId: e.threadId,
    callId: e.callId as string,
    contribution: e.contribution as string,
    tool: e.tool as string,
    original: e.original,
    carrier,
    ...(notes !== undefined ? { notes } : {}),
    ...(reply !== undefined ? { reply } : {}),
  });
}

/** A record read back: exact shape, this file's thread. Returns the entry or why it is invalid. */
export function parseEntry(json: string, threadId: string): LedgerEntry | string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return 'record is not valid JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'record is not a JSON object';
  const o = value as Record<string, unknown>;
  if (o.v !== RECORD_VERSION) return `unsupported record version ${JSON.stringify(o.v)}`;
  const keys = Object.keys(o);
  const expected = [...ENTRY_KEYS, ...OPTIONAL_KEYS.filter((k) => Object.hasOwn(o, k))];
  if (keys.length !== expected.length || !expected.every((k) => Object.hasOwn(o, k))) {
    return `record fields are ${keys.join(', ')}; expected ${ENTRY_KEYS.join(', ')} (and optionally ${OPTIONAL_KEYS.join(', ')})`;
  }
  if (o.threadId !== threadId) return `record belongs to thread ${JSON.stringify(o.threadId)}`;
  if (!isNonEmptyString(o.callId) || !isNonEmptyString(o.contribution) || !isNonEmptyString(o.tool) || typeof o.original !== 'string') {
    return 'record has a missing or non-string field';
  }
  const carrier = checkCarrier(o.carrier, true);
  if (typeof carrier === 'string') return `record ${carrier}`;
  const notes = checkNotes(o.notes);
  if (typeof notes === 'string') return `record ${notes}`;
  if (Object.hasOwn(o, 'notes') && notes === undefined) return 'record has empty notes';
  const reply = Object.hasOwn(o, 'reply') ? checkReply(o.reply) : undefined;
  if (typeof reply === 'string') return `record ${reply}`;
  return Object.freeze({
    threadId, callId: o.callId, contribution: o.contribution, tool: o.tool, original: o.original, carrier,
    ...(notes !== undefined ? { notes } : {}),
    ...(reply !== undefined ? { reply } : {}),
  });
}
