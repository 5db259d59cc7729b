import { expect } from 'chai';
import { build } from 'esbuild';
import * as core from '../../../isolates/core-v1/index.ts';
import { seededRandom } from '../../support/prng.ts';

// The same JSON calling convention on both sides: Uint8Array travels as {"$bytes": [...]}, a thrown
// error as {"throws": "RangeError: ..."}. Kept in this test (not in the frozen API).
const WRAPPER = `
import * as core from './index.ts';
export * from './index.ts';
const revive = (v) => (v !== null && typeof v === 'object' && Array.isArray(v.$bytes) ? Uint8Array.from(v.$bytes) : v);
const replace = (_k, v) => (v instanceof Uint8Array ? { $bytes: Array.from(v) } : v);
export function callJson(name, argsJson) {
  const args = JSON.parse(argsJson).map(revive);
  let result;
  try {
    result = { value: core[name](...args) };
  } catch (e) {
    result = { throws: String(e) };
  }
  return JSON.stringify(result, replace);
}
`;

function hostCallJson(name: string, argsJson: string): string {
  const revive = (v: unknown): unknown =>
    v !== null && typeof v === 'object' && Array.isArray((v as { $bytes?: unknown }).$bytes) ? Uint8Array.from((v as { $bytes: number[] }).$bytes) : v;
  const replace = (_k: string, v: unknown): unknown => (v instanceof Uint8Array ? { $bytes: Array.from(v) } : v);
  const args = (JSON.parse(argsJson) as unknown[]).map(revive);
  let result: unknown;
  try {
    result = { value: (core as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(...args) };
  } catch (e) {
    result = { throws: String(e) };
  }
  return JSON.stringify(result, replace);
}

const bytesArg = (b: Uint8Array): { $bytes: number[] } => ({ $bytes: Array.from(b) });

function randomString(rnd: () => number, maxLen: number): string {
  const pool = ['a', 'Z', ' ', '\t', '\n', '\r', '\r\n', '#!', '"', "'", '\\', '{.}', '=', ':', '|', 'é', '世', '😀', '\ud800', '\udc00', '\0', '0', '9', '-', '`'];
  let s = '';
  const len = Math.floor(rnd() * maxLen);
  for (let i = 0; i < len; i++) s += pool[Math.floor(rnd() * pool.length)];
  return s;
}

const GO_SAMPLE = 'package p\n// func no()\nconst raw = `\nfunc x() {\n`\nfunc (r *T[K]) M() {}\ntype ( A int; B = A )\nvar x, y = 1, \'\\\'\'\n';

function sampleCalls(): [string, unknown[]][] {
  const rnd = seededRandom(2026);
  const calls: [string, unknown[]][] = [
    ['rowHash', ['']], ['rowHash', ['\tfmt.Println("héllo, 世界 🌍")']],
    ['formatRow', [12, 'x|y']], ['formatRow', [0, 'x']],
    ['parseRow', ['12:ab3f|x']], ['parseAnchor', ['12:ab3f']], ['parseAnchor', ['012:ab3f']],
    ['looksLikeRowPrefix', ['007:ABCD|x']],
    ['xxHash32', [bytesArg(core.utf8Encode('Nobody inspects the spammish repetition')), 0]],
    ['contentTag', ['abc\n']],
    ['parsePositiveInt', ['9007199254740991']], ['parsePositiveInt', ['9007199254740992']],
    ['parseLineRange', ['10-']], ['parseLineRange', ['20-10']],
    ['decodeQuotedOperand', ['"a\\n\\"b\\q"']], ['splitQuotedOperands', ["x 'y z' \"w\""]],
    ['classifySource', ['Dockerfile.dev']], ['classifySource', ['tool', '#!/usr/bin/env -S python3 -u\n']],
    ['classifySource', ['main.go', bytesArg(Uint8Array.from([0x61, 0xe2, 0x82])), { samplePrefix: true }]],
    ['isGoIdentifier', ['世界']], ['isGoIdentifier', ['x١٢']], ['isGoIdentifier', ['é\u0301']],
    ['goStringLiteral', ['"\\xe4\\xb8\\x96\\U0001F600"']], ['goStringLiteralBytes', ['"\\xff"']],
    ['scanGoDeclarations', [GO_SAMPLE]],
    ['interpreterIdentity', ['C:\\Git\\bin\\BASH.exe']], ['parseShebangSelector', ['/usr/bin/env -S python3 -u']],
    ['parseShellInput', ['#!/usr/bin/env -S python3 -u\n# !params {"tty":true}\n#!cmd=curl x | {.}\n  body\r\n']],
    ['parseShellInput', ['#!params=[1]\n']], ['parseShellInput', ['#!params={\n']],
    ['parseShellInput', ['#!python3 -X abc\nx', { maxArgvValueBytes: 2 }]], ['parseShellInput', ['#!script=@shell/abc']],
    ['isSafeArtifactId', ['.runtime']],
    ['utf8TruncateToBytes', ['a😀b', 4]],
  ];
  for (let k = 0; k < 150; k++) {
    const s = randomString(rnd, 30);
    const b = new Uint8Array(Math.floor(rnd() * 16)).map(() => Math.floor(rnd() * 256));
    calls.push(
      ['rowHash', [s]], ['splitLines', [s]], ['logicalLineCount', [s]], ['terminatorStyle', [s]], ['hasFinalNewline', [s]],
      ['utf8Encode', [s]], ['utf8ByteLength', [s]], ['isWellFormed', [s]], ['utf8TruncateToBytes', [s, Math.floor(rnd() * 20)]],
      ['utf8Decode', [bytesArg(b)]], ['isValidUtf8', [bytesArg(b)]], ['classifySource', ['x', bytesArg(b)]],
      ['decodeQuotedOperand', [s]], ['splitQuotedOperands', [s]], ['parseShellInput', [s]], ['parseShellInput', [`#!${s}`]],
      ['looksLikeRowPrefix', [s]], ['parseRow', [s]], ['isGoIdentifier', [s]], ['goStringLiteral', [`"${s}"`]],
      ['scanGoDeclarations', [s]], ['shellQuote', [s]],
    );
  }
  return calls;
}

describe('core-v1 inside an isolated-vm isolate', () => {
  let code: string;

  before(async () => {
    // platform 'neutral' cannot resolve Node built-ins: a stray node: import fails the build.
    const r = await build({
      stdin: { contents: WRAPPER, resolveDir: 'isolates/core-v1', sourcefile: 'core-v1-test-entry.ts', loader: 'ts' },
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    code = r.outputFiles[0]!.text;
  });

  it('index.ts bundles to a self-contained ES module without imports or Node.js references', async () => {
    const r = await build({ entryPoints: ['isolates/core-v1/index.ts'], bundle: true, format: 'esm', platform: 'neutral', write: false, metafile: true, logLevel: 'silent' });
    const out = Object.values(r.metafile.outputs)[0]!;
    expect(out.imports).to.deep.equal([]);
    const text = r.outputFiles[0]!.text;
    for (const banned of ['require(', 'process.', 'Buffer', 'TextEncoder', 'TextDecoder', 'console.', 'Date.now', 'Math.random', 'setTimeout']) {
      expect(text.includes(banned), banned).to.equal(false);
    }
  });

  it('host and isolate give identical results (same semantics in host and plugin)', async () => {
    const ivm = (await import('isolated-vm')).default;
    const isolate = new ivm.Isolate({ memoryLimit: 32 });
    try {
      const ctx = await isolate.createContext();
      // The premise of utf8.ts: an isolate context has no TextEncoder/TextDecoder.
      expect(await ctx.eval('typeof TextEncoder + typeof TextDecoder + typeof Buffer', { copy: true })).to.equal('undefinedundefinedundefined');
      const mod = await isolate.compileModule(code);
      await mod.instantiate(ctx, () => {
        throw new Error('no imports');
      });
      await mod.evaluate();
      const ns = mod.namespace;
      expect(await ns.get('version', { copy: true })).to.equal('v1');
      const callJson = await ns.get('callJson', { reference: true });
      const calls = sampleCalls();
      for (const [name, args] of calls) {
        const json = JSON.stringify(args);
        const inside = (await callJson.apply(undefined, [name, json], { result: { copy: true } })) as string;
        const host = hostCallJson(name, json);
        if (inside !== host) expect.fail(`${name}(${json}): isolate ${inside} ≠ host ${host}`);
      }
      expect(calls.length).to.be.greaterThan(3000);
    } finally {
      isolate.dispose();
    }
  });
});
