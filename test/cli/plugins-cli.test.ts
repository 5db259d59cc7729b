// `hpatch-router plugins validate|list`, `--version` and `--help`, each run as a process through the
// launcher (bin/hpatch-router → dist). validate must report what router startup reports, line for
// line, for the same plugin directory: both run host/cli/hpatch-tools.ts.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/codex-cli.ts';
import { FIXTURES } from '../support/fixtures.ts';
import { tempDir } from '../support/temp-dir.ts';

const BIN = join(PROJECT_ROOT, 'bin', 'hpatch-router');
const BROKEN = join(FIXTURES, 'plugins', 'broken');
const VALID = join(FIXTURES, 'plugins', 'valid');
const VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let scratch: { dir: string; cleanup: () => void };
before(() => {
  scratch = tempDir('plugins-cli');
});
after(() => scratch.cleanup());

/** A config home whose plugin directory is a symlink to `pluginDir` (discovery follows it, as it follows any directory path). */
function configHome(pluginDir: string): { env: NodeJS.ProcessEnv; pluginDir: string } {
  const home = join(scratch.dir, `config-${readdirSync(scratch.dir).length}`);
  mkdirSync(join(home, 'hpatch'), { recursive: true });
  symlinkSync(pluginDir, join(home, 'hpatch', 'plugins'));
  return {
    env: { ...process.env, XDG_CONFIG_HOME: home, HPATCH_RUNTIME_DIR: join(home, 'runtime'), HPATCH_FRONTEND_DIR: join(home, 'frontends') },
    pluginDir: join(home, 'hpatch', 'plugins'),
  };
}

function run(args: readonly string[], env: NodeJS.ProcessEnv = configHome(join(scratch.dir, 'none')).env, cwd = PROJECT_ROOT) {
  return spawnSync(BIN, args, { cwd, env, encoding: 'utf8', timeout: 30_000 });
}

/** The `  - problem` lines of a startup or validate report. */
const problemLines = (stderr: string): string[] => stderr.split('\n').filter((l) => l.startsWith('  - ')).map((l) => l.slice(4));

function startupProblems(env: NodeJS.ProcessEnv): string[] {
  const r = run(['--listen', '127.0.0.1:0', '--state-dir', join(scratch.dir, 'state')], env);
  expect(r.status, r.stderr).to.equal(2);
  expect(r.stdout).to.equal('');
  return problemLines(r.stderr);
}

describe('hpatch-router --version and --help', function () {
  this.timeout(60_000);

  it('--version prints package.json\'s version through the launcher, a symlink to it, and every subcommand', () => {
    const link = join(scratch.dir, 'hpatch-router');
    symlinkSync(BIN, link);
    for (const [cmd, args] of [[BIN, ['--version']], [link, ['--version']], [BIN, ['--mode', 'passthrough', '--version']], [BIN, ['plugins', '--version']], [BIN, ['plugins', 'validate', '--version']], [BIN, ['plugins', 'list', '--version']], [BIN, ['plugins', 'new', '--version']], [BIN, ['doctor', '--version']], [BIN, ['ledger', '--version']], [BIN, ['ledger', 'stats', '--version']]] as const) {
      const r = spawnSync(cmd, args, { encoding: 'utf8', cwd: '/' });
      expect([r.stdout, r.stderr, r.status], `${cmd} ${args.join(' ')}`).to.deep.equal([`hpatch-router ${VERSION}\n`, '', 0]);
    }
  });

  it('--help prints the usage with the exit codes for the router and every plugins subcommand', () => {
    const router = run(['--help']);
    expect([router.status, router.stderr]).to.deep.equal([0, '']);
    expect(router.stdout).to.match(/^usage: hpatch-router /).and.contain('hpatch-router plugins validate|list|new').and.contain('exit status');
    for (const args of [['plugins', '--help'], ['plugins', 'validate', '--help'], ['plugins', 'list', '-h'], ['plugins', 'new', '--help']]) {
      const r = run(args);
      expect([r.status, r.stderr], args.join(' ')).to.deep.equal([0, '']);
      expect(r.stdout, args.join(' ')).to.match(/^usage: hpatch-router plugins validate/).and.contain('exit 0 valid, 1 problems, 2 usage');
    }
  });

  it('a usage mistake exits 2 with the problem and the usage on stderr, nothing on stdout', () => {
    const cases: [string[], string][] = [
      [['plugins'], 'missing subcommand'],
      [['plugins', 'bogus'], 'unknown subcommand "bogus"'],
      [['plugins', 'validate', '--frobnicate'], "Unknown option '--frobnicate'"],
      [['plugins', 'new'], 'plugins new takes one NAME, got 0'],
      [['plugins', 'new', 'Bad_Name'], 'NAME "Bad_Name" must match'],
      [['plugins', 'new', 'a', 'b'], 'plugins new takes one NAME, got 2'],
    ];
    for (const [args, message] of cases) {
      const r = run(args);
      expect([r.status, r.stdout], args.join(' ')).to.deep.equal([2, '']);
      expect(r.stderr, args.join(' ')).to.contain(message).and.contain('usage: hpatch-router plugins');
    }
  });
});

describe('hpatch-router plugins validate', function () {
  this.timeout(120_000);

  it('passes the valid fixtures, naming each plugin, and writes nothing (no snapshot, no frontends)', () => {
    const { env, pluginDir } = configHome(VALID);
    for (const args of [['plugins', 'validate'], ['plugins', 'validate', pluginDir]]) {
      const r = run(args, env);
      expect([r.status, r.stderr], args.join(' ')).to.deep.equal([0, '']);
      expect(r.stdout.split('\n')[0]).to.equal(`valid: 5 plugins with 9 tools loaded from ${pluginDir}`);
      expect(r.stdout).to.contain(`  test.lark-sum 0.1.0 (${pluginDir}/20-lark-sum.mjs): lark_sum\n`);
    }
    expect(existsSync(env['HPATCH_RUNTIME_DIR']!)).to.equal(false);
    expect(existsSync(env['HPATCH_FRONTEND_DIR']!)).to.equal(false);
    const json = run(['plugins', 'validate', '--json'], env);
    expect(json.status).to.equal(0);
    const report = JSON.parse(json.stdout) as { valid: boolean; plugins: { id: string; version: string; file: string; tools: string[] }[]; problems: unknown[] };
    expect(report.valid).to.equal(true);
    expect(report.problems).to.deep.equal([]);
    expect(report.plugins.map((p) => p.id)).to.deep.equal(['test.text-echo', 'test.lark-sum', 'test.regex-ticket', 'test.core-rows', 'test.misbehaving']);
    expect(report.plugins[2]).to.deep.equal({ file: `${pluginDir}/30-regex-ticket.mjs`, id: 'test.regex-ticket', version: '2.3.4', tools: ['ticket_open'] });
  });

  for (const kind of readdirSync(BROKEN).sort()) {
    it(`broken/${kind}: the same problems as router startup, exit 1`, () => {
      const { env, pluginDir } = configHome(join(BROKEN, kind));
      const atStartup = startupProblems(env);
      expect(atStartup.length, kind).to.be.greaterThan(0);
      for (const args of [['plugins', 'validate'], ['plugins', 'validate', pluginDir]]) {
        const r = run(args, env);
        expect(r.status, r.stderr).to.equal(1);
        expect(r.stdout).to.equal('');
        expect(r.stderr.split('\n')[0]).to.equal(`hpatch-router: ${atStartup.length} problem${atStartup.length === 1 ? '' : 's'}:`);
        expect(problemLines(r.stderr)).to.deep.equal(atStartup);
      }
    });
  }

  it('several directories and files at once: every problem of each, and problems across them', () => {
    const dirs = ['grammar', 'load-errors', 'schema'].map((k) => configHome(join(BROKEN, k)));
    const expected = dirs.flatMap((d) => startupProblems(d.env));
    const r = run(['plugins', 'validate', ...dirs.map((d) => d.pluginDir)]);
    expect(r.status).to.equal(1);
    expect(problemLines(r.stderr)).to.deep.equal(expected);
    // Two files that are each valid, but not together: the same id and tool name.
    const a = join(VALID, '10-text-echo.mjs');
    const b = join(BROKEN, 'many', '10-valid-text-echo.mjs');
    expect(run(['plugins', 'validate', a]).status).to.equal(0);
    expect(run(['plugins', 'validate', b]).status).to.equal(0);
    const both = run(['plugins', 'validate', a, b]);
    expect(both.status).to.equal(1);
    expect(problemLines(both.stderr)).to.include(`${b}: plugin id "test.text-echo" is also declared by ${a}`);
  });

  it('names a path the router would not load as a problem: missing, not .js/.mjs, a symlink', () => {
    const dir = join(scratch.dir, 'odd-paths');
    mkdirSync(dir);
    writeFileSync(join(dir, 'plugin.cjs'), 'export default {};\n');
    symlinkSync(join(VALID, '10-text-echo.mjs'), join(dir, 'link.mjs'));
    const r = run(['plugins', 'validate', 'nowhere.mjs', 'plugin.cjs', 'link.mjs'], undefined, dir);
    expect(r.status).to.equal(1);
    expect(problemLines(r.stderr)).to.deep.equal([
      `${dir}/nowhere.mjs: does not exist`,
      `${dir}/plugin.cjs: is not a declaration: the router loads only files named *.js or *.mjs`,
      `${dir}/link.mjs: is a symlink; the router loads only regular files from its plugin directory`,
    ]);
  });

  it('--json: each problem with its printed text and its parts (file, tool, line, column)', () => {
    const { env, pluginDir } = configHome(join(BROKEN, 'load-errors'));
    const text = problemLines(run(['plugins', 'validate'], env).stderr);
    const r = run(['plugins', 'validate', '--json'], env);
    expect([r.status, r.stderr]).to.deep.equal([1, '']);
    const report = JSON.parse(r.stdout) as { valid: boolean; plugins: unknown[]; problems: { text: string; file?: string; line?: number; column?: number; message?: string }[] };
    expect(report.valid).to.equal(false);
    expect(report.plugins).to.deep.equal([]);
    expect(report.problems.map((p) => p.text)).to.deep.equal(text);
    const syntax = report.problems.find((p) => p.file === `${pluginDir}/a-syntax-error.mjs`)!;
    expect(syntax.line).to.be.a('number');
    expect(syntax.text).to.equal(`${syntax.file}:${syntax.line}${syntax.column === undefined ? '' : `:${syntax.column}`}: ${syntax.message}`);
  });

  it('without a plugin directory (no XDG_CONFIG_HOME or HOME) says so and exits 1', () => {
    const env = { ...process.env };
    delete env['XDG_CONFIG_HOME'];
    delete env['HOME'];
    const r = run(['plugins', 'validate'], env);
    expect(r.status).to.equal(1);
    expect(problemLines(r.stderr)).to.deep.equal(['plugin directory: neither $XDG_CONFIG_HOME nor $HOME is set']);
  });
});

describe('hpatch-router plugins list', function () {
  this.timeout(60_000);

  it('lists every tool the router would expose: name, grammar kind, plugin id, version and file', () => {
    const { env, pluginDir } = configHome(VALID);
    const r = run(['plugins', 'list'], env);
    expect([r.status, r.stderr]).to.deep.equal([0, '']);
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split(/ {2,}/));
    expect(rows[0]).to.deep.equal(['TOOL', 'GRAMMAR', 'PLUGIN', 'VERSION', 'FILE']);
    expect(rows.slice(1, 3)).to.deep.equal([['shell', 'text', 'built-in', '-', '-'], ['hpatch', 'lark', 'built-in', '-', '-']]);
    expect(rows).to.deep.include(['lark_sum', 'lark', 'test.lark-sum', '0.1.0', `${pluginDir}/20-lark-sum.mjs`]);
    expect(rows).to.deep.include(['ticket_open', 'regex', 'test.regex-ticket', '2.3.4', `${pluginDir}/30-regex-ticket.mjs`]);
    expect(rows).to.have.length(1 + 2 + 9);
    const json = JSON.parse(run(['plugins', 'list', '--json'], env).stdout) as { valid: boolean; tools: Record<string, unknown>[] };
    expect(json.valid).to.equal(true);
    expect(json.tools.find((t) => t['name'] === 'text_echo')).to.deep.equal({ name: 'text_echo', grammar: 'text', plugin: 'test.text-echo', version: '1.0.0', file: `${pluginDir}/10-text-echo.mjs` });
    expect(json.tools.find((t) => t['name'] === 'shell')).to.deep.equal({ name: 'shell', grammar: 'text', plugin: 'built-in', version: null, file: null });
  });

  it('lists nothing but the problems when the plugins would not load, exit 1', () => {
    const { env } = configHome(join(BROKEN, 'grammar'));
    const r = run(['plugins', 'list'], env);
    expect([r.status, r.stdout]).to.deep.equal([1, '']);
    expect(problemLines(r.stderr)).to.deep.equal(startupProblems(env));
  });
});
