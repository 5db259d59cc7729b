import { expect } from 'chai';
import { execFileSync, spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { createInterface } from 'node:readline';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Carrier } from '../../host/carriers/carrier.ts';
import {
  Ledger,
  LedgerConflictError,
  LedgerCorruptError,
  LedgerDirectoryError,
  LedgerError,
  UnsafeThreadIdError,
  type LedgerEntry,
} from '../../host/history/ledger.ts';
import { decodeRecords, encodeRecord } from '../../host/history/ledger-log.ts';
import { isSafeThreadId } from '../../host/history/thread-id.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LEDGER_MODULE = pathToFileURL(path.join(ROOT, 'host/history/ledger.ts')).href;
const THREAD = '0198a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

function execCarrier(cmd: string, namespace?: string): Carrier {
  const args = JSON.stringify({ cmd });
  return namespace === undefined ? { kind: 'exec_command', arguments: args } : { kind: 'exec_command', namespace, arguments: args };
}

function entry(callId: string, overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    threadId: THREAD,
    callId,
    contribution: 'plugin:acme:lint',
    tool: 'lint',
    original: JSON.stringify({ type: 'custom_tool_call', call_id: callId, name: 'lint', input: `lint ${callId}` }),
    carrier: execCarrier(`hpatch-router lint ${callId}`),
    ...overrides,
  };
}

async function exists(p: string): Promise<boolean> {
  return fsp.lstat(p).then(
    () => true,
    () => false,
  );
}

describe('ledger', function () {
  let tmp: string;
  let dir: string;
  const opened: Ledger[] = [];

  async function open(d = dir, maxCachedThreads?: number): Promise<Ledger> {
    const l = await Ledger.open(d, maxCachedThreads === undefined ? {} : { maxCachedThreads });
    opened.push(l);
    return l;
  }
  const threadFile = (id = THREAD) => path.join(dir, `${id}.ledger`);

  beforeEach(async () => {
    tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'hpatch-ledger-'));
    dir = path.join(tmp, 'ledger');
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((l) => l.close()));
    await fsp.rm(tmp, { recursive: true, force: true });
  });

  describe('recording and loading', () => {
    it('round-trips entries exactly', async () => {
      const ledger = await open();
      const a = entry('call_a');
      const b = entry('call_b', {
        contribution: 'builtin:shell',
        tool: 'shell',
        original: '{"type":"custom_tool_call","input":"#!/bin/bash\\necho \\"hé 😀\\""}',
        carrier: { kind: 'code_mode_exec', namespace: 'functions', input: 'await tools.exec_command({cmd: "x"})\n' },
      });
      await ledger.record(a);
      await ledger.record(b);
      const t = await ledger.thread(THREAD);
      expect(t.size).to.equal(2);
      expect(t.threadId).to.equal(THREAD);
      expect(t.entries('call_a')).to.deep.equal([a]);
      expect(t.entries('call_b')).to.deep.equal([b]);
      expect(t.entries('call_unknown')).to.deep.equal([]);
      expect(Object.isFrozen(t.entries('call_a')[0])).to.equal(true);
    });

    it('survives a restart: a new Ledger instance reads what the old one recorded', async () => {
      const first = await open();
      const entries = Array.from({ length: 20 }, (_, i) => entry(`call_${i}`));
      for (const e of entries) await first.record(e);
      await first.close();

      const second = await open();
      const t = await second.thread(THREAD);
      expect(t.size).to.equal(20);
      for (const e of entries) expect(t.entries(e.callId)).to.deep.equal([e]);
      // Appending after the restart continues the same file.
      await second.record(entry('call_after'));
      const third = await open();
      expect((await third.thread(THREAD)).size).to.equal(21);
    });

    it('keeps each thread in its own file and an unknown thread empty', async () => {
      const ledger = await open();
      await ledger.record(entry('c1'));
      await ledger.record(entry('c1', { threadId: 'other-thread' }));
      expect((await fsp.readdir(dir)).sort()).to.deep.equal([`${THREAD}.ledger`, 'other-thread.ledger'].sort());
      expect((await ledger.thread('never-seen')).size).to.equal(0);
      expect(await exists(path.join(dir, 'never-seen.ledger'))).to.equal(false);
    });

    it('creates thread files with mode 0600', async () => {
      const ledger = await open();
      await ledger.record(entry('c1'));
      expect((await fsp.stat(threadFile())).mode & 0o777).to.equal(0o600);
    });

    it('does not write an equal entry twice (stream retries)', async () => {
      const ledger = await open();
      await ledger.record(entry('call_1'));
      const size = (await fsp.stat(threadFile())).size;
      await ledger.record(entry('call_1'));
      // Concurrent duplicates are serialized and collapse to the one record too.
      await Promise.all(Array.from({ length: 10 }, () => ledger.record(entry('call_1'))));
      expect((await fsp.stat(threadFile())).size).to.equal(size);
      const reopened = await open();
      await reopened.record(entry('call_1'));
      expect((await fsp.stat(threadFile())).size).to.equal(size);
      expect((await reopened.thread(THREAD)).entries('call_1')).to.have.length(1);
    });

    it('treats an absent namespace as identical whether omitted or undefined', async () => {
      const ledger = await open();
      await ledger.record(entry('call_1'));
      const size = (await fsp.stat(threadFile())).size;
      await ledger.record(entry('call_1', { carrier: { ...execCarrier('hpatch-router lint call_1'), namespace: undefined } }));
      expect((await fsp.stat(threadFile())).size).to.equal(size);
    });

    it('keeps every carrier variant of one call id, oldest first, across restarts', async () => {
      const ledger = await open();
      const v1 = entry('call_1', { carrier: execCarrier('lint a') });
      const v2 = entry('call_1', { carrier: execCarrier('lint a', 'functions') });
      const v3 = entry('call_1', { carrier: { kind: 'code_mode_exec', input: 'lint a' } });
      await ledger.record(v1);
      await ledger.record(v2);
      await ledger.record(v3);
      await ledger.record(v2);
      expect((await ledger.thread(THREAD)).entries('call_1')).to.deep.equal([v1, v2, v3]);
      const reopened = await open();
      const t = await reopened.thread(THREAD);
      expect(t.entries('call_1')).to.deep.equal([v1, v2, v3]);
      expect(t.size).to.equal(3);
    });

    it('refuses the same call id and carrier with a different original', async () => {
      const ledger = await open();
      await ledger.record(entry('call_1'));
      const size = (await fsp.stat(threadFile())).size;
      for (const changed of [{ original: '{"other":true}' }, { tool: 'lint2' }, { contribution: 'plugin:other:lint' }]) {
        let err: unknown;
        await ledger.record(entry('call_1', changed)).catch((e: unknown) => (err = e));
        expect(err).to.be.instanceOf(LedgerConflictError);
        expect(String(err)).to.match(/call_1/);
      }
      expect((await fsp.stat(threadFile())).size).to.equal(size);
    });

    it('gives thread() a snapshot: later records show in the next call', async () => {
      const ledger = await open();
      await ledger.record(entry('call_1'));
      const before = await ledger.thread(THREAD);
      await ledger.record(entry('call_2'));
      await ledger.record(entry('call_1', { carrier: execCarrier('other') }));
      expect(before.size).to.equal(1);
      expect(before.entries('call_2')).to.deep.equal([]);
      expect(before.entries('call_1')).to.have.length(1);
      const after = await ledger.thread(THREAD);
      expect(after.size).to.equal(3);
      expect(after.entries('call_1')).to.have.length(2);
    });

    it('serializes many concurrent appends on one thread into a clean file', async () => {
      const ledger = await open();
      const all = Array.from({ length: 100 }, (_, i) => entry(`call_${i}`, { original: 'y'.repeat(i * 97) }));
      await Promise.all(all.map((e) => ledger.record(e)));
      const decoded = decodeRecords(await fsp.readFile(threadFile()));
      expect(decoded.records).to.have.length(100);
      expect(decoded.tornTail).to.equal(false);
      const t = await (await open()).thread(THREAD);
      for (const e of all) expect(t.entries(e.callId)).to.deep.equal([e]);
    });

    it('evicts loaded threads beyond the cache bound and reloads them correctly', async () => {
      const ledger = await open(dir, 2);
      const ids = ['t1', 't2', 't3', 't4'];
      for (let round = 0; round < 3; round++) {
        for (const id of ids) await ledger.record(entry(`c${round}`, { threadId: id }));
      }
      for (const id of ids) {
        const t = await ledger.thread(id);
        expect(t.size).to.equal(3);
        expect(t.entries('c2')[0]!.threadId).to.equal(id);
      }
    });

    it('validates entries before writing anything', async () => {
      const ledger = await open();
      const bad: unknown[] = [
        { ...entry('c'), callId: '' },
        { ...entry('c'), tool: 7 },
        { ...entry('c'), original: undefined },
        { ...entry('c'), carrier: { kind: 'apply_patch', input: 'x' } },
        { ...entry('c'), carrier: { kind: 'exec_command', input: 'x' } },
        { ...entry('c'), carrier: { kind: 'code_mode_exec', namespace: 3, input: 'x' } },
      ];
      for (const b of bad) {
        let err: unknown;
        await ledger.record(b as LedgerEntry).catch((e: unknown) => (err = e));
        expect(err, JSON.stringify(b)).to.be.instanceOf(TypeError);
      }
      expect(await fsp.readdir(dir)).to.deep.equal([]);
    });

    it('rejects use after close', async () => {
      const ledger = await open();
      await ledger.close();
      let err: unknown;
      await ledger.thread(THREAD).catch((e: unknown) => (err = e));
      expect(err).to.be.instanceOf(LedgerError);
    });
  });

  describe('thread ids', () => {
    const unsafe = ['..', '.', 'a/b', '.x', '', 'a\0b', 'x'.repeat(200), '../escape', 'a\\b', ' a', 'a b', 'é'];

    it('accepts UUIDv7 and plain component names', () => {
      for (const id of [THREAD, 'a', 'A-b_c.d', 'x'.repeat(128), '-x', 'a..b']) expect(isSafeThreadId(id), id).to.equal(true);
      for (const id of [...unsafe, 'x'.repeat(129)]) expect(isSafeThreadId(id), JSON.stringify(id)).to.equal(false);
      expect(isSafeThreadId(undefined as unknown as string)).to.equal(false);
    });

    it('rejects unsafe ids with UnsafeThreadIdError before touching the filesystem', async () => {
      const ledger = await open();
      for (const id of unsafe) {
        let err: unknown;
        await ledger.thread(id).catch((e: unknown) => (err = e));
        expect(err, JSON.stringify(id)).to.be.instanceOf(UnsafeThreadIdError);
        err = undefined;
        await ledger.record(entry('c1', { threadId: id })).catch((e: unknown) => (err = e));
        expect(err, JSON.stringify(id)).to.be.instanceOf(UnsafeThreadIdError);
      }
      expect(await fsp.readdir(dir)).to.deep.equal([]);
      expect((await fsp.readdir(tmp)).sort()).to.deep.equal(['ledger']);
    });

    it('bounds the error message for a long id', () => {
      const err = new UnsafeThreadIdError('z'.repeat(10_000));
      expect(err.message.length).to.be.lessThan(250);
    });
  });

  describe('filesystem safety', () => {
    it('creates a missing directory (and parents) with mode 0700', async () => {
      const nested = path.join(tmp, 'a', 'b', 'ledger');
      await open(nested);
      expect((await fsp.stat(nested)).mode & 0o777).to.equal(0o700);
    });

    it('refuses a directory path that is a file, a symlink, or group/other-writable', async () => {
      const file = path.join(tmp, 'file');
      await fsp.writeFile(file, '');
      const real = path.join(tmp, 'real');
      await fsp.mkdir(real, { mode: 0o700 });
      const link = path.join(tmp, 'link');
      await fsp.symlink(real, link);
      const loose = path.join(tmp, 'loose');
      await fsp.mkdir(loose);
      await fsp.chmod(loose, 0o770);
      const open2 = path.join(tmp, 'other-writable');
      await fsp.mkdir(open2);
      await fsp.chmod(open2, 0o703);
      for (const [p, why] of [
        [file, /not a directory/],
        [link, /symbolic link/],
        [loose, /writable by group or others/],
        [open2, /writable by group or others/],
      ] as const) {
        let err: unknown;
        await Ledger.open(p).catch((e: unknown) => (err = e));
        expect(err, p).to.be.instanceOf(LedgerDirectoryError);
        expect((err as Error).message).to.match(why);
      }
    });

    it('refuses a directory owned by another user', async function () {
      if (process.getuid?.() !== 0) this.skip(); // only root can create one to test with
      const foreign = path.join(tmp, 'foreign');
      await fsp.mkdir(foreign, { mode: 0o700 });
      await fsp.chown(foreign, 65534, 65534);
      let err: unknown;
      await Ledger.open(foreign).catch((e: unknown) => (err = e));
      expect(err).to.be.instanceOf(LedgerDirectoryError);
      expect((err as Error).message).to.match(/owned by uid 65534/);
    });

    it('refuses a symlink planted at the thread file path, for reading and for writing', async () => {
      const ledger = await open();
      const target = path.join(tmp, 'target');
      await fsp.writeFile(target, 'precious');
      await fsp.symlink(target, threadFile());
      let err: unknown;
      await ledger.thread(THREAD).catch((e: unknown) => (err = e));
      expect(err).to.be.instanceOf(LedgerError);
      expect((err as Error).message).to.match(/symbolic link/);
      err = undefined;
      await ledger.record(entry('c1')).catch((e: unknown) => (err = e));
      expect((err as Error).message).to.match(/symbolic link/);
      // A dangling symlink is not followed to create its target either.
      await fsp.unlink(threadFile());
      await fsp.symlink(path.join(tmp, 'created-through-link'), threadFile());
      err = undefined;
      await (await open()).record(entry('c1')).catch((e: unknown) => (err = e));
      expect(err).to.be.instanceOf(Error);
      expect(await exists(path.join(tmp, 'created-through-link'))).to.equal(false);
      expect(await fsp.readFile(target, 'utf8')).to.equal('precious');
    });

    it('refuses a FIFO or directory at the thread file path without hanging', async () => {
      const ledger = await open();
      execFileSync('mkfifo', [threadFile()]);
      let err: unknown;
      await ledger.thread(THREAD).catch((e: unknown) => (err = e));
      expect((err as Error).message).to.match(/not a regular file/);
      await fsp.unlink(threadFile());
      await fsp.mkdir(threadFile());
      err = undefined;
      await ledger.thread(THREAD).catch((e: unknown) => (err = e));
      expect(err).to.be.instanceOf(Error);
    });

    it('notices a file changed behind its back, then recovers by reloading', async () => {
      const ledger = await open();
      await ledger.record(entry('c1'));
      await ledger.thread(THREAD);
      await fsp.appendFile(threadFile(), encodeRecord(JSON.stringify(serialized(entry('c2')))));
      let err: unknown;
      await ledger.record(entry('c3')).catch((e: unknown) => (err = e));
      expect((err as Error).message).to.match(/changed outside this router process/);
      await ledger.record(entry('c3'));
      const t = await ledger.thread(THREAD);
      expect(t.size).to.equal(3);
      expect(t.entries('c2')).to.have.length(1);
    });
  });

  describe('crash recovery', () => {
    /** Valid file with `n` entries; returns its bytes and the offset where the last record starts. */
    async function writeValid(n: number): Promise<{ bytes: Buffer; lastStart: number; entries: LedgerEntry[] }> {
      const ledger = await open();
      const entries = Array.from({ length: n }, (_, i) => entry(`call_${i}`));
      for (const e of entries) await ledger.record(e);
      await ledger.close();
      const bytes = await fsp.readFile(threadFile());
      const decoded = decodeRecords(bytes);
      return { bytes, lastStart: decoded.offsets.at(-1)!, entries };
    }

    it('recovers from a torn tail at every byte offset of the last record', async () => {
      const { bytes, lastStart, entries } = await writeValid(3);
      const kept = entries.slice(0, 2);
      for (let cut = lastStart + 1; cut < bytes.length; cut++) {
        await fsp.writeFile(threadFile(), bytes.subarray(0, cut));
        const ledger = await Ledger.open(dir);
        const t = await ledger.thread(THREAD);
        expect(t.size, `cut ${cut}`).to.equal(2);
        for (const e of kept) expect(t.entries(e.callId)).to.deep.equal([e]);
        // Reading alone does not modify the file; the next append truncates the tail first.
        expect((await fsp.stat(threadFile())).size).to.equal(cut);
        const next = entry(`next_${cut}`);
        await ledger.record(next);
        await ledger.close();

        const reopened = await Ledger.open(dir);
        const r = await reopened.thread(THREAD);
        expect(r.size, `cut ${cut}`).to.equal(3);
        expect(r.entries(next.callId)).to.deep.equal([next]);
        expect(r.entries(entries[2]!.callId)).to.deep.equal([]);
        await reopened.close();
        const decoded = decodeRecords(await fsp.readFile(threadFile()));
        expect(decoded.tornTail).to.equal(false);
        expect(decoded.validBytes).to.equal((await fsp.stat(threadFile())).size);
      }
    });

    it('recovers from a zero-filled tail (file size persisted before its data)', async () => {
      const { bytes, lastStart } = await writeValid(3);
      const damaged = Buffer.from(bytes);
      damaged.fill(0, lastStart + 10);
      await fsp.writeFile(threadFile(), damaged);
      const ledger = await open();
      expect((await ledger.thread(THREAD)).size).to.equal(2);
      await ledger.record(entry('next'));
      expect((await (await open()).thread(THREAD)).size).to.equal(3);
    });

    it('reports a flipped byte in a middle record as LedgerCorruptError and leaves the file untouched', async () => {
      const { bytes } = await writeValid(3);
      const offsets = decodeRecords(bytes).offsets;
      const damaged = Buffer.from(bytes);
      damaged[offsets[1]! + 40]! ^= 0x20;
      await fsp.writeFile(threadFile(), damaged);
      const ledger = await open();
      let err: unknown;
      await ledger.thread(THREAD).catch((e: unknown) => (err = e));
      expect(err).to.be.instanceOf(LedgerCorruptError);
      const c = err as LedgerCorruptError;
      expect(c.file).to.equal(threadFile());
      expect(c.offset).to.equal(offsets[1]);
      expect(c.message).to.include(threadFile()).and.include(`offset ${offsets[1]}`);
      // record() refuses too, and nothing is written or truncated.
      err = undefined;
      await ledger.record(entry('more')).catch((e: unknown) => (err = e));
      expect(err).to.be.instanceOf(LedgerCorruptError);
      expect((await fsp.readFile(threadFile())).equals(damaged)).to.equal(true);
      // Other threads are unaffected.
      await ledger.record(entry('c1', { threadId: 'healthy' }));
      expect((await ledger.thread('healthy')).size).to.equal(1);
    });

    it('reports a damaged complete last record as corruption rather than dropping it', async () => {
      const { bytes } = await writeValid(2);
      const damaged = Buffer.from(bytes);
      damaged[bytes.length - 5]! ^= 0x01;
      await fsp.writeFile(threadFile(), damaged);
      let err: unknown;
      await (await open()).thread(THREAD).catch((e: unknown) => (err = e));
      expect(err).to.be.instanceOf(LedgerCorruptError);
      expect((err as Error).message).to.match(/checksum mismatch/);
    });

    it('treats a checksum-valid record that is not a ledger entry as corruption', async () => {
      const good = encodeRecord(JSON.stringify(serialized(entry('c1'))));
      const cases: [string, RegExp][] = [
        ['not json', /not valid JSON/],
        ['[1,2]', /not a JSON object/],
        [JSON.stringify({ ...serialized(entry('c2')), v: 2 }), /unsupported record version 2/],
        [JSON.stringify({ ...serialized(entry('c2')), extra: 1 }), /record fields/],
        [JSON.stringify({ ...serialized(entry('c2')), threadId: 'someone-else' }), /belongs to thread/],
        [JSON.stringify({ ...serialized(entry('c2')), callId: 5 }), /non-string field/],
        [JSON.stringify({ ...serialized(entry('c2')), carrier: { kind: 'exec_command', arguments: 'x', extra: 1 } }), /unexpected fields/],
        [JSON.stringify({ ...serialized(entry('c2')), carrier: { kind: 'shell', arguments: 'x' } }), /unknown carrier kind/],
      ];
      await fsp.mkdir(dir, { mode: 0o700 });
      for (const [json, why] of cases) {
        await fsp.writeFile(threadFile(), Buffer.concat([good, encodeRecord(json)]));
        let err: unknown;
        await (await Ledger.open(dir)).thread(THREAD).catch((e: unknown) => (err = e));
        expect(err, json).to.be.instanceOf(LedgerCorruptError);
        expect((err as LedgerCorruptError).offset).to.equal(good.length);
        expect((err as Error).message, json).to.match(why);
      }
    });

    it('keeps every record a SIGKILLed writer reported durable', async function () {
      this.timeout(120_000);
      const script = path.join(tmp, 'writer.mjs');
      await fsp.writeFile(script, WRITER_SCRIPT);
      const reported: string[] = [];
      // Each round appends to what the previous kill left: Linux can end a large write() early on
      // SIGKILL, so later rounds also exercise torn-tail recovery under a real writer.
      for (let round = 0; round < 4; round++) {
        const child = spawn(process.execPath, ['--import', 'tsx', script, LEDGER_MODULE, dir, String(round)], {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
          child.on('exit', (code, signal) => resolve(signal ?? code)),
        );
        const killAfter = 20 + Math.floor(Math.random() * 150);
        let seen = 0;
        const lines = createInterface({ input: child.stdout });
        const drained = new Promise((resolve) => lines.once('close', resolve));
        lines.on('line', (line) => {
          reported.push(line);
          if (++seen === killAfter) setTimeout(() => child.kill('SIGKILL'), Math.random() * 15);
        });
        const how = await exited;
        expect(how, stderr).to.equal('SIGKILL');
        await drained;

        const ledger = await Ledger.open(dir);
        for (const line of reported) {
          const [threadId, callId] = line.split(' ') as [string, string];
          const t = await ledger.thread(threadId);
          const found = t.entries(callId);
          expect(found, `${line} (round ${round})`).to.have.length(1);
          expect(found[0]!.original).to.equal(writerOriginal(callId));
        }
        await ledger.close();
      }
      expect(reported.length).to.be.greaterThan(80);
    });
  });
});

/** The JSON object a record holds for `e` (same shape and key order as the ledger writes). */
function serialized(e: LedgerEntry): Record<string, unknown> {
  return { v: 1, threadId: e.threadId, callId: e.callId, contribution: e.contribution, tool: e.tool, carrier: e.carrier, original: e.original };
}

/** Deterministic from the call id, with sizes up to ~200 KB so a SIGKILL can land mid-write. Shared as
 * source text with the child writer (plain JS: it is spliced into the child's script). */
const WRITER_ORIGINAL_JS = `function writerOriginal(callId) {
  let h = 0;
  for (const ch of callId) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return JSON.stringify({ call_id: callId, pad: 'p'.repeat(h % 200000) });
}`;
const writerOriginal = new Function(`${WRITER_ORIGINAL_JS}; return writerOriginal;`)() as (callId: string) => string;

// Plain JS so the child needs nothing but `--import tsx` to load the TypeScript ledger.
const WRITER_SCRIPT = `
const [ledgerModule, dir, round] = process.argv.slice(2);
const { Ledger } = await import(ledgerModule);
${WRITER_ORIGINAL_JS}
const ledger = await Ledger.open(dir);
let n = 0;
await Promise.all(['thread-a', 'thread-b', 'thread-c'].map(async (threadId) => {
  for (;;) {
    const callId = 'r' + round + '_' + (n++);
    await ledger.record({
      threadId, callId, contribution: 'plugin:crash:test', tool: 'crash',
      original: writerOriginal(callId),
      carrier: { kind: 'exec_command', arguments: JSON.stringify({ cmd: 'run ' + callId }) },
    });
    process.stdout.write(threadId + ' ' + callId + '\\n');
  }
}));
`;
