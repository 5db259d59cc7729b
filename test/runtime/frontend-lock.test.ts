// The frontend lock: exclusive for a router's lifetime, recovered after its holder dies.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireFrontendLock, FrontendLockError, frontendLockHolder, LOCK_FILE } from '../../host/runtime/frontend-lock.ts';
import { selfIdentity } from '../../host/runtime/process-identity.ts';
import { privateArea, type Area } from './runtime-fixtures.ts';

const LOCK_MODULE = new URL('../../host/runtime/frontend-lock.ts', import.meta.url).href;

/** A child process that takes the lock, reports, and waits to be killed. */
async function childHoldingLock(base: string): Promise<{ pid: number; kill: () => Promise<void> }> {
  const code = `import { acquireFrontendLock } from ${JSON.stringify(LOCK_MODULE)};
acquireFrontendLock(${JSON.stringify(base)}); process.stdout.write('locked\\n'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import=tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (c) => reject(new Error(`child exited ${c}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { pid: child.pid!, kill: async () => { child.kill('SIGKILL'); await exited; } };
}

describe('frontend lock', function () {
  this.timeout(30_000);
  let area: Area;
  beforeEach(() => {
    area = privateArea('lock');
  });
  afterEach(() => area.cleanup());

  it('is created exclusively with the holder pid and start time, and released', () => {
    const lock = acquireFrontendLock(area.base);
    const record = JSON.parse(readFileSync(join(area.base, LOCK_FILE), 'utf8')) as Record<string, unknown>;
    expect(record).to.include({ pid: process.pid, start: selfIdentity().start });
    expect(frontendLockHolder(area.base)?.pid).to.equal(process.pid);
    lock.release();
    lock.release();
    expect(existsSync(join(area.base, LOCK_FILE))).to.equal(false);
  });

  it('refuses a second holder while the first lives, naming its pid', async () => {
    const child = await childHoldingLock(area.base);
    try {
      expect(() => acquireFrontendLock(area.base)).to.throw(FrontendLockError, new RegExp(`held by a running hpatch-router \\(pid ${child.pid}\\)`));
    } finally {
      await child.kill();
    }
  });

  it('recovers the lock of a SIGKILLed holder', async () => {
    const child = await childHoldingLock(area.base);
    await child.kill();
    expect(existsSync(join(area.base, LOCK_FILE))).to.equal(true);
    const lock = acquireFrontendLock(area.base);
    expect(lock.holder.pid).to.equal(process.pid);
    lock.release();
  });

  it('treats a reused pid (different start time) and a garbage record as stale', () => {
    writeFileSync(join(area.base, LOCK_FILE), JSON.stringify({ pid: process.pid, start: '1' }));
    acquireFrontendLock(area.base).release();
    writeFileSync(join(area.base, LOCK_FILE), 'garbage');
    acquireFrontendLock(area.base).release();
  });
});
