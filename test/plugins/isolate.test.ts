import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import * as core from '../../isolates/core-v1/index.ts';
import { bootstrapModuleSource, coreModuleSource } from '../../host/plugins/core-artifact.ts';
import { DEFAULT_LIMITS, PluginIsolate } from '../../host/plugins/isolate.ts';
import { PluginCallError, PluginLoadError } from '../../host/plugins/plugin-errors.ts';
import { fixture, load, loadError } from './isolation-fixtures.ts';


const CARRIERS = ['exec_command'] as const;

describe('plugin isolate: artifacts', () => {
  it('bundles hpatch:core/v1 and the bootstrap as self-contained ES modules', async () => {
    for (const text of [await coreModuleSource(), await bootstrapModuleSource()]) {
      expect(text).to.match(/^export \{/m);
      expect(text).not.to.match(/^\s*import\s/m);
    }
    expect(await coreModuleSource()).to.include('v1');
    // Cached per process: the same text, not a second build.
    expect(coreModuleSource()).to.equal(coreModuleSource());
  });

  it('has sensible default limits', () => {
    expect(DEFAULT_LIMITS).to.deep.equal({ memoryMb: 64, loadTimeoutMs: 2000, translateTimeoutMs: 250, executeTimeoutMs: 30000 });
  });
});

describe('plugin isolate: a valid declaration', () => {
  let plugin: PluginIsolate;
  before(async () => {
    plugin = await load('valid');
  });
  after(() => plugin.dispose());

  it('describes the declaration as plain data', () => {
    expect(plugin.file).to.equal(fixture('valid'));
    expect(plugin.description).to.deep.equal({
      apiVersion: 1,
      id: 'com.example.isolation.valid',
      version: '1.0.0',
      tools: [
        {
          spec: {
            type: 'custom',
            name: 'iso_words',
            description: 'Runs the words frontend with each word as one argument.',
            format: { type: 'grammar', syntax: 'regex', definition: '[a-z ]+' },
          },
          inputLimit: 4096,
          hasParse: true,
          hasTranslate: true,
          hasExecute: true,
        },
        {
          spec: { type: 'custom', name: 'iso_async', description: 'An executor that awaits.' },
          inputLimit: 100,
          hasParse: true,
          hasTranslate: true,
          hasExecute: true,
        },
      ],
    });
    expect(Object.isFrozen(plugin.description)).to.equal(true);
  });

  it('translates parsed input through ctx.exec', async () => {
    expect(await plugin.translate({ tool: 'iso_words', input: 'a b  c', carriers: CARRIERS, threadId: 't1' })).to.deep.equal({ kind: 'exec', argv: ['a', 'b', 'c'] });
  });

  it('passes the exec template and params through', async () => {
    expect(await plugin.translate({ tool: 'iso_words', input: 'template x y', carriers: CARRIERS, threadId: 't1' })).to.deep.equal({
      kind: 'exec',
      argv: ['x', 'y'],
      template: 'cd /tmp && {.}',
      params: { yield_time_ms: 1000, login: false },
    });
  });

  it('gives the translator the carriers and the thread id', async () => {
    expect(await plugin.translate({ tool: 'iso_words', input: 'context', carriers: ['code_mode_exec', 'exec_command'], threadId: 'thread-9' })).to.deep.equal({
      kind: 'exec',
      argv: ['thread-9', 'code_mode_exec', 'exec_command'],
    });
  });

  it('turns a parse error into a rejection', async () => {
    expect(await plugin.translate({ tool: 'iso_words', input: '   ', carriers: CARRIERS, threadId: 't' })).to.deep.equal({ kind: 'reject', message: 'expected at least one word' });
  });

  it('turns a translator { reject } into a rejection', async () => {
    expect(await plugin.translate({ tool: 'iso_words', input: 'reject too long', carriers: CARRIERS, threadId: 't' })).to.deep.equal({ kind: 'reject', message: 'rejected: too long' });
  });

  it('executes with argv, cwd and a synchronous readStdin read at most once', async () => {
    let reads = 0;
    const result = await plugin.execute({ tool: 'iso_words', argv: ['stdin', 'b'], cwd: '/work/x', readStdin: () => { reads++; return 'IN'; } });
    expect(result).to.deep.equal({ stdout: 'stdin,b|IN/IN|/work/x', stderr: 'note', status: 2 });
    expect(reads).to.equal(1);
  });

  it('does not read stdin unless the executor asks', async () => {
    let reads = 0;
    const result = await plugin.execute({ tool: 'iso_words', argv: [], cwd: '/', readStdin: () => { reads++; return ''; } });
    expect(result).to.deep.equal({ stdout: '||/', stderr: 'note', status: 0 });
    expect(reads).to.equal(0);
  });

  it('awaits an async executor and defaults stdout/stderr to empty', async () => {
    expect(await plugin.execute({ tool: 'iso_async', argv: ['a', 'b'], cwd: '/', readStdin: () => '' })).to.deep.equal({ stdout: 'A B', stderr: '', status: 0 });
  });

  it('serves concurrent calls', async () => {
    const inputs = Array.from({ length: 50 }, (_, i) => `w${'x'.repeat(i % 7)} y`);
    const answers = await Promise.all(inputs.map((input) => plugin.translate({ tool: 'iso_words', input, carriers: CARRIERS, threadId: 't' })));
    answers.forEach((a, i) => expect(a).to.deep.equal({ kind: 'exec', argv: (inputs[i] as string).split(' ') }));
  });

  it('fails a call for an undeclared tool with a protocol error', async () => {
    const err = await plugin.translate({ tool: 'nope', input: 'a', carriers: CARRIERS, threadId: 't' }).then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(PluginCallError);
    expect((err as PluginCallError).kind).to.equal('protocol');
    expect((err as PluginCallError).message).to.include(fixture('valid')).and.to.include('"nope"');
  });
});

describe('plugin isolate: hpatch:core/v1', () => {
  it('gives a plugin the same results as the host', async () => {
    const plugin = await load('uses-core');
    try {
      for (const text of ['hello', 'tab\there', 'ünïcödé ✓', '']) {
        const answer = await plugin.translate({ tool: 'iso_core', input: text, carriers: CARRIERS, threadId: 't' });
        expect(answer).to.deep.equal({
          kind: 'exec',
          argv: [core.version, core.rowHash(text), core.formatRow(7, text), String(core.logicalLineCount(text)), String(core.utf8ByteLength(text))],
        });
      }
    } finally {
      plugin.dispose();
    }
  });
});

describe('plugin isolate: description', () => {
  it('keeps undocumented fields and non-object tools for validation to reject', async () => {
    const plugin = await load('extra-fields');
    try {
      expect(plugin.description).to.deep.equal({
        apiVersion: 2,
        id: 'com.example.extra',
        version: '1',
        homepage: 'https://example.com',
        tools: [
          {
            spec: {
              type: 'custom',
              name: 'iso_extra',
              description: 'x',
              strict: true,
              format: { type: 'grammar', syntax: 'lark', definition: 'start: "a"', flags: ['x'] },
            },
            inputLimit: '10',
            priority: 5,
            hook: '[function]',
            // Class methods count; the missing execute is reported, not thrown.
            hasParse: true,
            hasTranslate: true,
            hasExecute: false,
          },
          'not a tool',
        ],
      });
    } finally {
      plugin.dispose();
    }
  });
});

describe('plugin isolate: load errors', () => {
  it('rejects a module without a default export', async () => {
    expect((await loadError('no-default')).message).to.match(/no default export/);
  });

  it('rejects a default export that is not an object', async () => {
    expect((await loadError('default-not-object')).message).to.equal('the default export must be a plugin declaration object, got a number');
  });

  it('reports a syntax error with its line and column', async () => {
    const err = await loadError('syntax-error');
    expect(err.message).to.match(/^SyntaxError: /);
    expect([err.line, err.column]).to.deep.equal([5, 12]);
  });

  it('reports an exception during evaluation with its line', async () => {
    const err = await loadError('throws-at-load');
    expect(err.message).to.match(/^evaluating the module failed: TypeError: .*tools/);
    expect(err.line).to.equal(4);
  });

  it('times out a module that never finishes evaluating', async () => {
    const file = fixture('loops-at-load');
    const err = await PluginIsolate.load({ file, source: readFileSync(file, 'utf8'), limits: { loadTimeoutMs: 100 } }).then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(PluginLoadError);
    expect((err as Error).message).to.equal('evaluating the module failed: timed out after 100 ms');
  });

  it('loads the same source under another file name independently', async () => {
    const source = readFileSync(fixture('valid'), 'utf8');
    const a = await PluginIsolate.load({ file: '/plugins/a.mjs', source });
    const b = await PluginIsolate.load({ file: '/plugins/b.mjs', source });
    try {
      expect(a.description).to.deep.equal(b.description);
      expect(b.file).to.equal('/plugins/b.mjs');
    } finally {
      a.dispose();
      b.dispose();
    }
  });
});

describe('plugin isolate: dispose', () => {
  it('fails every later call fast with kind disabled', async () => {
    const plugin = await load('valid');
    plugin.dispose();
    plugin.dispose();
    const err = await plugin.translate({ tool: 'iso_words', input: 'a', carriers: CARRIERS, threadId: 't' }).then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(PluginCallError);
    expect((err as PluginCallError).kind).to.equal('disabled');
    expect((err as PluginCallError).tool).to.equal('iso_words');
  });
});
