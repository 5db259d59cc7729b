// `make install PREFIX=…` (brief §5): the installed executable starts on its own, from any cwd.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/codex-cli.ts';
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
      // the interpreter starts from the installed startup snapshot (its stamp kept the node binary's mtime)
      const env = { ...process.env };
      delete env['NODE_OPTIONS'];
      const interp = spawnSync(bin, ['interp', '-c', 'echo "$1"; tr "\\0" " " </proc/$$/cmdline', 'x', 'ok'], { cwd: '/', encoding: 'utf8', env });
      expect(interp.status, interp.stderr).to.equal(0);
      expect(interp.stdout).to.match(new RegExp(`^ok\\n\\S+ (\\S+ )*--snapshot-blob ${prefix.dir}/lib/hpatch-router/dist/interp\\.blob -- `));
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
});
