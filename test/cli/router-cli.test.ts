// The built executable's command line (brief §5): exactly one `listening on` line, and every
// startup problem reported together before exiting non-zero without listening.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTER_DIST, startRouterProcess } from '../support/router-process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { PROJECT_ROOT } from '../support/codex-cli.ts';
import { ODD_ENV, RAW_ENTRY, entriesOf, withRawEntry } from '../support/odd-env.ts';

const emptyConfig = tempDir('cli-config');
after(() => emptyConfig.cleanup());

function run(args: string[], env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: emptyConfig.dir, HPATCH_RUNTIME_DIR: join(emptyConfig.dir, 'runtime') }) {
  return spawnSync(process.execPath, ['--no-node-snapshot', ROUTER_DIST, ...args], { encoding: 'utf8', env, timeout: 20_000 });
}

describe('hpatch-router command line', () => {
  it('prints exactly one listening line with the real port when :0 is asked', async () => {
    const state = tempDir('cli');
    const r = await startRouterProcess({ args: ['--mode', 'passthrough', '--upstream', 'http://127.0.0.1:9/v1', '--state-dir', state.dir] });
    try {
      expect(r.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(r.url).to.not.match(/:0$/);
    } finally {
      await r.stop();
      state.cleanup();
    }
  });

  it('reports every argument problem together, exits non-zero, and never listens', () => {
    const r = run(['--mode', 'bogus', '--listen', 'nowhere', '--upstream', 'ftp://example.com']);
    expect(r.status).to.equal(2);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.contain('3 problems');
    expect(r.stderr).to.contain('--mode must be').and.contain('--listen must be').and.contain('--upstream must be');
  });

  it('rejects unknown flags and stray arguments', () => {
    const r = run(['--frobnicate']);
    expect(r.status).to.equal(2);
    expect(r.stderr).to.contain("Unknown option '--frobnicate'");
  });

  it('fails before listening when the state directory is unusable (hpatch mode only)', () => {
    const state = tempDir('cli-bad-state');
    try {
      const dir = join(state.dir, 'world-writable');
      mkdirSync(join(dir, 'ledger'), { recursive: true });
      chmodSync(join(dir, 'ledger'), 0o777);
      const r = run(['--listen', '127.0.0.1:0', '--state-dir', dir]);
      expect(r.status).to.not.equal(0);
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.contain('ledger');
      const p = run(['--mode', 'passthrough', '--listen', '127.0.0.1:0', '--state-dir', dir, '--help']);
      expect(p.status).to.equal(0);
    } finally {
      state.cleanup();
    }
  });

  it('fails before listening when the port is taken', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = run(['--mode', 'passthrough', '--listen', `127.0.0.1:${port}`]);
      expect(r.status).to.not.equal(0);
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.contain(`cannot listen on 127.0.0.1:${port}`).and.contain('EADDRINUSE');
    } finally {
      blocker.close();
    }
  });

  it('the launcher runs `interp` from the interpreter bundle, only when invoked as hpatch-router', () => {
    const launcher = join(PROJECT_ROOT, 'bin', 'hpatch-router');
    const r = spawnSync(launcher, ['interp', '-c', 'echo "hi $1"; exit 5', 'name', 'world'], { encoding: 'utf8' });
    expect(r.stdout).to.equal('hi world\n');
    expect(r.status).to.equal(5);
    // A plugin frontend whose first argument happens to be "interp" stays a frontend.
    const dir = tempDir('launcher-alias');
    try {
      symlinkSync(launcher, join(dir.dir, 'some_tool'));
      const f = spawnSync(join(dir.dir, 'some_tool'), ['interp', '-c', 'echo escaped'], { encoding: 'utf8', env: { ...process.env, HPATCH_RUNTIME_DIR: join(dir.dir, 'runtime') } });
      expect(f.stdout).to.not.contain('escaped');
      expect(f.status).to.equal(126);
    } finally {
      dir.cleanup();
    }
  });

  it('the launcher starts the router and a frontend with the environment unchanged, names that are not identifiers included (REQ-SHELL-001 9)', () => {
    const launcher = join(PROJECT_ROOT, 'bin', 'hpatch-router');
    const dir = tempDir('launcher-env');
    try {
      // A preload reports what the process starts with, before the entry runs (and removes HPATCH_INVOKED_AS).
      const probe = join(dir.dir, 'probe.cjs');
      writeFileSync(probe, 'process.stdout.write(JSON.stringify({ env: process.env, argv: [...process.execArgv, ...process.argv.slice(1)], environ: require("fs").readFileSync("/proc/self/environ", "latin1") })); process.exit(0);\n');
      symlinkSync(launcher, join(dir.dir, 'some_tool'));
      for (const bin of [launcher, join(dir.dir, 'some_tool')]) {
        const [file, args] = withRawEntry([bin, '--help']);
        const r = spawnSync(file, args, { env: { ...process.env, ...ODD_ENV, NODE_OPTIONS: `--require ${probe}` }, encoding: 'utf8', timeout: 20_000 });
        expect(r.status, r.stderr).to.equal(0);
        const got = JSON.parse(r.stdout) as { env: Record<string, string>; argv: string[]; environ: string };
        expect(got.argv, bin).to.deep.equal(['--no-node-snapshot', join(PROJECT_ROOT, 'dist', 'hpatch-router.mjs'), '--help']);
        for (const [k, v] of Object.entries(ODD_ENV)) expect(got.env[k], `${bin}: ${k}`).to.equal(v);
        expect(got.env['HPATCH_INVOKED_AS'], bin).to.equal(bin);
        expect(entriesOf(got.environ), bin).to.include(RAW_ENTRY);
      }
    } finally {
      dir.cleanup();
    }
  });
});
