// Retention (issue 18.5): thread files idle longer than the period are removed, files aged with
// utimes; a thread in use within the period is never removed; nothing but thread files is touched.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Ledger, type LedgerEntry } from '../../host/history/ledger.ts';
import { ledgerEntries } from '../../host/history/ledger-files.ts';
import { startRetention, sweepInterval, sweepLedger } from '../../host/history/ledger-retention.ts';
import { asLogger } from '../../host/log/logger.ts';

const DAY = 86_400_000;

function entry(threadId: string, callId = 'call_1'): LedgerEntry {
  return {
    threadId,
    callId,
    contribution: 'builtin:shell',
    tool: 'shell',
    original: JSON.stringify({ type: 'function_call', call_id: callId, name: 'shell', arguments: '{"script":"ls"}' }),
    carrier: { kind: 'exec_command', namespace: 'functions', arguments: JSON.stringify({ cmd: 'shell ls' }) },
  };
}

async function age(file: string, ms: number): Promise<void> {
  const t = (Date.now() - ms) / 1000;
  await fsp.utimes(file, t, t);
}

describe('ledger retention', () => {
  let root: string;
  let dir: string;
  let ledger: Ledger;
  beforeEach(async () => {
    root = await fsp.mkdtemp(path.join(os.tmpdir(), 'hpatch-retention-'));
    dir = path.join(root, 'ledger');
    ledger = await Ledger.open(dir);
  });
  const reopen = async (): Promise<void> => {
    await ledger.close();
    ledger = await Ledger.open(dir);
  };
  afterEach(async () => {
    await ledger.close();
    await fsp.rm(root, { recursive: true, force: true });
  });

  it('removes thread files idle longer than the period and keeps the others', async () => {
    for (const id of ['old-1', 'old-2', 'recent', 'edge']) await ledger.record(entry(id));
    await age(ledger.fileFor('old-1'), 31 * DAY);
    await age(ledger.fileFor('old-2'), 400 * DAY);
    await age(ledger.fileFor('recent'), 29 * DAY);
    await age(ledger.fileFor('edge'), 30 * DAY - 60_000);
    await reopen(); // files a previous router wrote: this process has not used them
    const r = await sweepLedger(ledger, 30 * DAY);
    expect(r.scanned).to.equal(4);
    expect(r.removed).to.equal(2);
    expect([...r.removedIds].sort()).to.deep.equal(['old-1', 'old-2']);
    expect(r.removedBytes).to.be.greaterThan(0);
    expect((await fsp.readdir(dir)).sort()).to.deep.equal(['edge.ledger', 'recent.ledger']);
    // A removed thread starts over empty; the ledger still works for it.
    expect((await ledger.thread('old-1')).size).to.equal(0);
    await ledger.record(entry('old-1'));
    expect((await ledger.thread('old-1')).size).to.equal(1);
  });

  it('never touches what is not a thread file: other names, symlinks, directories, FIFOs', async () => {
    const outside = path.join(root, 'outside.ledger');
    await fsp.writeFile(outside, 'precious');
    await fsp.symlink(outside, path.join(dir, 'link.ledger'));
    await fsp.mkdir(path.join(dir, 'adir.ledger'));
    execFileSync('mkfifo', [path.join(dir, 'fifo.ledger')]);
    await age(path.join(dir, 'fifo.ledger'), 99 * DAY);
    await fsp.writeFile(path.join(dir, 'notes.txt'), 'x');
    await fsp.writeFile(path.join(dir, '.hidden.ledger'), 'x');
    for (const f of [outside, path.join(dir, 'notes.txt'), path.join(dir, '.hidden.ledger'), path.join(dir, 'adir.ledger')]) await age(f, 99 * DAY);
    await fsp.lutimes(path.join(dir, 'link.ledger'), (Date.now() - 99 * DAY) / 1000, (Date.now() - 99 * DAY) / 1000);
    const r = await sweepLedger(ledger, DAY);
    expect(r.removed).to.equal(0);
    expect((await fsp.readdir(dir)).sort()).to.deep.equal(['.hidden.ledger', 'adir.ledger', 'fifo.ledger', 'link.ledger', 'notes.txt']);
    expect(await fsp.readFile(outside, 'utf8')).to.equal('precious');
    const kinds = [];
    for await (const e of ledgerEntries(dir)) kinds.push(e.kind === 'other' ? `${e.name}: ${e.why}` : e.threadId);
    expect(kinds.sort()).to.deep.equal([
      '.hidden.ledger: not named <thread id>.ledger',
      'adir.ledger: not a regular file',
      'fifo.ledger: not a regular file',
      'link.ledger: a symbolic link',
      'notes.txt: not named <thread id>.ledger',
    ]);
  });

  it('a thread read within the period is kept although nothing new was recorded: use refreshes its mtime', async () => {
    await ledger.record(entry('reader'));
    await age(ledger.fileFor('reader'), 40 * DAY);
    await ledger.close();
    ledger = await Ledger.open(dir, { touchAfterMs: 60_000 });
    expect((await ledger.thread('reader')).size).to.equal(1); // a request restoring history
    await ledger.close(); // waits for the queued touch
    const st = await fsp.stat(path.join(dir, 'reader.ledger'));
    expect(Date.now() - st.mtimeMs).to.be.below(10_000);
    ledger = await Ledger.open(dir);
    expect((await sweepLedger(ledger, 30 * DAY)).removed).to.equal(0);
  });

  it('removeIfIdle keeps a thread this process used since the cut-off, even when its mtime is old', async () => {
    await ledger.record(entry('cached'));
    await age(ledger.fileFor('cached'), 40 * DAY);
    // Recorded (used) just now by this process: the in-memory use wins over the aged mtime.
    expect(await ledger.removeIfIdle('cached', Date.now() - 30 * DAY)).to.equal(null);
    expect(await ledger.removeIfIdle('missing', Date.now())).to.equal(null);
    await ledger.close();
    ledger = await Ledger.open(dir);
    expect(await ledger.removeIfIdle('cached', Date.now() - 30 * DAY)).to.be.a('number');
  });

  it('a dry run reports without removing', async () => {
    await ledger.record(entry('old'));
    await age(ledger.fileFor('old'), 31 * DAY);
    await reopen();
    const r = await sweepLedger(ledger, 30 * DAY, { dryRun: true });
    expect(r.removed).to.equal(1);
    expect(await fsp.readdir(dir)).to.deep.equal(['old.ledger']);
  });

  it('the router task sweeps at once and then periodically, logging what it removed', async () => {
    expect(sweepInterval(30 * DAY)).to.equal(3_600_000);
    expect(sweepInterval(3000)).to.equal(1500);
    expect(sweepInterval(10)).to.equal(1000);
    await ledger.record(entry('old'));
    await age(ledger.fileFor('old'), 10_000);
    await reopen();
    const lines: string[] = [];
    const task = startRetention(ledger, 2000, asLogger((l) => lines.push(l)), '2s');
    try {
      expect((await task.firstSweep)?.removed).to.equal(1);
      await ledger.record(entry('fresh'));
      // Idle for the period, then removed by a later sweep (interval 1 s).
      for (let i = 0; i < 80 && (await fsp.readdir(dir)).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await fsp.readdir(dir)).to.deep.equal([]);
    } finally {
      await task.stop();
    }
    expect(lines[0]).to.match(/ledger retention: removed 1 thread file\(s\), \d+ bytes, idle longer than 2s/);
    expect(lines).to.have.length(2);
  });

  it('refuses a non-positive period', async () => {
    for (const bad of [0, -1, Number.NaN]) {
      let err: unknown;
      try {
        await sweepLedger(ledger, bad);
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(RangeError);
    }
  });
});
