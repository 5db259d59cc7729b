// Stable frontends: <frontend dir>/<tool> → <snapshot>/wrappers/<tool>, created, verified, replaced or refused.
import { expect } from 'chai';
import { chmodSync, mkdirSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureFrontends, frontendDirectory, inspectFrontend, planFrontends } from '../../host/runtime/frontends.ts';
import { createSnapshot, LAUNCHER_PATH, wrapperPath, type Snapshot } from '../../host/runtime/snapshot.ts';
import { fakeInstall, plugin, privateArea, type Area } from './runtime-fixtures.ts';

describe('frontends', () => {
  let area: Area;
  let install: string;
  let snap: Snapshot;
  const snapshotOf = (source: string, tools = ['lint', 'fmt']) => createSnapshot({ base: area.base, installRoot: install, plugins: [plugin(tools, source)], frontendDir: area.bin });
  const ensure = (s: Snapshot, tools = ['lint', 'fmt']) => ensureFrontends({ dir: area.bin, tools, base: area.base, snapshotDir: s.dir });

  beforeEach(() => {
    area = privateArea('front');
    install = fakeInstall(area.root);
    snap = snapshotOf('v1');
  });
  afterEach(() => area.cleanup());

  it('creates a missing frontend whose basename is the tool and whose target is the snapshot wrapper', () => {
    const r = ensure(snap);
    expect(r.problems).to.deep.equal([]);
    expect(r.created).to.deep.equal([join(area.bin, 'lint'), join(area.bin, 'fmt')]);
    expect(readlinkSync(join(area.bin, 'lint'))).to.equal(wrapperPath(snap.dir, 'lint'));
    expect(realpathSync(join(area.bin, 'lint'))).to.equal(join(snap.dir, LAUNCHER_PATH));
  });

  it('verifies current frontends without touching them', () => {
    ensure(snap);
    const r = ensure(snap);
    expect(r).to.deep.include({ problems: [], created: [], replaced: [] });
    expect(r.verified).to.have.length(2);
  });

  it('replaces a frontend of an older authenticated snapshot, which itself stays', () => {
    ensure(snap);
    const next = snapshotOf('v2');
    const r = ensure(next);
    expect(r.problems).to.deep.equal([]);
    expect(r.replaced).to.have.length(2);
    expect(readlinkSync(join(area.bin, 'lint'))).to.equal(wrapperPath(next.dir, 'lint'));
    expect(inspectFrontend(area.bin, 'lint', area.base, wrapperPath(snap.dir, 'lint')).kind).to.equal('prior');
  });

  it('replaces a frontend whose old snapshot was pruned (a dangling link into the private base)', () => {
    ensure(snap);
    rmSync(snap.dir, { recursive: true, force: true });
    const next = snapshotOf('v2');
    expect(ensure(next).replaced).to.have.length(2);
  });

  it('retires frontends of tools no longer configured, and only links into this base', () => {
    ensure(snap);
    symlinkSync('/usr/bin/env', join(area.bin, 'other'));
    const next = snapshotOf('v2', ['lint']);
    const r = ensure(next, ['lint']);
    expect(r.retired).to.deep.equal([join(area.bin, 'fmt')]);
    expect(readlinkSync(join(area.bin, 'other'))).to.equal('/usr/bin/env');
  });

  it('refuses a regular file where a frontend should go, and writes nothing', () => {
    writeFileSync(join(area.bin, 'lint'), '#!/bin/sh\n');
    const r = ensure(snap);
    expect(r.problems).to.have.length(1);
    expect(r.problems[0]).to.match(/^configured-tool symlink conflicts: .*\/lint exists and is not a symlink/);
    expect(() => readlinkSync(join(area.bin, 'fmt'))).to.throw(/ENOENT/);
  });

  it('refuses a symlink to somewhere else', () => {
    symlinkSync('/usr/bin/env', join(area.bin, 'lint'));
    expect(ensure(snap).problems).to.deep.equal([`configured-tool symlink conflicts: ${join(area.bin, 'lint')} points to /usr/bin/env, not an hpatch-router snapshot wrapper`]);
  });

  it("refuses a link to another tool's wrapper and one into a tampered snapshot", () => {
    symlinkSync(wrapperPath(snap.dir, 'fmt'), join(area.bin, 'lint'));
    const next = snapshotOf('v2');
    expect(ensure(next, ['lint']).problems[0]).to.match(/the wrapper of another tool \(fmt\)/);
    rmSync(join(area.bin, 'lint'));
    symlinkSync(wrapperPath(snap.dir, 'lint'), join(area.bin, 'lint'));
    chmodSync(join(snap.dir, 'plugins/000-p.mjs'), 0o600);
    writeFileSync(join(snap.dir, 'plugins/000-p.mjs'), 'tampered');
    expect(ensure(next, ['lint']).problems[0]).to.match(/a snapshot that fails verification/);
  });

  it('reports every conflict together', () => {
    writeFileSync(join(area.bin, 'lint'), '');
    mkdirSync(join(area.bin, 'fmt'));
    expect(planFrontends({ dir: area.bin, tools: ['lint', 'fmt'], base: area.base, snapshotDir: null }).problems).to.have.length(2);
  });

  it('refuses an unusable frontend directory and built-in names', () => {
    expect(ensure(snap).problems).to.deep.equal([]);
    const notDir = join(area.root, 'file');
    writeFileSync(notDir, '');
    expect(ensureFrontends({ dir: notDir, tools: ['lint'], base: area.base, snapshotDir: snap.dir }).problems[0]).to.match(/is not a directory/);
    expect(ensureFrontends({ dir: join(area.root, 'absent'), tools: ['lint'], base: area.base, snapshotDir: snap.dir }).problems[0]).to.match(/unusable \(ENOENT\)/);
    expect(planFrontends({ dir: area.bin, tools: ['shell', 'hgrep'], base: area.base, snapshotDir: snap.dir }).problems).to.have.length(2);
  });

  it('finds the frontend directory from the override or beside the invoked launcher (symlinks unresolved)', () => {
    expect(frontendDirectory({ HPATCH_FRONTEND_DIR: '/opt/x' }, '/usr/bin/hpatch-router')).to.equal('/opt/x');
    expect(frontendDirectory({}, '/home/u/.local/bin/hpatch-router')).to.equal('/home/u/.local/bin');
    expect(frontendDirectory({}, 'bin/hpatch-router', '/w')).to.equal('/w/bin');
    expect(frontendDirectory({}, undefined)).to.equal(null);
  });
});
