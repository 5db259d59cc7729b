import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { request } from 'undici';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.ts';
import { startTestRouter, type TestRouter } from '../support/in-process-router.ts';
import { buildSse } from '../support/sse-script.ts';

describe('passthrough mode (scripted upstream, real router)', () => {
  let upstream: ScriptedUpstream;
  let router: TestRouter;
  afterEach(async () => {
    await router?.stop();
    await upstream?.close();
  });

  async function start(script: Parameters<typeof startScriptedUpstream>[0]): Promise<void> {
    upstream = await startScriptedUpstream(script);
    router = await startTestRouter({ upstream: upstream.url, mode: 'passthrough' });
  }

  it('forwards request and response bytes unchanged, with authorization and without hop-by-hop headers', async () => {
    await start([{ items: [{ type: 'custom_tool_call', name: 'anything', input: 'x', call_id: 'c1' }], chunking: { size: 5 } }]);
    const body = Buffer.from('{"model":"m", "input" : [ {"type":"message"} ],"stream":true}\n');
    const { received, headers } = await new Promise<{ received: Buffer; headers: Record<string, unknown> }>((resolve, reject) => {
      const req = httpRequest(`${router.url}/v1/responses?x=1`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json', 'keep-alive': 'timeout=5', 'x-drop-me': 'yes', connection: 'keep-alive, x-drop-me', 'thread-id': 't1', 'content-length': body.length },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ received: Buffer.concat(chunks), headers: res.headers }));
      });
      req.on('error', reject);
      req.end(body);
    });
    const rec = upstream.requests[0]!;
    expect(rec.path).to.equal('/v1/responses?x=1');
    expect(rec.body.equals(body)).to.equal(true);
    expect(rec.headers['authorization']).to.equal('Bearer sk-test');
    expect(rec.headers['thread-id']).to.equal('t1');
    expect(rec.headers['keep-alive']).to.equal(undefined);
    expect(rec.headers['x-drop-me']).to.equal(undefined);
    expect(received.equals(rec.responseBody())).to.equal(true);
    expect(headers['content-type']).to.contain('text/event-stream');
  });

  it('streams SSE incrementally: events arrive while the upstream response is still open', async () => {
    await start([{ items: [{ type: 'message', text: 'a b c' }], end: 'hang' }]);
    const res = await request(`${router.url}/v1/responses`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    let text = '';
    for await (const chunk of res.body) {
      text += String(chunk);
      if (text.includes('response.completed')) break; // a buffering proxy would never get here: the upstream never ends
    }
    expect(text).to.contain('response.created').and.contain('response.completed');
    expect(upstream.requests[0]!.bytesWritten).to.equal(Buffer.byteLength(text));
  });

  it('propagates upstream error statuses and bodies', async () => {
    await start([{ status: 429, json: { error: { message: 'slow down', code: 'rate_limit_exceeded' } }, headers: { 'retry-after': '1' } }]);
    const res = await request(`${router.url}/v1/responses`, { method: 'POST', body: '{}' });
    expect(res.statusCode).to.equal(429);
    expect(res.headers['retry-after']).to.equal('1');
    expect(await res.body.json()).to.deep.equal({ error: { message: 'slow down', code: 'rate_limit_exceeded' } });
  });

  it('propagates a client disconnect to the upstream', async () => {
    await start([{ items: [{ type: 'message', text: 'x' }], end: 'hang' }]);
    const ac = new AbortController();
    const res = await request(`${router.url}/v1/responses`, { method: 'POST', body: '{}', signal: ac.signal });
    const it = res.body[Symbol.asyncIterator]();
    await it.next();
    ac.abort();
    const outcome = await Promise.race([upstream.requests[0]!.settled, new Promise((r) => setTimeout(() => r('timeout'), 3000))]);
    expect(outcome).to.equal('aborted');
    expect(upstream.requests[0]!.clientAborted).to.equal(true);
  });

  it('mirrors an upstream that dies mid-stream as a truncated stream', async () => {
    await start([{ items: [{ type: 'message', text: 'partial' }], omitCompleted: true, end: 'close' }]);
    const res = await request(`${router.url}/v1/responses`, { method: 'POST', body: '{}' });
    let text = '';
    let failed = false;
    try {
      for await (const c of res.body) text += String(c);
    } catch {
      failed = true;
    }
    expect(text).to.contain('response.output_item.done');
    expect(text).to.not.contain('response.completed');
    expect(failed).to.equal(true);
  });

  it('answers 502 with a JSON error naming the upstream when it is unreachable', async () => {
    upstream = await startScriptedUpstream([]);
    const dead = upstream.url;
    await upstream.close();
    router = await startTestRouter({ upstream: dead, mode: 'passthrough' });
    const res = await request(`${router.url}/v1/responses`, { method: 'POST', body: '{}' });
    expect(res.statusCode).to.equal(502);
    const body = (await res.body.json()) as { error: { message: string; code: string } };
    expect(body.error.code).to.equal('upstream_unreachable');
    expect(body.error.message).to.contain(dead);
  });

  it('answers 404 outside /v1 and serves /metrics', async () => {
    await start([]);
    const a = await request(`${router.url}/responses`, { method: 'POST', body: '{}' });
    expect(a.statusCode).to.equal(404);
    await a.body.dump();
    const r = await request(`${router.url}/v1/models`);
    await r.body.dump();
    const m = await request(`${router.url}/metrics`);
    expect(await m.body.text()).to.contain('hpatch_router_requests_total{mode="passthrough",shape="untouched",result="forwarded"} 1');
  });

  it('keeps the upstream bytes of an SSE body exact even when it ends without response.completed', async () => {
    const sse = buildSse([{ type: 'message', text: 'x' }], { terminal: { kind: 'none' } } as never);
    await start([{ rawBody: sse, headers: { 'content-type': 'text/event-stream' } }]);
    const res = await request(`${router.url}/v1/responses`, { method: 'POST', body: '{}' });
    expect(await res.body.text()).to.equal(sse);
  });
});
