// The README's quick start on a fresh machine (issue 18): `make install` with the default PREFIX
// (~/.local), Debian's stock ~/.profile (which puts ~/.local/bin on a login shell's PATH once it
// exists), the Codex provider from the README, the installed router started — then the installed
// `hpatch-router doctor` reports every check ✓ and exits 0.
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/codex-cli.ts';
import { startScriptedUpstream } from '../support/scripted-upstream.ts';
import { tempDir } from '../support/temp-dir.ts';

// The lines of Debian's /etc/skel/.profile that matter here.
const DEBIAN_PROFILE = `# set PATH so it includes user's private bin if it exists
if [ -d "$HOME/bin" ] ; then
    PATH="$HOME/bin:$PATH"
fi
if [ -d "$HOME/.local/bin" ] ; then
    PATH="$HOME/.local/bin:$PATH"
fi
`;

describe('quick start: make install, then doctor all ✓', function () {
  this.timeout(300_000);

  it('the installed doctor passes every check on a fresh HOME with the stock ~/.profile', async () => {
    const machine = tempDir('fresh-machine');
    const upstream = await startScriptedUpstream([]);
    let router: ChildProcess | undefined;
    try {
      const home = join(machine.dir, 'home');
      mkdirSync(home);
      writeFileSync(join(home, '.profile'), DEBIAN_PROFILE);
      // A fresh user's environment: no XDG overrides, nothing of this project on PATH. The runtime
      // base is private to the test only so that other routers on this machine cannot interfere.
      const env: NodeJS.ProcessEnv = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, USER: process.env['USER'] ?? 'root', LANG: 'C.UTF-8', HPATCH_RUNTIME_DIR: join(machine.dir, 'runtime') };
      const make = spawnSync('make', ['install'], { cwd: PROJECT_ROOT, encoding: 'utf8', env: { ...process.env, HOME: home } });
      expect(make.status, make.stderr + make.stdout).to.equal(0);
      const bin = join(home, '.local', 'bin', 'hpatch-router');
      mkdirSync(join(home, '.codex'));

      router = spawn(bin, ['--listen', '127.0.0.1:0', '--upstream', upstream.url], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const url = await new Promise<string>((resolve, reject) => {
        router!.stdout!.once('data', (d: Buffer) => resolve(/listening on (\S+)/.exec(String(d))![1]!));
        router!.once('exit', (code) => reject(new Error(`router exited ${code}`)));
      });
      const listen = new URL(url).host;
      writeFileSync(join(home, '.codex', 'config.toml'), `model_provider = "hpatch"\n\n[model_providers.hpatch]\nname = "hpatch-router"\nbase_url = "${url}/v1"\nenv_key = "OPENAI_API_KEY"\nwire_api = "responses"\n`);

      const child = spawn(bin, ['doctor', '--listen', listen, '--upstream', upstream.url], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(status, out + err).to.equal(0);
      const lines = out.trimEnd().split('\n');
      expect(lines.pop()).to.match(/^all \d+ checks passed$/);
      expect(lines.every((l) => l.startsWith('✓ ')), out).to.equal(true);
      expect(out).to.contain(`✓ login PATH: shell: ${join(home, '.local', 'bin', 'shell')}\n`);
      expect(out).to.contain(`✓ state dir: ${join(home, '.local', 'state', 'hpatch-router', 'ledger')}: yours, mode 0700`);
      expect(err).to.equal('');
    } finally {
      router?.kill('SIGTERM');
      if (router && router.exitCode === null) await new Promise((r) => router!.once('exit', r));
      await upstream.close();
      machine.cleanup();
    }
  });
});
