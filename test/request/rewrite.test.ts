import { expect } from 'chai';
import { prepareRequest } from '../../host/request/rewrite.ts';
import { ToolRegistry } from '../../host/registry/registry.ts';
import { UnsupportedShapeError } from '../../host/request/classify.ts';
import { capturedRequest, capturedRequestNames } from '../support/fixtures.ts';
import { argvEcho } from '../support/test-contributions.ts';

type Json = Record<string, any>;
const THREAD = '01a2289d-5fa6-7e42-9eeb-76ca52169da0';

function prepare(body: Json, registry: ToolRegistry, text = JSON.stringify(body)) {
  return prepareRequest(text, body, { registry, threadId: THREAD, thread: null });
}

describe('hpatch-mode request rewrite', () => {
  const plain = ToolRegistry.create([argvEcho()]);
  const editing = ToolRegistry.create([argvEcho({ supersedes: { applyPatch: true, execCommand: true } })]);

  it('returns every captured request unchanged when no tool is registered', () => {
    for (const name of capturedRequestNames()) {
      const body = capturedRequest(name).body;
      let out;
      try { out = prepare(body, ToolRegistry.empty); } catch (e) { if (e instanceof UnsupportedShapeError) continue; throw e; }
      expect(out.text, name).to.equal(JSON.stringify(body));
    }
  });

  it('native: adds the tool right after exec_command and leaves every other byte as it was', () => {
    const body = capturedRequest('a-default-gpt55-001').body as Json;
    const text = JSON.stringify(body);
    const out = prepare(body, plain);
    const exec = JSON.stringify(body['tools'][0]);
    const spec = JSON.stringify(argvEcho().toolSpec({ shape: 'native', execParamsShape: out.context.carriers ? specShape(out.text) : null }));
    expect(out.text).to.equal(text.replace(exec, `${exec},${spec}`));
    expect(out.context.shape).to.equal('native');
    expect(out.context.carriers).to.deep.equal({ exec_command: {}, primary: 'exec_command' });
    expect([...out.context.exposed.keys()]).to.deep.equal(['argv_echo']);
  });

  it('native: a contribution that supersedes the editing surface removes apply_patch, nothing else', () => {
    const body = capturedRequest('a-default-gpt55-001').body as Json;
    const out = JSON.parse(prepare(body, editing).text) as Json;
    const names = (out['tools'] as Json[]).map((t) => t['name'] ?? t['type']);
    expect(names).to.deep.equal(['exec_command', 'argv_echo', 'write_stdin', 'request_user_input', 'view_image', 'get_goal', 'create_goal', 'update_goal', 'tool_search', 'web_search']);
    const others = (body['tools'] as Json[]).filter((t) => t['name'] !== 'apply_patch');
    expect((out['tools'] as Json[]).filter((t) => t['name'] !== 'argv_echo')).to.deep.equal(others);
    const { tools: _a, ...restOut } = out;
    const { tools: _b, ...restIn } = body;
    expect(JSON.stringify(restOut)).to.equal(JSON.stringify(restIn));
  });

  it('native: the exec params shape comes from the exec_command schema, without cmd', () => {
    const out = JSON.parse(prepare(capturedRequest('a-default-gpt55-001').body, plain).text) as Json;
    const description = (out['tools'] as Json[])[1]!['description'] as string;
    expect(description).to.contain('workdir?: string;').and.contain('login?: boolean;').and.not.contain('cmd: string');
  });

  it('keeps the formatting of untouched parts (pretty-printed input)', () => {
    const body = capturedRequest('a-default-gpt55-001').body as Json;
    const text = JSON.stringify(body, null, 2);
    const out = prepare(body, plain, text);
    const spec = JSON.stringify(JSON.parse(out.text)['tools'][1]);
    expect(out.text.replace(`,${spec}`, '')).to.equal(text);
  });

  it('Code Mode (CLI form): adds the tool beside exec in the functions namespace and sanitizes only the owner description', () => {
    const body = capturedRequest('a-default-modeldefault-gpt62sol-001').body as Json;
    const text = JSON.stringify(body);
    const out = prepare(body, editing);
    const parsed = JSON.parse(out.text) as Json;
    const ns = parsed['input'][0]['tools'][0] as Json;
    expect((ns['tools'] as Json[]).map((t) => t['name'])).to.deep.equal(['exec', 'argv_echo', 'wait', 'request_user_input', 'request_user_input_async', 'send_message_to_user_async']);
    const desc = ns['tools'][0]['description'] as string;
    expect(desc).to.not.contain('tools.exec_command');
    expect(desc).to.not.contain('### `apply_patch`');
    expect(desc).to.contain('### `write_stdin`');
    // Everything but the owner's description and the inserted tool is byte-identical.
    const origDesc = JSON.stringify(body['input'][0]['tools'][0]['tools'][0]['description']);
    const spec = JSON.stringify(ns['tools'][1]);
    const expected = text.replace(origDesc, JSON.stringify(desc)).replace(
      JSON.stringify(body['input'][0]['tools'][0]['tools'][0]).replace(origDesc, JSON.stringify(desc)),
      (m) => `${m},${spec}`);
    expect(out.text).to.equal(expected);
    // The owner declares tools.apply_patch: hpatch's Code Mode carrier calls it.
    expect(out.context.carriers).to.deep.equal({ code_mode_exec: { namespace: 'functions' }, primary: 'code_mode_exec', codeModeApplyPatch: true });
    expect(out.context.toolNamespace).to.equal('functions');
    const toolDesc = ns['tools'][1]['description'] as string;
    expect(toolDesc).to.contain('yield_time_ms?: number;').and.not.contain('cmd: string');
  });

  it('Code Mode (app-server form): adds the tool directly beside exec', () => {
    const owner = (capturedRequest('a-default-modeldefault-gpt62sol-001').body as Json)['input'][0]['tools'][0]['tools'][0];
    const body = { model: 'm', input: [{ type: 'additional_tools', id: 'at_1', role: 'developer', tools: [owner, { type: 'function', name: 'wait', parameters: {} }] }, { type: 'message', role: 'user', content: [] }] };
    const out = prepare(body, plain);
    const parsed = JSON.parse(out.text) as Json;
    expect((parsed['input'][0]['tools'] as Json[]).map((t) => t['name'])).to.deep.equal(['exec', 'argv_echo', 'wait']);
    expect(out.context.carriers).to.deep.equal({ code_mode_exec: {}, primary: 'code_mode_exec', codeModeApplyPatch: true });
    expect(out.context.toolNamespace).to.equal(undefined);
    // A contribution that does not supersede exec_command leaves the owner description alone.
    expect(parsed['input'][0]['tools'][0]).to.deep.equal(owner);
  });

  it('Code Mode (app-server form): without a declaration in the description, the shape comes from a sibling exec_command declaration object', () => {
    const native = (capturedRequest('a-default-gpt55-001').body as Json)['tools'][0];
    const owner = { type: 'custom', name: 'exec', description: 'Run JavaScript.', format: { type: 'grammar', syntax: 'lark', definition: 'start: /x/' } };
    const body = { input: [{ type: 'additional_tools', tools: [owner, native] }] };
    const out = JSON.parse(prepare(body, plain).text) as Json;
    const desc = out['input'][0]['tools'][1]['description'] as string;
    expect(desc).to.contain('workdir?: string;').and.not.contain('cmd: string');
    const bare = JSON.parse(prepare({ input: [{ type: 'additional_tools', tools: [owner] }] }, plain).text) as Json;
    expect(bare['input'][0]['tools'][1]['description']).to.equal('Prints each input line as one argument.');
  });

  it('offers nothing without a thread id (no ledger to restore history from)', () => {
    const body = capturedRequest('a-default-gpt55-001').body as Json;
    const out = prepareRequest(JSON.stringify(body), body, { registry: plain, threadId: null, thread: null });
    expect(out.text).to.equal(JSON.stringify(body));
    expect(out.context.exposed.size).to.equal(0);
  });

  it('a request with neither shape gets no tools (compaction)', () => {
    const body = capturedRequest('x8-compaction-gpt55-002').body as Json;
    const out = prepare(body, plain);
    expect(out.text).to.equal(JSON.stringify(body));
    expect(out.context.shape).to.equal('neither');
    expect(out.context.carriers).to.equal(null);
  });
});

function specShape(text: string): string | null {
  const d = JSON.parse(text)['tools'][1]['description'] as string;
  const i = d.indexOf('\nexec params: ');
  return i < 0 ? null : d.slice(i + '\nexec params: '.length);
}