// Security tests of the plugin isolate: each one tries to break a rule of the sandbox and checks that
// the attempt fails with an attributed error while the router process (this mocha process) and the
// plugin's other calls carry on.
import { expect } from 'chai';
import { PluginIsolate } from '../../host/plugins/isolate.ts';
import { PluginCallError, type PluginCallFailure } from '../../host/plugins/plugin-errors.ts';
import { fixture, load, loadError } from './isolation-fixtures.ts';


const translate = (p: PluginIsolate, tool: string, input = 'x') => p.translate({ tool, input, carriers: ['exec_command'], threadId: 't' });
const execute = (p: PluginIsolate, tool: string, readStdin: () => string = () => 'STDIN') => p.execute({ tool, argv: ['a'], cwd: '/w', readStdin });

async function callError(call: Promise<unknown>, kind: PluginCallFailure, file: string, tool: string): Promise<PluginCallError> {
  const err = await call.then(() => undefined, (e: unknown) => e);
  expect(err, `expected a ${kind} failure`).to.be.instanceOf(PluginCallError);
  const e = err as PluginCallError;
  expect(e.kind, e.message).to.equal(kind);
  expect(e.pluginFile).to.equal(file);
  expect(e.tool).to.equal(tool);
  expect(e.message).to.include(file).and.to.include(`tool "${tool}"`);
  return e;
}

describe('plugin isolation: modules', () => {
  it('rejects a static import of node:fs', async () => {
    const err = await loadError('import-node-fs');
    expect(err.message).to.equal('import of "node:fs" is not allowed; a plugin can import only hpatch:core/v1');
    expect(err.line).to.equal(2);
  });

  it('rejects a static import of fs', async () => {
    expect((await loadError('import-bare-fs')).message).to.equal('import of "fs" is not allowed; a plugin can import only hpatch:core/v1');
  });

  it('rejects a relative import', async () => {
    expect((await loadError('import-relative')).message).to.equal('import of "./valid.mjs" is not allowed; a plugin can import only hpatch:core/v1');
  });

  it('rejects a remote import', async () => {
    expect((await loadError('import-url')).message).to.match(/^import of "https:\/\/example\.com\/plugin\.mjs" is not allowed/);
  });

  it('rejects an unknown hpatch: module', async () => {
    const err = await loadError('import-core-v2');
    expect(err.message).to.equal('unknown hpatch: module "hpatch:core/v2"; this router provides hpatch:core/v1');
    expect([err.line, err.column]).to.deep.equal([2, 25]);
  });

  it('fails a dynamic import at module evaluation', async () => {
    const err = await loadError('dynamic-import-top');
    expect(err.message).to.match(/Not supported/);
    expect(err.line).to.equal(2);
  });

  it('fails a dynamic import inside a call', async () => {
    const plugin = await load('hostile');
    try {
      const err = await callError(execute(plugin, 'exec_dynamic_import'), 'threw', fixture('hostile'), 'exec_dynamic_import');
      expect(err.message).to.match(/Not supported/);
    } finally {
      plugin.dispose();
    }
  });
});

describe('plugin isolation: globals', () => {
  let probe: PluginIsolate;
  before(async () => {
    probe = await load('probe');
  });
  after(() => probe.dispose());

  const evaluate = async (expr: string): Promise<string | undefined> => {
    const answer = await translate(probe, 'iso_probe', expr);
    expect(answer.kind).to.equal('exec');
    return answer.kind === 'exec' ? answer.argv[0] : undefined;
  };

  const absent = [
    'require', 'process', 'module', 'exports', '__dirname', 'global', 'Buffer', 'fetch', 'XMLHttpRequest', 'WebSocket',
    'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'clearTimeout',
    'WebAssembly', 'SharedArrayBuffer', 'Atomics', 'FinalizationRegistry', 'WeakRef',
  ];
  for (const name of absent) {
    it(`has no ${name}`, async () => {
      expect(await evaluate(`typeof ${name}`)).to.equal('undefined');
      expect(await evaluate(`typeof globalThis.${name}`)).to.equal('undefined');
    });
  }

  it('keeps eval, Function and the plain ECMAScript library', async () => {
    expect(await evaluate('[typeof eval, typeof Function, typeof JSON, typeof Math, typeof Intl, typeof Map].join()')).to.equal('function,function,object,object,object,function');
    expect(await evaluate('Function("return 6 * 7")()')).to.equal('42');
  });

  it('has a frozen global', async () => {
    expect(await evaluate('Object.isFrozen(globalThis)')).to.equal('true');
    expect(await evaluate('(() => { "use strict"; try { globalThis.leak = 1; return "written"; } catch (e) { return e.name; } })()')).to.equal('TypeError');
    expect(await evaluate('(globalThis.leak = 1, typeof globalThis.leak)')).to.equal('undefined');
    expect(await evaluate('(() => { try { Object.defineProperty(globalThis, "process", { value: 1 }); return "defined"; } catch (e) { return e.name; } })()')).to.equal('TypeError');
  });

  it('gives Function and constructor chains only the isolate global', async () => {
    expect(await evaluate('typeof Function("return this")().process')).to.equal('undefined');
    expect(await evaluate('({}).constructor.constructor("return typeof require + typeof process")()')).to.equal('undefinedundefined');
  });

  it('refuses a module written to add a global', async () => {
    expect((await loadError('global-write')).message).to.match(/TypeError: Cannot add property sneaky/);
  });

  it('does not reach the host through the readStdin capability or the errors it throws', async () => {
    const plugin = await load('hostile');
    try {
      expect(await execute(plugin, 'exec_escape')).to.deep.include({ stdout: 'undefined,undefined|no error' });
      const failing = (): string => { throw new Error('stdin is closed'); };
      expect(await execute(plugin, 'exec_escape', failing)).to.deep.include({ stdout: 'undefined,undefined|undefined' });
    } finally {
      plugin.dispose();
    }
  });

  it('revokes readStdin when the execute call ends', async () => {
    const plugin = await load('hostile');
    try {
      let reads = 0;
      expect(await execute(plugin, 'exec_keep_stdin', () => { reads++; return 'secret'; })).to.deep.include({ stdout: 'secret' });
      const err = await callError(translate(plugin, 'use_kept_stdin'), 'threw', fixture('hostile'), 'use_kept_stdin');
      expect(err.message).to.include('readStdin() is only available while execute() runs');
      expect(reads).to.equal(1);
    } finally {
      plugin.dispose();
    }
  });
});

describe('plugin isolation: prototype pollution', () => {
  it('stays inside the plugin isolate and does not subvert the bootstrap', async () => {
    const hostile = await load('hostile');
    const neighbour = await load('probe');
    try {
      // pollute sets Object.prototype.toJSON and an argv accessor, replaces JSON.stringify,
      // WeakMap.prototype.get and String.prototype.slice, then returns a genuine carrier.
      expect(await translate(hostile, 'pollute', 'real')).to.deep.equal({ kind: 'exec', argv: ['real'] });
      // The host realm is untouched.
      expect(({} as Record<string, unknown>)['polluted']).to.equal(undefined);
      expect(([] as unknown as Record<string, unknown>)['polluted']).to.equal(undefined);
      expect(JSON.stringify({ a: [1] })).to.equal('{"a":[1]}');
      // Another plugin's isolate is untouched.
      expect(await translate(neighbour, 'iso_probe', 'typeof ({}).polluted')).to.deep.equal({ kind: 'exec', argv: ['undefined'] });
      // The polluted isolate still answers exactly, and still refuses unbranded objects.
      expect(await translate(hostile, 'iso_ok', 'after')).to.deep.equal({ kind: 'exec', argv: ['after'] });
      await callError(translate(hostile, 'translate_lookalike'), 'protocol', fixture('hostile'), 'translate_lookalike');
      expect(await execute(hostile, 'iso_ok')).to.deep.equal({ stdout: 'a', stderr: '', status: 0 });
    } finally {
      hostile.dispose();
      neighbour.dispose();
    }
  });
});

describe('plugin isolation: translator protocol', () => {
  let plugin: PluginIsolate;
  const file = fixture('hostile');
  before(async () => {
    plugin = await load('hostile');
  });
  after(() => plugin.dispose());
  afterEach(async () => {
    // Every failure leaves the plugin's other tools working.
    expect(await translate(plugin, 'iso_ok', 'fine')).to.deep.equal({ kind: 'exec', argv: ['fine'] });
  });

  const cases: [tool: string, kind: PluginCallFailure, message: RegExp][] = [
    ['parse_throws', 'threw', /parse threw: RangeError: parse exploded \(at .*hostile\.mjs:\d+:\d+\)/],
    ['parse_garbage', 'protocol', /parse must return .*got a string/],
    ['parse_async', 'protocol', /parsers are synchronous/],
    ['parse_bad_error', 'protocol', /error is an object/],
    ['translate_throws', 'threw', /translate threw: TypeError: translator exploded/],
    ['translate_throws_string', 'threw', /translate threw: a bare string/],
    ['translate_garbage', 'protocol', /translate must return ctx\.exec\(argv, options\) or \{ reject: string \}, got a number/],
    ['translate_null', 'protocol', /got null/],
    ['translate_promise', 'protocol', /translate returned a Promise/],
    ['translate_lookalike', 'protocol', /an object that ctx\.exec did not make/],
    ['translate_frozen_lookalike', 'protocol', /an object that ctx\.exec did not make/],
    ['translate_envelope', 'protocol', /raw Responses items/],
    ['translate_bad_reject', 'protocol', /\{ reject \} with a number/],
    ['argv_not_string', 'protocol', /ctx\.exec: argv\[1\] must be a string, got a number/],
    ['argv_not_array', 'protocol', /ctx\.exec: argv must be an array of strings, got a string/],
    ['options_bad_template', 'protocol', /options\.template must be a string/],
    ['options_unknown', 'protocol', /unknown option "via"/],
    ['params_function', 'protocol', /options\.params\.f is a function/],
  ];
  for (const [tool, kind, message] of cases) {
    it(`${tool}: ${kind}`, async () => {
      const err = await callError(translate(plugin, tool), kind, file, tool);
      expect(err.message).to.match(message);
    });
  }

  it('bounds a rejection diagnostic to 2000 characters', async () => {
    const answer = await translate(plugin, 'long_reject');
    expect(answer.kind).to.equal('reject');
    expect(answer.kind === 'reject' && answer.message.length).to.equal(2000);
  });

  it('accepts a carrier after a caught ctx.exec violation', async () => {
    expect(await translate(plugin, 'argv_caught', 'ok')).to.deep.equal({ kind: 'exec', argv: ['ok'] });
  });

  it('refuses a carrier made in an earlier call', async () => {
    expect(await translate(plugin, 'stale_carrier')).to.deep.equal({ kind: 'exec', argv: ['first'] });
    const err = await callError(translate(plugin, 'stale_carrier'), 'protocol', file, 'stale_carrier');
    expect(err.message).to.match(/earlier call/);
  });

  it('returns a carrier exactly as ctx.exec made it, whatever the plugin does to it', async () => {
    expect(await translate(plugin, 'mutate_carrier', 'm')).to.deep.equal({ kind: 'exec', argv: ['m'] });
  });
});

describe('plugin isolation: executor protocol', () => {
  let plugin: PluginIsolate;
  const file = fixture('hostile');
  before(async () => {
    plugin = await load('hostile', { executeTimeoutMs: 150 });
  });
  after(() => plugin.dispose());
  afterEach(async () => {
    expect(await execute(plugin, 'iso_ok')).to.deep.equal({ stdout: 'a', stderr: '', status: 0 });
  });

  const cases: [tool: string, kind: PluginCallFailure, message: RegExp][] = [
    ['exec_throws', 'threw', /execute threw: Error: executor exploded/],
    ['exec_rejects', 'threw', /execute rejected: Error: async executor exploded/],
    ['exec_garbage', 'protocol', /stdout is a number/],
    ['exec_bad_status', 'protocol', /status is 256/],
    ['exec_no_status', 'protocol', /status is undefined/],
    ['exec_loop', 'timeout', /exceeded its time limit of 150 ms/],
    ['exec_microtask_spin', 'timeout', /exceeded its time limit of 150 ms/],
    ['exec_never', 'timeout', /did not settle within 150 ms/],
  ];
  for (const [tool, kind, message] of cases) {
    it(`${tool}: ${kind}`, async () => {
      const err = await callError(execute(plugin, tool), kind, file, tool);
      expect(err.message).to.match(message);
    });
  }
});

describe('plugin isolation: CPU time', () => {
  let plugin: PluginIsolate;
  const file = fixture('hostile');
  before(async () => {
    plugin = await load('hostile', { translateTimeoutMs: 100 });
  });
  after(() => plugin.dispose());

  for (const tool of ['loop_parse', 'loop_translate']) {
    it(`times out an infinite loop in ${tool.slice(5)}; the isolate survives and the next call works`, async () => {
      // stale_carrier keeps its first carrier in module state; afterwards it answers only protocol errors.
      await translate(plugin, 'stale_carrier').catch(() => undefined);
      const err = await callError(translate(plugin, tool, 'loop'), 'timeout', file, tool);
      expect(err.message).to.match(/exceeded its time limit of 100 ms/);
      expect(await translate(plugin, tool, 'fine')).to.deep.equal({ kind: 'exec', argv: ['fine'] });
      // The module state survived too: the isolate was not replaced.
      await callError(translate(plugin, 'stale_carrier'), 'protocol', file, 'stale_carrier');
    });
  }
});

describe('plugin isolation: memory', function () {
  this.timeout(30_000);
  const file = fixture('memory');
  const limits = { memoryMb: 16, translateTimeoutMs: 5000 };

  it('disposes an isolate that exhausts its memory and reloads it on the next call', async () => {
    const plugin = await load('memory', limits);
    try {
      const err = await callError(translate(plugin, 'iso_hog', 'hog'), 'memory', file, 'iso_hog');
      expect(err.message).to.match(/exceeded its memory limit of 16 MB/);
      expect(await translate(plugin, 'iso_hog', 'fine')).to.deep.equal({ kind: 'exec', argv: ['fine'] });
      expect(await translate(plugin, 'iso_calm', 'calm')).to.deep.equal({ kind: 'exec', argv: ['calm'] });
    } finally {
      plugin.dispose();
    }
  });

  it('disables a tool after three consecutive memory failures; its neighbours keep working', async () => {
    const plugin = await load('memory', limits);
    try {
      await callError(translate(plugin, 'iso_hog', 'hog'), 'memory', file, 'iso_hog');
      await callError(translate(plugin, 'iso_hog', 'hog'), 'memory', file, 'iso_hog');
      const third = await callError(translate(plugin, 'iso_hog', 'hog'), 'memory', file, 'iso_hog');
      expect(third.message).to.match(/the tool is now disabled/);
      const err = await callError(translate(plugin, 'iso_hog', 'fine'), 'disabled', file, 'iso_hog');
      expect(err.message).to.match(/the tool is disabled/);
      expect(await translate(plugin, 'iso_calm', 'calm')).to.deep.equal({ kind: 'exec', argv: ['calm'] });
    } finally {
      plugin.dispose();
    }
  });

  it('resets the count after a successful call', async () => {
    const plugin = await load('memory', limits);
    try {
      for (let i = 0; i < 2; i++) await callError(translate(plugin, 'iso_hog', 'hog'), 'memory', file, 'iso_hog');
      expect(await translate(plugin, 'iso_hog', 'fine')).to.deep.equal({ kind: 'exec', argv: ['fine'] });
      for (let i = 0; i < 2; i++) await callError(translate(plugin, 'iso_hog', 'hog'), 'memory', file, 'iso_hog');
      expect(await translate(plugin, 'iso_hog', 'fine')).to.deep.equal({ kind: 'exec', argv: ['fine'] });
    } finally {
      plugin.dispose();
    }
  });

  it('settles every concurrent call when the isolate dies under them and blames only the running call', async () => {
    const plugin = await load('memory', limits);
    try {
      for (let round = 0; round < 3; round++) {
        const calls = [translate(plugin, 'iso_hog', 'hog'), ...Array.from({ length: 5 }, (_, i) => translate(plugin, 'iso_calm', `c${i}`))];
        const [hog, ...calm] = await Promise.allSettled(calls);
        expect(hog?.status).to.equal('rejected');
        expect((hog as PromiseRejectedResult).reason).to.have.property('message').that.matches(/exceeded its memory limit/);
        for (const s of calm) {
          if (s.status === 'rejected') {
            expect((s.reason as PluginCallError).kind).to.equal('memory');
            expect((s.reason as PluginCallError).message).to.match(/during another call/);
          }
        }
      }
      // Three runs of the hog disabled it; the calm tool that merely queued behind it was not blamed.
      await callError(translate(plugin, 'iso_hog', 'b'), 'disabled', file, 'iso_hog');
      expect(await translate(plugin, 'iso_calm', 'a')).to.deep.equal({ kind: 'exec', argv: ['a'] });
    } finally {
      plugin.dispose();
    }
  });

  it('disables a plugin whose declaration changes on reload', async () => {
    const unstable = fixture('unstable-declaration');
    const plugin = await load('unstable-declaration', limits);
    try {
      await callError(translate(plugin, 'iso_unstable', 'hog'), 'memory', unstable, 'iso_unstable');
      const err = await callError(translate(plugin, 'iso_unstable', 'fine'), 'disabled', unstable, 'iso_unstable');
      expect(err.message).to.match(/declaration changed when it was reloaded/);
      await callError(translate(plugin, 'iso_unstable', 'fine'), 'disabled', unstable, 'iso_unstable');
    } finally {
      plugin.dispose();
    }
  });
});
