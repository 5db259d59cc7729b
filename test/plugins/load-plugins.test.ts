// loadPlugins on real fixture declarations through the real isolate host: discovery, loading,
// validation of the whole registry, and the Contribution each valid tool becomes.
import { expect } from 'chai';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { disposeAll, loadPlugins, type LoadPluginsResult } from '../../host/plugins/load-plugins.ts';
import { formatPluginProblem } from '../../host/plugins/validate.ts';
import type { Contribution, TranslateContext } from '../../host/registry/contribution.ts';
import { FIXTURES } from '../support/fixtures.ts';
import { tempDir } from '../support/temp-dir.ts';

export const VALID = join(FIXTURES, 'plugins', 'valid');
export const BROKEN = (name: string): string => join(FIXTURES, 'plugins', 'broken', name);

const NATIVE: TranslateContext = { threadId: 't-1', callId: 'c-1', carriers: { exec_command: {}, primary: 'exec_command' } };

type Ok = Extract<LoadPluginsResult, { ok: true }>;

async function loadOk(dir: string, reservedNames: string[] = []): Promise<Ok> {
  const r = await loadPlugins({ dir, reservedNames });
  if (!r.ok) expect.fail(`expected the plugins to load:\n${r.problems.map(formatPluginProblem).join('\n')}`);
  return r;
}

async function problemsOf(dir: string, reservedNames: string[] = []): Promise<string[]> {
  const r = await loadPlugins({ dir, reservedNames });
  if (r.ok) {
    disposeAll(r.isolates);
    expect.fail(`expected problems in ${dir}`);
  }
  // Relative to the case directory, so expectations read like the fixture listing.
  return r.problems.map((p) => formatPluginProblem({ ...p, file: p.file.startsWith(`${dir}/`) ? p.file.slice(dir.length + 1) : p.file }));
}

describe('loadPlugins (real fixtures, real isolates)', function () {
  this.timeout(60_000);

  describe('valid declarations', () => {
    let loaded: Ok;
    const tool = (name: string): Contribution => loaded.contributions.find((c) => c.name === name)!;
    before(async () => (loaded = await loadOk(VALID)));
    after(() => disposeAll(loaded?.isolates ?? []));

    it('loads every declaration in filename order, one isolate each', () => {
      expect(loaded.plugins.map((p) => [p.id, p.version, p.tools])).to.deep.equal([
        ['test.text-echo', '1.0.0', ['text_echo', 'templated_echo']],
        ['test.lark-sum', '0.1.0', ['lark_sum']],
        ['test.regex-ticket', '2.3.4', ['ticket_open']],
        ['test.core-rows', '1.0.0', ['core_rows']],
        ['test.misbehaving', '1.0.0', ['raw_carrier', 'two_placeholders', 'long_reject', 'throws_always']],
      ]);
      expect(loaded.isolates).to.have.length(5);
      expect(loaded.contributions.map((c) => c.name)).to.deep.equal(loaded.plugins.flatMap((p) => p.tools));
      expect(tool('lark_sum').source).to.deep.equal({ kind: 'plugin', pluginId: 'test.lark-sum', file: join(VALID, '20-lark-sum.mjs') });
    });

    it('toolSpec is the declared custom-tool object exactly, deep-frozen', () => {
      const ctx = { shape: 'native', execParamsShape: null } as const;
      const lark = tool('lark_sum').toolSpec(ctx);
      const grammar = /const GRAMMAR = `([^`]*)`/.exec(readFileSync(join(VALID, '20-lark-sum.mjs'), 'utf8'))![1];
      expect(JSON.stringify(lark)).to.equal(JSON.stringify({
        type: 'custom',
        name: 'lark_sum',
        description: 'Adds numbers: write them separated by "+".',
        format: { type: 'grammar', syntax: 'lark', definition: grammar },
      }));
      expect(tool('ticket_open').toolSpec(ctx)).to.deep.equal({
        type: 'custom', name: 'ticket_open', description: 'Opens a ticket by key, e.g. HP-42.',
        format: { type: 'grammar', syntax: 'regex', definition: '^[A-Z]{2,10}-[0-9]{1,6}$' },
      });
      expect(tool('text_echo').toolSpec(ctx)).to.deep.equal({ type: 'custom', name: 'text_echo', description: 'Prints each input line as one argument.' });
      expect(Object.isFrozen(lark) && Object.isFrozen(lark.format)).to.equal(true);
      expect(tool('lark_sum').toolSpec({ shape: 'code_mode', execParamsShape: '{ workdir?: string }' })).to.equal(lark);
    });

    it('translates to an exec request whose worker command is the tool basename followed by the parsed argv', async () => {
      expect(await tool('text_echo').translate('a b\nc', NATIVE)).to.deep.equal({ kind: 'carrier', request: { kind: 'exec', command: { argv: ['text_echo', 'a b', 'c'] } } });
      expect(await tool('lark_sum').translate('1 + 22 + 3.5', NATIVE)).to.deep.equal({ kind: 'carrier', request: { kind: 'exec', command: { argv: ['lark_sum', '1', '22', '3.5'] } } });
      expect(await tool('templated_echo').translate('x', NATIVE)).to.deep.equal({
        kind: 'carrier',
        request: { kind: 'exec', command: { argv: ['templated_echo', 'x'] }, template: 'cd /tmp && {.}', params: { yield_time_ms: 1000 } },
      });
    });

    it('model-input rejections and over-limit input become diagnostics (the plugin never sees over-limit input)', async () => {
      expect(await tool('ticket_open').translate('nope', NATIVE)).to.deep.equal({ kind: 'diagnostic', message: 'expected a ticket key like HP-42' });
      // long_reject rejects everything with 20000 x's: the router's own message proves its parser did not run.
      expect(await tool('long_reject').translate('é'.repeat(9), NATIVE)).to.deep.equal({ kind: 'diagnostic', message: 'input is 18 bytes of UTF-8; this tool accepts at most 16' });
      // Within the limit the plugin answers, and its 20000-character rejection arrives bounded.
      const within = await tool('long_reject').translate('é'.repeat(8), NATIVE);
      if (within.kind !== 'diagnostic') expect.fail(JSON.stringify(within));
      expect(within.message).to.match(/^x+…?$/);
      expect(within.message.length).to.be.within(1000, 4000);
    });

    it('a throwing or protocol-violating translator fails the call with the plugin file and tool named', async () => {
      for (const name of ['throws_always', 'raw_carrier']) {
        let err: unknown;
        try {
          await tool(name).translate('x', NATIVE);
        } catch (e) {
          err = e;
        }
        expect(err, name).to.be.instanceOf(Error);
        expect((err as Error).message).to.contain(join(VALID, '90-misbehaving.mjs')).and.contain(name);
      }
    });
  });

  it('a missing or empty plugin directory loads nothing', async () => {
    const tmp = tempDir('plugins-empty');
    try {
      for (const dir of [join(tmp.dir, 'missing'), tmp.dir]) {
        const r = await loadOk(dir);
        expect([r.contributions, r.isolates, r.plugins]).to.deep.equal([[], [], []]);
      }
    } finally {
      tmp.cleanup();
    }
  });

  describe('broken declarations: every rule reports every problem with file, tool and position', () => {
    it('schema', async () => {
      expect(await problemsOf(BROKEN('schema'))).to.deep.equal([
        'a-undocumented-fields.mjs: the declaration: unsupported property "homepage"',
        'a-undocumented-fields.mjs: tool "undocumented": spec: unsupported property "strict" (undocumented custom-tool fields are not supported)',
        'b-bad-identity.mjs: id "Broken_ID" is invalid: it must match ^[a-z0-9][a-z0-9.-]{0,63}$',
        'b-bad-identity.mjs: version must not be shorter than 1 character',
        'c-no-tools.mjs: tools must have at least 1 item',
        'd-text-format.mjs: tool "text_format": format {"type":"text"} is not supported: omit format for unconstrained text',
        'e-bad-spec.mjs: tool "json_tool": spec.type must be "custom" (got "function")',
        'e-bad-spec.mjs: tool "has-hyphen": spec.name "has-hyphen" is invalid: it must match ^[A-Za-z_][A-Za-z0-9_]{0,63}$',
        'e-bad-spec.mjs: tool "has-hyphen": spec.description must not be shorter than 1 character',
        'e-bad-spec.mjs: tool "ebnf_tool": spec.format.syntax must be one of "lark", "regex" (got "ebnf")',
      ]);
    });

    it('API version', async () => {
      expect(await problemsOf(BROKEN('api-version'))).to.deep.equal([
        'v2.mjs: apiVersion 2 is not supported (this router supports 1)',
        'w-missing.mjs: the declaration: missing required property "apiVersion"',
      ]);
    });

    it('identity', async () => {
      expect(await problemsOf(BROKEN('identity'))).to.deep.equal([`b-same-id.mjs: plugin id "broken.same-id" is also declared by ${join(BROKEN('identity'), 'a-same-id.mjs')}`]);
    });

    it('duplicate names across plugins, within a plugin, and against built-ins', async () => {
      const dir = BROKEN('duplicate-names');
      expect(await problemsOf(dir, ['lint'])).to.deep.equal([
        'a-first.mjs: tool "lint": tool name "lint" is already a built-in tool',
        'a-first.mjs: tool "fmt": tool name "fmt" is declared twice in this plugin',
        'b-second.mjs: tool "lint": tool name "lint" is already a built-in tool',
      ]);
      expect(await problemsOf(dir)).to.deep.equal([
        'a-first.mjs: tool "fmt": tool name "fmt" is declared twice in this plugin',
        `b-second.mjs: tool "lint": tool name "lint" is also declared by plugin "broken.dup-first" (${join(dir, 'a-first.mjs')})`,
      ]);
    });

    it('shell keywords, builtins and reserved names', async () => {
      expect(await problemsOf(BROKEN('reserved-names'))).to.deep.equal([
        'reserved.mjs: tool "if": tool name "if" is a Bash keyword, so its frontend would never run',
        'reserved.mjs: tool "cd": tool name "cd" is a Bash builtin, so its frontend would never run',
        'reserved.mjs: tool "printf": tool name "printf" is a Bash builtin, so its frontend would never run',
        'reserved.mjs: tool "hpatch": tool name "hpatch" is reserved by the router\'s built-in tools',
        'reserved.mjs: tool "hread": tool name "hread" is reserved by the router\'s built-in tools',
        'reserved.mjs: tool "exec_command": tool name "exec_command" is reserved by Codex',
      ]);
    });

    it('input limits', async () => {
      expect(await problemsOf(BROKEN('input-limit'))).to.deep.equal([
        'limits.mjs: tool "zero_limit": inputLimit 0 is out of range: it must be >= 1',
        'limits.mjs: tool "huge_limit": inputLimit 131072 is out of range: it must be <= 131071 (the most one executor argument holds is 131071 bytes)',
        'limits.mjs: tool "fractional_limit": inputLimit must be an integer (got a number)',
      ]);
    });

    it('parser, translator and implementation presence', async () => {
      expect(await problemsOf(BROKEN('missing-parts'))).to.deep.equal([
        'missing.mjs: tool "no_parser": has no input parser (parse)',
        'missing.mjs: tool "no_translator": has no translator (translate)',
        'missing.mjs: tool "no_executor": has no executor implementation (execute)',
      ]);
    });

    it('grammars: Lark subset and Rust regex, with line:column inside the definition', async () => {
      expect(await problemsOf(BROKEN('grammar'))).to.deep.equal([
        'lark.mjs: tool "lark_bad": grammar 3:5: terminal priorities are not supported: `WORD.2`',
        'lark.mjs: tool "lark_bad": grammar 4:13: invalid regex: look-around, including look-ahead and look-behind, is not supported',
        'lark.mjs: tool "lark_bad": grammar 5:1: `%declare` is not supported',
        'lark.mjs: tool "lark_bad": grammar 6:1: `%import mylib.TOKEN` is not supported: only `%import common.NAME` imports are available',
        'regex.mjs: tool "regex_lookahead": grammar 1:4: invalid regex: look-around, including look-ahead and look-behind, is not supported',
        'regex.mjs: tool "regex_lazy": grammar 1:2: lazy quantifier `+?` is not supported (OpenAI grammars support greedy quantifiers only)',
        'regex.mjs: tool "regex_unclosed": grammar 1:1: invalid regex: unclosed group',
      ]);
    });

    it('load errors: compile errors with their position, Node imports, unknown hpatch: modules, evaluation errors', async () => {
      const problems = await problemsOf(BROKEN('load-errors'));
      expect(problems).to.have.length(5);
      expect(problems[0]).to.match(/^a-syntax-error\.mjs:4(:\d+)?: /);
      expect(problems[1]).to.match(/^b-node-import\.mjs(:\d+(:\d+)?)?: .*node:fs/);
      expect(problems[2]).to.match(/^c-unknown-core-version\.mjs(:\d+(:\d+)?)?: .*hpatch:core\/v2/);
      expect(problems[3]).to.match(/^d-throws-at-load\.mjs(:\d+(:\d+)?)?: .*this plugin refuses to load/);
      expect(problems[4]).to.match(/^e-no-default-export\.mjs(:\d+(:\d+)?)?: .*default/);
    });
  });

  it('entries that are not declarations are skipped silently, even in a broken directory', async () => {
    const tmp = tempDir('plugins-many');
    try {
      cpSync(BROKEN('many'), tmp.dir, { recursive: true });
      const { mkdirSync, symlinkSync } = await import('node:fs');
      mkdirSync(join(tmp.dir, 'x.mjs'));
      symlinkSync(join(tmp.dir, '40-load-error.mjs'), join(tmp.dir, 'y.mjs'));
      const problems = await problemsOf(tmp.dir);
      expect(problems.join('\n')).to.not.match(/README|x\.mjs|y\.mjs/);
      expect(problems.map((p) => p.split(':')[0])).to.deep.equal([
        '20-grammar-and-limit.mjs', '20-grammar-and-limit.mjs',
        '30-duplicate.mjs', '30-duplicate.mjs',
        '40-load-error.mjs',
        '50-api-version.mjs',
        '60-missing-translator.mjs', '60-missing-translator.mjs',
      ]);
    } finally {
      tmp.cleanup();
    }
  });
});
