// Process control: cancellation kills external process groups (even descendants that keep
// the shell's streams open); on a PTY, external commands stay in the foreground process
// group so they can read /dev/tty.
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const entry = path.resolve('host/interp/launch/main.ts');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
function alive(marker: string): boolean {
  const r = spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() !== '';
}

describe('interp process control', function () {
  this.timeout(30000);

  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${sig} cancels the script and kills descendants holding the streams`, async () => {
      const marker = `${37 + Math.random()}`.slice(0, 8);
      const child = spawn(process.execPath, ['--import', 'tsx', entry, '-c', `echo started; sh -c 'sleep ${marker} & sleep ${marker}; :'; echo not-reached`], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
      const closed = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
      for (let i = 0; i < 100 && !(out.includes('started') && alive(`sleep ${marker}`)); i++) await sleep(100);
      expect(alive(`sleep ${marker}`)).to.equal(true);
      child.kill(sig);
      const code = await closed; // 'close' also waits for the inherited stdout pipe: descendants must be gone
      expect(code).to.equal(128 + ({ SIGTERM: 15, SIGINT: 2, SIGHUP: 1 } as const)[sig]);
      expect(out).to.not.include('not-reached');
      await sleep(200);
      expect(alive(`sleep ${marker}`)).to.equal(false);
    });
  }

  // loops whose bodies never wait for the event loop: builtins only, and statements that run without a promise
  for (const loop of ['while :; do :; done', 'while ((1)); do x=1; done', 'for ((;;)); do y=${x:-a}; done', '{ while :; do :; done; } & while :; do :; done']) {
    it(`stays cancellable in a CPU-bound in-process loop: ${loop}`, async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', entry, '-c', `echo started; ${loop}`], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
      const closed = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
      for (let i = 0; i < 100 && !out.includes('started'); i++) await sleep(100);
      await sleep(200);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      const code = await closed;
      clearTimeout(timer);
      expect(code).to.equal(143);
    });
  }

  /** Runs `script` (which prints `waiting` first), sends SIGTERM once it waits: how it ended, and how long that took. */
  async function cancelWhileWaiting(script: string, stdin: 'pipe' | 'ignore'): Promise<{ end: string; ms: number; out: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', entry, '-c', script], { stdio: [stdin, 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    const closed = new Promise<string>((res) => child.on('close', (code, signal) => res(signal ?? String(code))));
    for (let i = 0; i < 100 && !out.includes('waiting'); i++) await sleep(100);
    await sleep(200);
    child.kill('SIGTERM');
    const t0 = Date.now();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    const end = await closed;
    clearTimeout(timer);
    return { end, ms: Date.now() - t0, out };
  }

  it('stays cancellable while a builtin waits for input on an open stdin pipe', async () => {
    const r = await cancelWhileWaiting('echo waiting; read x; echo "got $x"', 'pipe');
    // exit status 143, or death by SIGTERM when a read was blocked in a libuv thread
    expect(['143', 'SIGTERM']).to.include(r.end);
    expect(r.ms).to.be.lessThan(3000);
    expect(r.out).to.equal('waiting\n');
  });

  // opening a FIFO waits for its other end in a libuv thread: cancellation must not wait for it,
  // and neither may the exit that follows (libuv joins its threads then)
  for (const redir of ['read x <f', 'exec 3>f']) {
    it(`stays cancellable while a redirection waits for a FIFO's other end: ${redir}`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'interp-fifo-'));
      try {
        const r = await cancelWhileWaiting(`cd '${dir}' && mkfifo f && echo waiting; ${redir}; echo not-reached`, 'ignore');
        expect(r.end).to.equal('143');
        expect(r.ms).to.be.lessThan(1000); // (not the 1.5 s fallback of death by the signal)
        expect(r.out).to.equal('waiting\n');
      } finally { fs.rmSync(dir, { recursive: true, force: true }); }
    });
  }

  it('runs external commands in the foreground process group on a PTY (/dev/tty input works)', async () => {
    const require = createRequire(import.meta.url);
    const pty = require('@lydell/node-pty') as typeof import('@lydell/node-pty');
    const term = pty.spawn(process.execPath, ['--import', 'tsx', entry, '-c', "echo ready; sh -c 'read x < /dev/tty; echo got:$x' | cat; read y; echo builtin:$y"], {
      cwd: process.cwd(), env: process.env as Record<string, string>, cols: 80, rows: 24,
    });
    let out = '';
    term.onData((d) => { out += d; });
    const exited = new Promise<number>((res) => term.onExit((e) => res(e.exitCode)));
    for (let i = 0; i < 100 && !out.includes('ready'); i++) await sleep(100);
    await sleep(300);
    term.write('hello\r');
    for (let i = 0; i < 50 && !out.includes('got:hello'); i++) await sleep(100);
    term.write('world\r');
    const code = await exited;
    expect(out).to.include('got:hello');
    expect(out).to.include('builtin:world');
    expect(code).to.equal(0);
  });
});
