// REQ-SHELL-001 acceptance 13 and 14 with the real built-in shell contribution: where the router
// puts `shell` in recorded Code Mode requests (CLI: under the owner's `functions` namespace;
// app-server: directly in the additional_tools list), what its description gets (the owner's
// sanitized parameter shape under #!params, never tools.exec_command), what the owner loses (its
// exec_command section and example), what stays byte-equivalent, and which shapes fail before
// forwarding.
import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Contribution } from '../../host/registry/contribution.ts';
import { ToolRegistry } from '../../host/registry/registry.ts';
import { UnsupportedShapeError } from '../../host/request/classify.ts';
import { prepareRequest } from '../../host/request/rewrite.ts';
import { loadBuiltinShell } from '../../host/shell/builtin-shell.ts';
import { ShellThreadStorage } from '../../host/shell/thread-storage.ts';
import { capturedRequest } from '../support/fixtures.ts';
import { tempDir } from '../support/temp-dir.ts';

type Json = Record<string, any>;
const THREAD = '01a2289d-5fa6-7e42-9eeb-76ca52169da0';

describe('REQ-SHELL-001 acceptance 13–14: the shell tool in Code Mode requests', function () {
  this.timeout(30_000);
  let registry: ToolRegistry;
  let shell: Contribution;
  let dispose: () => void;
  let tmp: { dir: string; cleanup: () => void };

  before(async () => {
    tmp = tempDir('shell-placement');
    mkdirSync(join(tmp.dir, 'base'), { mode: 0o700 });
    const storage = new ShellThreadStorage(join(tmp.dir, 'base'), '/x');
    const loaded = await loadBuiltinShell(() => storage);
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    shell = loaded.contribution;
    dispose = loaded.dispose;
    registry = ToolRegistry.create([shell]);
  });
  after(() => {
    dispose();
    tmp.cleanup();
  });

  const prepare = (body: Json) => prepareRequest(JSON.stringify(body), body, { registry, threadId: THREAD, thread: null });
  const additional = (body: Json): Json => (body['input'] as Json[]).find((i) => i['type'] === 'additional_tools')!;

  it('CLI (default model): shell sits beside exec in the functions namespace, with the #!params shape of the owner\'s description', () => {
    const body = capturedRequest('a-default-modeldefault-gpt62sol-001').body as Json;
    const out = JSON.parse(prepare(body).text) as Json;
    const ns = (additional(out)['tools'] as Json[]).find((t) => t['name'] === 'functions')!;
    const names = (ns['tools'] as Json[]).map((t) => t['name']);
    expect(names.slice(0, 2)).to.deep.equal(['exec', 'shell']);
    const spec = (ns['tools'] as Json[])[1]!;
    const base = shell.toolSpec({ shape: 'native', execParamsShape: null });
    expect(spec['description'].startsWith(base.description!)).to.equal(true);
    expect(spec['description']).to.match(/#!params fields[^\n]*\n[\s\S]*workdir/);
    expect(spec['description']).to.not.contain('cmd:').and.to.not.contain('tools.exec_command');
    const exec = (ns['tools'] as Json[])[0]!;
    expect(exec['description']).to.not.contain('tools.exec_command').and.to.not.contain('### `exec_command`');
  });

  /** The requirement's app-server form: the owner and its siblings directly in the additional_tools list. */
  function directForm(body: Json): Json {
    return { ...body, input: (body['input'] as Json[]).map((i) => (i['type'] !== 'additional_tools' ? i : {
      ...i, tools: (i['tools'] as Json[]).flatMap((t) => (t['type'] === 'namespace' && t['name'] === 'functions' ? (t['tools'] as Json[]) : [t])),
    })) };
  }

  it('app-server form: shell goes directly into the additional_tools list beside exec', () => {
    // (Recorded 0.171.0 app-server requests use the functions namespace like the CLI, README §11;
    // the direct form is the one REQ-SHELL-001 names for app-server and must work as well.)
    const body = directForm(capturedRequest('g1-appserver-default-gpt62sol-001').body as Json);
    const out = JSON.parse(prepare(body).text) as Json;
    const tools = additional(out)['tools'] as Json[];
    const at = tools.findIndex((t) => t['name'] === 'exec');
    expect(tools[at + 1]!['name']).to.equal('shell');
    expect(tools[at + 1]!['description']).to.contain('#!params').and.to.not.contain('tools.exec_command');
    expect(tools[at]!['description']).to.not.contain('tools.exec_command');
  });

  it('every sibling tool, namespace and other input item stays byte-equivalent', () => {
    for (const [name, form] of [['a-default-modeldefault-gpt62sol-001', 'cli'], ['g1-appserver-default-gpt62sol-001', 'direct'], ['f6-exec-gpt62sol-default-012', 'cli']] as const) {
      const body = form === 'direct' ? directForm(capturedRequest(name).body as Json) : (capturedRequest(name).body as Json);
      const out = JSON.parse(prepare(body).text) as Json;
      const strip = (b: Json): string => JSON.stringify(b['input'].filter((i: Json) => i['type'] !== 'additional_tools'));
      expect(strip(out), name).to.equal(strip(body));
      const beforeTools = JSON.stringify((additional(body)['tools'] as Json[]).flatMap(flat).filter((t) => t['name'] !== 'exec'));
      const afterTools = JSON.stringify((additional(out)['tools'] as Json[]).flatMap(flat).filter((t) => t['name'] !== 'exec' && t['name'] !== 'shell'));
      expect(afterTools, name).to.equal(beforeTools);
    }
  });

  it('an eligible owner without a recognizable parameter shape keeps the base shell description and does not reject', () => {
    const body = directForm(capturedRequest('g1-appserver-default-gpt62sol-001').body as Json);
    const tools = additional(body)['tools'] as Json[];
    const exec = tools.find((t) => t['name'] === 'exec')!;
    const plainOwner = { ...body, input: body['input'].map((i: Json) => (i['type'] === 'additional_tools' ? { ...i, tools: tools.map((t) => (t === exec ? { ...exec, description: 'Runs JavaScript.' } : t)) } : i)) };
    const out = JSON.parse(prepare(plainOwner).text) as Json;
    const spec = (additional(out)['tools'] as Json[]).find((t) => t['name'] === 'shell')!;
    expect(spec['description']).to.equal(shell.toolSpec({ shape: 'native', execParamsShape: null }).description);
  });

  it('acceptance 14: functions.exec entries, top-level exec tools and two eligible owners fail before forwarding', () => {
    const body = directForm(capturedRequest('g1-appserver-default-gpt62sol-001').body as Json);
    const item = additional(body);
    const exec = (item['tools'] as Json[]).find((t) => t['name'] === 'exec')!;
    const withTools = (tools: Json[], extra: Json = {}): Json => ({ ...body, ...extra, input: body['input'].map((i: Json) => (i === item ? { ...i, tools } : i)) });
    expect(() => prepare(withTools([...item['tools'], { ...exec, name: 'functions.exec' }]))).to.throw(UnsupportedShapeError, /additional_tools entry "functions\.exec"/);
    expect(() => prepare(withTools(item['tools'], { tools: [{ ...exec }] }))).to.throw(UnsupportedShapeError, /top-level tool "exec"/);
    expect(() => prepare(withTools(item['tools'], { tools: [{ ...exec, name: 'functions.exec' }] }))).to.throw(UnsupportedShapeError, /top-level tool "functions\.exec"/);
    expect(() => prepare(withTools([...item['tools'], { ...exec }]))).to.throw(UnsupportedShapeError, /2 Code Mode "exec" owners/);
  });
});

function flat(t: Json): Json[] {
  return t['type'] === 'namespace' ? [{ ...t, tools: undefined }, ...(t['tools'] as Json[]).flatMap(flat)] : [t];
}
