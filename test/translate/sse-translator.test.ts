import { expect } from 'chai';
import { Ledger } from '../../host/history/ledger.ts';
import { Metrics } from '../../host/metrics/metrics.ts';
import { ToolRegistry } from '../../host/registry/registry.ts';
import { prepareRequest, type RequestContext } from '../../host/request/rewrite.ts';
import { SseParser } from '../../host/responses/sse-parser.ts';
import { SseTranslator } from '../../host/translate/sse-translator.ts';
import { translateJsonResponse } from '../../host/translate/output-items.ts';
import { buildJsonResponse, buildSse, parseSse, type ScriptItem } from '../support/sse-script.ts';
import { capturedRequest } from '../support/fixtures.ts';
import { tempDir } from '../support/temp-dir.ts';
import { argvEcho, brokenTranslator } from '../support/test-contributions.ts';

type Json = Record<string, any>;
const THREAD = 'thread-sse-test';

function contextFor(fixture: string, registry: ToolRegistry): RequestContext {
  const body = capturedRequest(fixture).body;
  return prepareRequest(JSON.stringify(body), body, { registry, threadId: THREAD, thread: null }).context;
}

async function translate(sse: string, ctx: RequestContext, ledger: Ledger, metrics = new Metrics(), chunk = 7): Promise<string> {
  const parser = new SseParser();
  const tr = new SseTranslator(ctx, { ledger, metrics });
  const bytes = Buffer.from(sse);
  let out = '';
  for (let i = 0; i < bytes.length; i += chunk) {
    for (const c of parser.push(bytes.subarray(i, i + chunk))) {
      const r = await tr.push(c);
      out += r.text;
      if (r.stop) return out;
    }
  }
  for (const c of parser.end().chunks) out += (await tr.push(c)).text;
  return out;
}

const events = (text: string): Json[] => parseSse(text).map((f) => JSON.parse(f.data) as Json);

describe('SSE response translation', () => {
  let ledger: Ledger;
  let tmp: ReturnType<typeof tempDir>;
  const registry = ToolRegistry.create([argvEcho(), brokenTranslator('throws'), brokenTranslator('garbage'), brokenTranslator('bad-template'), brokenTranslator('unavailable-carrier')]);

  beforeEach(async () => {
    tmp = tempDir('sse');
    ledger = await Ledger.open(tmp.dir);
  });
  afterEach(async () => {
    await ledger.close();
    tmp.cleanup();
  });

  const items: ScriptItem[] = [
    { type: 'reasoning', summary: 'thinking', encrypted_content: 'ENC' },
    { type: 'custom_tool_call', name: 'argv_echo', input: 'one\ntwo words', call_id: 'call_1' },
    { type: 'message', text: 'after' },
  ];

  it('native: holds the contributed call behind in_progress events and emits native function-argument events', async () => {
    const ctx = contextFor('a-default-gpt55-001', registry);
    const upstream = buildSse(items);
    const out = events(await translate(upstream, ctx, ledger));
    const inp = events(upstream);
    // Same number of events for untouched items; the held call's 5 events became 5 in_progress + 3 extra carrier events.
    expect(out.map((e) => e['sequence_number'])).to.deep.equal(out.map((_, i) => i));
    const types = out.map((e) => e['type']);
    const callStart = inp.findIndex((e) => e['type'] === 'response.output_item.added' && e['item']['type'] === 'custom_tool_call');
    const callDone = inp.findIndex((e, i) => i > callStart && e['type'] === 'response.output_item.done');
    expect(types.slice(callStart, callDone)).to.deep.equal(Array(callDone - callStart).fill('response.in_progress'));
    for (const e of out.slice(callStart, callDone)) {
      expect(JSON.stringify(e)).to.not.contain('two words');
      expect(e['response']['output']).to.deep.equal([]);
    }
    expect(types.slice(callDone, callDone + 4)).to.deep.equal([
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done']);
    const done = out[callDone + 3]!['item'];
    expect(done).to.include({ type: 'function_call', name: 'exec_command', call_id: 'call_1', status: 'completed' });
    expect(JSON.parse(done['arguments'])).to.deep.equal({ cmd: "printf '%s\\n' one 'two words'" });
    expect(out[callDone]!['item']['arguments']).to.equal('');
    expect(out[callDone + 1]!['delta']).to.equal(done['arguments']);
    // Untouched items keep their exact payloads; the completed response lists the carrier.
    expect(out[out.length - 1]!['response']['output'][1]).to.deep.equal(done);
    expect(out[out.length - 1]!['response']['output'][0]).to.deep.equal(inp[inp.length - 1]!['response']['output'][0]);
    // Durable: a new ledger instance (router restart) knows the call.
    const again = await Ledger.open(tmp.dir);
    const entry = (await again.thread(THREAD)).entries('call_1')[0]!;
    expect(entry.tool).to.equal('argv_echo');
    expect(JSON.parse(entry.original)).to.include({ type: 'custom_tool_call', name: 'argv_echo', input: 'one\ntwo words' });
    expect(entry.carrier).to.deep.equal({ kind: 'exec_command', arguments: done['arguments'] });
    await again.close();
  });

  it('forwards frames of untouched items byte for byte when nothing before them was expanded', async () => {
    const ctx = contextFor('a-default-gpt55-001', registry);
    const upstream = buildSse([{ type: 'message', text: 'hello' }, { type: 'custom_tool_call', name: 'argv_echo', input: 'x', call_id: 'c' }]);
    const out = await translate(upstream, ctx, ledger);
    const firstCall = upstream.indexOf('event: response.output_item.added', upstream.indexOf('custom_tool_call') - 200);
    expect(out.startsWith(upstream.slice(0, firstCall))).to.equal(true);
  });

  it('Code Mode: the carrier is the exec custom tool in the owner namespace, with custom input events', async () => {
    const ctx = contextFor('a-default-modeldefault-gpt62sol-001', registry);
    const out = events(await translate(buildSse([{ type: 'custom_tool_call', name: 'argv_echo', namespace: 'functions', input: 'a', call_id: 'call_cm' }]), ctx, ledger));
    const done = out.find((e) => e['type'] === 'response.output_item.done')!['item'];
    expect(done).to.include({ type: 'custom_tool_call', name: 'exec', namespace: 'functions', call_id: 'call_cm' });
    expect(done['input']).to.equal('const result = await tools.exec_command({"cmd":"printf \'%s\\\\n\' a"});\ntext(result);\n');
    expect(out.map((e) => e['type'])).to.include.members(['response.custom_tool_call_input.delta', 'response.custom_tool_call_input.done']);
  });

  it('keeps data-only and CRLF framing styles', async () => {
    const ctx = contextFor('a-default-gpt55-001', registry);
    const out = await translate(buildSse(items, { dataOnly: true, crlf: true }), ctx, ledger);
    expect(out).to.not.contain('event:');
    expect(events(out).find((e) => e['type'] === 'response.output_item.done' && e['item']['name'] === 'exec_command')).to.not.equal(undefined);
  });

  it('turns a model-input rejection into a bounded diagnostic through the carrier', async () => {
    const ctx = contextFor('a-default-gpt55-001', registry);
    const metrics = new Metrics();
    const out = events(await translate(buildSse([{ type: 'custom_tool_call', name: 'argv_echo', input: 'ok\n!reject', call_id: 'c2' }]), ctx, ledger, metrics));
    const done = out.find((e) => e['type'] === 'response.output_item.done')!['item'];
    expect(JSON.parse(done['arguments']).cmd).to.equal("printf '%s\\n' 'argv_echo: input contains !reject' >&2; exit 2");
    expect(metrics.translations.get({ tool: 'argv_echo', carrier: 'exec_command', outcome: 'diagnostic' })).to.equal(1);
  });

  for (const how of ['throws', 'garbage', 'bad-template', 'unavailable-carrier'] as const) {
    it(`a translator that ${how} is a routing failure: response.failed, nothing executable emitted, not counted as success`, async () => {
      const ctx = contextFor(how === 'unavailable-carrier' ? 'a-default-modeldefault-gpt62sol-001' : 'a-default-gpt55-001', registry);
      const metrics = new Metrics();
      const name = `broken_${how.replace(/-/g, '_')}`;
      const out = events(await translate(buildSse([{ type: 'custom_tool_call', name, input: 'x', call_id: 'c3' }, { type: 'message', text: 'later' }]), ctx, ledger, metrics));
      const last = out[out.length - 1]!;
      expect(last['type']).to.equal('response.failed');
      expect(last['response']['error']['code']).to.equal('invalid_prompt');
      expect(last['response']['error']['message']).to.contain(name);
      expect(out.some((e) => e['type'] === 'response.output_item.done')).to.equal(false);
      expect(metrics.translations.get({ tool: name, carrier: 'none', outcome: 'routing_failure' })).to.equal(1);
      expect((await ledger.thread(THREAD)).entries('c3')).to.have.length(0);
    });
  }

  it('translates deterministically: a retried stream yields the same carrier and one ledger entry', async () => {
    const ctx = contextFor('a-default-gpt55-001', registry);
    // the same upstream bytes twice (two buildSse calls would differ in created_at across a second boundary)
    const stream = buildSse(items);
    const a = await translate(stream, ctx, ledger);
    const b = await translate(stream, ctx, ledger, new Metrics(), 3);
    expect(a).to.equal(b);
    expect((await ledger.thread(THREAD)).entries('call_1')).to.have.length(1);
  });

  it('passes non-JSON data and comments through untouched', async () => {
    const ctx = contextFor('a-default-gpt55-001', registry);
    const odd = ': keep-alive\nevent: weird\ndata: not json\n\n';
    expect(await translate(odd, ctx, ledger)).to.equal(odd);
  });

  it('JSON (non-streaming) bodies are rewritten per output item, other bytes unchanged', async () => {
    const ctx = contextFor('a-default-gpt55-001', registry);
    const body = JSON.stringify(buildJsonResponse([{ type: 'message', text: 'm' }, { type: 'custom_tool_call', name: 'argv_echo', input: 'z', call_id: 'cj' }]));
    const out = JSON.parse(await translateJsonResponse(body, ctx, { ledger, metrics: new Metrics() })) as Json;
    const orig = JSON.parse(body) as Json;
    expect(out['output'][0]).to.deep.equal(orig['output'][0]);
    expect(out['output'][1]).to.include({ type: 'function_call', name: 'exec_command', call_id: 'cj' });
    expect({ ...out, output: null }).to.deep.equal({ ...orig, output: null });
  });
});
