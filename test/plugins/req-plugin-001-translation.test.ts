// REQ-PLUGIN-001 acceptance 6, 8 and 10 with a real configured plugin (fixtures/plugins/valid,
// loaded through the real plugin host) behind the real router and a scripted upstream.
import { expect } from 'chai';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { disposeAll, loadPlugins } from '../../host/plugins/load-plugins.ts';
import type { PluginIsolate } from '../../host/plugins/isolate.ts';
import type { Contribution } from '../../host/registry/contribution.ts';
import { ToolRegistry } from '../../host/registry/registry.ts';
import { startRouter, type RunningRouter } from '../../host/router.ts';
import { capturedRequest, FIXTURES } from '../support/fixtures.ts';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.ts';
import { parseSse } from '../support/sse-script.ts';
import { tempDir } from '../support/temp-dir.ts';

type Json = Record<string, any>;
const THREAD = '01a2289d-0000-7000-8000-00000000req1';

describe('REQ-PLUGIN-001 translation acceptance (configured plugin, real router)', function () {
  this.timeout(30_000);
  let plugins: { contributions: readonly Contribution[]; isolates: readonly PluginIsolate[] };
  let dirs: ReturnType<typeof tempDir>;
  let upstream: ScriptedUpstream;
  let router: RunningRouter;

  before(async () => {
    dirs = tempDir('req-translation');
    cpSync(join(FIXTURES, 'plugins', 'valid', '10-text-echo.mjs'), join(dirs.dir, '10-text-echo.mjs'));
    // A translator that picks a specific carrier kind instead of the request's primary one.
    writeFileSync(join(dirs.dir, '20-native-only.mjs'), `export default { apiVersion: 1, id: 'test.native-only', version: '1', tools: [{
      spec: { type: 'custom', name: 'native_only', description: 'Always runs through exec_command.' }, inputLimit: 100,
      parse: (i) => ({ ok: true, value: i }), translate: (v, ctx) => ctx.exec([v], { carrier: 'exec_command' }),
      execute: (ctx) => ({ stdout: ctx.argv.join(' '), status: 0 }) }] };\n`);
    const r = await loadPlugins({ dir: dirs.dir, reservedNames: [] });
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    plugins = r;
  });
  after(() => {
    disposeAll(plugins.isolates);
    dirs.cleanup();
  });
  afterEach(async () => {
    await router?.close();
    await upstream?.close();
  });

  async function start(script: Parameters<typeof startScriptedUpstream>[0], log: (line: string) => void = () => {}): Promise<void> {
    upstream = await startScriptedUpstream(script);
    const state = join(dirs.dir, `state-${Math.random().toString(36).slice(2)}`);
    router = await startRouter({ mode: 'hpatch', host: '127.0.0.1', port: 0, upstream: new URL(upstream.url), stateDir: state }, { registry: ToolRegistry.create([...plugins.contributions]), log });
  }

  async function post(body: unknown): Promise<{ text: string; events: Json[] }> {
    const res = await request(`${router.url}/v1/responses`, { method: 'POST', body: JSON.stringify(body), headers: { 'thread-id': THREAD } });
    const text = await res.body.text();
    return { text, events: res.headers['content-type']?.includes('event-stream') ? parseSse(text).map((f) => JSON.parse(f.data) as Json) : [] };
  }

  it('REQ-PLUGIN-001 acceptance 6: the exec wrapper renders native arguments or the Code Mode program, quotes every argv value independently on one line, and expands the one {.} of a template', async () => {
    const input = "first line\nit's $HOME\n";
    await start([
      { items: [{ type: 'custom_tool_call', name: 'text_echo', input, call_id: 'a6n' }, { type: 'custom_tool_call', name: 'templated_echo', input: 'x y', call_id: 'a6t' }] },
      { items: [{ type: 'custom_tool_call', name: 'text_echo', namespace: 'functions', input, call_id: 'a6c' }] },
    ]);
    const native = (await post(capturedRequest('a-default-gpt55-001').body)).events.filter((e) => e['type'] === 'response.output_item.done').map((e) => e['item']);
    expect(JSON.parse(native[0]['arguments'])).to.deep.equal({ cmd: "text_echo 'first line' 'it'\\''s $HOME' ''" });
    expect(JSON.parse(native[1]['arguments'])).to.deep.equal({ cmd: "cd /tmp && templated_echo 'x y'", yield_time_ms: 1000 });
    const cm = (await post(capturedRequest('a-default-modeldefault-gpt62sol-001').body)).events.find((e) => e['type'] === 'response.output_item.done')!['item'];
    expect(cm['input']).to.equal(`const result = await tools.exec_command(${JSON.stringify({ cmd: "text_echo 'first line' 'it'\\''s $HOME' ''" })});\ntext(result);\n`);
  });

  it('REQ-PLUGIN-001 acceptance 8: JSON and SSE keep call identity, withheld deltas become content-free in_progress events, native events replace custom ones, and replay restores the exact original call', async () => {
    await start([{ items: [{ type: 'custom_tool_call', name: 'text_echo', input: 'secret-ish input', call_id: 'a8', id: 'ctc_a8' }] }, { stream: false, items: [{ type: 'custom_tool_call', name: 'text_echo', input: 'json', call_id: 'a8j', id: 'ctc_a8j' }] }, {}]);
    const body = structuredClone(capturedRequest('a-default-gpt55-001').body) as Json;
    const sse = await post(body);
    const held = sse.events.filter((e) => e['type'] === 'response.in_progress').slice(1);
    expect(held.length).to.be.greaterThan(2);
    for (const e of held) expect(JSON.stringify(e)).to.not.contain('secret-ish');
    expect(sse.events.some((e) => String(e['type']).startsWith('response.custom_tool_call_input'))).to.equal(false);
    expect(sse.events.map((e) => e['type'])).to.include.members(['response.function_call_arguments.delta', 'response.function_call_arguments.done']);
    const carrier = sse.events.find((e) => e['type'] === 'response.output_item.done')!['item'];
    expect(carrier).to.include({ id: 'ctc_a8', call_id: 'a8', type: 'function_call', name: 'exec_command' });
    const json = JSON.parse((await post({ ...body, stream: false })).text) as Json;
    expect(json['output'][0]).to.include({ id: 'ctc_a8j', call_id: 'a8j', type: 'function_call' });
    body['input'].push(carrier, { type: 'function_call_output', call_id: 'a8', output: 'secret-ish input\n' });
    await post(body);
    const original = upstream.responsesRequests()[0]!.responseBody().toString();
    const doneItem = parseSse(original).map((f) => JSON.parse(f.data) as Json).find((e) => e['type'] === 'response.output_item.done')!['item'];
    const restored = (upstream.responsesRequests()[2]!.json as Json)['input'].at(-2);
    expect(restored).to.deep.equal(doneItem);
  });

  it('REQ-PLUGIN-001 acceptance 10: an observation failure cannot replace a translated carrier; request cancellation still propagates', async () => {
    await start([{ items: [{ type: 'custom_tool_call', name: 'text_echo', input: 'ok', call_id: 'a10' }] }, { items: [{ type: 'message', text: 'x' }], end: 'hang' }], () => {
      throw new Error('log sink is broken');
    });
    const r = await post(capturedRequest('a-default-gpt55-001').body);
    expect(r.events.find((e) => e['type'] === 'response.output_item.done')!['item']).to.include({ name: 'exec_command', call_id: 'a10' });
    const ac = new AbortController();
    const res = await request(`${router.url}/v1/responses`, { method: 'POST', body: JSON.stringify(capturedRequest('a-default-gpt55-001').body), headers: { 'thread-id': THREAD }, signal: ac.signal });
    await res.body[Symbol.asyncIterator]().next();
    ac.abort();
    expect(await upstream.requests[1]!.settled).to.equal('aborted');
  });

  it('REQ-PLUGIN-001 acceptance 5: a plugin may choose any compatible carrier the request offers; an unavailable one rejects before anything executes', async () => {
    await start([
      { items: [{ type: 'custom_tool_call', name: 'native_only', namespace: 'functions', input: 'v', call_id: 'a5a' }] },
      { items: [{ type: 'custom_tool_call', name: 'native_only', namespace: 'functions', input: 'v', call_id: 'a5b' }] },
    ]);
    // Code Mode owner plus a top-level exec_command: both carriers are available.
    const mixed = structuredClone(capturedRequest('a-default-modeldefault-gpt62sol-001').body) as Json;
    mixed['tools'] = [(capturedRequest('a-default-gpt55-001').body as Json)['tools'][0]];
    const ok = (await post(mixed)).events.find((e) => e['type'] === 'response.output_item.done')!['item'];
    expect(ok).to.include({ type: 'function_call', name: 'exec_command', call_id: 'a5a' });
    expect(JSON.parse(ok['arguments'])).to.deep.equal({ cmd: 'native_only v' });
    // Code Mode only: exec_command is not offered, so the request is a routing failure.
    const refused = await post(capturedRequest('a-default-modeldefault-gpt62sol-001').body);
    expect(refused.events.some((e) => e['type'] === 'response.output_item.done')).to.equal(false);
    expect(refused.events.at(-1)!['response']['error']['message']).to.contain('exec_command is not available');
  });
});
