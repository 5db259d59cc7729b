// File descriptors of the interpreter. Every shell fd maps to a real OS fd (refcounted
// OsFd). Pipes are real kernel FIFOs (mkfifo'd in a private temp dir, reused once closed),
// so external stages get plain pipe fds; in-process readers and writers use extra
// O_NONBLOCK descriptors of the same pipe and yield to the event loop on EAGAIN, so an
// in-process stage never blocks the event loop or a libuv thread.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnAddon } from './native-spawn.ts';

export class SigPipe extends Error { readonly sigpipe = true; constructor() { super('SIGPIPE'); } }
export function isSigPipe(e: unknown): boolean { return e instanceof SigPipe || (typeof e === 'object' && e !== null && (e as { sigpipe?: unknown }).sigpipe === true); }

const DEBUG_FD = !!process.env['HPATCH_INTERP_DEBUG_FD'];

export class OsFd {
  refs = 0;
  /** A blocking fd (socket, pipe without a twin) that in-process IO must not block the loop on. */
  mayBlock = false;
  /** `nb` is a non-blocking twin used for in-process IO on pipes (same open file). */
  constructor(readonly fd: number, readonly nb: number | undefined, readonly owned: boolean, readonly label = '') {}
  retain(): this { this.refs++; return this; }
  closed = false;
  /** A pipe's write end: small writes of builtins may be held back and written together (see hold()), until its reader is gone. */
  coalesce = false;
  /** For a pipe (FIFO): its device and inode, the same for every fd of the pipe. */
  pipe = '';
  /** Output held for this pipe (see hold()). */
  held = '';
  /** Released while its held output could not be written yet: closed once it is (flushOne). */
  closeWhenFlushed = false;
  /**
   * > 0 while in-process readers may read ahead (more than they consume) from this open file:
   * only while nothing else can read it (see readAheadFd, compound-commands.ts). Bytes read ahead wait in
   * `rbuf` (from `rpos`), and every in-process read (readByteSync, readSome) takes them first.
   */
  readAhead = 0;
  rbuf: Buffer | undefined;
  rpos = 0;
  /**
   * The bytes read ahead up to the next `delim` byte (consumed, without it), if there is one and
   * `accept` (when given) takes it; else nothing is consumed.
   */
  takeLineAhead(delim: number, accept?: (text: string) => boolean): string | undefined {
    const rb = this.rbuf;
    if (rb === undefined) return undefined;
    const k = rb.indexOf(delim, this.rpos);
    if (k < 0) return undefined;
    const text = rb.toString('latin1', this.rpos, k);
    if (accept !== undefined && !accept(text)) return undefined;
    this.rpos = k + 1;
    if (this.rpos >= rb.length) this.rbuf = undefined;
    return text;
  }
  /** Takes up to `max` bytes read ahead. */
  takeAhead(max: number): Buffer {
    const rb = this.rbuf!;
    const end = Math.min(rb.length, this.rpos + max);
    const out = rb.subarray(this.rpos, end);
    this.rpos = end;
    if (end >= rb.length) this.rbuf = undefined;
    return out;
  }
  release(): void {
    if (--this.refs > 0 || !this.owned || this.closed) return;
    if (DEBUG_FD && this.refs < 0) console.error('fd over-release', this.label, this.fd, new Error().stack);
    this.closed = true;
    // (output held for this pipe goes first: its reader would see end-of-file without it)
    if (this.held !== '' && !flushOne(this)) { this.closeWhenFlushed = true; return; }
    this.closeFds();
  }
  closeFds(): void {
    try { fs.closeSync(this.fd); } catch { /* ignore */ }
    if (this.nb !== undefined) try { fs.closeSync(this.nb); } catch { /* ignore */ }
    if (this.fifo && --this.fifo.open === 0) idleFifos.push(this.fifo.name);
  }
  /** The FIFO of a pipe made by makePipe (its name is reused once both ends are closed). */
  fifo: { name: string; open: number } | undefined;
}

export class FdTable {
  readonly map = new Map<number, OsFd>();
  get(n: number): OsFd | undefined { return this.map.get(n); }
  set(n: number, f: OsFd | undefined): void {
    const old = this.map.get(n);
    if (f) { f.retain(); this.map.set(n, f); } else this.map.delete(n);
    if (old) old.release();
  }
  clone(): FdTable {
    const t = new FdTable();
    for (const [n, f] of this.map) { f.retain(); t.map.set(n, f); }
    return t;
  }
  releaseAll(): void {
    for (const f of this.map.values()) f.release();
    this.map.clear();
  }
  maxFd(): number { let m = -1; for (const n of this.map.keys()) if (n > m) m = n; return m; }
}

const stdCache = new Map<number, OsFd>();
/**
 * OsFd for an fd the interpreter inherited (never closed by us). When it is a pipe or a
 * terminal, a non-blocking twin is opened through /proc/self/fd (a separate open file
 * description of the same pipe/tty, so children still get the original blocking fd): reads
 * and writes by builtins then never block the event loop, and cancellation signals stay
 * deliverable while a builtin waits for input.
 */
export function inheritedFd(n: number): OsFd {
  let f = stdCache.get(n);
  if (!f) {
    const twin = nonBlockingTwin(n);
    f = new OsFd(n, twin?.fd, false, 'inherited');
    if (twin?.fifoWriter) setPipe(f, twin.st);
    if (twin === undefined) {
      try { const st = fs.fstatSync(n); f.mayBlock = !st.isFile() && !(st.isCharacterDevice() && st.rdev === fs.statSync('/dev/null').rdev); } catch { /* closed */ }
    }
    stdCache.set(n, f);
  }
  return f;
}

function nonBlockingTwin(n: number): { fd: number; st: fs.Stats; fifoWriter: boolean } | undefined {
  try {
    const st = fs.fstatSync(n);
    if (!st.isFIFO() && !st.isCharacterDevice()) return undefined;
    if (st.isCharacterDevice() && st.rdev === fs.statSync('/dev/null').rdev) return undefined;
    const info = fs.readFileSync(`/proc/self/fdinfo/${n}`, 'latin1');
    const m = /^flags:\s*([0-7]+)/m.exec(info);
    if (!m) return undefined;
    const acc = parseInt(m[1]!, 8) & 3;
    const C = fs.constants;
    const mode = acc === 0 ? C.O_RDONLY : acc === 1 ? C.O_WRONLY : undefined;
    if (mode === undefined) return undefined; // O_RDWR: keep the blocking fd (FIFO semantics)
    return { fd: fs.openSync(`/proc/self/fd/${n}`, mode | C.O_NONBLOCK | C.O_NOCTTY), st, fifoWriter: st.isFIFO() && mode === C.O_WRONLY };
  } catch {
    return undefined;
  }
}

export function openFile(p: Buffer | string, flags: number, mode = 0o666): OsFd {
  return wrapFile(p, fs.openSync(p, flags, mode), flags);
}

/**
 * openFile for a redirection or `$(<file)`. Opening a FIFO for reading or writing only waits for
 * its other end, which may be an in-process job of this very shell (`echo hi >fifo & read l
 * <fifo`): that wait is made in a libuv thread, so the event loop runs on. A writer whose reader
 * is already there opens at once, as does every other file.
 */
export async function openPath(p: Buffer | string, flags: number, mode = 0o666): Promise<OsFd> {
  const C = fs.constants, acc = flags & 3;
  let fifo = false;
  if (acc !== C.O_RDWR) try { fifo = fs.statSync(p).isFIFO(); } catch { /* the open reports it */ }
  if (!fifo) return openFile(p, flags, mode);
  if (acc === C.O_WRONLY) {
    // (the probe stays open until the real open is done: closing it first would give a reader
    // that is waiting in its open an end-of-file, and it could go away before we open for good)
    let probe: number | undefined;
    try { probe = fs.openSync(p, C.O_WRONLY | C.O_NONBLOCK); } catch (e: any) { if (e?.code !== 'ENXIO') throw e; }
    if (probe !== undefined) try { return openFile(p, flags, mode); } finally { fs.closeSync(probe); }
  }
  return wrapFile(p, await openInThread(p, flags, mode), flags);
}

function wrapFile(p: Buffer | string, fd: number, flags: number): OsFd {
  let nb: number | undefined;
  try {
    const st = fs.fstatSync(fd);
    // a FIFO may be fed or drained by an in-process command: use a non-blocking twin
    if (st.isFIFO()) nb = fs.openSync(p, (flags & ~(fs.constants.O_CREAT | fs.constants.O_TRUNC)) | fs.constants.O_NONBLOCK);
  } catch { /* keep blocking */ }
  const f = new OsFd(fd, nb, true, 'file');
  if (nb !== undefined && (flags & 3) !== fs.constants.O_RDONLY) setPipe(f, fs.fstatSync(fd));
  return f;
}

// ---- FIFO pool -------------------------------------------------------------------------
let fifoDir: string | undefined;
let fifoNames: string[] = [];
let fifoSeq = 0;
let refills = 0;
let claims = 0;
let mkfifoBin: string | undefined;

function findMkfifo(): string {
  if (mkfifoBin) return mkfifoBin;
  for (const c of ['/usr/bin/mkfifo', '/bin/mkfifo']) if (fs.existsSync(c)) return (mkfifoBin = c);
  return (mkfifoBin = 'mkfifo');
}

/** Where our private FIFOs go: `os.tmpdir()`, unless that is the directory the script starts in
 * (a run with TMPDIR=. ): there they would show in its globs and `ls`, so /tmp instead. */
let tmpBase: string | undefined;
export function privateTmpDir(): string {
  if (tmpBase !== undefined) return tmpBase;
  tmpBase = os.tmpdir();
  try {
    if (tmpBase !== '/tmp' && fs.realpathSync(tmpBase) === fs.realpathSync(process.cwd()) &&
        fs.statSync('/tmp').isDirectory()) tmpBase = '/tmp';
  } catch { /* keep os.tmpdir() */ }
  return tmpBase;
}

function refill(): void {
  if (!fifoDir) {
    fifoDir = fs.mkdtempSync(path.join(privateTmpDir(), 'hpatch-interp-'));
    process.once('exit', releaseFifos);
  }
  // few at first (most scripts need one or two: closed FIFOs are reused), more as pipes keep coming;
  // each costs two system calls now and one at exit
  const got = claimPooled(fifoDir, CLAIM_BATCHES[Math.min(claims++, CLAIM_BATCHES.length - 1)]!);
  if (got.length) { fifoNames = got; return; }
  // batches grow (32, 64, 128, 256): pipe-heavy scripts spawn mkfifo only a few times; the
  // first spawn also stocks the shared pool for later processes
  const count = 32 << Math.min(refills++, 3);
  const names: string[] = [];
  for (let i = 0; i < count; i++) names.push(path.join(fifoDir, `p${fifoSeq++}`));
  const pool = refills === 1 ? poolDir() : undefined;
  const extra: string[] = [];
  if (pool) for (let i = 0; i < 32; i++) extra.push(path.join(pool, `${process.pid}-${fifoSeq++}`));
  const r = process.getBuiltinModule('node:child_process').spawnSync(findMkfifo(), ['-m', '600', ...names, ...extra], { stdio: 'ignore' });
  if (r.status !== 0) {
    for (const n of extra) try { fs.unlinkSync(n); } catch { /* */ }
    throw new Error('cannot create pipes (mkfifo failed)');
  }
  fifoNames = names;
}

// Never-opened FIFOs are shared by the interpreter processes of a user through a pool
// directory (mode 0700, checked): a process takes FIFOs from it by rename(2), which is atomic,
// instead of spawning mkfifo (forking this large process costs 10-20 ms), and gives back the
// ones it did not use when it exits.
const POOL_MAX = 256;
const CLAIM_BATCHES = [2, 8, 32];
let poolPath: string | undefined | null = null;

function poolDir(): string | undefined {
  if (poolPath !== null) return poolPath;
  poolPath = undefined;
  try {
    const uid = process.getuid?.();
    if (uid === undefined) return undefined;
    const p = path.join(privateTmpDir(), `hpatch-interp-fifos-${uid}`);
    try { fs.mkdirSync(p, { mode: 0o700 }); } catch (e: any) { if (e?.code !== 'EEXIST') return undefined; }
    const st = fs.lstatSync(p);
    if (st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0) poolPath = p;
  } catch { /* no pool */ }
  return poolPath;
}

/** Moves up to `want` FIFOs from the pool into `dir`. */
function claimPooled(dir: string, want: number): string[] {
  const pool = poolDir();
  if (!pool) return [];
  let entries: string[];
  try { entries = fs.readdirSync(pool); } catch { return []; }
  const got: string[] = [];
  for (const e of entries) {
    if (got.length >= want) break;
    const dst = `${dir}/p${fifoSeq++}`;
    try { fs.renameSync(`${pool}/${e}`, dst); } catch { continue; } // taken by another process
    try { if (fs.lstatSync(dst).isFIFO()) { got.push(dst); continue; } } catch { /* */ }
    try { fs.rmSync(dst, { recursive: true, force: true }); } catch { /* */ }
  }
  return got;
}

/** At exit: unused FIFOs back to the pool (or removed), then the private directory. */
function releaseFifos(): void {
  const pool = fifoNames.length ? poolDir() : undefined;
  let room = 0;
  if (pool) try { room = POOL_MAX - fs.readdirSync(pool).length; } catch { /* */ }
  try {
    for (const n of usedFifos) fs.unlinkSync(n);
    for (const n of fifoNames) {
      if (room-- > 0) try { fs.renameSync(n, path.join(pool!, `${process.pid}-${fifoSeq++}`)); continue; } catch { /* */ }
      fs.unlinkSync(n);
    }
    fs.rmdirSync(fifoDir!);
  } catch {
    try { fs.rmSync(fifoDir!, { recursive: true, force: true }); } catch { /* ignore */ }
  }
}

/**
 * Forgets every FIFO and inherited fd this process used (FIFOs go back to the pool, the private
 * directory is removed): for the startup snapshot, which runs a warm-up script while it is built
 * and must not carry its pipes, fds or exit handler into every later process.
 */
export function resetPipesForSnapshot(): void {
  if (fifoDir) { releaseFifos(); process.removeListener('exit', releaseFifos); }
  fifoDir = undefined; fifoNames = []; refills = 0; claims = 0; mkfifoBin = undefined; poolPath = null; tmpBase = undefined;
  usedFifos.clear(); idleFifos.length = 0; stdCache.clear();
  holding.clear(); flushQueued = false; retrying = false;
}

export interface Pipe { r: OsFd; w: OsFd }

/** A named FIFO that stays on disk (for process substitution); the caller unlinks it. */
export function makeFifoPath(): string {
  if (fifoNames.length === 0) refill();
  return fifoNames.pop()!;
}

/** A new kernel pipe: blocking ends for children plus non-blocking twins for us. */
export function makePipe(): Pipe {
  const C = fs.constants;
  // an anonymous pipe when the addon can make one: a child that reopens its stdin through
  // /dev/stdin gets end-of-file once the writers are gone, where a FIFO would wait for a writer
  const anon = spawnAddon()?.pipe();
  if (Array.isArray(anon)) {
    const [r, w] = anon;
    const p = {
      r: new OsFd(r, fs.openSync(`/proc/self/fd/${r}`, C.O_RDONLY | C.O_NONBLOCK), true, 'pipe-r'),
      w: new OsFd(w, fs.openSync(`/proc/self/fd/${w}`, C.O_WRONLY | C.O_NONBLOCK), true, 'pipe-w'),
    };
    setPipe(p.w, fs.fstatSync(w));
    return p;
  }
  let name: string | undefined, rnb: number | undefined;
  // a FIFO whose previous pipe is closed everywhere opens as a new pipe: reuse it (no mkfifo)
  while (idleFifos.length && rnb === undefined) {
    name = idleFifos.shift()!;
    rnb = reopenIdle(name);
    if (rnb === undefined) { usedFifos.delete(name); try { fs.unlinkSync(name); } catch { /* */ } }
  }
  if (rnb === undefined) {
    if (fifoNames.length === 0) refill();
    name = fifoNames.pop()!;
    rnb = fs.openSync(name, C.O_RDONLY | C.O_NONBLOCK);
    usedFifos.add(name);
  }
  const w = fs.openSync(name!, C.O_WRONLY);
  const r = fs.openSync(name!, C.O_RDONLY);
  const wnb = fs.openSync(name!, C.O_WRONLY | C.O_NONBLOCK);
  const p = { r: new OsFd(r, rnb, true, 'pipe-r'), w: new OsFd(w, wnb, true, 'pipe-w') };
  setPipe(p.w, fs.fstatSync(w));
  p.r.fifo = p.w.fifo = { name: name!, open: 2 };
  return p;
}

/** FIFOs of pipes made here (kept, not unlinked, to be reused), and those whose ends we closed. */
const usedFifos = new Set<string>();
const idleFifos: string[] = [];
const probeBuf = Buffer.alloc(1);

/**
 * Opens (read end, non-blocking) a FIFO whose pipe we closed, when nobody else holds that pipe
 * either (a process that got an end, or its children, may still): no reader may be left (opening
 * for writing fails with ENXIO) and no writer (reading gives end-of-file at once).
 */
function reopenIdle(name: string): number | undefined {
  const C = fs.constants;
  try { fs.closeSync(fs.openSync(name, C.O_WRONLY | C.O_NONBLOCK)); return undefined; } catch (e: any) { if (e?.code !== 'ENXIO') return undefined; }
  let rnb: number;
  try { rnb = fs.openSync(name, C.O_RDONLY | C.O_NONBLOCK); } catch { return undefined; }
  try { if (fs.readSync(rnb, probeBuf, 0, 1, null) === 0) return rnb; } catch { /* EAGAIN: a writer is left */ }
  fs.closeSync(rnb);
  return undefined;
}

// ---- in-process IO ---------------------------------------------------------------------
/** A turn of the event loop, then waits of 2-10 ms as `attempt` grows; `unref`: it does not keep the process alive. */
function pause(attempt: number, unref = false): Promise<void> {
  return new Promise((res) => {
    const t = attempt < 8 ? setImmediate(res) : setTimeout(res, Math.min(10, attempt - 6));
    if (unref) t.unref();
  });
}

/**
 * FIFO opens waiting in a libuv thread for the other end. At exit and on cancellation each is
 * given one for a moment (unblockOpens): libuv joins its threads at exit, and would wait for ever.
 */
const blockedOpens = new Set<{ p: Buffer | string; reader: boolean }>();

function openInThread(p: Buffer | string, flags: number, mode: number): Promise<number> {
  const op = { p, reader: (flags & 3) === fs.constants.O_RDONLY };
  if (blockedOpens.size === 0) process.once('exit', unblockOpens);
  blockedOpens.add(op);
  return new Promise((res, rej) => fs.open(p, flags, mode, (e, fd) => {
    blockedOpens.delete(op);
    if (blockedOpens.size === 0) process.removeListener('exit', unblockOpens);
    if (e) rej(e); else res(fd);
  }));
}

export function unblockOpens(): void {
  const C = fs.constants;
  for (const op of blockedOpens) try { fs.closeSync(fs.openSync(op.p, (op.reader ? C.O_WRONLY : C.O_RDONLY) | C.O_NONBLOCK)); } catch { /* gone */ }
}

let blockingOps = 0;
/** In-process reads/writes currently blocked in a libuv thread (they would hang process.exit). */
export function pendingBlockingOps(): number { return blockingOps; }

function threaded<T>(fn: (cb: (e: NodeJS.ErrnoException | null, v: T) => void) => void): Promise<T> {
  blockingOps++;
  return new Promise<T>((res, rej) => fn((e, v) => { blockingOps--; if (e) rej(e); else res(v); }));
}

export async function writeAll(f: OsFd | undefined, data: Buffer | string): Promise<void> {
  if (holding.size !== 0) { const d = drainHeld([f]); if (d !== undefined) await d; }
  // (nothing to write is no write: `echo -n >&-` succeeds, as bash's)
  if (data.length === 0) return;
  if (!f) throw Object.assign(new Error('Bad file descriptor'), { code: 'EBADF' });
  const buf = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  const fd = f.nb ?? f.fd;
  let off = 0;
  let attempt = 0;
  if (f.mayBlock) {
    // blocking socket/pipe: write from the libuv threadpool so signals stay deliverable
    while (off < buf.length) {
      try {
        off += await threaded<number>((cb) => fs.write(fd, buf, off, buf.length - off, null, cb));
      } catch (e: any) {
        if (e.code === 'EAGAIN') { await pause(attempt++); continue; }
        if (e.code === 'EPIPE') throw new SigPipe();
        throw e;
      }
    }
    return;
  }
  while (off < buf.length) {
    try {
      off += fs.writeSync(fd, buf, off, buf.length - off);
      attempt = 0;
    } catch (e: any) {
      if (e.code === 'EAGAIN') { await pause(attempt++); continue; }
      if (e.code === 'EPIPE') throw new SigPipe();
      throw e;
    }
  }
}

/** Linux's PIPE_BUF: a write of at most this many bytes to a pipe is all or nothing. */
const PIPE_BUF = 4096;

// ---- held output -------------------------------------------------------------------------
// A loop of echo or printf into a pipe would make a write(2) per command, each waking the reader
// (and on a VM, an interrupt to another CPU). Builtins' small writes to a pipe are held instead
// and written together: when the shell next waits for anything (a microtask: every await unwinds
// the stack to the event loop), before any other write, read or child process, at PIPE_BUF bytes,
// before the pipe is closed, and at the end of the script (Shell.runFile). Only pipes: nothing
// sees what is in one but its reader, so only timing changes (a file's contents or a terminal's
// screen would show the difference). Each write is still at most PIPE_BUF bytes, so it cannot
// interleave with another writer's.
//
// A full pipe keeps its output held until its reader makes room. A later write to the same pipe
// (a builtin's, or a child process's) waits for it, so the pipe's order is kept; a write elsewhere
// only tries it first: the held output may be another in-process stage's, whose reader does not
// run yet (`{ loop; } | { sleep 1; reader; }` spawns sleep while the loop's output waits), and
// waiting there would deadlock.
const holding = new Set<OsFd>();
let flushQueued = false;
let retrying = false;

function setPipe(f: OsFd, st: fs.Stats): void {
  f.coalesce = true;
  f.pipe = `${st.dev}:${st.ino}`;
}

function hold(f: OsFd, data: string): void {
  if (f.held === '') holding.add(f);
  f.held += data;
  if (!flushQueued) { flushQueued = true; queueMicrotask(flushSoon); }
}

/** Writes the output held for `f` if its pipe takes it now: false when it is full. A reader that is gone (EPIPE) drops it, and the pipe holds nothing more: the next write fails the same way (the shell's SIGPIPE). */
function flushOne(f: OsFd): boolean {
  try { fs.writeSync(f.nb ?? f.fd, f.held, null, 'latin1'); } catch (e: any) { if (e.code === 'EAGAIN') return false; f.coalesce = false; }
  f.held = '';
  holding.delete(f);
  if (f.closeWhenFlushed) f.closeFds();
  return true;
}

/** Writes the held output of every pipe that takes it now. */
function flushHeld(): void {
  for (const f of holding) flushOne(f);
}

function flushSoon(): void {
  flushQueued = false;
  flushHeld();
  if (holding.size === 0 || retrying) return;
  // full pipes: retried until their readers make room (unref'd: a pipe nobody reads must not keep the process alive)
  retrying = true;
  void (async () => {
    for (let attempt = 0; holding.size !== 0; attempt++) {
      await pause(attempt, true);
      flushHeld();
    }
    retrying = false;
  })();
}

/** Writes the output held for the pipes `fds` write to (all: every pipe), waiting for room if need be; undefined when nothing waits. */
export function drainHeld(fds?: readonly (OsFd | undefined)[]): Promise<void> | undefined {
  flushHeld();
  if (holding.size === 0) return undefined;
  const mine = [...holding].filter((h) => fds === undefined || fds.some((f) => f !== undefined && (f === h || (f.pipe !== '' && f.pipe === h.pipe))));
  if (mine.length === 0) return undefined;
  return (async () => {
    for (let attempt = 0; mine.some((h) => h.held !== '');) {
      await pause(attempt++);
      for (const h of mine) if (h.held !== '') flushOne(h);
    }
  })();
}

/**
 * Before a write of `n` bytes to `f`: what is held for its pipe goes first (false: it cannot now),
 * and other pipes' held output is tried.
 */
function makeWay(f: OsFd, n: number): boolean {
  for (const h of holding) {
    if (h === f ? h.held.length + n > PIPE_BUF : f.pipe !== '' && h.pipe === f.pipe) { if (!flushOne(h)) return false; } else if (h !== f) flushOne(h);
  }
  return true;
}

/**
 * writeAll without a promise when one write(2) is sure to take it all or nothing: true when all
 * of `data` was written; false when nothing was (a blocking pipe or socket, a pipe too full, more
 * than PIPE_BUF bytes, or any error: writeAll then does it and reports what goes wrong); an
 * error when part was written and then this error stopped it (a full disk).
 */
export function tryWriteSync(f: OsFd | undefined, data: string): boolean | Error {
  if (!f || f.mayBlock || data.length > PIPE_BUF) return false;
  if (holding.size !== 0 && !makeWay(f, data.length)) return false;
  if (f.coalesce) { hold(f, data); return true; }
  // (a pipe's twin is non-blocking, and at most PIPE_BUF bytes go in whole or fail with EAGAIN;
  // a string is written without a Buffer of our own: latin1, one byte per char)
  const fd = f.nb ?? f.fd;
  let off: number;
  try { off = fs.writeSync(fd, data, null, 'latin1'); } catch { return false; }
  if (off === data.length) return true;
  const buf = Buffer.from(data, 'latin1');
  while (off < buf.length) {
    try { off += fs.writeSync(fd, buf, off, buf.length - off); } catch (e) { return e as Error; }
  }
  return true;
}

export const TIMEOUT = Symbol('timeout');
export const AGAIN = Symbol('again');
const oneByte = Buffer.alloc(1);
const READ_AHEAD = 8192;

/** Non-blocking single-byte read for the hot `read` loop: byte, null at EOF, or AGAIN. */
export function readByteSync(f: OsFd): number | null | typeof AGAIN {
  if (holding.size !== 0) flushHeld();
  const rb = f.rbuf;
  if (rb !== undefined) {
    const b = rb[f.rpos++]!;
    if (f.rpos >= rb.length) f.rbuf = undefined;
    return b;
  }
  if (f.mayBlock) return AGAIN;
  try {
    if (f.readAhead > 0) {
      const buf = Buffer.allocUnsafe(READ_AHEAD);
      const k = fs.readSync(f.nb ?? f.fd, buf, 0, READ_AHEAD, null);
      if (k === 0) return null;
      if (k > 1) { f.rbuf = buf.subarray(0, k); f.rpos = 1; }
      return buf[0]!;
    }
    const n = fs.readSync(f.nb ?? f.fd, oneByte, 0, 1, null);
    return n === 0 ? null : oneByte[0]!;
  } catch (e: any) {
    if (e.code === 'EAGAIN') return AGAIN;
    if (e.code === 'EOF') return null;
    throw e;
  }
}

/** Reads up to `max` bytes; null at EOF; TIMEOUT when `deadline` (ms epoch) passes first. */
export async function readSome(f: OsFd | undefined, max: number): Promise<Buffer | null>;
export async function readSome(f: OsFd | undefined, max: number, deadline: number | undefined): Promise<Buffer | null | typeof TIMEOUT>;
export async function readSome(f: OsFd | undefined, max: number, deadline?: number): Promise<Buffer | null | typeof TIMEOUT> {
  if (!f) throw Object.assign(new Error('Bad file descriptor'), { code: 'EBADF' });
  if (holding.size !== 0) flushHeld();
  if (f.rbuf !== undefined) return f.takeAhead(max);
  const fd = f.nb ?? f.fd;
  let attempt = 0;
  if (f.mayBlock) {
    const buf = Buffer.allocUnsafe(max);
    for (;;) {
      try {
        const p = threaded<number>((cb) => fs.read(fd, buf, 0, max, null, cb));
        let n: number;
        if (deadline !== undefined) {
          p.catch(() => undefined);
          const r = await Promise.race([p, new Promise<typeof TIMEOUT>((res) => setTimeout(() => res(TIMEOUT), Math.max(0, deadline - Date.now())).unref())]);
          if (r === TIMEOUT) return TIMEOUT;
          n = r;
        } else n = await p;
        return n === 0 ? null : buf.subarray(0, n);
      } catch (e: any) {
        if (e.code === 'EAGAIN') { await pause(attempt++); continue; }
        if (e.code === 'EOF') return null;
        throw e;
      }
    }
  }
  const size = f.readAhead > 0 ? Math.max(max, READ_AHEAD) : max;
  const buf = Buffer.allocUnsafe(size);
  for (;;) {
    try {
      const n = fs.readSync(fd, buf, 0, size, null);
      if (n === 0) return null;
      if (n > max) { f.rbuf = buf.subarray(max, n); f.rpos = 0; return buf.subarray(0, max); }
      return buf.subarray(0, n);
    } catch (e: any) {
      if (e.code === 'EAGAIN') {
        if (deadline !== undefined && Date.now() >= deadline) return TIMEOUT;
        await pause(attempt++);
        continue;
      }
      if (e.code === 'EOF') return null;
      throw e;
    }
  }
}

/** A file's contents (`$(<file)`, `source`): a FIFO's are read in-process until its writers are gone. */
export async function readPath(p: Buffer): Promise<Buffer> {
  let fifo = false;
  try { fifo = fs.statSync(p).isFIFO(); } catch { /* readFileSync reports it */ }
  if (!fifo) return fs.readFileSync(p);
  const f = (await openPath(p, fs.constants.O_RDONLY)).retain();
  try { return await readAll(f); } finally { f.release(); }
}

export async function readAll(f: OsFd | undefined): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (;;) {
    const b = await readSome(f, 65536);
    if (!b) break;
    parts.push(Buffer.from(b));
  }
  return Buffer.concat(parts);
}
