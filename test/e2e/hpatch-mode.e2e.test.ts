// End to end, hpatch mode: the REAL Codex CLI → the real router (with a contribution the test
// suite registers through the real registry) → scripted upstream. Codex executes the carrier the
// router emits, and the next upstream request must show the model's original call and output.
import { expect } from 'chai';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.ts';
import { describeRun, makeWorkDir, removeDir, resumeCodex, runCodex } from '../support/codex-cli.ts';
import { startTestRouter, type TestRouter } from '../support/in-process-router.ts';
import { argvEcho, brokenTranslator, slowEcho } from '../support/test-contributions.ts';
import { tempDir } from '../support/temp-dir.ts';

type Json = Record<string, any>;

function findItem(input: Json[], pred: (i: Json) => boolean): Json | undefined {
  return input.find(pred);
}

function outputText(item: Json | undefined): string {
  if (!item) return '';
  return typeof item['output'] === 'string' ? item['output'] : (item['output'] as Json[]).map((p) => p['text']).join('\n');
}

describe('end to end: hpatch mode with the real Codex CLI', function () {
  this.timeout(120_000);
  let upstream: ScriptedUpstream | undefined;
  let router: TestRouter | undefined;
  let work: string;
  beforeEach(() => {
    work = makeWorkDir('hpatch-e2e');
  });
  afterEach(async () => {
    await router?.stop();
    await upstream?.close();
    router = undefined;
    upstream = undefined;
    removeDir(work);
  });

  const toolLoop = (namespace?: string) => [
    { items: [{ type: 'custom_tool_call' as const, name: 'argv_echo', input: 'hello world\nsecond $HOME line', call_id: 'call_e2e_1', ...(namespace ? { namespace } : {}) }] },
    { items: [{ type: 'message' as const, text: 'All done.' }] },
  ];

  it('native (gpt-5.5): Codex runs the exec_command carrier and the next request shows the original call and its output', async () => {
    upstream = await startScriptedUpstream(toolLoop());
    router = await startTestRouter({ upstream: upstream.url, contributions: [argvEcho()] });
    const run = await runCodex({ baseUrl: `${router.url}/v1`, prompt: 'Use argv_echo.', model: 'gpt-5.5', cwd: work });
    expect(run.code, describeRun(run)).to.equal(0);
    expect(run.stdout).to.contain('All done.');
    const reqs = upstream.responsesRequests();
    expect(reqs).to.have.length(2);
    const tools = (reqs[0]!.json as Json)['tools'] as Json[];
    expect(tools.map((t) => t['name'])).to.include('argv_echo');
    const input = (reqs[1]!.json as Json)['input'] as Json[];
    const call = findItem(input, (i) => i['call_id'] === 'call_e2e_1' && i['type'] !== 'custom_tool_call_output' && i['type'] !== 'function_call_output');
    expect(call).to.include({ type: 'custom_tool_call', name: 'argv_echo', input: 'hello world\nsecond $HOME line' });
    const out = findItem(input, (i) => i['call_id'] === 'call_e2e_1' && i['type'] === 'custom_tool_call_output');
    expect(out, JSON.stringify(input.slice(-3))).to.not.equal(undefined);
    expect(outputText(out)).to.match(/Process exited with code 0[\s\S]*Output:\nhello world\nsecond \$HOME line\n$/);
    expect(JSON.stringify(input)).to.not.contain('"name":"exec_command","arguments"');
  });

  it("Code Mode (Codex's default model): Codex runs the exec program carrier and the next request shows the original call", async () => {
    upstream = await startScriptedUpstream(toolLoop('functions'));
    router = await startTestRouter({ upstream: upstream.url, contributions: [argvEcho()] });
    const run = await runCodex({ baseUrl: `${router.url}/v1`, prompt: 'Use argv_echo.', cwd: work });
    expect(run.code, describeRun(run)).to.equal(0);
    const reqs = upstream.responsesRequests();
    expect(reqs).to.have.length(2);
    const first = reqs[0]!.json as Json;
    const ns = (first['input'][0]['tools'] as Json[]).find((t) => t['name'] === 'functions')!;
    expect((ns['tools'] as Json[]).map((t) => t['name'])).to.include('argv_echo');
    const input = (reqs[1]!.json as Json)['input'] as Json[];
    const call = findItem(input, (i) => i['call_id'] === 'call_e2e_1' && i['type'] === 'custom_tool_call');
    expect(call).to.include({ name: 'argv_echo', namespace: 'functions', input: 'hello world\nsecond $HOME line' });
    const out = findItem(input, (i) => i['call_id'] === 'call_e2e_1' && i['type'] === 'custom_tool_call_output');
    const text = outputText(out);
    expect(text).to.contain('Script completed');
    // The complete native result object is forwarded, not only its output field.
    const result = JSON.parse(text.slice(text.indexOf('{'))) as Json;
    expect(result).to.include({ exit_code: 0, output: 'hello world\nsecond $HOME line\n' });
    expect(result).to.have.property('wall_time_seconds');
  });

  it('refuses an unsupported shape (top-level Code Mode exec) before forwarding, and Codex shows why', async () => {
    upstream = await startScriptedUpstream([]);
    router = await startTestRouter({ upstream: upstream.url, contributions: [argvEcho()] });
    const run = await runCodex({ baseUrl: `${router.url}/v1`, prompt: 'hi', model: 'gpt-5.5', cwd: work, extraArgs: ['--enable', 'code_mode_only'] });
    expect(run.code, describeRun(run)).to.not.equal(0);
    expect(run.stderr + run.stdout).to.contain('unsupported request shape').and.contain('top-level tool');
    expect(upstream.responsesRequests()).to.have.length(0);
  });

  it('restores history after a router restart between two turns', async () => {
    const state = tempDir('restart-state');
    try {
      upstream = await startScriptedUpstream([...toolLoop(), { items: [{ type: 'message', text: 'Second turn done.' }] }]);
      router = await startTestRouter({ upstream: upstream.url, contributions: [argvEcho()], stateDir: state.dir });
      const first = await runCodex({ baseUrl: `${router.url}/v1`, prompt: 'Use argv_echo.', model: 'gpt-5.5', cwd: work });
      expect(first.code, describeRun(first)).to.equal(0);
      await router.stop({ keepState: true });
      router = await startTestRouter({ upstream: upstream.url, contributions: [argvEcho()], stateDir: state.dir });
      const second = await resumeCodex({ baseUrl: `${router.url}/v1`, prompt: 'Again.', model: 'gpt-5.5', cwd: work, codexHome: first.codexHome });
      expect(second.code, describeRun(second)).to.equal(0);
      expect(second.stdout).to.contain('Second turn done.');
      const reqs = upstream.responsesRequests();
      expect(reqs).to.have.length(3);
      const input = (reqs[2]!.json as Json)['input'] as Json[];
      expect(findItem(input, (i) => i['call_id'] === 'call_e2e_1' && i['type'] === 'custom_tool_call')).to.include({ name: 'argv_echo' });
      expect(findItem(input, (i) => i['call_id'] === 'call_e2e_1' && i['type'] === 'custom_tool_call_output')).to.not.equal(undefined);
      expect(router.logLines.some((l) => l.includes('restored=1'))).to.equal(true);
      removeDir(first.codexHome);
    } finally {
      await router?.stop();
      router = undefined;
      state.cleanup();
    }
  });

  it('a yielded native result stays yielded: the model gets the continuation handle, the router never polls', async () => {
    upstream = await startScriptedUpstream([
      { items: [{ type: 'custom_tool_call', name: 'slow_echo', input: '3', call_id: 'call_yield' }] },
      { items: [{ type: 'message', text: 'Not waiting.' }] },
    ]);
    router = await startTestRouter({ upstream: upstream.url, contributions: [slowEcho()] });
    const run = await runCodex({ baseUrl: `${router.url}/v1`, prompt: 'Use slow_echo.', model: 'gpt-5.5', cwd: work });
    expect(run.code, describeRun(run)).to.equal(0);
    const reqs = upstream.responsesRequests();
    expect(reqs).to.have.length(2);
    const input = (reqs[1]!.json as Json)['input'] as Json[];
    const out = outputText(findItem(input, (i) => i['call_id'] === 'call_yield' && i['type'] === 'custom_tool_call_output'));
    expect(out).to.match(/Process running with session ID \d+/);
    expect(out).to.not.contain('finished');
    // Only the model's own calls reached Codex: no write_stdin from the router.
    expect(JSON.stringify(input)).to.not.contain('write_stdin",');
  });

  it('a yielded Code Mode result forwards the complete native object with its session_id', async () => {
    upstream = await startScriptedUpstream([
      { items: [{ type: 'custom_tool_call', name: 'slow_echo', namespace: 'functions', input: '3', call_id: 'call_yield_cm' }] },
      { items: [{ type: 'message', text: 'Not waiting.' }] },
    ]);
    router = await startTestRouter({ upstream: upstream.url, contributions: [slowEcho()] });
    const run = await runCodex({ baseUrl: `${router.url}/v1`, prompt: 'Use slow_echo.', cwd: work });
    expect(run.code, describeRun(run)).to.equal(0);
    const input = (upstream.responsesRequests()[1]!.json as Json)['input'] as Json[];
    const text = outputText(findItem(input, (i) => i['call_id'] === 'call_yield_cm' && i['type'] === 'custom_tool_call_output'));
    const result = JSON.parse(text.slice(text.indexOf('{'))) as Json;
    expect(result).to.have.property('session_id').that.is.a('number');
    expect(result).to.not.have.property('exit_code');
  });

  it("stays deterministic under Codex's stream retries: the executed carrier is restored in the retried request", async () => {
    upstream = await startScriptedUpstream([
      // The call arrives complete, then the stream dies before response.completed: Codex has already
      // executed the carrier and retries with the call and its output in the history.
      { items: [{ type: 'custom_tool_call', name: 'argv_echo', input: 'retry me', call_id: 'call_retry' }], omitCompleted: true, end: 'close' },
      { items: [{ type: 'message', text: 'Recovered.' }] },
    ]);
    router = await startTestRouter({ upstream: upstream.url, contributions: [argvEcho()] });
    const run = await runCodex({ baseUrl: `${router.url}/v1`, prompt: 'Use argv_echo.', model: 'gpt-5.5', cwd: work, provider: { stream_max_retries: 2, request_max_retries: 0 } });
    expect(run.code, describeRun(run)).to.equal(0);
    expect(run.stdout).to.contain('Recovered.');
    const reqs = upstream.responsesRequests();
    expect(reqs).to.have.length(2);
    const input = (reqs[1]!.json as Json)['input'] as Json[];
    expect(findItem(input, (i) => i['call_id'] === 'call_retry' && i['type'] === 'custom_tool_call')).to.include({ name: 'argv_echo', input: 'retry me' });
    expect(outputText(findItem(input, (i) => i['call_id'] === 'call_retry' && i['type'] === 'custom_tool_call_output'))).to.contain('retry me');
  });

  it('a translator protocol violation is a routing failure Codex shows once, without retrying or executing anything', async () => {
    upstream = await startScriptedUpstream([{ items: [{ type: 'custom_tool_call', name: 'broken_garbage', input: 'x', call_id: 'call_bad' }] }]);
    router = await startTestRouter({ upstream: upstream.url, contributions: [brokenTranslator('garbage')] });
    const run = await runCodex({ baseUrl: `${router.url}/v1`, prompt: 'Use it.', model: 'gpt-5.5', cwd: work });
    expect(run.code, describeRun(run)).to.not.equal(0);
    expect(run.stderr + run.stdout).to.contain('routing failure').and.contain('broken_garbage');
    expect(upstream.responsesRequests()).to.have.length(1);
  });
});
