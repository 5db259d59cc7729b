// End to end, configured plugins: the REAL Codex CLI → the BUILT router, which discovers the fixture
// plugins in its user config directory (no plugin flag) → scripted upstream. The model calls the
// Lark-grammar and the regex-grammar tool; Codex runs the carriers the router emits, and the next
// upstream request shows the model's original calls with their outputs.
//
// The executor frontends (REQ-PLUGIN-001 acceptance 7) are not asserted here: this suite checks the
// exposure, translation and restoration around them, whatever the frontend prints.
import { expect } from 'chai';
import { cpSync, mkdirSync } from 'node:fs';
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
  beforeEach(() => {
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
  });

  const calls = (namespace?: string) => [
    { type: 'custom_tool_call' as const, name: 'lark_sum', input: '1 + 2 + 39', call_id: 'call_lark', ...(namespace ? { namespace } : {}) },
    { type: 'custom_tool_call' as const, name: 'ticket_open', input: 'HP-42', call_id: 'call_regex', ...(namespace ? { namespace } : {}) },
  ];

  async function start(namespace?: string): Promise<void> {
    upstream = await startScriptedUpstream([{ items: calls(namespace) }, { items: [{ type: 'message', text: 'All done.' }] }]);
    router = await startRouterProcess({
      args: ['--upstream', upstream.url, '--state-dir', state.dir],
      env: { XDG_CONFIG_HOME: config.dir },
      startTimeoutMs: 30_000,
    });
  }

  function checkRestored(reqs: ReturnType<ScriptedUpstream['responsesRequests']>, namespace?: string): void {
    expect(reqs).to.have.length(2);
    const input = reqs[1]!.json['input'] as Json[];
    for (const c of calls(namespace)) {
      const call = input.find((i) => i['call_id'] === c.call_id && i['type'] === 'custom_tool_call');
      expect(call, JSON.stringify(input.slice(-4))).to.include({ name: c.name, input: c.input });
      expect(input.find((i) => i['call_id'] === c.call_id && i['type'] === 'custom_tool_call_output'), c.call_id).to.not.equal(undefined);
    }
    // No carrier leaks into the model's history.
    expect(JSON.stringify(input)).to.not.contain('"name":"exec_command","arguments"');
  }

  it('native: the Lark and regex tools are offered exactly as declared, Codex runs their exec_command carriers, and the next request shows the original calls', async () => {
    await start();
    const run = await runCodex({ baseUrl: router!.baseUrl, prompt: 'Use the tools.', model: 'gpt-5.5', cwd: work });
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
    const run = await runCodex({ baseUrl: router!.baseUrl, prompt: 'Use the tools.', cwd: work });
    expect(run.code, describeRun(run)).to.equal(0);
    const reqs = upstream!.responsesRequests();
    const ns = ((reqs[0]!.json['input'][0]['tools'] as Json[]).find((t) => t['name'] === 'functions'))!;
    expect((ns['tools'] as Json[]).map((t) => t['name'])).to.include.members(['lark_sum', 'ticket_open', 'text_echo']);
    checkRestored(reqs, 'functions');
  });
});
