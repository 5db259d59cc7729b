// End to end, a plugin author's first day: `hpatch-router plugins new` → npm install → npm run build
// → npm test → npm run validate → the BUILT router loads the plugin from its config directory → the
// REAL Codex CLI calls its tool (native and Code Mode) against a scripted upstream and runs the
// carrier, whose template holds a hostile file name quoted by core's shellQuote.
//
// Offline: the scaffold depends on the SDK tarball scripts/pack-sdk.mjs makes (as make install does)
// and on esbuild/typescript at the project's own pinned versions, copied from its node_modules so
// `npm install --offline` finds them installed (npm re-reads their tarballs from its cache, which
// the project's own `npm ci` filled). Copies, not links: npm rewrites what it installs.
import { expect } from 'chai';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCAFFOLD_DEV_DEPENDENCIES } from '../../host/cli/plugins-new.ts';
import { PROJECT_ROOT, describeRun, makeWorkDir, removeDir, runCodex } from '../support/codex-cli.ts';
import { startRouterProcess, type RouterProcess } from '../support/router-process.ts';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.ts';
import { tempDir } from '../support/temp-dir.ts';

type Json = Record<string, any>;
const BIN_DIR = join(PROJECT_ROOT, 'bin');
const MODULES = join(PROJECT_ROOT, 'node_modules');
const TOOL = 'demo_tools_lines';
// Model input that a hand-rolled template would get wrong: quote, command substitution, `{.}`.
const FILE = "it's $(boom) {.}.txt";

/** The environment of a nested npm: none of the npm_* variables npx/mocha's parent set. */
function npmEnv(extraPath: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return { ...env, PATH: `${extraPath}:${process.env['PATH'] ?? ''}` };
}

function ok(r: SpawnSyncReturns<string>, what: string): SpawnSyncReturns<string> {
  expect(r.status, `${what}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`).to.equal(0);
  return r;
}

describe('end to end: plugins new → build → validate → router → the real Codex CLI', function () {
  this.timeout(180_000);
  let scratch: { dir: string; cleanup: () => void };
  let built: string;
  const timings: Record<string, number> = {};
  const timed = <T>(label: string, f: () => T): T => {
    const t0 = Date.now();
    try {
      return f();
    } finally {
      timings[label] = Date.now() - t0;
    }
  };

  before(function () {
    this.timeout(120_000);
    scratch = tempDir('plugins-new-e2e');
    const sdkDir = join(scratch.dir, 'sdk');
    timed('pack SDK', () => ok(spawnSync(process.execPath, ['scripts/pack-sdk.mjs', sdkDir], { cwd: PROJECT_ROOT, encoding: 'utf8' }), 'pack-sdk'));
    const tarball = join(sdkDir, readdirSync(sdkDir).find((n) => n.endsWith('.tgz'))!);
    const created = timed('plugins new', () => ok(spawnSync(join(BIN_DIR, 'hpatch-router'), ['plugins', 'new', '--sdk', `file:${tarball}`, 'demo-tools'], { cwd: scratch.dir, encoding: 'utf8' }), 'plugins new'));
    expect(created.stdout).to.contain(`tool ${TOOL}`);
    const project = join(scratch.dir, 'demo-tools');
    timed('seed node_modules', () => {
      mkdirSync(join(project, 'node_modules', '@esbuild'), { recursive: true });
      for (const name of ['esbuild', 'typescript']) cpSync(join(MODULES, name), join(project, 'node_modules', name), { recursive: true });
      for (const platform of readdirSync(join(MODULES, '@esbuild'))) cpSync(join(MODULES, '@esbuild', platform), join(project, 'node_modules', '@esbuild', platform), { recursive: true });
    });
    const npm = (args: string[]): SpawnSyncReturns<string> => ok(spawnSync('npm', args, { cwd: project, encoding: 'utf8', env: npmEnv(BIN_DIR), timeout: 90_000 }), `npm ${args.join(' ')}`);
    timed('npm install', () => npm(['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund']));
    // The SDK came from the tarball, with the core runtime the scaffold's test imports.
    expect(existsSync(join(project, 'node_modules', '@hpatch-router', 'sdk', 'core-v1.mjs'))).to.equal(true);
    timed('npm run build', () => npm(['run', 'build']));
    timed('npm run typecheck', () => npm(['run', 'typecheck']));
    const tested = timed('npm test', () => npm(['test']));
    expect(tested.stdout).to.match(/# pass 3\n/).and.match(/# fail 0\n/);
    const validated = timed('npm run validate', () => npm(['run', 'validate']));
    built = join(project, 'dist', 'demo-tools.mjs');
    expect(validated.stdout).to.contain(`valid: 1 plugin with 1 tool loaded from ${built}`);
    // Measured, not asserted: the author's path from nothing to a validated plugin.
    process.stderr.write(`      scaffold timings (ms): ${JSON.stringify(timings)}\n`);
  });
  after(() => scratch?.cleanup());

  it('the scaffold pins the esbuild and typescript versions the router itself builds with', () => {
    const ours = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
    expect(SCAFFOLD_DEV_DEPENDENCIES).to.deep.equal({ esbuild: ours['esbuild'], typescript: ours['typescript'] });
  });

  describe('the router loads the built plugin and Codex calls its tool', () => {
    let upstream: ScriptedUpstream | undefined;
    let router: RouterProcess | undefined;
    let work: string;
    let dirs: Record<'config' | 'state' | 'runtime' | 'home', { dir: string; cleanup: () => void }>;
    const frontends = (): string => join(dirs.home.dir, 'bin');
    const executorEnv = (): Record<string, string> => ({ HPATCH_RUNTIME_DIR: join(dirs.runtime.dir, 'base'), HPATCH_FRONTEND_DIR: frontends() });

    beforeEach(() => {
      dirs = { config: tempDir('pn-config'), state: tempDir('pn-state'), runtime: tempDir('pn-runtime'), home: tempDir('pn-home') };
      mkdirSync(frontends());
      mkdirSync(join(dirs.config.dir, 'hpatch', 'plugins'), { recursive: true });
      cpSync(built, join(dirs.config.dir, 'hpatch', 'plugins', 'demo-tools.mjs'));
      work = makeWorkDir('plugins-new-e2e');
      writeFileSync(join(work, FILE), 'one\ntwo\nthree\n');
    });
    afterEach(async () => {
      await router?.stop();
      await upstream?.close();
      router = undefined;
      upstream = undefined;
      removeDir(work);
      for (const d of Object.values(dirs)) d.cleanup();
    });

    const call = (namespace?: string) => ({ type: 'custom_tool_call' as const, name: TOOL, input: FILE, call_id: 'call_lines', ...(namespace ? { namespace } : {}) });

    async function start(namespace?: string): Promise<void> {
      upstream = await startScriptedUpstream([{ items: [call(namespace)] }, { items: [{ type: 'message', text: 'Counted.' }] }]);
      router = await startRouterProcess({
        args: ['--upstream', upstream.url, '--state-dir', dirs.state.dir],
        env: { XDG_CONFIG_HOME: dirs.config.dir, ...executorEnv() },
        startTimeoutMs: 30_000,
      });
    }

    // Codex runs commands with `bash -lc`; the login profile puts the frontends on PATH.
    const codexEnv = (): Record<string, string> => {
      writeFileSync(join(dirs.home.dir, '.profile'), `export PATH=${JSON.stringify(frontends())}:"$PATH"\n`);
      return { ...executorEnv(), HOME: dirs.home.dir, PATH: `${frontends()}:${process.env['PATH'] ?? ''}` };
    };

    function checkOutput(input: Json[]): void {
      const original = input.find((i) => i['call_id'] === 'call_lines' && i['type'] === 'custom_tool_call');
      expect(original, JSON.stringify(input.slice(-3))).to.include({ name: TOOL, input: FILE });
      const item = input.find((i) => i['call_id'] === 'call_lines' && i['type'] === 'custom_tool_call_output');
      expect(item, JSON.stringify(input.slice(-3))).to.not.equal(undefined);
      const out = typeof item!['output'] === 'string' ? item!['output'] : (item!['output'] as Json[]).map((p) => p['text']).join('\n');
      // The plugin's executor counted the three lines of the file the template fed it: the output is
      // exactly "3\n" (native: after "Output:"; Code Mode: the JSON result's output), exit code 0.
      expect(out, out).to.satisfy((o: string) => /\nProcess exited with code 0\n(.*\n)*Output:\n3\n$/.test(o) || /"exit_code":0,.*"output":"3\\n"\}$/.test(o));
      expect(out).to.not.contain('No such file');
    }

    it('native: the tool is offered as scaffolded and its exec_command carrier counts the file', async () => {
      await start();
      const run = await runCodex({ baseUrl: router!.baseUrl, prompt: 'Count the lines.', model: 'gpt-5.5', cwd: work, env: codexEnv() });
      expect(run.code, describeRun(run)).to.equal(0);
      expect(run.stdout).to.contain('Counted.');
      const reqs = upstream!.responsesRequests();
      expect(reqs).to.have.length(2);
      const tool = (reqs[0]!.json['tools'] as Json[]).find((t) => t['name'] === TOOL);
      expect(tool?.['format']).to.deep.equal({ type: 'grammar', syntax: 'regex', definition: '[^\\n]+' });
      checkOutput(reqs[1]!.json['input'] as Json[]);
    });

    it("Code Mode (Codex's default model): the tool sits beside exec and its exec program carrier counts the file", async () => {
      await start('functions');
      const run = await runCodex({ baseUrl: router!.baseUrl, prompt: 'Count the lines.', cwd: work, env: codexEnv() });
      expect(run.code, describeRun(run)).to.equal(0);
      const reqs = upstream!.responsesRequests();
      expect(reqs).to.have.length(2);
      const ns = (reqs[0]!.json['input'][0]['tools'] as Json[]).find((t) => t['name'] === 'functions')!;
      expect((ns['tools'] as Json[]).map((t) => t['name'])).to.include(TOOL);
      checkOutput(reqs[1]!.json['input'] as Json[]);
    });
  });
});
