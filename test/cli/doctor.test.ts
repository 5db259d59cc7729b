// `hpatch-router doctor` run as a process through the launcher, on a temp "machine" (HOME,
// CODEX_HOME, XDG dirs, runtime base and frontend dir all temp dirs), against a good setup with a
// running router, a plugin tool and a scripted upstream, then against each broken one.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/codex-cli.ts';
import { startRouterProcess, type RouterProcess } from '../support/router-process.ts';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.ts';
import { tempDir } from '../support/temp-dir.ts';

const LAUNCHER = join(PROJECT_ROOT, 'bin', 'hpatch-router');
const PLUGIN = `export default { apiVersion: 1, id: 'com.example.doctor-words', version: '1.0.0', tools: [{
  spec: { type: 'custom', name: 'count_words', description: 'Counts words in standard input. Input: words, separated by spaces.', format: { type: 'grammar', syntax: 'regex', definition: '[a-z]+( [a-z]+)*' } },
  inputLimit: 4096,
  parse(input) { return { ok: true, value: input.trim().split(/ +/) }; },
  translate(words, ctx) { return ctx.exec(words); },
  execute(ctx) { return { stdout: ctx.argv.join(' ') + '\\n', status: 0 }; },
}] };
`;

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

interface Machine {
  root: string;
  env: NodeJS.ProcessEnv;
  home: string;
  codexConfig: string;
  pluginDir: string;
  runtimeDir: string;
  frontendDir: string;
  stateDir: string;
}

type Json = Record<string, any>;

describe('hpatch-router doctor (issue 18)', function () {
  this.timeout(120_000);
  const tmp = tempDir('doctor');
  let machine: Machine;
  let upstream: ScriptedUpstream;
  let router: RouterProcess;
  let listen: string;

  function configText(baseUrl: string): string {
    return `# written by the test\nmodel = "gpt-5.5"\nmodel_provider = "hpatch"\n\n[model_providers.hpatch]\nname = "hpatch-router"\nbase_url = "${baseUrl}"\nenv_key = "OPENAI_API_KEY"\nwire_api = "responses"\n\n[model_providers."openai-direct"]\nbase_url = "https://api.openai.com/v1"\n`;
  }

  before(async () => {
    const root = tmp.dir;
    const m: Machine = {
      root,
      home: join(root, 'home'),
      codexConfig: join(root, 'codex', 'config.toml'),
      pluginDir: join(root, 'config', 'hpatch', 'plugins'),
      runtimeDir: join(root, 'runtime'),
      frontendDir: join(root, 'frontends'),
      stateDir: join(root, 'state'),
      env: {},
    };
    for (const d of [m.home, join(root, 'codex'), m.pluginDir, m.frontendDir]) mkdirSync(d, { recursive: true });
    mkdirSync(m.runtimeDir, { mode: 0o700 });
    writeFileSync(join(m.pluginDir, 'words.mjs'), PLUGIN);
    // The login profile puts this install's bin and the frontend dir on PATH, as ~/.profile would.
    writeFileSync(join(m.home, '.profile'), `export PATH="${join(PROJECT_ROOT, 'bin')}:${m.frontendDir}:$PATH"\n`);
    m.env = { ...process.env, HOME: m.home, CODEX_HOME: join(root, 'codex'), XDG_CONFIG_HOME: join(root, 'config'), XDG_STATE_HOME: join(root, 'xdg-state'), HPATCH_RUNTIME_DIR: m.runtimeDir, HPATCH_FRONTEND_DIR: m.frontendDir };
    delete m.env['NODE_OPTIONS'];
    machine = m;
    upstream = await startScriptedUpstream([]);
    router = await startRouterProcess({ args: ['--upstream', upstream.url, '--state-dir', m.stateDir], env: { HOME: m.home, XDG_CONFIG_HOME: m.env['XDG_CONFIG_HOME'], HPATCH_RUNTIME_DIR: m.runtimeDir, HPATCH_FRONTEND_DIR: m.frontendDir } });
    listen = new URL(router.url).host;
    writeFileSync(m.codexConfig, configText(`${router.url}/v1`));
  });
  after(async () => {
    await router?.stop();
    await upstream?.close();
    tmp.cleanup();
  });

  // Asynchronous: the scripted upstream answers from this process, which spawnSync would block.
  async function doctor(extra: string[] = [], env: NodeJS.ProcessEnv = machine.env, args: string[] = ['--listen', listen, '--upstream', upstream.url, '--state-dir', machine.stateDir]): Promise<{ status: number | null; stdout: string; stderr: string; checks: Json[] }> {
    const child = spawn(LAUNCHER, ['doctor', ...args, ...extra], { env, cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const checks = extra.includes('--json') ? (JSON.parse(stdout) as Json)['checks'] : [];
    return { status, stdout, stderr, checks };
  }
  const line = (out: string, name: string): string => out.split('\n').find((l) => l.slice(2).startsWith(`${name}:`)) ?? `(no ${name} line in)\n${out}`;
  const fixOf = (out: string, name: string): string => {
    const lines = out.split('\n');
    const i = lines.findIndex((l) => l.slice(2).startsWith(`${name}:`));
    return i >= 0 && lines[i + 1]?.startsWith('    fix: ') ? lines[i + 1]!.slice(9) : `(no fix under ${name} in)\n${out}`;
  };

  it('a good setup: every check ✓, exit 0; --json says the same; the Codex config is left untouched', async () => {
    const before = statSync(machine.codexConfig).mtimeMs;
    const r = await doctor();
    expect(r.status, r.stdout + r.stderr).to.equal(0);
    const lines = r.stdout.trimEnd().split('\n');
    const summary = lines.pop();
    expect(lines.every((l) => l.startsWith('✓ ')), r.stdout).to.equal(true);
    expect(summary).to.match(/^all \d+ checks passed$/);
    expect(line(r.stdout, 'plugins')).to.contain('1 plugin with 1 tool loaded from').and.contain('all valid');
    expect(line(r.stdout, 'login PATH: shell')).to.equal(`✓ login PATH: shell: ${join(PROJECT_ROOT, 'bin', 'shell')}`);
    expect(line(r.stdout, 'login PATH: count_words (plugin frontend)')).to.equal(`✓ login PATH: count_words (plugin frontend): ${join(machine.frontendDir, 'count_words')}`);
    expect(line(r.stdout, 'codex selection')).to.contain('model_provider = "hpatch" is the default');
    expect(line(r.stdout, 'router')).to.contain(`hpatch-router answers on ${router.url}`);
    expect(line(r.stdout, 'upstream')).to.contain('reachable (GET /models: HTTP');

    const j = await doctor(['--json']);
    expect(j.status).to.equal(0);
    expect(j.checks.map((c) => c['name'])).to.deep.equal(['node', 'runtime dir', 'state dir', 'plugins', 'frontends', 'login PATH: shell', 'login PATH: count_words (plugin frontend)', 'login PATH: node', 'codex config', 'codex provider', 'codex selection', 'router', 'upstream']);
    expect(j.checks.every((c) => c['status'] === 'pass' && c['fix'] === undefined)).to.equal(true);
    expect(readFileSync(machine.codexConfig, 'utf8')).to.equal(configText(`${router.url}/v1`));
    expect(statSync(machine.codexConfig).mtimeMs).to.equal(before);
  });

  it('no login PATH: shell and the frontend are not found, and the fix is the ~/.profile line', async () => {
    const home = join(machine.root, 'bare-home');
    mkdirSync(home, { recursive: true });
    const r = await doctor([], { ...machine.env, HOME: home, PATH: '/usr/bin:/bin' });
    expect(r.status).to.equal(1);
    expect(line(r.stdout, 'login PATH: shell')).to.equal('✗ login PATH: shell: bash -lc finds no shell');
    expect(fixOf(r.stdout, 'login PATH: shell')).to.equal(`add this line to ~/.profile (read by bash -lc, as Codex runs commands): export PATH="${join(PROJECT_ROOT, 'bin')}:$PATH"`);
    expect(fixOf(r.stdout, 'login PATH: count_words (plugin frontend)')).to.contain(`export PATH="${machine.frontendDir}:$PATH"`);
    expect(r.stdout.trimEnd().split('\n').at(-1)).to.equal('2 of 13 checks failed');
  });

  it('a shell of another install first on the login PATH is named, with the fix', async () => {
    const home = join(machine.root, 'other-home');
    const other = join(machine.root, 'other-bin');
    mkdirSync(home, { recursive: true });
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'shell'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(home, '.bash_profile'), `export PATH="${other}:${join(PROJECT_ROOT, 'bin')}:${machine.frontendDir}:$PATH"\n`);
    const r = await doctor([], { ...machine.env, HOME: home });
    expect(r.status).to.equal(1);
    expect(line(r.stdout, 'login PATH: shell')).to.equal(`✗ login PATH: shell: bash -lc finds ${other}/shell, not this install's ${join(PROJECT_ROOT, 'bin', 'shell')}`);
    expect(fixOf(r.stdout, 'login PATH: shell')).to.contain('~/.bash_profile').and.contain(`or remove ${other}/shell`);
  });

  it('a wrong base_url: the provider check fails and names the base_url to set; an invalid TOML names its line', async () => {
    const codexHome = join(machine.root, 'codex-wrong');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, 'config.toml'), configText('http://127.0.0.1:1/v1'));
    const r = await doctor([], { ...machine.env, CODEX_HOME: codexHome });
    expect(r.status).to.equal(1);
    expect(line(r.stdout, 'codex provider')).to.contain(`no model_providers entry has base_url ${router.url}/v1 (found: hpatch → http://127.0.0.1:1/v1, openai-direct → https://api.openai.com/v1)`);
    expect(fixOf(r.stdout, 'codex provider')).to.equal(`set base_url = "${router.url}/v1" in [model_providers.hpatch] of ${join(codexHome, 'config.toml')}`);
    expect(r.stdout).to.not.contain('codex selection');

    writeFileSync(join(codexHome, 'config.toml'), configText(`${router.url}/v1`).replace('wire_api = "responses"', 'wire_api = "chat"'));
    const w = await doctor([], { ...machine.env, CODEX_HOME: codexHome });
    expect(fixOf(w.stdout, 'codex provider')).to.equal(`set wire_api = "responses" in [model_providers.hpatch] of ${join(codexHome, 'config.toml')}`);

    writeFileSync(join(codexHome, 'config.toml'), configText(`${router.url}/v1`).replace('model_provider = "hpatch"', 'model_provider = "openai-direct"'));
    const s = await doctor([], { ...machine.env, CODEX_HOME: codexHome });
    expect(line(s.stdout, 'codex selection')).to.contain('Codex uses "openai-direct", and no profile selects "hpatch"');
    expect(fixOf(s.stdout, 'codex selection')).to.contain('put model_provider = "hpatch" at the top of');

    writeFileSync(join(codexHome, 'config.toml'), 'model = "x"\n[model_providers.hpatch]\nbase_url = http://127.0.0.1/v1\n');
    const t = await doctor([], { ...machine.env, CODEX_HOME: codexHome });
    expect(line(t.stdout, 'codex config')).to.contain('is not valid TOML: line 3, column 12');
    expect(fixOf(t.stdout, 'codex config')).to.equal(`fix line 3 of ${join(codexHome, 'config.toml')} (Codex cannot read it either)`);
  });

  it('a bad plugin: the plugins check lists the startup problem and its file', async () => {
    const config = join(machine.root, 'bad-config');
    mkdirSync(join(config, 'hpatch', 'plugins'), { recursive: true });
    writeFileSync(join(config, 'hpatch', 'plugins', 'broken.mjs'), 'export default { apiVersion: 1, id: "x", tools: [ };\n');
    const r = await doctor([], { ...machine.env, XDG_CONFIG_HOME: config });
    expect(r.status).to.equal(1);
    expect(line(r.stdout, 'plugins')).to.match(/^✗ plugins: .*broken\.mjs/);
    expect(fixOf(r.stdout, 'plugins')).to.contain('the router refuses to start until they are fixed');
  });

  it('wrong modes: a runtime base open to others and a world-writable ledger each get their chmod', async () => {
    const runtime = join(machine.root, 'open-runtime');
    mkdirSync(runtime, { mode: 0o755 });
    chmodSync(runtime, 0o755);
    const state = join(machine.root, 'open-state');
    mkdirSync(join(state, 'ledger'), { recursive: true });
    chmodSync(join(state, 'ledger'), 0o777);
    const r = await doctor(['--state-dir', state, '--json'], { ...machine.env, HPATCH_RUNTIME_DIR: runtime });
    expect(r.status).to.equal(1);
    const byName = new Map(r.checks.map((c) => [c['name'], c]));
    expect(byName.get('runtime dir')).to.deep.include({ status: 'fail', detail: `${runtime} has group/other access (mode 0755)`, fix: `chmod 700 ${runtime}` });
    expect(byName.get('state dir')).to.deep.include({ status: 'fail', detail: `${join(state, 'ledger')} is writable by group or others (mode 0777)`, fix: `chmod 700 ${join(state, 'ledger')}` });
  });

  it('an unreachable upstream is a warning (exit 0); no router on the address is a failure naming the command', async () => {
    const free = await freePort();
    const r = await doctor(['--upstream', `http://127.0.0.1:${free}/v1`]);
    expect(r.status, r.stdout).to.equal(0);
    expect(line(r.stdout, 'upstream')).to.equal(`! upstream: http://127.0.0.1:${free}/v1 is not reachable (ECONNREFUSED)`);
    expect(r.stdout.trimEnd().split('\n').at(-1)).to.match(/^all 13 checks passed \(1 warning\)$/);

    const codexHome = join(machine.root, 'codex-free-port');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, 'config.toml'), configText(`http://127.0.0.1:${free}/v1`));
    const n = await doctor([], { ...machine.env, CODEX_HOME: codexHome }, ['--listen', `127.0.0.1:${free}`, '--upstream', upstream.url, '--state-dir', machine.stateDir]);
    expect(n.status).to.equal(1);
    expect(line(n.stdout, 'router')).to.equal(`✗ router: nothing answers on http://127.0.0.1:${free} (ECONNREFUSED)`);
    expect(fixOf(n.stdout, 'router')).to.equal(`start the router: hpatch-router --listen 127.0.0.1:${free} (leave it running while Codex runs)`);
  });

  it('has its own --help, and refuses bad flags and port 0 with status 2', async () => {
    const h = spawnSync(LAUNCHER, ['doctor', '--help'], { env: machine.env, encoding: 'utf8' });
    expect([h.status, h.stdout.split('\n')[0]]).to.deep.equal([0, 'usage: hpatch-router doctor [--json] [--listen HOST:PORT] [--upstream URL] [--state-dir DIR]']);
    const b = spawnSync(LAUNCHER, ['doctor', '--mode', 'hpatch'], { env: machine.env, encoding: 'utf8' });
    expect(b.status).to.equal(2);
    expect(b.stderr).to.contain("Unknown option '--mode'");
    const z = spawnSync(LAUNCHER, ['doctor', '--listen', '127.0.0.1:0'], { env: machine.env, encoding: 'utf8' });
    expect([z.status, z.stderr]).to.deep.equal([2, 'hpatch-router doctor: --listen needs the port the router listens on, not 0\n']);
  });
});
