// Bundles the router CLI into dist/. Native and GopherJS dependencies stay external:
// they are loaded from node_modules at run time.
import { build } from 'esbuild';
import { mkdir } from 'node:fs/promises';

const external = ['isolated-vm', '@lydell/node-pty', 'mvdan-sh', 'undici'];
await mkdir('dist', { recursive: true });
await build({
  entryPoints: { 'hpatch-router': 'host/cli/main.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  external,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __hpatchCreateRequire } from 'node:module'; const require = __hpatchCreateRequire(import.meta.url);" },
});
