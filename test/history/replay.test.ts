import { expect } from 'chai';
import { Ledger } from '../../host/history/ledger.ts';
import { ReplayMismatchError } from '../../host/history/replay.ts';
import { ToolRegistry } from '../../host/registry/registry.ts';
import { prepareRequest } from '../../host/request/rewrite.ts';
import { capturedRequest } from '../support/fixtures.ts';
import { tempDir } from '../support/temp-dir.ts';
import { argvEcho } from '../support/test-contributions.ts';

type Json = Record<string, any>;
const THREAD = 'thread-replay';

describe('history restoration from the ledger', () => {
  let tmp: ReturnType<typeof tempDir>;
  let ledger: Ledger;
  const registry = ToolRegistry.create([argvEcho()]);
  const original = { type: 'custom_tool_call', id: 'ctc_9', status: 'completed', call_id: 'call_r', name: 'argv_echo', input: 'a\nb' };
  const args = JSON.stringify({ cmd: "printf '%s\\n' a b" });
  // How Codex echoes the carrier: the same id and status, its own key order.
  const carrierEcho = { type: 'function_call', status: 'completed', id: 'ctc_9', name: 'exec_command', arguments: args, call_id: 'call_r' };
  const output = { type: 'function_call_output', id: 'fco_01a2', call_id: 'call_r', output: 'Chunk ID: ab12cd\nWall time: 0.0100 seconds\nProcess exited with code 0\nOriginal token count: 2\nOutput:\na\nb\n' };

  beforeEach(async () => {
    tmp = tempDir('replay');
    ledger = await Ledger.open(tmp.dir);
    await ledger.record({ threadId: THREAD, callId: 'call_r', contribution: 'test:x:argv_echo', tool: 'argv_echo', original: JSON.stringify(original), carrier: { kind: 'exec_command', arguments: args } });
  });
  afterEach(async () => {
    await ledger.close();
    tmp.cleanup();
  });

  function withHistory(...items: unknown[]): Json {
    const body = structuredClone(capturedRequest('a-default-gpt55-001').body) as Json;
    body['input'].push(...items);
    return body;
  }

  it('restores the original call and converts its output, leaving every other item byte-identical', async () => {
    const other = { type: 'function_call', id: 'fc_1', name: 'exec_command', arguments: '{"cmd":"ls"}', call_id: 'call_other' };
    const otherOut = { type: 'function_call_output', id: 'fco_2', call_id: 'call_other', output: 'x' };
    const body = withHistory(carrierEcho, other, output, otherOut);
    const text = JSON.stringify(body);
    const out = prepareRequest(text, body, { registry, threadId: THREAD, thread: await ledger.thread(THREAD) });
    const converted = { type: 'custom_tool_call_output', id: 'ctco_01a2', call_id: 'call_r', output: output.output };
    const expected = text.replace(JSON.stringify(carrierEcho), JSON.stringify(original)).replace(JSON.stringify(output), JSON.stringify(converted));
    const spec = JSON.stringify(JSON.parse(out.text)['tools'][1]);
    expect(out.text.replace(`,${spec}`, '')).to.equal(expected);
    expect(out.restored.map((r) => r.callId)).to.deep.equal(['call_r']);
  });

  it('survives a router restart: a fresh ledger instance restores the same history', async () => {
    await ledger.close();
    ledger = await Ledger.open(tmp.dir);
    const body = withHistory(carrierEcho, output);
    const out = JSON.parse(prepareRequest(JSON.stringify(body), body, { registry, threadId: THREAD, thread: await ledger.thread(THREAD) }).text) as Json;
    expect(out['input'].slice(-2)).to.deep.equal([original, { type: 'custom_tool_call_output', id: 'ctco_01a2', call_id: 'call_r', output: output.output }]);
  });

  it('restores history in requests of every shape, including compaction requests', async () => {
    const body = structuredClone(capturedRequest('x8-compaction-gpt55-002').body) as Json;
    body['input'].splice(3, 0, carrierEcho, output);
    const out = JSON.parse(prepareRequest(JSON.stringify(body), body, { registry, threadId: THREAD, thread: await ledger.thread(THREAD) }).text) as Json;
    expect(out['input'][3]).to.deep.equal(original);
    expect(out['input'][4]['type']).to.equal('custom_tool_call_output');
  });

  it('refuses a carrier that is not byte-identical to the one recorded', async () => {
    const tampered = { ...carrierEcho, arguments: JSON.stringify({ cmd: "printf '%s\\n' a b; rm -rf /" }) };
    const body = withHistory(tampered, output);
    expect(() => prepareRequest(JSON.stringify(body), body, { registry, threadId: THREAD, thread: null })).to.not.throw();
    const thread = await ledger.thread(THREAD);
    expect(() => prepareRequest(JSON.stringify(body), body, { registry, threadId: THREAD, thread })).to.throw(ReplayMismatchError, /call_r/);
  });

  it('refuses a known call id echoed as a different tool or type', async () => {
    const thread = await ledger.thread(THREAD);
    for (const item of [{ ...carrierEcho, name: 'write_stdin' }, { ...carrierEcho, type: 'custom_tool_call', name: 'exec', input: args }, { ...carrierEcho, namespace: 'functions' }]) {
      const body = withHistory(item);
      expect(() => prepareRequest(JSON.stringify(body), body, { registry, threadId: THREAD, thread })).to.throw(ReplayMismatchError);
    }
  });

  it('leaves calls of other threads alone', async () => {
    const body = withHistory(carrierEcho, output);
    const out = prepareRequest(JSON.stringify(body), body, { registry, threadId: 'another-thread', thread: await ledger.thread('another-thread') });
    expect(JSON.parse(out.text)['input'].slice(-2)).to.deep.equal([carrierEcho, output]);
  });

  it('converts a Code Mode exec output array and a notify() output that names the carrier', async () => {
    const program = 'const result = await tools.exec_command({"cmd":"x"});\ntext(result);\n';
    await ledger.record({ threadId: THREAD, callId: 'call_cm', contribution: 'test:x:argv_echo', tool: 'argv_echo', original: JSON.stringify({ ...original, call_id: 'call_cm', namespace: 'functions' }), carrier: { kind: 'code_mode_exec', namespace: 'functions', input: program } });
    const echo = { type: 'custom_tool_call', id: 'ctc_cm', status: 'completed', call_id: 'call_cm', name: 'exec', namespace: 'functions', input: program };
    const out1 = { type: 'custom_tool_call_output', id: 'ctco_1', call_id: 'call_cm', output: [{ type: 'input_text', text: 'Script completed\nWall time 0.1 seconds\nOutput:\n' }, { type: 'input_text', text: '{"exit_code":0,"output":"x\\n"}' }] };
    const notify = { type: 'custom_tool_call_output', id: 'ctco_2', call_id: 'call_cm', name: 'exec', output: 'note' };
    const body = withHistory(echo, out1, notify);
    const out = JSON.parse(prepareRequest(JSON.stringify(body), body, { registry, threadId: THREAD, thread: await ledger.thread(THREAD) }).text) as Json;
    expect(out['input'].slice(-3)).to.deep.equal([{ ...original, call_id: 'call_cm', namespace: 'functions' }, out1, { ...notify, name: 'argv_echo' }]);
  });
});
