// RunningServer.shutdown (in process, real router, scripted upstream): what each kind of exchange
// still in flight gets at the bound, and what a request arriving while draining gets.
import { expect } from 'chai';
import http from 'node:http';
import net from 'node:net';
import { startTestRouter, type TestRouter } from '../support/in-process-router.ts';
import { startScriptedUpstream, type Script, type ScriptedUpstream } from '../support/scripted-upstream.ts';

interface Outcome {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body ended with its final chunk / full length. */
  complete: boolean;
  error?: string;
}

function send(url: string, agent: http.Agent | false, body = '{"stream":true}'): { head: Promise<void>; done: Promise<Outcome> } {
  let headed!: () => void;
  const head = new Promise<void>((r) => (headed = r));
  const done = new Promise<Outcome>((resolve) => {
    const req = http.request(`${url}/v1/responses`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      headed();
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      const fin = (error?: Error): void => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, complete: res.complete, ...(error ? { error: error.message } : {}) });
      res.on('end', () => fin());
      res.on('error', fin);
      res.on('aborted', () => fin(new Error('aborted')));
    });
    req.on('error', (e) => resolve({ status: 0, headers: {}, body: '', complete: false, error: e.message }));
    req.end(body);
  });
  return { head, done };
}

describe('router shutdown (in process)', () => {
  let upstream: ScriptedUpstream;
  let router: TestRouter;
  afterEach(async () => {
    await router?.stop();
    await upstream?.close();
  });

  async function start(script: Script): Promise<void> {
    upstream = await startScriptedUpstream(script);
    router = await startTestRouter({ upstream: upstream.url, mode: 'passthrough' });
  }

  it('a request still waiting for the upstream at the bound gets 503 router_shutting_down with Connection: close', async () => {
    await start([{ items: [{ type: 'message', text: 'late' }], delayMs: 10_000 }]);
    const s = send(router.url, false);
    await upstream.waitForResponsesRequests(1);
    const report = await router.shutdown(200);
    expect(report).to.deep.equal({ inFlight: 1, cut: 1 });
    const got = await s.done;
    expect(got.status).to.equal(503);
    expect(got.headers['connection']).to.equal('close');
    expect(JSON.parse(got.body).error.code).to.equal('router_shutting_down');
    expect(await upstream.requests[0]!.settled).to.equal('aborted');
  });

  it('a request whose head is still arriving when draining begins gets 503 router_shutting_down and Connection: close', async () => {
    await start([{ items: [{ type: 'message', text: 'slow' }], eventGapMs: 200 }]);
    // (a stream in flight keeps the server draining while the late request completes)
    const slow = send(router.url, false);
    await slow.head;
    const { port } = new URL(router.url);
    const sock = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((r) => sock.once('connect', () => r()));
    const body = '{"stream":true}';
    // The request line is in before draining begins: the connection is busy, not idle.
    sock.write('POST /v1/responses HTTP/1.1\r\nHost: x\r\n');
    await new Promise((r) => setTimeout(r, 50));
    const draining = router.shutdown(5000);
    let raw = '';
    sock.setEncoding('utf8');
    sock.on('data', (d: string) => (raw += d));
    const ended = new Promise<void>((r) => sock.once('close', () => r()));
    sock.write(`content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    await ended;
    const [head, text] = raw.split('\r\n\r\n');
    expect(head, raw).to.match(/^HTTP\/1\.1 503 /);
    expect(head!.toLowerCase()).to.include('connection: close');
    expect(JSON.parse(text!).error.code).to.equal('router_shutting_down');
    expect((await slow.done).complete).to.equal(true);
    expect(await draining).to.deep.equal({ inFlight: 1, cut: 0 });
  });

  it('a non-streaming body cut at the bound is closed, never passed off as complete', async () => {
    const json = JSON.stringify({ id: 'resp_1', object: 'response', output: [], pad: 'x'.repeat(20_000) });
    await start([{ status: 200, headers: { 'content-type': 'application/json', 'content-length': String(json.length) }, rawBody: json, chunking: { size: 1000, delayMs: 100 } }]);
    const s = send(router.url, false, '{"stream":false}');
    await s.head;
    expect(await router.shutdown(300)).to.deep.equal({ inFlight: 1, cut: 1 });
    const got = await s.done;
    expect(got.complete).to.equal(false);
    expect(got.body.length).to.be.below(json.length);
  });
});
