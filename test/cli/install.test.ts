// `make install PREFIX=…` (brief §5): the installed executable starts on its own, from any cwd.
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { verifySnapshot } from '../../host/runtime/snapshot.ts';
import { capturedRequest } from '../support/fixtures.ts';
import { startScriptedUpstream } from '../support/scripted-upstream.ts';
import { PROJECT_ROOT } from '../support/codex-cli.ts';
import { ODD_ENV } from '../support/odd-env.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('make install', function () {
  this.timeout(300_000);

  it('installs a working hpatch-router under PREFIX', async () => {
    const prefix = tempDir('install');
    try {
      const make = spawnSync('make', ['install', `PREFIX=${prefix.dir}`], { cwd: PROJECT_ROOT, encoding: 'utf8' });
      expect(make.status, make.stderr + make.stdout).to.equal(0);
      const bin = join(prefix.dir, 'bin', 'hpatch-router');
      expect(lstatSync(bin).isSymbolicLink()).to.equal(true);
      expect(existsSync(join(prefix.dir, 'lib', 'hpatch-router', 'node_modules', 'typescript'))).to.equal(false);
      const help = spawnSync(bin, ['--help'], { cwd: prefix.dir, encoding: 'utf8' });
      expect(help.status).to.equal(0);
      expect(help.stdout).to.contain('usage: hpatch-router');
      const version = spawnSync(bin, ['--version'], { cwd: prefix.dir, encoding: 'utf8' });
      const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
      expect([version.stdout, version.status]).to.deep.equal([`hpatch-router ${pkg.version}\n`, 0]);
      // The packed SDK, with the core runtime, is what a scaffold made by the installed router depends on.
      const sdkDir = join(prefix.dir, 'lib', 'hpatch-router', 'sdk');
      const tarballs = readdirSync(sdkDir);
      expect(tarballs).to.deep.equal(['hpatch-router-sdk-1.0.0.tgz']);
      const listing = spawnSync('tar', ['tzf', join(sdkDir, tarballs[0]!)], { encoding: 'utf8' });
      expect(listing.stdout.split('\n')).to.include.members(['package/package.json', 'package/index.d.ts', 'package/core-v1.d.ts', 'package/core-v1.mjs', 'package/core-v1/shell-quote.d.ts']);
      const scaffold = spawnSync(bin, ['plugins', 'new', 'demo'], { cwd: prefix.dir, encoding: 'utf8' });
      expect(scaffold.status, scaffold.stderr).to.equal(0);
      const demo = JSON.parse(readFileSync(join(prefix.dir, 'demo', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
      expect(demo.devDependencies['@hpatch-router/sdk']).to.equal(`file:${join(sdkDir, tarballs[0]!)}`);
      // the interpreter starts from the installed startup snapshot (its stamp kept the node binary's mtime)
      const env = { ...process.env };
      delete env['NODE_OPTIONS'];
      const interp = spawnSync(bin, ['interp', '-c', 'echo "$1"; tr "\\0" " " </proc/$$/cmdline', 'x', 'ok'], { cwd: '/', encoding: 'utf8', env });
      expect(interp.status, interp.stderr).to.equal(0);
      expect(interp.stdout).to.match(new RegExp(`^ok\\n\\S+ (\\S+ )*--snapshot-blob ${prefix.dir}/lib/hpatch-router/dist/interp\\.blob -- `));
      // the environment passes through the installed launcher unchanged (REQ-SHELL-001 9)
      const odd = spawnSync(bin, ['interp', '-c', 'bash -c "f; printenv a.b x-y"'], { cwd: '/', encoding: 'utf8', env: { ...env, ...ODD_ENV } });
      expect([odd.stdout, odd.stderr, odd.status]).to.deep.equal(['hi\n1\n2\n', '', 0]);
      // a script the fast parser declines loads the installed mvdan-sh through its installed code cache
      const cache = join(prefix.dir, 'lib', 'hpatch-router', 'dist', `mvdan-sh.js.${process.version}.cache`);
      expect(existsSync(cache), cache).to.equal(true);
      const declined = spawnSync(bin, ['interp', '-c', 'echo $[6 * 7]'], { cwd: '/', encoding: 'utf8', env });
      expect([declined.stdout, declined.stderr, declined.status]).to.deep.equal(['42\n', '', 0]);
      const child = spawn(bin, ['--listen', '127.0.0.1:0', '--state-dir', join(prefix.dir, 'state')], { cwd: '/', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_CONFIG_HOME: join(prefix.dir, 'config'), HPATCH_RUNTIME_DIR: join(prefix.dir, 'runtime') } });
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (d: Buffer) => resolve(String(d)));
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      child.kill('SIGTERM');
      expect(line).to.match(/^listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    } finally {
      prefix.cleanup();
    }
  });

  it('installs the fixed shell locator: a working `shell` on a login PATH, which a second install while the router runs leaves pointing at the running snapshot (REQ-SHELL-001 acceptance 11)', async () => {
    const prefix = tempDir('install-shell');
    const upstream = await startScriptedUpstream([{ items: [{ type: 'custom_tool_call', name: 'shell', input: '#!python3\nprint(6 * 7)\n', call_id: 'call_inst' }] }, { items: [{ type: 'message', text: 'ok' }] }]);
    let child: ChildProcess | undefined;
    try {
      const install = (): void => {
        const make = spawnSync('make', ['install', `PREFIX=${prefix.dir}`], { cwd: PROJECT_ROOT, encoding: 'utf8' });
        expect(make.status, make.stderr + make.stdout).to.equal(0);
      };
      install();
      const locator = join(prefix.dir, 'bin', 'shell');
      expect(lstatSync(locator).isFile()).to.equal(true);
      expect(readFileSync(locator, 'utf8')).to.equal(readFileSync(join(PROJECT_ROOT, 'bin', 'shell'), 'utf8'));
      const runtimeDir = join(prefix.dir, 'runtime');
      const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: join(prefix.dir, 'config'), HPATCH_RUNTIME_DIR: runtimeDir };
      delete env['NODE_OPTIONS'];
      child = spawn(join(prefix.dir, 'bin', 'hpatch-router'), ['--listen', '127.0.0.1:0', '--state-dir', join(prefix.dir, 'state'), '--upstream', upstream.url], { cwd: '/', stdio: ['ignore', 'pipe', 'pipe'], env });
      const url = await new Promise<string>((resolve, reject) => {
        child!.stdout!.once('data', (d: Buffer) => resolve(/listening on (\S+)/.exec(String(d))![1]!));
        child!.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      // A shell call for a thread: the router binds that thread's .runtime before the carrier leaves.
      const thread = '01a2a000-0000-7000-8000-00000000beef';
      const req = capturedRequest('a-default-gpt55-001');
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'accept-encoding'].includes(k)));
      const res = await fetch(`${url}/v1/responses`, { method: 'POST', headers: { ...headers, 'thread-id': thread, 'session-id': thread }, body: JSON.stringify(req.body) });
      const sse = await res.text();
      expect(res.status, sse).to.equal(200);
      expect(sse).to.contain('shell python3');
      // Codex runs commands with `bash -lc`: the login profile puts $PREFIX/bin on PATH.
      const home = join(prefix.dir, 'home');
      mkdirSync(home);
      writeFileSync(join(home, '.profile'), `export PATH=${JSON.stringify(join(prefix.dir, 'bin'))}:"$PATH"\n`);
      const shellEnv = { ...env, HOME: home, CODEX_THREAD_ID: thread, PATH: '/usr/bin:/bin' };
      const call = (): ReturnType<typeof spawnSync> => spawnSync('bash', ['-lc', "shell python3 $'print(6 * 7)\\n'"], { env: shellEnv, encoding: 'utf8', cwd: home });
      const first = call();
      expect([first.stdout, first.status], String(first.stderr)).to.deep.equal(['42\n', 0]);
      const link = join(runtimeDir, `hpatch-${thread}`, '.runtime');
      const target = readlinkSync(link);
      expect(target).to.match(new RegExp(`^${runtimeDir}/snapshots/[0-9a-f]{64}/runtime/bin/shell-worker$`));
      // No frontend for the built-in names, no Codex file touched by the install.
      for (const name of ['hread', 'hgrep', 'hsymbol', 'inspect_file', 'hpatch']) expect(existsSync(join(prefix.dir, 'bin', name)), name).to.equal(false);
      // Reinstall while the router runs: the running router's snapshot and the thread's link stay.
      install();
      expect(readlinkSync(link)).to.equal(target);
      expect(() => verifySnapshot(dirname(dirname(dirname(target))))).to.not.throw();
      const again = call();
      expect([again.stdout, again.status], String(again.stderr)).to.deep.equal(['42\n', 0]);
    } finally {
      child?.kill('SIGTERM');
      if (child && child.exitCode === null) await new Promise((r) => child!.once('exit', r));
      await upstream.close();
      prefix.cleanup();
    }
  });
});
