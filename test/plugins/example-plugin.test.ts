// The plugin guide's complete example (doc/plugins.md, fixtures/plugins/example): it type-checks
// against the SDK, compiles with the guide's command to the committed .mjs, and loads, validates,
// translates and executes through the real plugin host. Also: the SDK's core typings are current.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { build } from 'esbuild';
import { loadPlugins, disposeAll } from '../../host/plugins/load-plugins.ts';
import { PROJECT_ROOT } from '../support/codex-cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { formatRow } from '../../isolates/core-v1/index.ts';

const EXAMPLE = join(PROJECT_ROOT, 'fixtures', 'plugins', 'example');

describe('plugin guide example and SDK', function () {
  this.timeout(60_000);

  it('type-checks against the SDK (with hpatch:core/v1 typings)', () => {
    const program = ts.createProgram([join(EXAMPLE, 'src', 'plugin.ts')], {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
      strict: true, noEmit: true, types: [], skipLibCheck: false,
      baseUrl: PROJECT_ROOT,
      // As if `npm install /path/to/hpatch-router/sdk` had put the SDK into node_modules.
      paths: { '@hpatch-router/sdk': ['sdk/index.d.ts'], '@hpatch-router/sdk/core-v1/index.js': ['sdk/core-v1/index.d.ts'] },
    });
    const diagnostics = ts.getPreEmitDiagnostics(program);
    expect(ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => PROJECT_ROOT, getNewLine: () => '\n' })).to.equal('');
  });

  it('compiles with the guide\'s esbuild command to the committed dist/word-tools.mjs', async () => {
    const out = await build({ entryPoints: [join(EXAMPLE, 'src', 'plugin.ts')], bundle: true, format: 'esm', platform: 'neutral', external: ['hpatch:core/v1'], write: false, absWorkingDir: PROJECT_ROOT, logLevel: 'silent' });
    expect(out.outputFiles[0]!.text).to.equal(readFileSync(join(EXAMPLE, 'dist', 'word-tools.mjs'), 'utf8'));
  });

  it('loads, validates, translates and executes through the real plugin host', async () => {
    const dir = tempDir('example-plugin');
    try {
      cpSync(join(EXAMPLE, 'dist', 'word-tools.mjs'), join(dir.dir, 'word-tools.mjs'));
      const r = await loadPlugins({ dir: dir.dir, reservedNames: [] });
      if (!r.ok) throw new Error(JSON.stringify(r.problems));
      const [count, rows] = r.contributions;
      const ctx = { threadId: 't', callId: 'c', carriers: { exec_command: {}, primary: 'exec_command' as const } };
      expect(await count!.translate('error warning', ctx)).to.deep.equal({ kind: 'carrier', request: { kind: 'exec', command: { argv: ['count_words', 'error', 'warning'] } } });
      expect(await count!.translate('Error', ctx)).to.deep.equal({ kind: 'diagnostic', message: 'give lowercase words separated by single spaces' });
      expect(await rows!.translate("it's.txt 2-3", ctx)).to.deep.equal({ kind: 'carrier', request: { kind: 'exec', command: { argv: ['show_rows', '2', '3'] }, template: "cat -- 'it'\\''s.txt' | {.}" } });
      // The file name goes through core's shellQuote: `{.}` in it cannot add a placeholder, a NUL is refused.
      expect(await rows!.translate('a{.}$(x) 1', ctx)).to.deep.equal({ kind: 'carrier', request: { kind: 'exec', command: { argv: ['show_rows', '1', '1'] }, template: "cat -- 'a{'.'}$(x)' | {.}" } });
      expect(await rows!.translate('a\0b 1', ctx)).to.deep.equal({ kind: 'diagnostic', message: 'value contains NUL (U+0000) at offset 1; a NUL byte cannot be passed in a command argument' });
      const iso = r.isolates[0]!;
      const counted = await iso.execute({ tool: 'count_words', argv: ['error', 'ok'], cwd: '/', readStdin: () => 'Error: x\nok, error again\n' });
      expect(counted).to.deep.equal({ stdout: 'error 2\nok 1\n', stderr: '', status: 0 });
      const shown = await iso.execute({ tool: 'show_rows', argv: ['2', '3'], cwd: '/', readStdin: () => 'a\nb\r\nc\nd' });
      expect(shown).to.deep.equal({ stdout: `${formatRow(2, 'b')}\n${formatRow(3, 'c')}\n`, stderr: '', status: 0 });
      disposeAll(r.isolates);
    } finally {
      dir.cleanup();
    }
  });

  it('sdk/core-v1 typings match the hpatch:core/v1 source (regenerate with node scripts/build-sdk.mjs)', () => {
    const out = tempDir('sdk-typings');
    try {
      const r = spawnSync(process.execPath, ['scripts/build-sdk.mjs', out.dir], { cwd: PROJECT_ROOT, encoding: 'utf8' });
      expect(r.status, r.stderr).to.equal(0);
      const committed = join(PROJECT_ROOT, 'sdk', 'core-v1');
      expect(readdirSync(out.dir).sort()).to.deep.equal(readdirSync(committed).sort());
      for (const f of readdirSync(out.dir)) expect(readFileSync(join(out.dir, f), 'utf8'), f).to.equal(readFileSync(join(committed, f), 'utf8'));
    } finally {
      out.cleanup();
    }
  });
});
