// End to end, configured plugins: the REAL Codex CLI → the BUILT router, which discovers the fixture
// plugins in its user config directory (no plugin flag) → scripted upstream. The model calls the
// Lark-grammar and the regex-grammar tool; Codex runs the carriers the router emits, and the next
// upstream request shows the model's original calls with their outputs.
//
// Codex runs each carrier through the tool's stable frontend (a symlink on its PATH → the router's
// snapshot wrapper → hpatch-router), and the plugin's executor output comes back (acceptance 7).
import { expect } from 'chai';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeRun, makeWorkDir, removeDir, runCodex } from '../support/codex-cli.ts';
import { FIXTURES } from '../support/fixtures.ts';
import { startRouterProcess, type RouterProcess } from '../support/router-process.ts';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.ts';
import { tempDir } from '../support/temp-dir.ts';

type Json = Record<string, any>;
const VALID = join(FIXTURES, 'plugins', 'valid');

describe('end to end: configured plugins with the real Codex CLI', function () {
  this.timeout(120_000);
  let upstream: ScriptedUpstream | undefined;
  let router: RouterProcess | undefined;
  let work: string;
  let config: { dir: string; cleanup: () => void };
  let state: { dir: string; cleanup: () => void };
  let runtime: { dir: string; cleanup: () => void };
  let frontends: { dir: string; cleanup: () => void };
  /** What the router and the commands Codex runs share: the runtime base and the frontend directory. */
  const executorEnv = (): Record<string, string> => ({ HPATCH_RUNTIME_DIR: join(runtime.dir, 'base'), HPATCH_FRONTEND_DIR: frontends.dir });
  beforeEach(() => {
    runtime = tempDir('plugins-e2e-runtime');
    frontends = tempDir('plugins-e2e-home');
    mkdirSync(join(frontends.dir, 'bin'));
    frontends = { dir: join(frontends.dir, 'bin'), cleanup: frontends.cleanup };
    work = makeWorkDir('plugins-e2e');
    config = tempDir('plugins-e2e-config');
    state = tempDir('plugins-e2e-state');
    mkdirSync(join(config.dir, 'hpatch'), { recursive: true });
    cpSync(VALID, join(config.dir, 'hpatch', 'plugins'), { recursive: true });
  });
  afterEach(async () => {
    await router?.stop();
    await upstream?.close();
    router = undefined;
    upstream = undefined;
    removeDir(work);
    config.cleanup();
    state.cleanup();
    runtime.cleanup();
    frontends.cleanup();
  });

  const calls = (namespace?: string) => [
    { type: 'custom_tool_call' as const, name: 'lark_sum', input: '1 + 2 + 39', call_id: 'call_lark', ...(namespace ? { namespace } : {}) },
    { type: 'custom_tool_call' as const, name: 'ticket_open', input: 'HP-42', call_id: 'call_regex', ...(namespace ? { namespace } : {}) },
  ];

  async function start(namespace?: string): Promise<void> {
    upstream = await startScriptedUpstream([{ items: calls(namespace) }, { items: [{ type: 'message', text: 'All done.' }] }]);
    router = await startRouterProcess({
      args: ['--upstream', upstream.url, '--state-dir', state.dir],
      env: { XDG_CONFIG_HOME: config.dir, ...executorEnv() },
      startTimeoutMs: 30_000,
    });
  }

  /**
   * Codex's commands find the frontends on PATH, as $PREFIX/bin would be after make install. Codex
   * runs commands with `bash -lc`, whose login profile resets PATH: the operator's profile adds the
   * directory back, so the test's HOME has a .profile that does the same.
   */
  const codexEnv = (): Record<string, string> => {
    writeFileSync(join(frontends.dir, '..', '.profile'), `export PATH=${JSON.stringify(frontends.dir)}:"$PATH"\n`);
    return { ...executorEnv(), HOME: join(frontends.dir, '..'), PATH: `${frontends.dir}:${process.env['PATH'] ?? ''}` };
  };

  function checkRestored(reqs: ReturnType<ScriptedUpstream['responsesRequests']>, namespace?: string): void {
    expect(reqs).to.have.length(2);
    const input = reqs[1]!.json['input'] as Json[];
    for (const c of calls(namespace)) {
      const call = input.find((i) => i['call_id'] === c.call_id && i['type'] === 'custom_tool_call');
      expect(call, JSON.stringify(input.slice(-4))).to.include({ name: c.name, input: c.input });
      expect(input.find((i) => i['call_id'] === c.call_id && i['type'] === 'custom_tool_call_output'), c.call_id).to.not.equal(undefined);
    }
    // The plugins' executors ran through their frontends under Codex and printed their results.
    const out = (id: string): string => {
      const o = input.find((i) => i['call_id'] === id && i['type'] === 'custom_tool_call_output')!['output'];
      return typeof o === 'string' ? o : (o as Json[]).map((p) => p['text']).join('\n');
    };
    expect(out('call_lark'), out('call_lark')).to.contain('42');
    expect(out('call_regex')).to.contain('ticket HP #42');
    // No carrier leaks into the model's history.
    expect(JSON.stringify(input)).to.not.contain('"name":"exec_command","arguments"');
  }

  it('native: the Lark and regex tools are offered exactly as declared, Codex runs their exec_command carriers, and the next request shows the original calls', async () => {
    await start();
    const run = await runCodex({ baseUrl: router!.baseUrl, prompt: 'Use the tools.', model: 'gpt-5.5', cwd: work, env: codexEnv() });
    expect(run.code, describeRun(run)).to.equal(0);
    expect(run.stdout).to.contain('All done.');
    const reqs = upstream!.responsesRequests();
    const tools = reqs[0]!.json['tools'] as Json[];
    expect(tools.find((t) => t['name'] === 'lark_sum')?.['format']).to.include({ type: 'grammar', syntax: 'lark' });
    expect(tools.find((t) => t['name'] === 'ticket_open')?.['format']).to.deep.equal({ type: 'grammar', syntax: 'regex', definition: '^[A-Z]{2,10}-[0-9]{1,6}$' });
    checkRestored(reqs);
  });

  it("Code Mode (Codex's default model): the tools sit beside exec, Codex runs the exec program carriers, and the next request shows the original calls", async () => {
    await start('functions');
    const run = await runCodex({ baseUrl: router!.baseUrl, prompt: 'Use the tools.', cwd: work, env: codexEnv() });
    expect(run.code, describeRun(run)).to.equal(0);
    const reqs = upstream!.responsesRequests();
    const ns = ((reqs[0]!.json['input'][0]['tools'] as Json[]).find((t) => t['name'] === 'functions'))!;
    expect((ns['tools'] as Json[]).map((t) => t['name'])).to.include.members(['lark_sum', 'ticket_open', 'text_echo']);
    checkRestored(reqs, 'functions');
  });

  it('a second router on the same frontends fails startup; a killed router\'s lock is recovered', async () => {
    await start();
    const second = startRouterProcess({ args: ['--upstream', upstream!.url, '--state-dir', state.dir], env: { XDG_CONFIG_HOME: config.dir, ...executorEnv() }, startTimeoutMs: 30_000 });
    const err = await second.then(() => null, (e: Error) => e);
    expect(err?.message).to.match(/lock/i);
    // Crash the holder: the lock file stays, but its process is gone.
    await router!.stop('SIGKILL');
    router = await startRouterProcess({ args: ['--upstream', upstream!.url, '--state-dir', state.dir], env: { XDG_CONFIG_HOME: config.dir, ...executorEnv() }, startTimeoutMs: 30_000 });
    const run = await runCodex({ baseUrl: router.baseUrl, prompt: 'Use the tools.', model: 'gpt-5.5', cwd: work, env: codexEnv() });
    expect(run.code, describeRun(run)).to.equal(0);
    checkRestored(upstream!.responsesRequests().slice(0, 2));
  });

  it("the frontend runs under Codex's own read-only sandbox, not around it", async () => {
    await start();
    const run = await runCodex({ baseUrl: router!.baseUrl, prompt: 'Use the tools.', model: 'gpt-5.5', cwd: work, env: codexEnv(), bypassSandbox: false });
    expect(run.code, describeRun(run)).to.equal(0);
    checkRestored(upstream!.responsesRequests());
  });
});
