// Tests of the end-to-end harness itself: the SSE it emits, its script features, what it records.
import { expect } from 'chai';
import http from 'node:http';
import {
  IdAllocator,
  buildEvents,
  buildJsonResponse,
  buildSse,
  encodeSse,
  parseSse,
  splitDeltas,
  type ParsedFrame,
  type SseEvent,
} from './sse-script.ts';
import { startScriptedUpstream, substituteLastOutputMatch, type ScriptedUpstream } from './scripted-upstream.ts';
import { describeRun, makeCodexHome, makeWorkDir, removeDir, resumeCodex, runCodex } from './codex-cli.ts';
import { parseHttpRequests, startWireTap } from './router-process.ts';

// Verbatim from the Codex 0.171.0 recording `b-exec-gpt55/001-resp.sse` (the mock these builders re-create).
const RECORDED_FUNCTION_CALL_SSE = [
  'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_mock0001","object":"response","created_at":1795977403,"status":"in_progress","model":"gpt-5.5","output":[]},"sequence_number":0}\n\n',
  'event: response.in_progress\ndata: {"type":"response.in_progress","response":{"id":"resp_mock0001","object":"response","created_at":1795977403,"status":"in_progress","model":"gpt-5.5","output":[]},"sequence_number":1}\n\n',
  'event: response.output_item.added\ndata: {"type":"response.output_item.added","output_index":0,"item":{"id":"fc_mock0002","type":"function_call","status":"in_progress","name":"exec_command","call_id":"call_b1","arguments":""},"sequence_number":2}\n\n',
  'event: response.function_call_arguments.delta\ndata: {"type":"response.function_call_arguments.delta","item_id":"fc_mock0002","output_index":0,"delta":"{\\"cmd\\":\\"echo hello; ec","sequence_number":3}\n\n',
  'event: response.function_call_arguments.delta\ndata: {"type":"response.function_call_arguments.delta","item_id":"fc_mock0002","output_index":0,"delta":"ho err 1>&2; exit 3\\"}","sequence_number":4}\n\n',
  'event: response.function_call_arguments.done\ndata: {"type":"response.function_call_arguments.done","item_id":"fc_mock0002","output_index":0,"arguments":"{\\"cmd\\":\\"echo hello; echo err 1>&2; exit 3\\"}","sequence_number":5}\n\n',
  'event: response.output_item.done\ndata: {"type":"response.output_item.done","output_index":0,"item":{"id":"fc_mock0002","type":"function_call","status":"completed","name":"exec_command","call_id":"call_b1","arguments":"{\\"cmd\\":\\"echo hello; echo err 1>&2; exit 3\\"}"},"sequence_number":6}\n\n',
  'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_mock0001","object":"response","created_at":1795977403,"status":"completed","model":"gpt-5.5","output":[{"id":"fc_mock0002","type":"function_call","status":"completed","name":"exec_command","call_id":"call_b1","arguments":"{\\"cmd\\":\\"echo hello; echo err 1>&2; exit 3\\"}"}],"usage":{"input_tokens":1000,"input_tokens_details":{"cached_tokens":0},"output_tokens":50,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":1050}},"sequence_number":7}\n\n',
].join('');

// Verbatim from `b-exec-gpt55/002-resp.sse` (ids continue the mock's counter).
const RECORDED_MESSAGE_SSE = [
  'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_mock0003","object":"response","created_at":1795977405,"status":"in_progress","model":"gpt-5.5","output":[]},"sequence_number":0}\n\n',
  'event: response.in_progress\ndata: {"type":"response.in_progress","response":{"id":"resp_mock0003","object":"response","created_at":1795977405,"status":"in_progress","model":"gpt-5.5","output":[]},"sequence_number":1}\n\n',
  'event: response.output_item.added\ndata: {"type":"response.output_item.added","output_index":0,"item":{"id":"msg_mock0004","type":"message","status":"in_progress","role":"assistant","content":[]},"sequence_number":2}\n\n',
  'event: response.content_part.added\ndata: {"type":"response.content_part.added","item_id":"msg_mock0004","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]},"sequence_number":3}\n\n',
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","item_id":"msg_mock0004","output_index":0,"content_index":0,"delta":"Don","sequence_number":4}\n\n',
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","item_id":"msg_mock0004","output_index":0,"content_index":0,"delta":"e.","sequence_number":5}\n\n',
  'event: response.output_text.done\ndata: {"type":"response.output_text.done","item_id":"msg_mock0004","output_index":0,"content_index":0,"text":"Done.","sequence_number":6}\n\n',
  'event: response.content_part.done\ndata: {"type":"response.content_part.done","item_id":"msg_mock0004","output_index":0,"content_index":0,"part":{"type":"output_text","text":"Done.","annotations":[]},"sequence_number":7}\n\n',
  'event: response.output_item.done\ndata: {"type":"response.output_item.done","output_index":0,"item":{"id":"msg_mock0004","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Done.","annotations":[]}]},"sequence_number":8}\n\n',
  'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_mock0003","object":"response","created_at":1795977405,"status":"completed","model":"gpt-5.5","output":[{"id":"msg_mock0004","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Done.","annotations":[]}]}],"usage":{"input_tokens":1000,"input_tokens_details":{"cached_tokens":0},"output_tokens":50,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":1050}},"sequence_number":9}\n\n',
].join('');

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  error?: Error;
}

/** A plain HTTP POST that also reports a premature end (http.get/fetch would hide the difference). */
function post(url: string, body: unknown, opts: { abortAfterBytes?: number } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': data.length, authorization: 'Bearer sk-test' } });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
        if (opts.abortAfterBytes !== undefined && text.length >= opts.abortAfterBytes) {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', (error: Error) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, error }));
    });
    req.end(data);
  });
}

function jsonEvents(frames: ParsedFrame[]): SseEvent[] {
  return frames.map((f) => {
    expect(f.json, `frame is JSON: ${f.data}`).to.be.an('object');
    return f.json!;
  });
}

/** Structural checks every generated stream must pass: consecutive numbering, index per item, done ⇔ completed. */
function expectWellFormed(events: SseEvent[]): void {
  events.forEach((e, i) => expect(e.sequence_number, `sequence_number of #${i} ${e.type}`).to.equal(i));
  const done = events.filter((e) => e.type === 'response.output_item.done');
  done.forEach((e, i) => expect(e.output_index).to.equal(i));
  const completed = events.find((e) => e.type === 'response.completed') as { response: { output: unknown[] } } | undefined;
  if (completed) expect(completed.response.output).to.deep.equal(done.map((e) => e.item));
}

describe('sse-script builders', () => {
  it('re-create the recorded function_call and message streams byte for byte', () => {
    const ids = new IdAllocator();
    const fc = buildSse(
      [{ type: 'function_call', name: 'exec_command', call_id: 'call_b1', arguments: { cmd: 'echo hello; echo err 1>&2; exit 3' } }],
      { ids, createdAt: 1795977403 },
    );
    expect(fc).to.equal(RECORDED_FUNCTION_CALL_SSE);
    const msg = buildSse([{ type: 'message', text: 'Done.' }], { ids, createdAt: 1795977405 });
    expect(msg).to.equal(RECORDED_MESSAGE_SSE);
  });

  it('emit every item kind in order with deltas that add up', () => {
    const events = buildEvents([
      { type: 'reasoning', summary: ['**Plan** run', 'then report'], encrypted_content: 'ENC' },
      { type: 'message', text: 'I will run it.', phase: 'commentary' },
      { type: 'function_call', name: 'exec_command', call_id: 'c1', arguments: { cmd: 'echo hi' }, namespace: 'functions' },
      { type: 'custom_tool_call', name: 'apply_patch', call_id: 'c2', input: '*** Begin Patch\n*** End Patch\n' },
      { type: 'raw_item', item: { type: 'function_call', name: 'exec_command', call_id: 'c3', arguments: '{}' } },
    ]);
    const frames = parseSse(encodeSse(events));
    expect(frames.map((f) => f.event)).to.deep.equal(events.map((e) => e.type));
    expect(jsonEvents(frames)).to.deep.equal(events);
    expectWellFormed(events);
    const doneItems = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item as Record<string, unknown>);
    expect(doneItems.map((i) => i.id)).to.deep.equal(['rs_mock0002', 'msg_mock0003', 'fc_mock0004', 'ctc_mock0005', undefined]);
    expect(doneItems[1]).to.include({ phase: 'commentary' });
    expect(doneItems[2]).to.include({ namespace: 'functions', arguments: '{"cmd":"echo hi"}' });
    expect(doneItems[4]).to.deep.equal({ type: 'function_call', name: 'exec_command', call_id: 'c3', arguments: '{}' });
    const argDeltas = events.filter((e) => e.type === 'response.function_call_arguments.delta');
    expect(argDeltas.length).to.be.at.least(2);
    expect(argDeltas.map((e) => e.delta).join('')).to.equal('{"cmd":"echo hi"}');
    const inputDeltas = events.filter((e) => e.type === 'response.custom_tool_call_input.delta');
    expect(inputDeltas.map((e) => e.delta).join('')).to.equal('*** Begin Patch\n*** End Patch\n');
    expect(events.find((e) => e.type === 'response.custom_tool_call_input.done')).to.include({ input: '*** Begin Patch\n*** End Patch\n', output_index: 3 });
    const summaryDone = events.filter((e) => e.type === 'response.reasoning_summary_text.done');
    expect(summaryDone.map((e) => [e.summary_index, e.text])).to.deep.equal([[0, '**Plan** run'], [1, 'then report']]);
  });

  it('support data-only CRLF frames, omitted types and terminal variants', () => {
    const text = buildSse([{ type: 'message', text: 'partial' }], { dataOnly: true, crlf: true, terminal: { kind: 'incomplete' }, omitTypes: ['response.in_progress'] });
    expect(text).not.to.match(/^event:/m);
    expect(text.replace(/\r\n/g, '')).not.to.include('\n');
    const events = jsonEvents(parseSse(text));
    expectWellFormed(events);
    expect(events.map((e) => e.type)).not.to.include('response.in_progress');
    expect(events.at(-1)).to.deep.include({ type: 'response.incomplete' });
    expect((events.at(-1) as any).response.incomplete_details).to.deep.equal({ reason: 'max_output_tokens' });
    const failed = buildEvents([], { terminal: { kind: 'failed', code: 'context_length_exceeded' }, appendEvents: [{ type: 'x.extra', ref: '__RESP_ID__' }] });
    expect(failed.map((e) => e.type)).to.deep.equal(['response.created', 'response.in_progress', 'response.failed', 'x.extra']);
    expect(failed[3]).to.include({ ref: (failed[0] as any).response.id, sequence_number: 3 });
    expect(buildEvents([], { terminal: { kind: 'error' } }).at(-1)).to.include({ type: 'error', code: 'server_error' });
    expect(buildEvents([], { terminal: { kind: 'none' } }).map((e) => e.type)).to.deep.equal(['response.created', 'response.in_progress']);
  });

  it('split deltas on code points and build JSON bodies', () => {
    expect(splitDeltas('héllo😀!', 3)).to.deep.equal(['hél', 'lo', '😀!']);
    expect(splitDeltas('', 2)).to.deep.equal([]);
    expect(splitDeltas('x', 2)).to.deep.equal(['x']);
    const body = buildJsonResponse([{ type: 'message', text: 'hi' }], { model: 'm' });
    expect(body).to.deep.include({ object: 'response', status: 'completed', model: 'm', id: 'resp_mock0001' });
    expect((body.output as any[])[0]).to.deep.include({ id: 'msg_mock0002', type: 'message' });
  });
});

describe('scripted upstream', () => {
  let up: ScriptedUpstream | undefined;
  afterEach(async () => {
    await up?.close();
    up = undefined;
  });

  it('answers turns in order, then "Done.", and records every request', async () => {
    up = await startScriptedUpstream([{ items: [{ type: 'function_call', name: 'exec_command', call_id: 'c1', arguments: { cmd: 'ls' } }], headers: { 'x-codex-turn-state': 'ts1' } }]);
    expect(up.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const r1 = await post(`${up.url}/responses`, { model: 'gpt-test', stream: true, input: [] });
    expect(r1.status).to.equal(200);
    expect(r1.headers['content-type']).to.equal('text/event-stream');
    expect(r1.headers['x-codex-turn-state']).to.equal('ts1');
    const e1 = jsonEvents(parseSse(r1.body));
    expectWellFormed(e1);
    expect((e1[0] as any).response.model).to.equal('gpt-test');
    expect(e1.find((e) => e.type === 'response.output_item.done')!.item).to.deep.include({ id: 'fc_mock0002', call_id: 'c1' });
    const r2 = await post(`${up.url}/responses`, { model: 'gpt-test', input: [] });
    const done2 = jsonEvents(parseSse(r2.body)).filter((e) => e.type === 'response.output_item.done');
    expect((done2[0] as any).item.content[0].text).to.equal('Done.');
    expect((done2[0] as any).item.id).to.equal('msg_mock0004'); // ids stay unique across the conversation
    const r3 = await post(`${up.origin}/elsewhere`, { x: 1 });
    expect(r3.status).to.equal(404);
    expect(up.requests.map((r) => [r.method, r.path, r.turnIndex])).to.deep.equal([
      ['POST', '/v1/responses', 0],
      ['POST', '/v1/responses', 1],
      ['POST', '/elsewhere', undefined],
    ]);
    expect(up.requests[0]!.headers.authorization).to.equal('Bearer sk-test');
    expect(up.requests[0]!.body.toString()).to.equal('{"model":"gpt-test","stream":true,"input":[]}');
    expect(up.requests[0]!.json).to.deep.equal({ model: 'gpt-test', stream: true, input: [] });
  });

  it('serves split frames, errors, JSON bodies and scripted functions', async () => {
    up = await startScriptedUpstream((req, i) => {
      if (i === 0) return { items: [{ type: 'message', text: 'x'.repeat(60) }], chunking: { size: 7, delayMs: 1 }, sse: { dataOnly: true, crlf: true } };
      if (i === 1) return { status: 400, json: { error: { message: 'bad request mock', type: 'invalid_request_error', param: null, code: null } } };
      return { items: [{ type: 'message', text: `echo ${String(req.json?.tag)}` }], stream: false };
    });
    const r1 = await post(`${up.url}/responses`, { input: [] });
    const e1 = jsonEvents(parseSse(r1.body));
    expectWellFormed(e1);
    expect(e1.at(-1)!.type).to.equal('response.completed');
    expect(up.requests[0]!.bytesWritten).to.equal(Buffer.byteLength(r1.body));
    const r2 = await post(`${up.url}/responses`, { input: [] });
    expect(r2.status).to.equal(400);
    expect(JSON.parse(r2.body)).to.deep.equal({ error: { message: 'bad request mock', type: 'invalid_request_error', param: null, code: null } });
    const r3 = await post(`${up.url}/responses`, { input: [], tag: 'T' });
    expect(r3.headers['content-type']).to.equal('application/json');
    expect(JSON.parse(r3.body).output[0].content[0].text).to.equal('echo T');
  });

  it('substitutes {{last_output_match:REGEX}} from the newest tool output, and refuses to guess', async () => {
    const body = {
      input: [
        { type: 'function_call_output', call_id: 'a', output: 'Process running with session ID 111\n' },
        { type: 'custom_tool_call_output', call_id: 'b', output: [{ type: 'input_text', text: 'Script running with cell ID 5\n' }] },
        { type: 'function_call_output', call_id: 'c', output: 'Chunk ID: x\nProcess running with session ID 62038\nOutput:\n' },
      ],
    };
    expect(substituteLastOutputMatch('{"session_id":{{last_output_match:session ID (\\d+)}}}', body)).to.equal('{"session_id":62038}');
    expect(substituteLastOutputMatch('cell {{last_output_match:cell ID (\\d+)}}', body)).to.equal('cell 5');

    up = await startScriptedUpstream([
      { items: [{ type: 'function_call', name: 'write_stdin', call_id: 'w1', arguments: { session_id: '{{last_output_match:session ID (\\d+)}}', chars: '' } }] },
      { items: [{ type: 'custom_tool_call', name: 'exec', call_id: 'x1', input: 'await wait({{last_output_match:cell ID (\\d+)}});' }] },
      { items: [{ type: 'function_call', name: 'write_stdin', call_id: 'w2', arguments: '{"session_id":{{last_output_match:nothing like (\\d+)}}}' }] },
    ]);
    const done = async (): Promise<any> => jsonEvents(parseSse((await post(`${up!.url}/responses`, body)).body)).find((e) => e.type === 'response.output_item.done')!.item;
    expect((await done()).arguments).to.equal('{"session_id":"62038","chars":""}');
    expect((await done()).input).to.equal('await wait(5);');
    const r3 = await post(`${up.url}/responses`, body);
    expect(r3.status).to.equal(400); // Codex does not retry a 400, so the test fails fast and shows why
    expect(r3.body).to.include('nothing like');
    expect(up.scriptErrors).to.have.length(1);
  });

  it('records a client that disconnects mid-stream and stops writing', async () => {
    up = await startScriptedUpstream([{ items: [{ type: 'message', text: 'y'.repeat(2000) }], chunking: { size: 50, delayMs: 5 }, end: 'hang' }]);
    const r = await post(`${up.url}/responses`, { input: [] }, { abortAfterBytes: 200 });
    expect(r.body.length).to.be.at.least(200);
    const rec = up.requests[0]!;
    expect(await rec.settled).to.equal('aborted');
    expect(rec.clientAborted).to.equal(true);
    const written = rec.bytesWritten;
    await new Promise((res) => setTimeout(res, 50));
    expect(rec.bytesWritten).to.equal(written);
    expect(written).to.be.below(Buffer.byteLength(buildSse([{ type: 'message', text: 'y'.repeat(2000) }])));

    // Leaving halfway through the request body is recorded too (partial body, no turn consumed).
    const upload = http.request(`${up.url}/responses`, { method: 'POST', headers: { 'content-length': '100' } });
    upload.on('error', () => {});
    upload.write('{"input":');
    await new Promise((res) => setTimeout(res, 30));
    upload.destroy();
    await new Promise((res) => setTimeout(res, 50));
    expect(up.requests).to.have.length(2);
    expect(up.requests[1]!.clientAborted).to.equal(true);
    expect(up.requests[1]!.turnIndex).to.equal(undefined);
    expect(up.requests[1]!.body.toString()).to.equal('{"input":');
  });

  it('ends streams the scripted way without calling it a client abort', async () => {
    up = await startScriptedUpstream([
      { items: [{ type: 'message', text: 'a' }], omitCompleted: true, end: 'close' },
      { items: [{ type: 'message', text: 'b' }], end: 'destroy' },
      { items: [{ type: 'message', text: 'c' }], end: 'hang' },
    ]);
    const closed = await post(`${up.url}/responses`, {});
    expect(closed.error?.message ?? '').to.match(/aborted|premature|ECONNRESET/i);
    expect(parseSse(closed.body).map((f) => f.json?.type)).not.to.include('response.completed');
    expect(await up.requests[0]!.settled).to.equal('server-ended');
    const destroyed = await post(`${up.url}/responses`, {});
    expect(destroyed.error).to.be.instanceOf(Error);
    expect(up.requests[1]!.clientAborted).to.equal(false);
    const hung = post(`${up.url}/responses`, {});
    await up.waitForResponsesRequests(3);
    await new Promise((res) => setTimeout(res, 50));
    await up.close(); // must not wait for the hanging exchange
    up = undefined;
    expect((await hung).error).to.be.instanceOf(Error);
  });

  it('records a byte-exact client stream through the wire tap', async () => {
    up = await startScriptedUpstream();
    const tap = await startWireTap(up.origin);
    try {
      await post(`${tap.url}/v1/responses`, { input: ['é'] });
      await post(`${tap.url}/v1/responses`, { input: [2] });
      const tapped = tap.requests();
      expect(tapped.map((t) => t.path)).to.deep.equal(['/v1/responses', '/v1/responses']);
      tapped.forEach((t, i) => expect(t.body.equals(up!.requests[i]!.body)).to.equal(true));
      expect(tapped[0]!.headers.authorization).to.equal('Bearer sk-test');
    } finally {
      await tap.close();
    }
    const chunked = parseHttpRequests(Buffer.from('POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(chunked.map((r) => [r.method, r.path, r.body.toString()])).to.deep.equal([
      ['POST', '/a', 'abcde'],
      ['GET', '/b', ''],
    ]);
  });
});

describe('codex-cli harness (real Codex against the scripted upstream, no router)', function () {
  this.timeout(60_000);
  it('runs a tool loop and prints the final message', async () => {
    const up = await startScriptedUpstream([
      { items: [{ type: 'function_call', name: 'exec_command', call_id: 'call_h1', arguments: { cmd: 'echo harness-ok' } }] },
      { items: [{ type: 'message', text: 'Harness done.', phase: 'final_answer' }] },
    ]);
    const cwd = makeWorkDir('harness');
    const home = makeCodexHome();
    try {
      const r = await runCodex({ baseUrl: up.url, prompt: 'Run the command.', model: 'gpt-5.5', cwd, codexHome: home, timeoutMs: 45_000 });
      expect(r.code, describeRun(r)).to.equal(0);
      expect(r.stdout.trim()).to.equal('Harness done.');
      expect(r.codexHome).to.include('/.test-tmp/');
      const reqs = up.responsesRequests();
      expect(reqs).to.have.length(2);
      expect(reqs[0]!.headers.authorization).to.equal('Bearer sk-mock-not-a-real-key');
      const tail = reqs[1]!.json.input.slice(-2);
      expect(tail[0]).to.deep.include({ type: 'function_call', id: 'fc_mock0002', call_id: 'call_h1', arguments: '{"cmd":"echo harness-ok"}' });
      expect(tail[1]).to.include({ type: 'function_call_output', call_id: 'call_h1' });
      expect(tail[1].output).to.match(/Process exited with code 0\n[\s\S]*Output:\nharness-ok\n$/);
    } finally {
      await up.close();
      removeDir(cwd);
      removeDir(home);
    }
  });

  it('resumes the last session of a CODEX_HOME for a second user turn', async () => {
    const up = await startScriptedUpstream([
      { items: [{ type: 'message', text: 'First answer.' }] },
      { items: [{ type: 'message', text: 'Second answer.' }] },
    ]);
    const cwd = makeWorkDir('harness-resume');
    const home = makeCodexHome();
    try {
      const r1 = await runCodex({ baseUrl: up.url, prompt: 'First prompt.', model: 'gpt-5.5', cwd, codexHome: home, timeoutMs: 45_000 });
      expect(r1.code, describeRun(r1)).to.equal(0);
      const r2 = await resumeCodex({ baseUrl: up.url, prompt: 'Second prompt.', model: 'gpt-5.5', cwd, codexHome: r1.codexHome, timeoutMs: 45_000 });
      expect(r2.code, describeRun(r2)).to.equal(0);
      expect(r2.stdout.trim()).to.equal('Second answer.');
      const [a, b] = up.responsesRequests();
      expect(b!.headers['thread-id']).to.equal(a!.headers['thread-id']);
      expect(JSON.parse(String(b!.headers['x-codex-turn-metadata'])).history_initialization).to.equal('cold_resume');
      const texts = (b!.json.input as any[]).filter((i) => i.type === 'message').map((i) => i.content[0]?.text);
      expect(texts.slice(-3)).to.deep.equal(['First prompt.', 'First answer.', 'Second prompt.']);
    } finally {
      await up.close();
      removeDir(cwd);
      removeDir(home);
    }
  });
});
