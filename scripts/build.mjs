// Bundles the router CLI into dist/. Native and GopherJS dependencies stay external:
// they are loaded from node_modules at run time.
import { build } from 'esbuild';
import { mkdir, rm } from 'node:fs/promises';

const external = ['isolated-vm', '@lydell/node-pty', 'mvdan-sh', 'undici', 'rregex', 'ajv'];
// A clean dist/: stale chunks would be copied into every executor snapshot.
await rm('dist', { recursive: true, force: true });
await mkdir('dist', { recursive: true });
await build({
  entryPoints: { 'hpatch-router': 'host/cli/main.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  // Lazily imported roles (router, interpreter) become their own chunks, external imports included.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  external,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __hpatchCreateRequire } from 'node:module'; const require = __hpatchCreateRequire(import.meta.url);" },
});

// Code that runs inside plugin isolates: self-contained ES modules with no imports at all (the
// bootstrap and the virtual hpatch:core/v1). host/plugins/core-artifact.ts reads them from dist/ and
// bundles the same sources with the same options when it runs from TypeScript; keep both in sync.
await build({
  entryPoints: { 'core-v1': 'isolates/core-v1/index.ts', bootstrap: 'isolates/bootstrap.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'warning',
});

// The built-in shell tool's declaration (REQ-SHELL-001): a plugin module like any configured one,
// loaded by the router from plugins/shell.mjs through the plugin host (host/shell/builtin-shell.ts).
await build({
  entryPoints: ['plugins/shell.ts'],
  outfile: 'plugins/shell.mjs',
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  external: ['hpatch:core/v1'],
  legalComments: 'none',
  logLevel: 'warning',
});
