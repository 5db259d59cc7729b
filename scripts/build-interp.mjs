// Builds the stand-alone interpreter for a fast cold start of `bin/hpatch-router interp` (issue 4):
//   dist/interp.cjs          one CJS bundle (our code + mvdan-sh inlined), whitespace/syntax-minified
//                            and pure ASCII (V8 keeps a source with any non-ASCII char as UTF-16,
//                            which doubled the startup snapshot)
//   dist/interp-launch.cjs   tiny loader (host/interp/launch/launch.ts) that runs the bundle through vm.Script
//                            with a V8 code cache (dist/interp.cjs.<node version>.cache, code-cache.ts)
//   dist/interp.blob         user-land V8 startup snapshot: our modules loaded and warmed, without
//                            mvdan-sh (host/interp/syntax/fast-parser.ts parses most scripts); tied to this
//                            exact node binary and CPU
//   dist/mvdan-sh.js         mvdan-sh for the scripts the fast parser declines, loaded by the blob's
//                            process through a V8 code cache (dist/mvdan-sh.js.<node version>.cache)
//   dist/interp-spawn.node   native addon (host/interp/execution/native/posix-spawn.cc, N-API) that starts
//                            external commands through posix_spawn instead of libuv's fork; built
//                            with the C++ compiler against node's own headers, left out with a
//                            warning when that fails (external commands then go through libuv)
//   dist/interp.blob.stamp   what the launcher checks before using the blob: line 1 the node binary
//                            (process.execPath), line 2 /sys/devices/system/cpu/modalias; its mtime
//                            is the node binary's (`touch -r`)
// The launcher (bin/hpatch-router) runs `<node> --snapshot-blob dist/interp.blob -- ARGS` when the
// stamp matches, else `node dist/interp-launch.cjs ARGS`. A snapshot that fails to build or to run
// is left out with a warning: the build never fails because of it.
// Usage: node scripts/build-interp.mjs [--no-snapshot]   (`--snapshot` is accepted, it is the default)
import { build } from 'esbuild';
import { mkdir, writeFile, rm, rename, mkdtemp, readFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

const BLOB = 'dist/interp.blob';
const MVDAN = 'dist/mvdan-sh.js';
const SPAWN_ADDON = 'dist/interp-spawn.node';
// V8 flags the blob is built and run with (bin/hpatch-router passes the same; they are part of the
// blob's identity). --no-rehash-snapshot keeps the hash seed the builder drew at random instead of
// drawing a new one and rehashing every string and dictionary at each start (~5 ms): the seed is
// secret per build rather than per process, which is fine for an interpreter running its caller's
// scripts. --no-turbo-inlining: with inlining, Turbofan takes 15-40 ms per hot interpreter function
// (stmtSync, paramSync, forClause...) on its background thread, so a short script's loop runs
// unoptimized most of its life; without, those compile in a few ms each (loops of a few thousand
// iterations ~10-20% faster, long ones no slower: test/bench/RESULTS.md). --min-semi-space-size=8:
// the young generation starts at 8 MB instead of growing from 1 MB through scavenges, which cost a
// loop's first thousands of iterations ~3% of their instructions; a start is unchanged.
const SNAPSHOT_V8_FLAGS = ['--no-rehash-snapshot', '--no-turbo-inlining', '--min-semi-space-size=8'];
const STAMP = 'dist/interp.blob.stamp';
const bundleOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'error',
  legalComments: 'none',
  // Smaller source, no comments (the one non-ASCII comment made V8 store the whole 3 MB source as
  // UTF-16). Identifiers stay readable for stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  charset: 'ascii',
};

await mkdir('dist', { recursive: true });
// The stamp goes first: a launcher never pairs an old stamp with a new blob.
await rm(STAMP, { force: true });
await rm(BLOB, { force: true });
await rm('dist/interp-snapshot.cjs', { force: true }); // left by older builds
for (const f of readdirSync('dist')) if (/^(interp\.cjs|mvdan-sh\.js)\..*\.cache$/.test(f)) await rm(`dist/${f}`);
{
  const why = buildSpawnAddon();
  if (why) console.warn(`warning: no ${SPAWN_ADDON} (${why}); external commands start through libuv's fork`);
  else console.log(`built ${SPAWN_ADDON}`);
}
await build({ ...bundleOptions, entryPoints: ['host/interp/launch/bin.ts'], outfile: 'dist/interp.cjs' });
warnIfNotAscii('dist/interp.cjs');
await build({ ...bundleOptions, entryPoints: ['host/interp/launch/launch.ts'], outfile: 'dist/interp-launch.cjs' });
warnIfNotAscii('dist/interp-launch.cjs');
// Write the code cache now: an installed dist/ is usually not writable by the users of the fallback.
const warm = spawnSync(process.execPath, ['dist/interp-launch.cjs', '-c', 'f() { case $1 in a*) echo "${1#a}" ;; esac; }; f ab >/dev/null'], { stdio: 'ignore', timeout: 60_000 });
if (warm.status !== 0) console.warn(`warning: dist/interp-launch.cjs did not run (status ${warm.status})`);
console.log('built dist/interp.cjs and dist/interp-launch.cjs');

if (!process.argv.includes('--no-snapshot')) {
  const why = await buildSnapshot();
  if (why) console.warn(`warning: no interpreter startup snapshot (${why}); \`hpatch-router interp\` starts through the code cache`);
  else console.log(`built ${BLOB} (for ${process.execPath} ${process.version})`);
}

function warnIfNotAscii(file) {
  const b = readFileSync(file);
  const i = b.findIndex((c) => c > 0x7f);
  if (i >= 0) console.warn(`warning: ${file} has a non-ASCII byte at ${i}: V8 will keep its source as UTF-16`);
}

/** Compiles the posix_spawn addon against this node's headers and loads it once; returns why not, or undefined. */
function buildSpawnAddon() {
  const out = `${SPAWN_ADDON}.tmp-${process.pid}`;
  const include = join(dirname(process.execPath), '..', 'include', 'node');
  if (!existsSync(join(include, 'node_api.h'))) { rmSync(SPAWN_ADDON, { force: true }); return `no node headers in ${include}`; }
  const cxx = process.env.CXX || 'g++';
  const c = spawnSync(cxx, ['-O2', '-Wall', '-shared', '-fPIC', '-std=c++17', '-I', include, 'host/interp/execution/native/posix-spawn.cc', '-o', out], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  if (c.status !== 0) { rmSync(out, { force: true }); rmSync(SPAWN_ADDON, { force: true }); return `${cxx} failed: ${c.error?.message ?? ''}${c.stderr}`.trim(); }
  const t = spawnSync(process.execPath, ['-e', 'const m = { exports: {} }; process.dlopen(m, process.argv[1]); process.exit(m.exports.supported() ? 0 : 3)', join(process.cwd(), out)], { encoding: 'utf8' });
  if (t.status !== 0) { rmSync(out, { force: true }); rmSync(SPAWN_ADDON, { force: true }); return t.status === 3 ? 'this kernel has no pidfd_open' : `it does not load: ${t.stderr}`.trim(); }
  renameSync(out, SPAWN_ADDON);
  return undefined;
}

/** Builds, smoke-tests and installs the blob and its stamp; returns why not, or undefined. */
async function buildSnapshot() {
  if (/\n/.test(process.execPath)) return 'the node path has a newline';
  const tmp = await mkdtemp(join(tmpdir(), 'hpatch-interp-snapshot-'));
  try {
    const entry = join(tmp, 'interp-snapshot.cjs');
    await build({ ...bundleOptions, entryPoints: ['host/interp/launch/snapshot.ts'], outfile: entry, external: ['mvdan-sh'] });
    await writeFile(MVDAN, await readFile(createRequire(import.meta.url).resolve('mvdan-sh')));
    warnIfNotAscii(MVDAN);
    // V8 flags are part of the blob's identity: no NODE_OPTIONS (the launcher takes this path only
    // when it is empty). An empty environment: mvdan-sh's Go runtime copies process.env when it
    // initializes, and the blob must not keep the build's variables (tokens…) for every user.
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const blob = `${BLOB}.tmp-${process.pid}`;
    // (TMPDIR: an empty directory of its own, so that a warm-up that made a pipe would need mkfifo,
    // and so child_process, on every machine alike, and fail the serialize callback's check)
    const b = spawnSync(process.execPath, [...SNAPSHOT_V8_FLAGS, '--snapshot-blob', blob, '--build-snapshot', entry], { env: { TMPDIR: tmp }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
    if (b.status !== 0) {
      await rm(blob, { force: true });
      return `node --build-snapshot failed: ${b.error?.message ?? ''}${b.stderr}${b.stdout}`.trim();
    }
    // Run it the way the launcher does (minus the stamp check) before anyone can use it.
    const t = spawnSync(process.execPath, [...SNAPSHOT_V8_FLAGS, '--snapshot-blob', blob, '--', '-c', 'echo "$((6 * 7))" "$1"', 'name', 'arg'], {
      env: { ...env, GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1', HPATCH_INTERP_TUNABLES: '1' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000,
    });
    if (t.status !== 0 || t.stdout !== '42 arg\n') {
      await rm(blob, { force: true });
      return `smoke test failed (status ${t.status}): ${t.error?.message ?? ''}${t.stderr}${t.stdout}`.trim();
    }
    // A script the fast parser declines (`$[…]` is left to mvdan-sh on purpose): loads mvdan-sh
    // beside the blob and writes its code cache.
    const lazy = spawnSync(process.execPath, [...SNAPSHOT_V8_FLAGS, '--snapshot-blob', blob, '--', '-c', 'echo $[6 * 7]'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    if (lazy.status !== 0 || lazy.stdout !== '42\n') {
      await rm(blob, { force: true });
      return `smoke test of the mvdan-sh fallback failed (status ${lazy.status}): ${lazy.error?.message ?? ''}${lazy.stderr}${lazy.stdout}`.trim();
    }
    await rename(blob, BLOB);
    let cpu = '';
    try { cpu = (await readFile('/sys/devices/system/cpu/modalias', 'latin1')).split('\n')[0]; } catch { /* no such file: nothing to compare */ }
    const stamp = `${STAMP}.tmp-${process.pid}`;
    await writeFile(stamp, `${process.execPath}\n${cpu}\n`);
    // The launcher compares the node binary's mtime with the stamp's (sh's -nt/-ot, nanoseconds).
    const touch = spawnSync('touch', ['-r', process.execPath, stamp], { encoding: 'utf8' });
    if (touch.status !== 0) {
      await rm(stamp, { force: true });
      await rm(BLOB, { force: true });
      return `touch -r failed: ${touch.error?.message ?? touch.stderr}`;
    }
    await rename(stamp, STAMP);
    return undefined;
  } catch (e) {
    await rm(BLOB, { force: true });
    return String(e?.message ?? e);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
