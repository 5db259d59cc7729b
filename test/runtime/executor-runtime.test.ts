// Router startup, executor side: base → lock (only with frontends) → pinned snapshot → frontends.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { frontendStartupProblems, startExecutorRuntime, type ExecutorRuntime } from '../../host/runtime/executor-runtime.ts';
import { LOCK_FILE } from '../../host/runtime/frontend-lock.ts';
import { wrapperPath } from '../../host/runtime/snapshot.ts';
import { fakeInstall, plugin, privateArea, type Area } from './runtime-fixtures.ts';

const RUNTIME_MODULE = new URL('../../host/runtime/executor-runtime.ts', import.meta.url).href;

describe('executor runtime startup', function () {
  this.timeout(30_000);
  let area: Area;
  let install: string;
  const started: ExecutorRuntime[] = [];
  const env = () => ({ HPATCH_RUNTIME_DIR: area.base, HPATCH_FRONTEND_DIR: area.bin });
  const start = (plugins = [plugin(['lint'])]) => {
    const r = startExecutorRuntime({ env: env(), installRoot: install, plugins });
    if (r.ok) started.push(r.runtime);
    return r;
  };

  beforeEach(() => {
    area = privateArea('xrt');
    install = fakeInstall(area.root);
  });
  afterEach(() => {
    for (const r of started.splice(0)) r.release();
    area.cleanup();
  });

  it('a built-in-only registry gets a snapshot but no lock and no frontends', () => {
    const r = start([]);
    expect(r.ok).to.equal(true);
    if (!r.ok) return;
    expect(r.runtime.lock).to.equal(null);
    expect(r.runtime.frontendDir).to.equal(null);
    expect(existsSync(join(area.base, LOCK_FILE))).to.equal(false);
    expect(readdirSync(area.bin)).to.deep.equal([]);
    expect(readdirSync(join(area.base, 'pins'))).to.have.length(1);
    r.runtime.release();
    expect(readdirSync(join(area.base, 'pins'))).to.have.length(0);
  });

  it('configured tools: holds the lock, pins the snapshot, installs the frontends', () => {
    const r = start();
    expect(r.ok, r.ok ? '' : r.problems.join('\n')).to.equal(true);
    if (!r.ok) return;
    expect(r.runtime.lock?.holder.pid).to.equal(process.pid);
    expect(readlinkSync(join(area.bin, 'lint'))).to.equal(wrapperPath(r.runtime.snapshot.dir, 'lint'));
    expect(r.runtime.frontends).to.deep.equal([join(area.bin, 'lint')]);
  });

  it('a concurrent router fails startup naming the holder; a conflict is reported and releases everything', () => {
    expect(start().ok).to.equal(true);
    const second = start();
    expect(second.ok).to.equal(false);
    if (second.ok) return;
    expect(second.problems.join('\n')).to.match(new RegExp(`held by a running hpatch-router \\(pid ${process.pid}\\)`));
    for (const r of started.splice(0)) r.release();

    writeFileSync(join(area.bin, 'fmt'), 'mine');
    const third = start([plugin(['lint', 'fmt'])]);
    expect(third.ok).to.equal(false);
    if (third.ok) return;
    expect(third.problems).to.have.length(1);
    expect(third.problems[0]).to.match(/configured-tool symlink conflicts: .*fmt exists and is not a symlink/);
    expect(existsSync(join(area.base, LOCK_FILE))).to.equal(false);
    expect(readdirSync(join(area.base, 'pins'))).to.deep.equal([]);
    // The read-only check reports the same conflict without a snapshot or lock.
    expect(frontendStartupProblems({ env: env(), tools: ['lint', 'fmt'] })).to.have.length(1);
  });

  it('needs a known frontend directory when tools are configured', () => {
    const r = startExecutorRuntime({ env: { HPATCH_RUNTIME_DIR: area.base }, installRoot: install, plugins: [plugin(['lint'])], invokedAs: '' });
    expect(r.ok).to.equal(false);
    if (!r.ok) expect(r.problems[0]).to.match(/stable frontend directory is unknown/);
  });

  it('after a SIGKILLed router, a later one recovers the lock and replaces its frontends; the old snapshot remains', async () => {
    const code = `import { startExecutorRuntime } from ${JSON.stringify(RUNTIME_MODULE)};
const r = startExecutorRuntime({ env: ${JSON.stringify(env())}, installRoot: ${JSON.stringify(install)},
  plugins: [{ origin: '/p.mjs', id: 'test.plugin', source: 'old', tools: ['lint'] }] });
process.stdout.write(r.ok ? r.runtime.snapshot.dir + '\\n' : 'FAILED ' + r.problems.join('; ') + '\\n'); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import=tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    const oldDir = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(String(d).trim()));
      child.once('exit', (c) => reject(new Error(`child exited ${c}`)));
    });
    expect(oldDir).not.to.match(/^FAILED/);
    expect(readlinkSync(join(area.bin, 'lint'))).to.equal(wrapperPath(oldDir, 'lint'));
    expect(start().ok).to.equal(false); // still alive: refused
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
    const r = start([plugin(['lint'], 'new')]);
    expect(r.ok, r.ok ? '' : r.problems.join('\n')).to.equal(true);
    if (!r.ok) return;
    expect(readlinkSync(join(area.bin, 'lint'))).to.equal(wrapperPath(r.runtime.snapshot.dir, 'lint'));
    expect(r.runtime.snapshot.dir).not.to.equal(oldDir);
    expect(existsSync(oldDir)).to.equal(true);
  });
});
