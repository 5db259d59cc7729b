// Entry for the V8 user-land startup snapshot (scripts/build-interp.mjs builds dist/interp.blob):
// mvdan-sh is loaded and warmed up at build time; the deserialized main runs the CLI.
// Nothing here may capture per-process state (env, cwd, pid, fds) at build time: it would be
// frozen into the blob.
import * as v8 from 'node:v8';
import { runInterpCli } from './cli.ts';
import { parse } from './parser.ts';

parse('echo warm | cat; x=$((1+2)); [[ a == b ]]', false);
parse('echo warm', true);
v8.startupSnapshot.setDeserializeMainFunction(() => {
  // bin/hpatch-router sets GLIBC_TUNABLES (huge pages for the blob's buffers) only when the caller
  // had none, and says so with HPATCH_INTERP_TUNABLES: neither reaches the script or its children.
  if (process.env['HPATCH_INTERP_TUNABLES'] !== undefined) {
    delete process.env['HPATCH_INTERP_TUNABLES'];
    if (process.env['GLIBC_TUNABLES'] === 'glibc.malloc.hugetlb=1') delete process.env['GLIBC_TUNABLES'];
  }
  runInterpCli(process.argv.slice(1)).then(
    (code) => process.exit(code),
    (e: unknown) => { process.stderr.write(`interp: ${(e as Error)?.stack ?? String(e)}\n`); process.exit(70); },
  );
});
