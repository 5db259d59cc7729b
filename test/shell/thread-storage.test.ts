// Security of the shell tool's per-thread storage (REQ-SHELL-001 acceptance 17): ids built from
// Codex's thread id and the model's call id are confined, and every write, read, expiry and cleanup
// stays inside the router's storage even when a path component is swapped for an escaping symlink —
// also while the operation runs (a second process swaps it in a tight loop).
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ShellThreadStorage } from '../../host/shell/thread-storage.ts';
import { tempDir } from '../support/temp-dir.ts';

const WORKER = '/snapshots/x/runtime/bin/shell-worker';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('REQ-SHELL-001 acceptance 17: shell thread storage confinement', function () {
  this.timeout(30_000);
  let tmp: { dir: string; cleanup: () => void };
  let base: string;
  let outside: string;
  let storage: ShellThreadStorage;

  beforeEach(() => {
    tmp = tempDir('shell-storage');
    base = join(tmp.dir, 'base');
    outside = join(tmp.dir, 'outside');
    mkdirSync(base, { mode: 0o700 });
    mkdirSync(outside, { mode: 0o700 });
    storage = new ShellThreadStorage(base, WORKER);
  });
  afterEach(() => {
    storage.close();
    tmp.cleanup();
  });

  const scripts = (thread: string): string => join(base, `hpatch-${thread}`, 'scripts');

  describe('ids', () => {
    for (const id of ['', '.', '..', '../x', 'a/b', '.hidden', 'a\0b', 'x'.repeat(129)]) {
      it(`unsafe thread id ${JSON.stringify(id.slice(0, 20))} rejects before anything is created`, () => {
        expect(() => storage.bind(id)).to.throw(/unsafe thread id/);
        expect(storage.retain(id, 'call_1', 'echo\n')).to.equal(false);
        expect(storage.read(id, 'call_1').ok).to.equal(false);
        expect(readdirSync(base)).to.deep.equal([]);
      });
    }
    for (const id of ['', '.', '..', '.runtime', 'a/b', '../../etc/passwd', 'a\\b', 'a\0b']) {
      it(`unsafe artifact id ${JSON.stringify(id)} is never retained or read`, () => {
        expect(storage.retain('t1', id, 'echo\n')).to.equal(false);
        const r = storage.read('t1', id);
        expect(r.ok).to.equal(false);
        expect(existsSync(join(base, 'hpatch-t1', 'scripts'))).to.equal(false);
      });
    }
    it('an existing artifact with other content is kept: retained false, nothing overwritten; the same content again is the same artifact', () => {
      expect(storage.retain('t1', 'call_1', 'first\n')).to.equal(true);
      expect(storage.retain('t1', 'call_1', 'second\n')).to.equal(false);
      expect(readFileSync(join(scripts('t1'), 'call_1'), 'utf8')).to.equal('first\n');
      expect(storage.retain('t1', 'call_1', 'first\n')).to.equal(true);
      expect(lstatSync(join(scripts('t1'), 'call_1')).mode & 0o777).to.equal(0o600);
    });
    it('.runtime can never be an artifact: neither the link nor a reference to it', () => {
      storage.bind('t1');
      expect(readlinkSync(join(base, 'hpatch-t1', '.runtime'))).to.equal(WORKER);
      expect(storage.read('t1', '.runtime')).to.deep.equal({ ok: false, error: '@shell/.runtime is not a script reference' });
      expect(storage.retain('t1', '.runtime', 'x')).to.equal(false);
    });
    it("a reference names the current thread's scripts only: another thread's artifact is missing here", () => {
      expect(storage.retain('thread-a', 'call_a', 'echo a\n')).to.equal(true);
      expect(storage.read('thread-a', 'call_a')).to.deep.equal({ ok: true, content: 'echo a\n' });
      expect(storage.read('thread-b', 'call_a')).to.deep.equal({ ok: false, error: '@shell/call_a does not exist (or has expired)' });
    });
    it('a reference cannot reach a workspace file or follow a symlink artifact', () => {
      writeFileSync(join(outside, 'secret'), 'secret\n');
      expect(storage.retain('t1', 'call_1', 'x\n')).to.equal(true);
      symlinkSync(join(outside, 'secret'), join(scripts('t1'), 'call_link'));
      expect(storage.read('t1', 'call_link')).to.deep.equal({ ok: false, error: '@shell/call_link is not a regular file' });
      mkdirSync(join(scripts('t1'), 'call_dir'));
      expect(storage.read('t1', 'call_dir')).to.deep.equal({ ok: false, error: '@shell/call_dir is not a regular file' });
      writeFileSync(join(scripts('t1'), 'call_bin'), Buffer.from([0xff, 0xfe]));
      expect(storage.read('t1', 'call_bin')).to.deep.equal({ ok: false, error: '@shell/call_bin is not valid UTF-8' });
    });
  });

  describe('symlink swaps', () => {
    it('hpatch-<thread> swapped for a symlink: no write, read, bind or cleanup goes through it', () => {
      writeFileSync(join(outside, 'call_1'), 'outside\n');
      symlinkSync(outside, join(base, 'hpatch-t1'));
      expect(storage.retain('t1', 'call_2', 'x\n')).to.equal(false);
      expect(() => storage.bind('t1')).to.throw(/not a directory/);
      expect(storage.read('t1', 'call_1').ok).to.equal(false);
      expect(readdirSync(outside)).to.deep.equal(['call_1']);
    });
    it('scripts/ swapped for a symlink after a retention: reads and new writes refuse, the target is untouched', () => {
      expect(storage.retain('t1', 'call_1', 'x\n')).to.equal(true);
      renameSync(scripts('t1'), join(tmp.dir, 'moved'));
      writeFileSync(join(outside, 'call_1'), 'outside\n');
      symlinkSync(outside, scripts('t1'));
      expect(storage.read('t1', 'call_1').ok).to.equal(false);
      expect(storage.retain('t1', 'call_2', 'y\n')).to.equal(false);
      expect(readdirSync(outside)).to.deep.equal(['call_1']);
    });
    it('an artifact swapped for a symlink is neither read through nor overwritten', () => {
      writeFileSync(join(outside, 'target'), 'outside\n');
      expect(storage.retain('t1', 'call_1', 'x\n')).to.equal(true);
      rmSync(join(scripts('t1'), 'call_1'));
      symlinkSync(join(outside, 'target'), join(scripts('t1'), 'call_1'));
      expect(storage.read('t1', 'call_1').ok).to.equal(false);
      expect(storage.retain('t1', 'call_1', 'x\n')).to.equal(false);
      expect(readFileSync(join(outside, 'target'), 'utf8')).to.equal('outside\n');
    });
    it('expiry after scripts/ was swapped for a symlink removes nothing outside', async () => {
      storage.close();
      storage = new ShellThreadStorage(base, WORKER, { ttlMs: 50 });
      expect(storage.retain('t1', 'call_1', 'x\n')).to.equal(true);
      renameSync(scripts('t1'), join(tmp.dir, 'moved'));
      writeFileSync(join(outside, 'call_1'), 'outside\n');
      symlinkSync(outside, scripts('t1'));
      await sleep(200);
      expect(readFileSync(join(outside, 'call_1'), 'utf8')).to.equal('outside\n');
    });
    it('expiry removes the artifact after its time', async () => {
      storage.close();
      storage = new ShellThreadStorage(base, WORKER, { ttlMs: 50 });
      expect(storage.retain('t1', 'call_1', 'x\n')).to.equal(true);
      await sleep(200);
      expect(existsSync(join(scripts('t1'), 'call_1'))).to.equal(false);
      expect(storage.read('t1', 'call_1').ok).to.equal(false);
    });
    it('shutdown cleanup after hpatch-<thread> was swapped for a symlink removes only the link, never its target', () => {
      expect(storage.retain('t1', 'call_1', 'x\n')).to.equal(true);
      storage.bind('t1');
      renameSync(join(base, 'hpatch-t1'), join(tmp.dir, 'moved'));
      mkdirSync(join(outside, 'scripts'));
      writeFileSync(join(outside, 'scripts', 'call_1'), 'outside\n');
      writeFileSync(join(outside, 'keep'), 'outside\n');
      symlinkSync(outside, join(base, 'hpatch-t1'));
      storage.close();
      expect(existsSync(join(base, 'hpatch-t1'))).to.equal(false);
      expect(readFileSync(join(outside, 'scripts', 'call_1'), 'utf8')).to.equal('outside\n');
      expect(readFileSync(join(outside, 'keep'), 'utf8')).to.equal('outside\n');
    });
    it('shutdown removes the thread storage this router created, and cancels expiry', () => {
      expect(storage.retain('t1', 'call_1', 'x\n')).to.equal(true);
      storage.bind('t1');
      storage.close();
      expect(readdirSync(base)).to.deep.equal([]);
      expect(storage.retain('t1', 'call_2', 'x\n')).to.equal(false);
    });

    /** A storage whose every directory open is followed by `swap` (once), the worst moment for a path swap. */
    function racing(which: 'thread' | 'scripts', swap: () => void, ttlMs?: number): ShellThreadStorage {
      let armed = false;
      const s = new ShellThreadStorage(base, WORKER, { ...(ttlMs !== undefined ? { ttlMs } : {}), afterOpen: (w) => { if (armed && w === which) { armed = false; swap(); } } });
      return Object.assign(s, { arm: () => { armed = true; } });
    }
    const arm = (s: ShellThreadStorage): void => (s as unknown as { arm(): void }).arm();
    const swapScripts = (thread = 't1') => (): void => {
      renameSync(scripts(thread), join(tmp.dir, 'moved'));
      symlinkSync(outside, scripts(thread));
    };

    it('race, write: scripts/ swapped for an escaping symlink after it was opened — the artifact lands in the opened directory', () => {
      const s = racing('scripts', swapScripts());
      expect(s.retain('t1', 'seed', 'seed\n')).to.equal(true);
      arm(s);
      expect(s.retain('t1', 'call_1', 'body\n')).to.equal(true);
      expect(readdirSync(outside)).to.deep.equal([]);
      expect(readFileSync(join(tmp.dir, 'moved', 'call_1'), 'utf8')).to.equal('body\n');
      s.close();
    });
    it('race, read: scripts/ swapped after it was opened — the stored script is read, never the symlink target', () => {
      const s = racing('scripts', swapScripts());
      expect(s.retain('t1', 'call_1', 'mine\n')).to.equal(true);
      writeFileSync(join(outside, 'call_1'), 'outside\n');
      arm(s);
      expect(s.read('t1', 'call_1')).to.deep.equal({ ok: true, content: 'mine\n' });
      s.close();
    });
    it('race, expiry: scripts/ swapped when expiry opens it — the expired artifact goes, the symlink target stays', async () => {
      const s = racing('scripts', swapScripts(), 50);
      expect(s.retain('t1', 'call_1', 'mine\n')).to.equal(true);
      writeFileSync(join(outside, 'call_1'), 'outside\n');
      arm(s);
      await sleep(200);
      expect(readFileSync(join(outside, 'call_1'), 'utf8')).to.equal('outside\n');
      expect(existsSync(join(tmp.dir, 'moved', 'call_1'))).to.equal(false);
      s.close();
    });
    it('race, cleanup: hpatch-<thread> swapped after shutdown opened it — only the opened directory is emptied', () => {
      const s = racing('thread', () => {
        renameSync(join(base, 'hpatch-t1'), join(tmp.dir, 'moved'));
        symlinkSync(outside, join(base, 'hpatch-t1'));
      });
      expect(s.retain('t1', 'call_1', 'x\n')).to.equal(true);
      mkdirSync(join(outside, 'scripts'));
      writeFileSync(join(outside, 'scripts', 'call_1'), 'outside\n');
      writeFileSync(join(outside, '.runtime'), 'outside\n');
      arm(s);
      s.close();
      expect(readFileSync(join(outside, 'scripts', 'call_1'), 'utf8')).to.equal('outside\n');
      expect(readFileSync(join(outside, '.runtime'), 'utf8')).to.equal('outside\n');
      expect(readdirSync(join(tmp.dir, 'moved'))).to.deep.equal([]);
    });
    it('race, bind: hpatch-<thread> swapped after it was opened — .runtime is placed in the opened directory', () => {
      const s = racing('thread', () => {
        renameSync(join(base, 'hpatch-t1'), join(tmp.dir, 'moved'));
        symlinkSync(outside, join(base, 'hpatch-t1'));
      });
      arm(s);
      s.bind('t1');
      expect(readdirSync(outside)).to.deep.equal([]);
      expect(readlinkSync(join(tmp.dir, 'moved', '.runtime'))).to.equal(WORKER);
      s.close();
    });

    it('a second process swapping scripts/ and hpatch-<thread> for escaping symlinks mid-operation redirects no write, read or removal', async () => {
      expect(storage.retain('t1', 'seed', 'seed\n')).to.equal(true);
      writeFileSync(join(outside, 'seed'), 'outside\n');
      const thread = join(base, 'hpatch-t1');
      // Swaps as fast as it can: the real directory out, an escaping symlink in, and back.
      const swapper = spawn('bash', ['-c', `
        cd ${JSON.stringify(thread)} || exit 1
        while :; do
          mv -T scripts scripts.real 2>/dev/null || continue
          ln -s ${JSON.stringify(outside)} scripts 2>/dev/null
          rm -f scripts 2>/dev/null; mv -T scripts.real scripts 2>/dev/null
        done`], { stdio: 'ignore' });
      try {
        await sleep(50);
        const kept: string[] = [];
        for (let i = 0; i < 400; i++) {
          if (storage.retain('t1', `call_${i}`, `body ${i}\n`)) kept.push(`call_${i}`);
          const r = storage.read('t1', 'seed');
          if (r.ok) expect(r.content).to.equal('seed\n');
          if (i % 50 === 0) await sleep(1);
        }
        expect(kept.length, 'some retentions succeed between swaps').to.be.greaterThan(0);
      } finally {
        swapper.kill('SIGKILL');
        await new Promise((r) => swapper.once('exit', r));
      }
      // Restore the real directory if the swapper stopped mid-swap.
      if (existsSync(join(thread, 'scripts.real'))) {
        rmSync(join(thread, 'scripts'), { force: true, recursive: lstatSync(join(thread, 'scripts'), { throwIfNoEntry: false })?.isDirectory() ?? false });
        renameSync(join(thread, 'scripts.real'), join(thread, 'scripts'));
      }
      expect(readdirSync(outside)).to.deep.equal(['seed']);
      expect(readFileSync(join(outside, 'seed'), 'utf8')).to.equal('outside\n');
      for (const name of readdirSync(scripts('t1'))) expect(readFileSync(join(scripts('t1'), name), 'utf8')).to.match(/^(seed|body \d+)\n$/);
    });
  });
});
