import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import vm from 'node:vm';
import type { AvailableCarriers, Carrier } from '../../host/carriers/carrier.ts';
import type { ExecRequest } from '../../host/carriers/exec-request.ts';
import { CarrierInputError, CarrierProtocolError } from '../../host/carriers/carrier-errors.ts';
import {
  DIAGNOSTIC_MAX_CHARS, EXEC_CMD_MAX_BYTES, renderDiagnosticCarrier, renderExecCarrier,
} from '../../host/carriers/exec-wrapper.ts';

const NATIVE: AvailableCarriers = { exec_command: {}, primary: 'exec_command' };
const CODE_MODE: AvailableCarriers = { code_mode_exec: { namespace: 'functions' }, exec_command: {}, primary: 'code_mode_exec' };
const CODE_MODE_ONLY: AvailableCarriers = { code_mode_exec: {}, primary: 'code_mode_exec' };

const exec = (command: ExecRequest['command'], extra: Partial<ExecRequest> = {}): ExecRequest => ({ kind: 'exec', command, ...extra });

function nativeArgs(c: Carrier): Record<string, unknown> {
  if (c.kind !== 'exec_command') throw new Error(`expected exec_command, got ${c.kind}`);
  return JSON.parse(c.arguments) as Record<string, unknown>;
}

// stdin is /dev/null: libuv pipes are socketpairs, and Debian's bash sources ~/.bashrc even for
// `bash -c` when stdin is a socket (the rshd/sshd heuristic), which would pollute stderr.
function bash(cmd: string): { status: number | null; stdout: string; stderr: string } {
  return spawnSync('bash', ['-c', cmd], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, LC_ALL: 'C.UTF-8' } });
}

// Evaluate a Code Mode program the way Codex does (an async module body): statements wrapped in
// an async function, with recording `tools.exec_command` and `text` globals.
async function runCodeMode(input: string, result: unknown): Promise<{ calls: unknown[]; texts: unknown[] }> {
  const calls: unknown[] = [];
  const texts: unknown[] = [];
  const context = vm.createContext({
    tools: { exec_command: async (args: unknown) => { calls.push(args); return result; } },
    text: (value: unknown) => { texts.push(value); },
  });
  await vm.runInContext(`(async () => {\n${input}})()`, context);
  return { calls, texts };
}

describe('renderExecCarrier', () => {
  it('renders native exec_command arguments exactly', () => {
    const c = renderExecCarrier(exec({ argv: ['hgrep', '-n', 'a b', "it's", 'x\ny'] }), NATIVE);
    expect(c).to.deep.equal({
      kind: 'exec_command',
      arguments: String.raw`{"cmd":"hgrep -n 'a b' 'it'\\''s' $'x\\ny'"}`,
    });
    expect(c).not.to.have.property('namespace');
  });

  it('puts cmd first and keeps params in their given order', () => {
    const c = renderExecCarrier(exec({ argv: ['tool'] }, { params: { yield_time_ms: 1000, login: false, workdir: '/tmp', prefix_rule: ['a', 'b'] } }), NATIVE);
    expect(c).to.deep.equal({
      kind: 'exec_command',
      arguments: '{"cmd":"tool","yield_time_ms":1000,"login":false,"workdir":"/tmp","prefix_rule":["a","b"]}',
    });
  });

  it('renders the Code Mode program exactly, with the namespace', () => {
    const c = renderExecCarrier(exec({ argv: ['tool', 'a b'] }, { params: { yield_time_ms: 250 } }), CODE_MODE);
    expect(c).to.deep.equal({
      kind: 'code_mode_exec',
      namespace: 'functions',
      input: `const result = await tools.exec_command({"cmd":"tool 'a b'","yield_time_ms":250});\ntext(result);\n`,
    });
    expect(Object.keys(c)).to.deep.equal(['kind', 'namespace', 'input']);
  });

  it('honours via and omits an undefined namespace', () => {
    const native = renderExecCarrier(exec({ argv: ['tool'] }, { via: 'exec_command' }), CODE_MODE);
    expect(native).to.deep.equal({ kind: 'exec_command', arguments: '{"cmd":"tool"}' });
    expect(native).not.to.have.property('namespace');
    const cm = renderExecCarrier(exec({ argv: ['tool'] }), CODE_MODE_ONLY);
    expect(cm).not.to.have.property('namespace');
    const ns = renderExecCarrier(exec({ argv: ['tool'] }), { exec_command: { namespace: 'functions' }, primary: 'exec_command' });
    expect(ns).to.deep.equal({ kind: 'exec_command', namespace: 'functions', arguments: '{"cmd":"tool"}' });
  });

  it('rejects an unavailable carrier', () => {
    expect(() => renderExecCarrier(exec({ argv: ['tool'] }, { via: 'code_mode_exec' }), NATIVE))
      .to.throw(CarrierProtocolError, 'carrier code_mode_exec is not available in this request');
    expect(() => renderExecCarrier(exec({ argv: ['tool'] }, { via: 'exec_command' }), CODE_MODE_ONLY))
      .to.throw(CarrierProtocolError, 'carrier exec_command is not available in this request');
    expect(() => renderExecCarrier(exec({ argv: ['tool'] }, { via: 'shell' as never }), NATIVE))
      .to.throw(CarrierProtocolError, 'carrier shell is not available in this request');
  });

  it('validates the worker command', () => {
    expect(() => renderExecCarrier(exec({ argv: [] }), NATIVE)).to.throw(CarrierProtocolError);
    expect(() => renderExecCarrier(exec({ argv: ['a', 3 as never] }), NATIVE)).to.throw(CarrierProtocolError, /argv\[1\]/);
    expect(() => renderExecCarrier(exec({ argv: ['a'], line: 'b' } as never), NATIVE)).to.throw(CarrierProtocolError);
    expect(() => renderExecCarrier(exec({} as never), NATIVE)).to.throw(CarrierProtocolError);
    expect(() => renderExecCarrier(exec({ argv: ['tool', 'ok', 'a\0b'] }), NATIVE)).to.throw(CarrierInputError, /argv\[2\]/);
    expect(() => renderExecCarrier(exec({ argv: ['tool', '\udc00'] }), NATIVE)).to.throw(CarrierInputError, /argv\[1\]/);
  });

  it('passes a line verbatim and rejects CR, LF and NUL in it', () => {
    const line = `grep -rn "a b" src | head -5 # $'x'`;
    expect(nativeArgs(renderExecCarrier(exec({ line }), NATIVE))).to.deep.equal({ cmd: line });
    for (const bad of ['a\nb', 'a\rb', 'a\0b', 'a\r\n']) {
      expect(() => renderExecCarrier(exec({ line: bad }), NATIVE), JSON.stringify(bad)).to.throw(CarrierProtocolError);
    }
    expect(() => renderExecCarrier(exec({ line: 'echo \ud800' }), NATIVE)).to.throw(CarrierInputError);
  });

  it('splices the template at its single placeholder', () => {
    const argv = ['tool', 'a\nb', '$&', '{.}'];
    const c = renderExecCarrier(exec({ argv }, { template: 'cd /x && {.} 2>&1 | cat' }), NATIVE);
    // `$'` and `$&` in the worker survive: no String.replace substitution patterns.
    expect(nativeArgs(c).cmd).to.equal(String.raw`cd /x && tool $'a\nb' '$&' '{.}' 2>&1 | cat`);
    const multi = renderExecCarrier(exec({ line: 'run it' }, { template: 'set -e\n{.}\necho done' }), NATIVE);
    expect(nativeArgs(multi).cmd).to.equal('set -e\nrun it\necho done');
  });

  it('rejects templates without exactly one placeholder or with NUL', () => {
    for (const template of ['no placeholder', '', '{.} and {.}', '{.}{.}', '{ . }', 'a\0{.}']) {
      expect(() => renderExecCarrier(exec({ argv: ['tool'] }, { template }), NATIVE), JSON.stringify(template))
        .to.throw(CarrierProtocolError);
    }
    expect(() => renderExecCarrier(exec({ argv: ['tool'] }, { template: 3 as never }), NATIVE)).to.throw(CarrierProtocolError);
  });

  it('validates params', () => {
    const bad: unknown[] = [
      [], null, 'x', { cmd: 'x' }, { login: true }, { login: 'false' }, { login: undefined }, { login: 0 },
      { a: undefined }, { a: () => 1 }, { a: Number.NaN }, { a: Infinity }, { a: 1n }, { a: new Date(0) },
      { a: [1, , 3] }, { a: [undefined] }, { a: Symbol('s') }, { [Symbol('k')]: 1 }, { 5: 'x' },
      { a: new (class K {})() }, new (class P {})(), { a: new Map() }, { get a() { return 1; } },
      { a: { b: { c: 'x\ud800' } } },
    ];
    const cyclic: Record<string, unknown> = {};
    cyclic.self = { back: cyclic };
    bad.push({ a: cyclic });
    for (const params of bad) {
      expect(() => renderExecCarrier(exec({ argv: ['tool'] }, { params: params as never }), NATIVE), String(params))
        .to.throw(CarrierProtocolError);
    }
    const shared = { x: 1 };
    const good = { login: false, tty: true, max_output_tokens: 100, nested: { a: [shared, shared, null], b: -1.5 }, s: 'é😀' };
    expect(nativeArgs(renderExecCarrier(exec({ argv: ['tool'] }, { params: good }), NATIVE)))
      .to.deep.equal({ cmd: 'tool', ...good });
    const noProto = Object.assign(Object.create(null) as Record<string, unknown>, { workdir: '/w' });
    expect(nativeArgs(renderExecCarrier(exec({ argv: ['tool'] }, { params: noProto }), NATIVE))).to.deep.equal({ cmd: 'tool', workdir: '/w' });
  });

  it('enforces the command byte limit with CarrierInputError', () => {
    expect(EXEC_CMD_MAX_BYTES).to.equal(131071);
    const atLimit = renderExecCarrier(exec({ argv: ['x'.repeat(EXEC_CMD_MAX_BYTES)] }), NATIVE);
    expect(nativeArgs(atLimit).cmd).to.have.length(EXEC_CMD_MAX_BYTES);
    expect(() => renderExecCarrier(exec({ argv: ['x'.repeat(EXEC_CMD_MAX_BYTES + 1)] }), NATIVE))
      .to.throw(CarrierInputError, /131072 bytes.*131071/);
    // Counted in UTF-8 bytes after quoting and templating: 'é' is 2 bytes, the quotes add 2.
    const e = 'é'.repeat((EXEC_CMD_MAX_BYTES - 1) / 2);
    expect(() => renderExecCarrier(exec({ argv: [e] }), NATIVE)).to.throw(CarrierInputError);
    const bare = 'x'.repeat(EXEC_CMD_MAX_BYTES - 3);
    expect(nativeArgs(renderExecCarrier(exec({ argv: [bare] }, { template: '{.} |c' }), NATIVE)).cmd).to.have.length(EXEC_CMD_MAX_BYTES);
    expect(() => renderExecCarrier(exec({ argv: [bare] }, { template: '{.} | c' }), CODE_MODE)).to.throw(CarrierInputError);
  });

  it('Code Mode program passes the args object and forwards the complete native result', async () => {
    const params = { yield_time_ms: 250, login: false };
    const argv = ['tool', "it's", 'line1\nline2', '😀'];
    const c = renderExecCarrier(exec({ argv }, { params, template: '{.} | cat' }), CODE_MODE);
    if (c.kind !== 'code_mode_exec') throw new Error('expected code mode');
    const expectedArgs = nativeArgs(renderExecCarrier(exec({ argv }, { params, template: '{.} | cat' }), NATIVE));
    const finished = { chunk_id: 'fc204e', wall_time_seconds: 0.044, exit_code: 3, original_token_count: 3, output: 'hello\nerr\n' };
    const yielded = { session_id: 5, output: '' };
    for (const result of [finished, yielded]) {
      const { calls, texts } = await runCodeMode(c.input, result);
      expect(calls).to.have.length(1);
      expect(JSON.parse(JSON.stringify(calls[0]))).to.deep.equal(expectedArgs);
      expect(Object.keys(calls[0] as object)).to.deep.equal(['cmd', 'yield_time_ms', 'login']);
      expect(texts).to.have.length(1);
      expect(texts[0]).to.equal(result); // the very object, so Codex serializes all of it
    }
  });

  it('native cmd with a template runs in real bash and reproduces the argv', () => {
    const values = ['plain', '', 'a b', "it's", '"dq"', 'x\ny', 'cr\rhere', 'tab\there', '$HOME', '`id`', '\\n', '!', '~', '#c', 'x=y', '*', '{a,b}', '$&', '{.}', 'é😀e\u0301', '\x01\x1b[0m\x7f', '%s%d', '-n'];
    const c = renderExecCarrier(exec({ argv: ['printf', '%s\n', ...values] }, { template: '{.} | cat' }), NATIVE);
    const { cmd } = nativeArgs(c) as { cmd: string };
    expect(cmd).not.to.match(/[\n\r]/);
    const r = bash(cmd);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.equal(values.map((v) => `${v}\n`).join(''));
  });
});

describe('renderDiagnosticCarrier', () => {
  const msg = "bad input: it's\nnot valid";

  it('renders an exec_command diagnostic that prints to stderr and exits 2', () => {
    const c = renderDiagnosticCarrier(msg, NATIVE);
    expect(c).to.deep.equal({
      kind: 'exec_command',
      arguments: String.raw`{"cmd":"printf '%s\\n' $'bad input: it\\'s\\nnot valid' >&2; exit 2"}`,
    });
    const r = bash((nativeArgs(c) as { cmd: string }).cmd);
    expect(r.status).to.equal(2);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.equal(`${msg}\n`);
  });

  it('renders a Code Mode diagnostic that throws the message', async () => {
    const c = renderDiagnosticCarrier(msg, CODE_MODE);
    expect(c).to.deep.equal({ kind: 'code_mode_exec', namespace: 'functions', input: 'throw new Error("bad input: it\'s\\nnot valid");\n' });
    if (c.kind !== 'code_mode_exec') throw new Error('expected code mode');
    let thrown: unknown;
    try { await runCodeMode(c.input, null); } catch (e) { thrown = e; }
    expect((thrown as Error).message).to.equal(msg);
  });

  it('is deterministic and sanitizes NUL and lone surrogates', () => {
    expect(renderDiagnosticCarrier(msg, NATIVE)).to.deep.equal(renderDiagnosticCarrier(msg, NATIVE));
    const c = renderDiagnosticCarrier('a\0b\ud800c\udc00d😀', CODE_MODE_ONLY);
    expect(c).to.deep.equal({ kind: 'code_mode_exec', input: 'throw new Error("a\uFFFDb\uFFFDc\uFFFDd😀");\n' });
    const n = renderDiagnosticCarrier('a\0b\ud800', NATIVE);
    const r = bash((nativeArgs(n) as { cmd: string }).cmd);
    expect(r.stderr).to.equal('a\uFFFDb\uFFFD\n');
  });

  it('truncates long messages without splitting a surrogate pair', () => {
    const marker = '… [diagnostic truncated]';
    expect(DIAGNOSTIC_MAX_CHARS).to.equal(4000);
    const thrownMessage = (c: Carrier): string => {
      if (c.kind !== 'code_mode_exec') throw new Error('expected code mode');
      return JSON.parse(c.input.slice('throw new Error('.length, -');\n'.length)) as string;
    };
    const exact = 'a'.repeat(DIAGNOSTIC_MAX_CHARS);
    expect(thrownMessage(renderDiagnosticCarrier(exact, CODE_MODE_ONLY))).to.equal(exact);
    expect(thrownMessage(renderDiagnosticCarrier(`${exact}b`, CODE_MODE_ONLY))).to.equal(exact + marker);
    const pairAtEdge = `${'a'.repeat(DIAGNOSTIC_MAX_CHARS - 1)}😀tail`;
    expect(thrownMessage(renderDiagnosticCarrier(pairAtEdge, CODE_MODE_ONLY))).to.equal('a'.repeat(DIAGNOSTIC_MAX_CHARS - 1) + marker);
    const huge = renderDiagnosticCarrier('\x01'.repeat(100_000), NATIVE);
    const r = bash((nativeArgs(huge) as { cmd: string }).cmd);
    expect(r.stderr).to.equal(`${'\x01'.repeat(DIAGNOSTIC_MAX_CHARS)}${marker}\n`);
  });

  it('requires the primary carrier to be available', () => {
    expect(() => renderDiagnosticCarrier('x', { primary: 'code_mode_exec', exec_command: {} }))
      .to.throw(CarrierProtocolError, 'carrier code_mode_exec is not available in this request');
  });
});
