import { expect } from 'chai';
import { request } from 'undici';
import { startScriptedUpstream, type ScriptedUpstream, type Script } from '../support/scripted-upstream.ts';
import { startTestRouter, type TestRouter } from '../support/in-process-router.ts';
import { parseSse } from '../support/sse-script.ts';
import { capturedRequest } from '../support/fixtures.ts';
import { argvEcho, brokenTranslator } from '../support/test-contributions.ts';

type Json = Record<string, any>;
const THREAD = '01a22898-aaaa-7bbb-8ccc-000000000001';

describe('hpatch mode (scripted upstream, real router, test contribution)', () => {
  let upstream: ScriptedUpstream;
  let router: TestRouter;
  afterEach(async () => {
    await router?.stop();
    await upstream?.close();
  });

  async function start(script: Script): Promise<void> {
    upstream = await startScriptedUpstream(script);
    router = await startTestRouter({ upstream: upstream.url, contributions: [argvEcho(), brokenTranslator('throws')] });
  }

  async function post(body: unknown, headers: Record<string, string> = { 'thread-id': THREAD }): Promise<{ status: number; text: string; events: Json[] }> {
    const res = await request(`${router.url}/v1/responses`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
    const text = await res.body.text();
    const events = res.headers['content-type']?.includes('event-stream') ? parseSse(text).map((f) => JSON.parse(f.data) as Json) : [];
    return { status: res.statusCode, text, events };
  }

  const doneItems = (events: Json[]): Json[] => events.filter((e) => e['type'] === 'response.output_item.done').map((e) => e['item']);

  it('runs a tool loop: the model calls the contribution, Codex gets a carrier, the next request shows the original call', async () => {
    await start([
      { items: [{ type: 'custom_tool_call', name: 'argv_echo', input: 'hello\nworld', call_id: 'call_1' }] },
      { items: [{ type: 'message', text: 'done' }] },
    ]);
    const body = structuredClone(capturedRequest('a-default-gpt55-001').body) as Json;
    const first = await post(body);
    expect(first.status).to.equal(200);
    const sent = upstream.requests[0]!.json as Json;
    expect((sent['tools'] as Json[]).map((t) => t['name'])[1]).to.equal('argv_echo');
    const [carrier] = doneItems(first.events);
    expect(carrier).to.include({ type: 'function_call', name: 'exec_command', call_id: 'call_1' });

    // Codex executed the carrier and echoes it back with its output.
    const output = { type: 'function_call_output', id: 'fco_x', call_id: 'call_1', output: 'Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 2\nOutput:\nhello\nworld\n' };
    body['input'].push(carrier, output);
    const second = await post(body);
    expect(second.status).to.equal(200);
    const history = (upstream.requests[1]!.json as Json)['input'] as Json[];
    expect(history.at(-2)).to.include({ type: 'custom_tool_call', name: 'argv_echo', input: 'hello\nworld', call_id: 'call_1' });
    expect(history.at(-1)).to.deep.equal({ type: 'custom_tool_call_output', id: 'ctco_x', call_id: 'call_1', output: output.output });
    const metrics = await (await request(`${router.url}/metrics`)).body.text();
    expect(metrics).to.contain('hpatch_router_translated_calls_total{tool="argv_echo",carrier="exec_command",outcome="carrier"} 1');
    expect(metrics).to.contain('hpatch_router_restored_calls_total{tool="argv_echo",carrier="exec_command"} 1');
    expect(router.logLines.some((l) => l.includes(`thread=${THREAD}`) && l.includes('shape=native') && l.includes('translated=1') && l.includes('status=200'))).to.equal(true);
  });

  it('translates parallel calls independently and leaves native calls untouched', async () => {
    await start([{ items: [
      { type: 'custom_tool_call', name: 'argv_echo', input: 'a', call_id: 'p1' },
      { type: 'function_call', name: 'exec_command', arguments: { cmd: 'echo native' }, call_id: 'p2' },
      { type: 'custom_tool_call', name: 'argv_echo', input: 'b', call_id: 'p3' },
    ] }]);
    const r = await post(capturedRequest('a-default-gpt55-001').body);
    const items = doneItems(r.events);
    expect(items.map((i) => [i['name'], i['call_id']])).to.deep.equal([['exec_command', 'p1'], ['exec_command', 'p2'], ['exec_command', 'p3']]);
    expect(items[1]!['arguments']).to.equal('{"cmd":"echo native"}');
    expect(r.events.map((e) => e['sequence_number'])).to.deep.equal(r.events.map((_, i) => i));
    const completed = r.events.at(-1)!;
    expect(completed['response']['output']).to.deep.equal(items);
  });

  it('Code Mode: the carrier is an exec program in the functions namespace', async () => {
    await start([{ items: [{ type: 'custom_tool_call', name: 'argv_echo', namespace: 'functions', input: 'x y', call_id: 'cm1' }] }]);
    const r = await post(capturedRequest('a-default-modeldefault-gpt62sol-001').body);
    const [item] = doneItems(r.events);
    expect(item).to.include({ type: 'custom_tool_call', name: 'exec', namespace: 'functions', call_id: 'cm1' });
    expect(item!['input']).to.contain('await tools.exec_command(');
  });

  it('refuses an unsupported shape before forwarding, with a JSON error naming the problem', async () => {
    await start([]);
    const r = await post(capturedRequest('f2-tools-gpt55-code_mode_only-001').body);
    expect(r.status).to.equal(400);
    const err = JSON.parse(r.text) as Json;
    expect(err['error']['code']).to.equal('unsupported_request_shape');
    expect(err['error']['message']).to.contain('top-level tool "exec"');
    expect(upstream.requests).to.have.length(0);
  });

  it('refuses unsafe thread ids, invalid JSON and non-UTF-8 bodies before forwarding', async () => {
    await start([]);
    expect((await post({}, { 'thread-id': '../../etc' })).status).to.equal(400);
    const bad = await request(`${router.url}/v1/responses`, { method: 'POST', body: '{"input": [', headers: { 'thread-id': THREAD } });
    expect(bad.statusCode).to.equal(400);
    expect(((await bad.body.json()) as Json)['error']['code']).to.equal('invalid_json');
    const latin = await request(`${router.url}/v1/responses`, { method: 'POST', body: Buffer.from([0x7b, 0xff, 0x7d]), headers: { 'thread-id': THREAD } });
    expect(latin.statusCode).to.equal(400);
    expect(((await latin.body.json()) as Json)['error']['code']).to.equal('invalid_utf8');
    expect(upstream.requests).to.have.length(0);
  });

  it('refuses a history whose carrier was altered (routing failure, nothing forwarded)', async () => {
    await start([{ items: [{ type: 'custom_tool_call', name: 'argv_echo', input: 'safe', call_id: 'm1' }] }]);
    const body = structuredClone(capturedRequest('a-default-gpt55-001').body) as Json;
    const [carrier] = doneItems((await post(body)).events);
    body['input'].push({ ...carrier, arguments: '{"cmd":"rm -rf ~"}' });
    const r = await post(body);
    expect(r.status).to.equal(400);
    expect(JSON.parse(r.text)['error']['code']).to.equal('history_mismatch');
    expect(upstream.requests).to.have.length(1);
  });

  it('reports a translator failure as a non-retryable response.failed and stops the stream', async () => {
    await start([{ items: [{ type: 'custom_tool_call', name: 'broken_throws', input: 'x', call_id: 'b1' }, { type: 'message', text: 'never' }] }]);
    const r = await post(capturedRequest('a-default-gpt55-001').body);
    const last = r.events.at(-1)!;
    expect(last['type']).to.equal('response.failed');
    expect(last['response']['error']['message']).to.contain('translator of "broken_throws"');
    expect(r.text).to.not.contain('never');
  });

  it('passes upstream errors through with their status and body', async () => {
    await start([{ status: 400, json: { error: { message: 'bad request mock', type: 'invalid_request_error' } } }]);
    const r = await post(capturedRequest('a-default-gpt55-001').body);
    expect(r.status).to.equal(400);
    expect(JSON.parse(r.text)).to.deep.equal({ error: { message: 'bad request mock', type: 'invalid_request_error' } });
  });

  it('forwards a truncated stream as far as it went, translating complete items, and breaks the client stream too', async () => {
    await start([{ items: [{ type: 'custom_tool_call', name: 'argv_echo', input: 't', call_id: 'tr1' }], omitCompleted: true, end: 'close' }]);
    const res = await request(`${router.url}/v1/responses`, { method: 'POST', body: JSON.stringify(capturedRequest('a-default-gpt55-001').body), headers: { 'thread-id': THREAD } });
    let text = '';
    let broken = false;
    try {
      for await (const c of res.body) text += String(c);
    } catch {
      broken = true;
    }
    const events = parseSse(text).map((f) => JSON.parse(f.data) as Json);
    expect(doneItems(events).map((i) => i['name'])).to.deep.equal(['exec_command']);
    expect(events.some((e) => e['type'] === 'response.completed')).to.equal(false);
    expect(broken).to.equal(true);
  });

  it('propagates a client disconnect upstream while a call is held', async () => {
    await start([{ items: [{ type: 'custom_tool_call', name: 'argv_echo', input: 'slow', call_id: 'd1' }], end: 'hang' }]);
    const ac = new AbortController();
    const res = await request(`${router.url}/v1/responses`, { method: 'POST', body: JSON.stringify(capturedRequest('a-default-gpt55-001').body), headers: { 'thread-id': THREAD }, signal: ac.signal });
    const it = res.body[Symbol.asyncIterator]();
    await it.next();
    ac.abort();
    const outcome = await Promise.race([upstream.requests[0]!.settled, new Promise((r) => setTimeout(() => r('timeout'), 3000))]);
    expect(outcome).to.equal('aborted');
  });

  it('answers non-streaming JSON requests with translated output items', async () => {
    await start([{ stream: false, items: [{ type: 'custom_tool_call', name: 'argv_echo', input: 'j', call_id: 'j1' }] }]);
    const body = { ...capturedRequest('a-default-gpt55-001').body, stream: false };
    const r = await post(body);
    const parsed = JSON.parse(r.text) as Json;
    expect(parsed['output'][0]).to.include({ type: 'function_call', name: 'exec_command', call_id: 'j1' });
  });

  it('offers nothing and translates nothing for requests without a thread id', async () => {
    await start([{ items: [{ type: 'custom_tool_call', name: 'argv_echo', input: 'z', call_id: 'n1' }] }]);
    const r = await post(capturedRequest('a-default-gpt55-001').body, {});
    expect((upstream.requests[0]!.json as Json)['tools'].map((t: Json) => t['name'])).to.not.include('argv_echo');
    expect(doneItems(r.events)[0]).to.include({ type: 'custom_tool_call', name: 'argv_echo' });
  });
});
