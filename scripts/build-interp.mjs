// Builds the stand-alone interpreter for fast cold start:
//   dist/interp.cjs         one CJS bundle (our code + mvdan-sh inlined)
//   dist/interp-launch.cjs  tiny loader that runs the bundle through vm.Script with a V8 code
//                           cache (dist/interp.cjs.<node version>.cache, written on first run)
//   with --snapshot also dist/interp.blob, a user-land V8 startup snapshot with mvdan-sh
//                           loaded and warmed (tied to this exact node binary):
//                           node --snapshot-blob dist/interp.blob -- [interp args]
//                           (the `--` matters: node itself would take `-c`)
// Usage: node scripts/build-interp.mjs [--snapshot] && node dist/interp-launch.cjs -c 'echo hi'
import { build } from 'esbuild';
import { mkdir, writeFile, rm } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

await mkdir('dist', { recursive: true });
for (const f of readdirSync('dist')) if (/^interp\.cjs\..*\.cache$/.test(f)) await rm(`dist/${f}`);
await build({
  entryPoints: ['host/interp/bin.ts'],
  outfile: 'dist/interp.cjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'error',
  legalComments: 'none',
});
await writeFile('dist/interp-launch.cjs', `'use strict';
// Loads dist/interp.cjs with a V8 code cache keyed by the node version.
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const Module = require('module');
const file = path.join(__dirname, 'interp.cjs');
const cacheFile = file + '.' + process.version + '.cache';
const code = fs.readFileSync(file, 'utf8');
let cached;
try { cached = fs.readFileSync(cacheFile); } catch {}
const script = new vm.Script(Module.wrap(code), { filename: file, cachedData: cached, importModuleDynamically: undefined });
if (!cached || script.cachedDataRejected) {
  process.once('exit', () => { try { fs.writeFileSync(cacheFile + '.tmp', script.createCachedData()); fs.renameSync(cacheFile + '.tmp', cacheFile); } catch {} });
}
const m = { exports: {} };
script.runInThisContext().call(m.exports, m.exports, require, m, file, __dirname);
`);
console.log('built dist/interp.cjs and dist/interp-launch.cjs');

if (process.argv.includes('--snapshot')) {
  await build({
    entryPoints: ['host/interp/snapshot.ts'],
    outfile: 'dist/interp-snapshot.cjs',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'error',
    legalComments: 'none',
  });
  const r = spawnSync(process.execPath, ['--snapshot-blob', 'dist/interp.blob', '--build-snapshot', 'dist/interp-snapshot.cjs'], { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) { process.stderr.write(r.stderr); process.exit(1); }
  console.log('built dist/interp.blob');
}
