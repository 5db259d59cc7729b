// Snapshots: content-addressed copies of the runtime and plugin sources, verified on every use.
import { expect } from 'chai';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  createSnapshot, ENTRY_PATH, LAUNCHER_PATH, SHELL_WRAPPER_PATH, MANIFEST_FILE, NODE_MODULES_PATH, pinSnapshot, pruneSnapshots, readVerifiedFile,
  SnapshotError, snapshotHashOf, verifySnapshot, WRAPPER_TARGET,
} from '../../host/runtime/snapshot.ts';
import { fakeInstall, plugin, privateArea, type Area } from './runtime-fixtures.ts';

describe('snapshot', () => {
  let area: Area;
  let install: string;
  beforeEach(() => {
    area = privateArea('snap');
    install = fakeInstall(area.root);
  });
  afterEach(() => area.cleanup());

  const input = (plugins = [plugin(['lint'], 'export default { id: 1 };\n')]) => ({ base: area.base, installRoot: install, plugins, frontendDir: area.bin });

  it('copies the launcher, the shell wrapper, dist (without source maps and code caches) and plugin sources under sha256(manifest)', () => {
    const snap = createSnapshot(input());
    const manifestBytes = readFileSync(join(snap.dir, MANIFEST_FILE));
    expect(snap.hash).to.equal(createHash('sha256').update(manifestBytes).digest('hex'));
    expect(snap.dir).to.equal(join(area.base, 'snapshots', snap.hash));
    expect(snap.manifest.files.map((f) => f.path)).to.deep.equal([
      'plugins/000-p.mjs', LAUNCHER_PATH, SHELL_WRAPPER_PATH, 'runtime/dist/chunks/a.mjs', ENTRY_PATH,
      'runtime/dist/interp.blob', 'runtime/dist/interp.blob.stamp', 'runtime/dist/mvdan-sh.js',
    ]);
    // The shell wrapper trusts the stamp only while its mtime (in seconds) is the node binary's: the copy keeps it.
    const seconds = (p: string): number => Math.floor(lstatSync(p).mtimeMs / 1000);
    expect(seconds(join(snap.dir, 'runtime/dist/interp.blob.stamp'))).to.equal(seconds(join(install, 'dist', 'interp.blob.stamp')));
    expect(readFileSync(join(snap.dir, 'plugins/000-p.mjs'), 'utf8')).to.equal('export default { id: 1 };\n');
    expect(lstatSync(join(snap.dir, LAUNCHER_PATH)).mode & 0o777).to.equal(0o500);
    expect(snap.manifest.plugins).to.deep.equal([{ file: 'plugins/000-p.mjs', origin: '/cfg/hpatch/plugins/p.mjs', id: 'test.plugin', tools: ['lint'] }]);
    expect(snap.manifest.frontendDir).to.equal(area.bin);
  });

  it('makes each wrapper a relative symlink to the snapshot launcher, and references node_modules', () => {
    const snap = createSnapshot(input());
    expect(readlinkSync(join(snap.dir, 'wrappers', 'lint'))).to.equal(WRAPPER_TARGET);
    expect(realpathSync(join(snap.dir, 'wrappers', 'lint'))).to.equal(join(snap.dir, LAUNCHER_PATH));
    expect(readlinkSync(join(snap.dir, NODE_MODULES_PATH))).to.equal(realpathSync(join(install, 'node_modules')));
  });

  it('reuses an identical snapshot after verifying it, and leaves no temp dirs', () => {
    const a = createSnapshot(input());
    const b = createSnapshot(input());
    expect(b.dir).to.equal(a.dir);
    expect(snapshotHashOf(input())).to.equal(a.hash);
    const entries = spawnSync('ls', ['-A', join(area.base, 'snapshots')], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(entries).to.deep.equal([a.hash]);
  });

  it('gets a different identity when a plugin source or the bundle changes', () => {
    const a = createSnapshot(input());
    const b = createSnapshot(input([plugin(['lint'], 'export default { id: 2 };\n')]));
    writeFileSync(join(install, 'dist', 'chunks', 'a.mjs'), 'export const a = 2;\n');
    const c = createSnapshot(input());
    expect(new Set([a.hash, b.hash, c.hash]).size).to.equal(3);
    // The first one is untouched by the later builds: a reinstall cannot change a running snapshot.
    expect(verifySnapshot(a.dir).hash).to.equal(a.hash);
  });

  describe('tamper detection', () => {
    const tamper = (fn: (dir: string) => void, pattern: RegExp) => () => {
      const snap = createSnapshot(input());
      fn(snap.dir);
      expect(() => verifySnapshot(snap.dir)).to.throw(SnapshotError, pattern);
    };
    const rewrite = (file: string, text: string) => {
      chmodSync(file, 0o600);
      writeFileSync(file, text);
    };
    it('refuses a modified plugin source', tamper((d) => rewrite(join(d, 'plugins/000-p.mjs'), 'export default { id: 666 };\n'), /plugins\/000-p.mjs was modified/));
    it('refuses a modified chunk of the same size', tamper((d) => rewrite(join(d, 'runtime/dist/chunks/a.mjs'), 'export const a = 9;\n'), /a.mjs was modified/));
    it('refuses a modified manifest', tamper((d) => rewrite(join(d, MANIFEST_FILE), readFileSync(join(d, MANIFEST_FILE), 'utf8').replace('"lint"', '"lunt"')), /manifest does not match/));
    it('refuses an extra file', tamper((d) => writeFileSync(join(d, 'runtime/dist/chunks/evil.mjs'), ''), /unexpected entry runtime\/dist\/chunks\/evil.mjs/));
    it('refuses a missing file', tamper((d) => unlinkSync(join(d, ENTRY_PATH)), /runtime\/dist\/hpatch-router.mjs is missing/));
    it('refuses a retargeted wrapper', tamper((d) => {
      unlinkSync(join(d, 'wrappers/lint'));
      symlinkSync('/bin/true', join(d, 'wrappers/lint'));
    }, /symlink wrappers\/lint was retargeted/));
    it('refuses a file replaced by a symlink', tamper((d) => {
      unlinkSync(join(d, 'plugins/000-p.mjs'));
      symlinkSync('/etc/hostname', join(d, 'plugins/000-p.mjs'));
    }, /is a link, expected a file/));
    it('refuses a directory whose name is not the manifest hash', () => {
      const snap = createSnapshot(input());
      const other = join(area.base, 'snapshots', 'f'.repeat(64));
      spawnSync('cp', ['-a', snap.dir, other]);
      expect(() => verifySnapshot(other)).to.throw(SnapshotError, /manifest does not match/);
    });
    it('readVerifiedFile re-checks the bytes it returns', () => {
      const snap = createSnapshot(input());
      rewrite(join(snap.dir, 'plugins/000-p.mjs'), 'x');
      expect(() => readVerifiedFile(snap, 'plugins/000-p.mjs')).to.throw(SnapshotError, /was modified/);
    });
  });

  it('replaces a tampered snapshot of the same identity instead of reusing it', () => {
    const snap = createSnapshot(input());
    chmodSync(join(snap.dir, 'plugins/000-p.mjs'), 0o600);
    writeFileSync(join(snap.dir, 'plugins/000-p.mjs'), 'tampered');
    const again = createSnapshot(input());
    expect(again.hash).to.equal(snap.hash);
    expect(readFileSync(join(again.dir, 'plugins/000-p.mjs'), 'utf8')).to.equal('export default { id: 1 };\n');
  });

  it('refuses built-in and unsafe tool names', () => {
    for (const name of ['shell', 'hread', 'hgrep', 'hsymbol', 'inspect_file', '../x', 'a/b']) {
      expect(() => createSnapshot(input([plugin([name])])), name).to.throw(SnapshotError, /cannot have an executor frontend/);
    }
    expect(() => createSnapshot(input([plugin(['x']), plugin(['x'], 'y', '/q.mjs')]))).to.throw(SnapshotError, /declared twice/);
  });

  it('refuses an install without its entry', () => {
    rmSync(join(install, 'dist', 'hpatch-router.mjs'));
    expect(() => createSnapshot(input())).to.throw(SnapshotError, /hpatch-router.mjs is missing/);
  });

  describe('pins and pruning', () => {
    const old = (dir: string) => utimesSync(dir, new Date(0), new Date(0));

    it('keeps pinned, kept and recent snapshots; removes old unpinned ones', () => {
      const a = createSnapshot(input([plugin(['a'])]));
      const b = createSnapshot(input([plugin(['b'])]));
      const c = createSnapshot(input([plugin(['c'])]));
      const d = createSnapshot(input([plugin(['d'])]));
      const pin = pinSnapshot(area.base, a.hash);
      for (const s of [a, b, c]) old(s.dir);
      const removed = pruneSnapshots(area.base, { keep: [b.hash] });
      expect(removed).to.deep.equal([c.hash]);
      expect(existsSync(a.dir) && existsSync(b.dir) && existsSync(d.dir)).to.equal(true);
      pin.release();
      old(a.dir);
      // b is no longer kept by anyone; d is still within the grace period.
      expect(pruneSnapshots(area.base).sort()).to.deep.equal([a.hash, b.hash].sort());
      expect(existsSync(d.dir)).to.equal(true);
    });

    it('treats a pin of a dead process as absent and removes it', () => {
      const a = createSnapshot(input());
      mkdirSync(join(area.base, 'pins'), { recursive: true });
      const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
      const deadPin = join(area.base, 'pins', 'dead.json');
      writeFileSync(deadPin, JSON.stringify({ pid: Number(child.stdout), start: '1', snapshot: a.hash }));
      old(a.dir);
      expect(pruneSnapshots(area.base)).to.deep.equal([a.hash]);
      expect(existsSync(deadPin)).to.equal(false);
    });
  });
});
