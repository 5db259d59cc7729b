// Packs the plugin SDK (`npm pack`) for installs without a source checkout: `plugins new` projects
// depend on the tarball. The package is sdk/ plus dist/core-v1.mjs, the router's own bundle of
// hpatch:core/v1, so a plugin's tests run against the core the isolates run (run scripts/build.mjs
// first). `node scripts/pack-sdk.mjs OUTDIR` → OUTDIR/hpatch-router-sdk-<version>.tgz.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const outDir = process.argv[2];
if (!outDir) {
  console.error('usage: node scripts/pack-sdk.mjs OUTDIR');
  process.exit(2);
}
const stage = mkdtempSync(join(tmpdir(), 'hpatch-sdk-'));
try {
  cpSync('sdk', stage, { recursive: true });
  copyFileSync('dist/core-v1.mjs', join(stage, 'core-v1.mjs'));
  mkdirSync(resolve(outDir), { recursive: true });
  // --ignore-scripts: the SDK has none, and packing must not run anything from the environment's npmrc.
  const r = spawnSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', resolve(outDir)], { cwd: stage, encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(r.stderr || r.stdout || `npm pack exited ${r.status}`);
    process.exit(1);
  }
  process.stdout.write(`packed ${join(resolve(outDir), r.stdout.trim())}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
