// `hpatch-router plugins new NAME`: a TypeScript plugin project that builds, tests and validates
// with the SDK as its one hpatch dependency. The SDK is this install's packed tarball (make install
// writes it, with the hpatch:core/v1 runtime the project's tests import), so no source checkout is needed.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot, versionLine } from './version.ts';
import { PLUGINS_USAGE } from './plugins-usage.ts';

const NAME = /^[a-z][a-z0-9-]{0,39}$/;

/** Pinned to the versions the router itself builds and tests with (test/cli/plugins-new.test.ts checks they agree). */
export const SCAFFOLD_DEV_DEPENDENCIES = { esbuild: '0.28.2', typescript: '5.9.3' } as const;

export async function runPluginsNew(args: readonly string[]): Promise<number> {
  let values: { sdk?: string; help?: boolean; version?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: { sdk: { type: 'string' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } },
      strict: true,
      allowPositionals: true,
    }));
  } catch (e) {
    return fail(2, (e as Error).message);
  }
  if (values.help) return print(PLUGINS_USAGE);
  if (values.version) return print(versionLine());
  if (positionals.length !== 1) return fail(2, `plugins new takes one NAME, got ${positionals.length}`);
  const name = positionals[0]!;
  if (!NAME.test(name)) return fail(2, `NAME ${JSON.stringify(name)} must match ${NAME.source} (it names the directory, the package, the plugin id and the tool)`);
  const sdk = values.sdk ?? packedSdk();
  if (sdk === null) return fail(1, `no packed SDK in ${join(packageRoot().dir, 'sdk')} (make install writes it); pass --sdk with a tarball, directory or npm spec`);
  const dir = resolve(name);
  if (existsSync(dir)) return fail(1, `${dir} already exists; nothing was written`);

  const files = scaffoldFiles(name, sdk);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text, { flag: 'wx' });
  }
  process.stdout.write(`created ${dir} (plugin ${pluginId(name)}, tool ${toolName(name)})\nnext:\n  cd ${name}\n  npm install\n  npm run build && npm test && npm run validate\n`);
  return 0;
}

/** `file:` spec of the SDK tarball beside this install, or null when there is none. */
function packedSdk(): string | null {
  const dir = join(packageRoot().dir, 'sdk');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  const tarball = names.filter((n) => /^hpatch-router-sdk-.*\.tgz$/.test(n)).sort().at(-1);
  return tarball === undefined ? null : `file:${join(dir, tarball)}`;
}

const pluginId = (name: string): string => `local.${name}`;
const toolName = (name: string): string => `${name.replaceAll('-', '_')}_lines`;

export function scaffoldFiles(name: string, sdk: string): Record<string, string> {
  const tool = toolName(name);
  const out = `dist/${name}.mjs`;
  const pkg = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    description: `hpatch-router plugin ${pluginId(name)}`,
    scripts: {
      build: `esbuild src/plugin.ts --bundle --format=esm --platform=neutral --external:hpatch:core/v1 --outfile=${out}`,
      typecheck: 'tsc --noEmit',
      // The test runs the plugin against the real hpatch:core/v1 (the SDK ships the router's bundle of it).
      test: 'esbuild test/plugin.test.ts --bundle --format=esm --platform=node --alias:hpatch:core/v1=@hpatch-router/sdk/core-v1.mjs --outfile=.test/plugin.test.mjs --log-level=warning && node --test .test/plugin.test.mjs',
      validate: `hpatch-router plugins validate ${out}`,
    },
    devDependencies: { '@hpatch-router/sdk': sdk, ...SCAFFOLD_DEV_DEPENDENCIES },
  };
  const tsconfig = {
    compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, types: ['@hpatch-router/sdk'] },
    include: ['src'],
  };
  return {
    'package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(tsconfig, null, 2)}\n`,
    '.gitignore': 'node_modules/\ndist/\n.test/\n',
    'README.md': readme(name, tool, out),
    'src/plugin.ts': pluginSource(name, tool),
    'test/plugin.test.ts': testSource(tool),
  };
}

function readme(name: string, tool: string, out: string): string {
  return `# ${name}

An hpatch-router tool plugin (apiVersion 1): the tool \`${tool}\` counts the
lines of a file. Guide: hpatch-router's doc/plugins.md; core helpers: doc/core-v1.md.

\`\`\`sh
npm install
npm run build && npm test && npm run validate     # ${out}, its test, the router's startup check
mkdir -p ~/.config/hpatch/plugins && cp ${out} ~/.config/hpatch/plugins/
hpatch-router plugins list                        # the tools the router will expose
\`\`\`
`;
}

function pluginSource(name: string, tool: string): string {
  return `// ${pluginId(name)}: an hpatch-router plugin (apiVersion 1) with one tool.
//   ${tool}  counts the lines of one file (regex grammar: one path)
import type { PluginDeclaration, ToolDeclaration } from '@hpatch-router/sdk';
import { logicalLineCount, shellQuote } from 'hpatch:core/v1';

interface Request {
  readonly path: string;
}

const countLines: ToolDeclaration<Request> = {
  spec: {
    type: 'custom',
    name: '${tool}',
    description: 'Counts the lines of one file. Input: the file path, e.g. \`src/main.ts\`.',
    format: { type: 'grammar', syntax: 'regex', definition: '[^\\\\n]+' },
  },
  inputLimit: 4096,
  parse(input) {
    const path = input.trim();
    return path === '' ? { ok: false, error: 'give one file path' } : { ok: true, value: { path } };
  },
  translate(req, ctx) {
    // The file reaches the executor on standard input. Its path is model input: quoted with core's
    // shellQuote, exactly as the exec wrapper quotes argv, never by hand.
    const file = shellQuote(req.path);
    if (!file.ok) return { reject: file.error };
    return ctx.exec([], { template: \`cat -- \${file.quoted} | {.}\` });
  },
  execute(ctx) {
    return { stdout: \`\${logicalLineCount(ctx.readStdin())}\\n\`, status: 0 };
  },
};

const plugin: PluginDeclaration = {
  apiVersion: 1,
  id: '${pluginId(name)}',
  version: '0.1.0',
  tools: [countLines],
};
export default plugin;
`;
}

function testSource(tool: string): string {
  return `// The tool's parse, translate and execute, run against the real hpatch:core/v1 (npm test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import plugin from '../src/plugin.ts';

const tool = plugin.tools.find((t) => t.spec.name === '${tool}')!;
// Records what translate asks the exec wrapper for.
const ctx = { carriers: ['exec_command'], exec: (argv: string[], options?: object) => ({ argv, ...options }) } as any;

test('parse takes one path and rejects an empty one', () => {
  assert.deepEqual(tool.parse(' src/a b.ts\\n'), { ok: true, value: { path: 'src/a b.ts' } });
  assert.equal(tool.parse('  ').ok, false);
});

test('translate feeds the file to the frontend, its path quoted as one shell word', () => {
  assert.deepEqual(tool.translate({ path: "it's $(here).txt" }, ctx), { argv: [], template: "cat -- 'it'\\\\''s $(here).txt' | {.}" });
  assert.deepEqual(tool.translate({ path: 'bad\\u0000name' }, ctx).reject !== undefined, true);
});

test('execute counts logical lines of standard input', async () => {
  const run = (stdin: string) => tool.execute({ argv: [], cwd: '/', readStdin: () => stdin } as any);
  assert.deepEqual(await run('a\\nb\\n'), { stdout: '2\\n', status: 0 });
  assert.deepEqual(await run('a\\nb'), { stdout: '2\\n', status: 0 });
  assert.deepEqual(await run(''), { stdout: '0\\n', status: 0 });
});
`;
}

function print(text: string): number {
  process.stdout.write(text);
  return 0;
}

function fail(code: 1 | 2, message: string): number {
  process.stderr.write(`hpatch-router plugins new: ${message}\n${code === 2 ? `\n${PLUGINS_USAGE}` : ''}`);
  return code;
}
