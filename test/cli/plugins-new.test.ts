// `hpatch-router plugins new` as a process: what it refuses, and what it writes. The scaffold's
// build, test, validation and use under Codex are test/e2e/plugins-new.e2e.test.ts.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/codex-cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const BIN = join(PROJECT_ROOT, 'bin', 'hpatch-router');

describe('hpatch-router plugins new', function () {
  this.timeout(30_000);
  let scratch: { dir: string; cleanup: () => void };
  beforeEach(() => {
    scratch = tempDir('plugins-new');
  });
  afterEach(() => scratch.cleanup());
  const run = (args: string[]) => spawnSync(BIN, ['plugins', 'new', ...args], { cwd: scratch.dir, encoding: 'utf8' });

  it('writes the project: SDK dependency as given, pinned build tools, one tool named after the project', () => {
    const r = run(['--sdk', 'file:/opt/sdk.tgz', 'my-tools']);
    expect([r.status, r.stderr]).to.deep.equal([0, '']);
    expect(r.stdout).to.contain(`created ${scratch.dir}/my-tools (plugin local.my-tools, tool my_tools_lines)`);
    const dir = join(scratch.dir, 'my-tools');
    expect(readdirSync(dir, { recursive: true }).map(String).sort()).to.deep.equal(['.gitignore', 'README.md', 'package.json', 'src', 'src/plugin.ts', 'test', 'test/plugin.test.ts', 'tsconfig.json']);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.devDependencies['@hpatch-router/sdk']).to.equal('file:/opt/sdk.tgz');
    expect(Object.keys(pkg.scripts)).to.deep.equal(['build', 'typecheck', 'test', 'validate']);
    expect(pkg.scripts['validate']).to.equal('hpatch-router plugins validate dist/my-tools.mjs');
    const source = readFileSync(join(dir, 'src', 'plugin.ts'), 'utf8');
    expect(source).to.contain("name: 'my_tools_lines'").and.contain("id: 'local.my-tools'").and.contain('shellQuote(req.path)');
  });

  it('refuses an existing directory and writes nothing into it', () => {
    mkdirSync(join(scratch.dir, 'taken'));
    const r = run(['--sdk', 'file:/opt/sdk.tgz', 'taken']);
    expect([r.status, r.stdout]).to.deep.equal([1, '']);
    expect(r.stderr).to.equal(`hpatch-router plugins new: ${scratch.dir}/taken already exists; nothing was written\n`);
    expect(readdirSync(join(scratch.dir, 'taken'))).to.deep.equal([]);
  });

  it('without --sdk, needs the SDK tarball make install packs (a source checkout has none)', () => {
    const r = run(['fresh']);
    expect([r.status, r.stdout]).to.deep.equal([1, '']);
    expect(r.stderr).to.contain(`no packed SDK in ${PROJECT_ROOT}/sdk (make install writes it); pass --sdk`);
    expect(readdirSync(scratch.dir)).to.deep.equal([]);
  });
});
