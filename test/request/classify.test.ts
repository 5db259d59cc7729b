import { expect } from 'chai';
import { classifyRequest, UnsupportedShapeError } from '../../host/request/classify.ts';
import { capturedRequest } from '../support/fixtures.ts';

describe('request shape classification (captured Codex 0.171.0 requests)', () => {
  const expectations: Record<string, string> = {
    'a-default-gpt55-001': 'native',
    'a-default-gpt5codex-001': 'native',
    'b2-parallel-gpt55-005': 'native',
    'e-applypatch-gpt55-002': 'native',
    'a-default-modeldefault-gpt62sol-001': 'code_mode',
    'g1-appserver-default-gpt62sol-001': 'code_mode',
    'x4-catalog-gpt55-lite-code_mode_only-001': 'code_mode',
    'f6-exec-gpt62sol-default-012': 'code_mode',
    'x1-catalog-gpt62sol-lite-no-codemode-001': 'neither',
    'x8-compaction-gpt55-002': 'neither',
  };
  for (const [name, kind] of Object.entries(expectations)) {
    it(`${name} is ${kind}`, () => {
      expect(classifyRequest(capturedRequest(name).body).kind).to.equal(kind);
    });
  }

  it('finds apply_patch beside exec_command in the native gpt-5.5 request, and none for gpt-5-codex', () => {
    const a = classifyRequest(capturedRequest('a-default-gpt55-001').body);
    const b = classifyRequest(capturedRequest('a-default-gpt5codex-001').body);
    expect(a.kind === 'native' && a.applyPatch?.index).to.equal(3);
    expect(b.kind === 'native' && b.applyPatch).to.equal(undefined);
  });

  it('locates the CLI owner under the functions namespace of input[0]', () => {
    const s = classifyRequest(capturedRequest('a-default-modeldefault-gpt62sol-001').body);
    expect(s).to.deep.equal({ kind: 'code_mode', owner: { form: 'namespace', inputIndex: 0, namespaceIndex: 0, toolIndex: 0, namespace: 'functions' } });
  });

  for (const name of ['f2-tools-gpt55-code_mode_only-001', 'f1-tools-gpt55-code_mode-001', 'x2-catalog-gpt62sol-nolite-codemode-001']) {
    it(`refuses ${name}: top-level exec`, () => {
      expect(() => classifyRequest(capturedRequest(name).body)).to.throw(UnsupportedShapeError, /top-level tool "exec"/);
    });
  }

  const owner = { type: 'custom', name: 'exec', description: 'd', format: { type: 'grammar', syntax: 'lark', definition: 'start: /x/' } };
  const withItems = (...tools: unknown[]) => ({ input: [{ type: 'additional_tools', role: 'developer', tools }] });

  it('accepts the app-server form: exec directly in the additional_tools list', () => {
    expect(classifyRequest(withItems(owner))).to.deep.equal({ kind: 'code_mode', owner: { form: 'direct', inputIndex: 0, toolIndex: 0 } });
  });

  it('refuses more than one eligible owner', () => {
    const body = withItems(owner, { type: 'namespace', name: 'functions', tools: [owner] });
    expect(() => classifyRequest(body)).to.throw(UnsupportedShapeError, /2 Code Mode "exec" owners/);
  });

  it('refuses a direct additional_tools entry named functions.exec', () => {
    expect(() => classifyRequest(withItems({ ...owner, name: 'functions.exec' }))).to.throw(UnsupportedShapeError, /"functions.exec"/);
  });

  it('refuses a top-level tool named functions.exec', () => {
    expect(() => classifyRequest({ tools: [{ ...owner, name: 'functions.exec' }] })).to.throw(UnsupportedShapeError, /"functions.exec"/);
  });

  it('refuses an exec owner that is not a custom tool', () => {
    expect(() => classifyRequest(withItems({ type: 'function', name: 'exec', parameters: {} }))).to.throw(UnsupportedShapeError, /must be a custom tool/);
  });

  it('reports every problem of one request together', () => {
    const body = { tools: [{ type: 'custom', name: 'exec' }], input: [{ type: 'additional_tools', tools: [{ type: 'custom', name: 'functions.exec' }] }] };
    expect(() => classifyRequest(body)).to.throw(UnsupportedShapeError, /top-level tool "exec".*; additional_tools entry "functions.exec"/);
  });

  it('leaves an exec in an unrelated namespace alone', () => {
    expect(classifyRequest(withItems({ type: 'namespace', name: 'clock', tools: [owner] })).kind).to.equal('neither');
  });
});
