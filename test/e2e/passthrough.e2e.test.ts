// End to end, passthrough mode: the REAL Codex CLI → wire tap → router (built dist/) → scripted upstream.
// The tap records the bytes Codex wrote, so "the router forwards requests unchanged" is checked byte for byte.
import { expect } from 'chai';
import http from 'node:http';
import { startScriptedUpstream, type Script, type ScriptedUpstream } from '../support/scripted-upstream.ts';
import { describeRun, makeWorkDir, removeDir, runCodex, MOCK_KEY, type CodexRunResult } from '../support/codex-cli.ts';
import { startRouterProcess, startWireTap, type RouterProcess, type TappedRequest, type WireTap } from '../support/router-process.ts';
import { parseSse } from '../support/sse-script.ts';

const MODEL = 'gpt-5.5'; // top-level `tools` with exec_command (the default model would use Code Mode)

// Hop-by-hop per RFC 9110 §7.6.1 plus the legacy proxy-connection: each hop sets its own (Codex sends none).
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

interface RawResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  error?: Error;
}

/** A raw HTTP client: sends exactly the headers given, reports a premature end instead of hiding it. */
function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; bodyParts?: string[]; abortAfterBytes?: number; timeoutMs?: number },
): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'POST', headers: opts.headers ?? {}, agent: false });
    const timer = setTimeout(() => req.destroy(new Error('rawRequest timed out')), opts.timeoutMs ?? 10_000);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (error?: Error): void => {
        clearTimeout(timer);
        const r: RawResult = { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) };
        if (error) r.error = error;
        resolve(r);
      };
      res.on('data', (d: Buffer) => {
        chunks.push(d);
        size += d.length;
        if (opts.abortAfterBytes !== undefined && size >= opts.abortAfterBytes) {
          req.destroy();
          finish();
        }
      });
      res.on('end', () => finish());
      res.on('error', (err: Error) => finish(err));
    });
    for (const part of opts.bodyParts ?? []) req.write(part);
    req.end();
  });
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms))]);
}

describe('e2e passthrough: real Codex CLI → router --mode passthrough → scripted upstream', function () {
  this.timeout(40_000);
  let up: ScriptedUpstream | undefined;
  let router: RouterProcess | undefined;
  let tap: WireTap | undefined;
  const dirs: string[] = [];

  async function start(script: Script): Promise<{ up: ScriptedUpstream; router: RouterProcess; tap: WireTap }> {
    up = await startScriptedUpstream(script);
    router = await startRouterProcess({ args: ['--mode', 'passthrough', '--upstream', up.url] });
    tap = await startWireTap(router.url);
    return { up, router, tap };
  }

  async function codex(prompt: string, extra: Partial<Parameters<typeof runCodex>[0]> = {}): Promise<CodexRunResult> {
    const cwd = makeWorkDir('e2e-passthrough');
    dirs.push(cwd);
    const r = await runCodex({ baseUrl: `${tap!.url}/v1`, prompt, model: MODEL, cwd, timeoutMs: 30_000, ...extra });
    dirs.push(r.codexHome);
    expect(r.timedOut, describeRun(r)).to.equal(false);
    return r;
  }

  /** Codex's POSTs as they left Codex (tap) vs. as they reached OpenAI's stand-in: same count, path, body bytes. */
  function expectForwardedUnchanged(tapped: TappedRequest[], upstream: ScriptedUpstream): void {
    const received = upstream.requests;
    expect(received.map((r) => `${r.method} ${r.path}`)).to.deep.equal(tapped.map((t) => `${t.method} ${t.path}`));
    tapped.forEach((t, i) => {
      const got = received[i]!;
      expect(got.body.equals(t.body), `request ${i}: body bytes differ (${got.body.length} vs ${t.body.length} sent)`).to.equal(true);
      for (const [name, value] of Object.entries(t.headers)) {
        if (name === 'host' || name === 'content-length' || HOP_BY_HOP.includes(name)) continue;
        expect(got.headers[name], `request ${i}: header ${name}`).to.equal(value);
      }
    });
  }

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && router) {
      console.error(`--- router stderr (${this.currentTest.title})\n${router.stderrLines.join('\n')}`);
    }
    await tap?.close();
    await router?.stop();
    await up?.close();
    tap = undefined;
    router = undefined;
    up = undefined;
    for (const d of dirs.splice(0)) removeDir(d);
  });

  it('runs a tool loop: exec_command output reaches the next request, final message reaches Codex', async () => {
    const { up, router, tap } = await start([
      {
        // Split writes exercise SSE frames cut across reads; the turn-state header must come back on request 2.
        headers: { 'x-codex-turn-state': 'turn-state-e2e' },
        chunking: { size: 61, delayMs: 1 },
        items: [
          { type: 'reasoning', summary: '**Plan** run echo', encrypted_content: 'ENC_e2e_blob' },
          { type: 'message', text: 'Running echo.', phase: 'commentary' },
          { type: 'function_call', name: 'exec_command', call_id: 'call_e2e_1', arguments: { cmd: 'echo hello' } },
        ],
      },
      { items: [{ type: 'message', text: 'Saw hello; all done.', phase: 'final_answer' }] },
    ]);
    expect(router.stdoutLines).to.deep.equal([`listening on ${router.url}`]);

    const r = await codex('Run echo hello and report.');
    expect(r.code, describeRun(r)).to.equal(0);
    expect(r.stdout.trim(), describeRun(r)).to.equal('Saw hello; all done.');
    expect(r.stderr).to.include("/bin/bash -lc 'echo hello'");

    const tapped = tap.requests();
    expect(tapped.map((t) => `${t.method} ${t.path}`)).to.deep.equal(['POST /v1/responses', 'POST /v1/responses']);
    expectForwardedUnchanged(tapped, up);
    const [first, second] = up.responsesRequests();
    expect(first!.headers.authorization).to.equal(`Bearer ${MOCK_KEY}`);
    expect(first!.headers['x-codex-turn-state']).to.equal(undefined);
    expect(second!.headers['x-codex-turn-state']).to.equal('turn-state-e2e');

    // History is resent whole: request 1's input is an exact prefix of request 2's.
    const input1: unknown[] = first!.json.input;
    const input2: any[] = second!.json.input;
    expect(input2.slice(0, input1.length)).to.deep.equal(input1);
    // Everything the upstream streamed came back exactly (ids, encrypted reasoning, phase, argument bytes).
    const added = input2.slice(input1.length);
    expect(added.slice(0, 3)).to.deep.equal([
      { type: 'reasoning', id: 'rs_mock0002', summary: [{ type: 'summary_text', text: '**Plan** run echo' }], content: null, encrypted_content: 'ENC_e2e_blob' },
      { type: 'message', status: 'completed', id: 'msg_mock0003', role: 'assistant', content: [{ type: 'output_text', text: 'Running echo.', annotations: [] }], phase: 'commentary' },
      { type: 'function_call', status: 'completed', id: 'fc_mock0004', name: 'exec_command', arguments: '{"cmd":"echo hello"}', call_id: 'call_e2e_1' },
    ]);
    expect(added).to.have.length(4);
    expect(added[3]).to.include({ type: 'function_call_output', call_id: 'call_e2e_1' });
    expect(added[3].output).to.match(/^Chunk ID: [0-9a-f]{6}\nWall time: [\d.]+ seconds\nProcess exited with code 0\nOriginal token count: \d+\nOutput:\nhello\n$/);
    // The SSE Codex read is the SSE the upstream wrote: nothing else went to the upstream.
    expect(up.requests).to.have.length(2);
    expect(up.requests.every((q) => !q.clientAborted)).to.equal(true);
  });

  it('forwards end-to-end headers, query and a chunked body unchanged, drops hop-by-hop headers, streams the response back byte for byte', async () => {
    const { up, router } = await start([{ items: [{ type: 'message', text: 'raw client ok' }], headers: { 'x-resp-custom': 'kept' } }]);
    const parts = ['{"model":"gpt-5.5","stream":true,', '"input":[{"type":"message","role":"user","content":"é"}]}'];
    const res = await rawRequest(`${router.url}/v1/responses?probe=1`, {
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer sk-e2e-raw',
        'x-custom-e2e': 'kept',
        connection: 'keep-alive, x-hop-nominated',
        'x-hop-nominated': 'must be dropped',
        'keep-alive': 'timeout=5',
        'proxy-authorization': 'Basic bm90OnJlYWw=',
        'transfer-encoding': 'chunked',
      },
      bodyParts: parts,
    });
    expect(res.status).to.equal(200);
    const got = up.requests[0]!;
    expect(got.path).to.equal('/v1/responses?probe=1');
    expect(got.body.toString('utf8')).to.equal(parts.join(''));
    expect(got.headers).to.include({ authorization: 'Bearer sk-e2e-raw', 'x-custom-e2e': 'kept', 'content-type': 'application/json' });
    // The router's own connection to the upstream may carry its own `connection`/`keep-alive`; the client's must not leak.
    for (const name of ['x-hop-nominated', 'proxy-authorization']) expect(got.headers[name], name).to.equal(undefined);
    expect(got.headers['keep-alive']).not.to.equal('timeout=5');
    expect(got.headers.connection ?? '').not.to.include('x-hop-nominated');

    expect(res.headers['content-type']).to.equal('text/event-stream');
    expect(res.headers['x-resp-custom']).to.equal('kept');
    expect(res.body.equals(got.responseBody()), 'SSE bytes delivered unchanged').to.equal(true);
    expect(parseSse(res.body.toString('utf8')).at(-1)?.json?.type).to.equal('response.completed');

    // Any other /v1/<rest> is forwarded too.
    const other = await rawRequest(`${router.url}/v1/models`, { method: 'GET' });
    expect(other.status).to.equal(200);
    expect(up.requests.map((q) => `${q.method} ${q.path}`)).to.deep.equal(['POST /v1/responses?probe=1', 'GET /v1/models']);
  });

  it('delivers an upstream HTTP 400 JSON error to Codex unchanged (no retries)', async () => {
    const error = { error: { message: 'bad request e2e', type: 'invalid_request_error', param: null, code: null } };
    const { up, tap } = await start({ turns: [], after: { status: 400, json: error } });
    const r = await codex('Say hi.');
    expect(r.code, describeRun(r)).to.equal(1);
    expect(r.stderr).to.include(`ERROR: ${JSON.stringify(error)}`);
    expect(up.requests).to.have.length(1);
    expectForwardedUnchanged(tap.requests(), up);
  });

  it('passes a stream that ends without response.completed through; Codex retries and gives up', async () => {
    // A message (not a tool call) so the retries run nothing; Codex still prints it on every attempt.
    const noCompleted = { items: [{ type: 'message' as const, text: 'partial answer' }], omitCompleted: true };
    const { up, tap } = await start({ turns: [], after: noCompleted });
    const r = await codex('Say hi.');
    expect(r.code, describeRun(r)).to.equal(1);
    expect(r.stderr).to.include('Reconnecting... 5/5');
    expect(r.stderr).to.include('ERROR: stream disconnected before completion: stream closed before response.completed');
    expect(r.stderr.split('partial answer').length - 1, 'each attempt’s items reached Codex').to.equal(6);
    expect(up.responsesRequests()).to.have.length(6); // 1 + stream_max_retries (5)
    expectForwardedUnchanged(tap.requests(), up);
    for (const q of up.requests) expect(await q.settled).to.equal('finished');
  });

  it('propagates a client disconnect to the upstream, and an upstream reset to the client', async () => {
    const { up, router } = await start([
      { items: [{ type: 'message', text: 'z'.repeat(4000) }], chunking: { size: 100, delayMs: 10 }, end: 'hang' },
      { items: [{ type: 'message', text: 'cut short' }], omitCompleted: true, end: 'reset', chunking: { size: 200, delayMs: 10 } },
    ]);
    const headers = { 'content-type': 'application/json', authorization: 'Bearer sk-e2e-raw' };
    const body = ['{"model":"gpt-5.5","stream":true,"input":[]}'];
    const partial = await rawRequest(`${router.url}/v1/responses`, { headers, bodyParts: body, abortAfterBytes: 300 });
    expect(partial.body.length).to.be.at.least(300);
    expect(await withTimeout(up.requests[0]!.settled, 5_000, 'upstream sees the client leave')).to.equal('aborted');

    // Either the response is cut (error after the status line) or the request fails: never a clean end.
    const reset = await rawRequest(`${router.url}/v1/responses`, { headers, bodyParts: body }).catch((error: Error) => ({ error, body: Buffer.alloc(0) }));
    expect(reset.error, 'an upstream reset must not become a clean end of the response').to.be.instanceOf(Error);
    expect(reset.body.toString('utf8')).not.to.include('response.completed');
  });
});
