// hpatch-mode request rewrite of a realistic captured Codex request with long history, vs a bare
// JSON.parse + JSON.stringify of the same body (the cost any JSON-rewriting proxy pays).
import { Ledger } from '../../host/history/ledger.ts';
import { ToolRegistry } from '../../host/registry/registry.ts';
import { prepareRequest } from '../../host/request/rewrite.ts';
import { capturedRequest } from '../support/fixtures.ts';
import { argvEcho } from '../support/test-contributions.ts';
import { tempDir } from '../support/temp-dir.ts';
import { fmt, summarize } from './stats.ts';

type Json = Record<string, any>;

function measure(fn: () => void, iterations: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/** A longer thread: the captured history repeated, with ledger-known carriers sprinkled in. */
function longHistory(base: Json, copies: number, carrier: Json, output: Json): Json {
  const body = structuredClone(base);
  const history = (base['input'] as Json[]).slice(1);
  for (let i = 0; i < copies; i++) body['input'].push(...structuredClone(history), { ...carrier, call_id: `call_${i}` }, { ...output, call_id: `call_${i}` });
  return body;
}

export async function benchRewrite(iterations: number): Promise<string> {
  const tmp = tempDir('bench-ledger');
  const ledger = await Ledger.open(tmp.dir);
  const registry = ToolRegistry.create([argvEcho({ supersedes: { applyPatch: true, execCommand: true } })]);
  const args = JSON.stringify({ cmd: "printf '%s\\n' a" });
  const carrier = { type: 'function_call', id: 'ctc_1', status: 'completed', name: 'exec_command', arguments: args, call_id: '' };
  const output = { type: 'function_call_output', id: 'fco_1', call_id: '', output: 'Chunk ID: 1\nOutput:\na\n' };
  for (let i = 0; i < 20; i++) {
    await ledger.record({ threadId: 'bench', callId: `call_${i}`, contribution: 'test:bench:argv_echo', tool: 'argv_echo', original: JSON.stringify({ type: 'custom_tool_call', id: 'ctc_1', status: 'completed', call_id: `call_${i}`, name: 'argv_echo', input: 'a' }), carrier: { kind: 'exec_command', arguments: args } });
  }
  const thread = await ledger.thread('bench');
  const cases: [string, Json][] = [
    ['native, b2-parallel-gpt55 #5 (16 items)', capturedRequest('b2-parallel-gpt55-005').body as Json],
    ['Code Mode, f6-exec-gpt62sol #12 (30 items)', capturedRequest('f6-exec-gpt62sol-default-012').body as Json],
    ['native, b2 history ×20 + 20 restored calls', longHistory(capturedRequest('b2-parallel-gpt55-005').body as Json, 20, carrier, output)],
  ];
  const lines = [`Request rewrite vs bare JSON.parse + JSON.stringify (${iterations} iterations each, p50)`,
    '| request | bytes | parse+stringify | parse+rewrite | ratio |', '|---|---|---|---|---|'];
  for (const [name, body] of cases) {
    const text = JSON.stringify(body);
    for (let w = 0; w < 50; w++) { JSON.stringify(JSON.parse(text)); prepareRequest(text, JSON.parse(text), { registry, threadId: 'bench', thread }); }
    const base: number[] = [], ours: number[] = [];
    for (let i = 0; i < iterations; i++) { // interleaved
      base.push(...measure(() => JSON.stringify(JSON.parse(text)), 1));
      ours.push(...measure(() => prepareRequest(text, JSON.parse(text) as Json, { registry, threadId: 'bench', thread }), 1));
    }
    const b = summarize(base).p50, o = summarize(ours).p50;
    lines.push(`| ${name} | ${text.length} | ${fmt(b)} | ${fmt(o)} | ${(o / b).toFixed(2)}× |`);
  }
  await ledger.close();
  tmp.cleanup();
  return lines.join('\n');
}
