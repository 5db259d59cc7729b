// Entry for the V8 user-land startup snapshot (scripts/build-interp.mjs builds dist/interp.blob):
// mvdan-sh is loaded and warmed up at build time; the deserialized main runs the CLI.
// Nothing here may capture per-process state (env, cwd, pid, fds) at build time: it would be
// frozen into the blob.
import * as fs from 'node:fs';
import * as v8 from 'node:v8';
import { runInterpCli, runScript } from './cli.ts';
import { runShellWorker, SHELL_WORKER_FLAG } from '../../worker/shell-worker.ts';
import { mvdanLoaded, parse, setMvdanLoader } from '../syntax/parser.ts';
import { blobDir, loadMvdanBesideBlob } from './mvdan-lazy.ts';
import { findSpawnAddon, setSpawnAddon } from '../execution/native-spawn.ts';
import { resetPipesForSnapshot } from '../execution/io.ts';

// mvdan-sh stays out of the blob (the bundle has it as an external): fast-parser.ts parses the
// warm-up below, and a script it declines loads mvdan-sh from beside the blob.
setMvdanLoader(loadMvdanBesideBlob);
parse('echo warm | cat; x=$((1+2)); [[ a == b ]]', false);
parse('echo warm', true);

// A script through the interpreter, so the functions most scripts run (loops, expansions,
// builtins, functions) are compiled into the blob: a function that ran while the blob was built
// keeps its bytecode. No pipe, command substitution, here-string or external command: without the addon (a
// native module cannot be in the blob) they make FIFOs with mkfifo or spawn through
// child_process, and that module alone in the blob costs every start ~4% more instructions than
// the bytecode they would compile saves (the serialize callback checks; the build gives this an
// empty TMPDIR, so that a pipe fails it on every machine). No environment; its fds are forgotten
// before the blob is written.
const WARM_UP = `f() { local a=$1; case $a in a*) printf '%s\\n' "\${a#a}" ;; *) echo "$a" ;; esac; }
f abc; printf -v x '%s' abc; y=$x
for i in 1 2 3; do f "b$i"; [[ $i == 2 ]] && z=\${x//c/C}; (( i > 1 )) || w=\${#y}; done
n=0; while [ $n -lt 3 ]; do n=$((n + 1)); done; v=ext; set -- $v
while read -r a b; do :; done < /dev/null; echo "$x $y $z $w $n"
`;
const nul = fs.openSync('/dev/null', 'r+');
void runScript(Buffer.from(WARM_UP), { fds: { 0: nul, 1: nul, 2: nul }, env: {}, cwd: '/' }).finally(() => fs.closeSync(nul));
v8.startupSnapshot.addSerializeCallback(() => {
  resetPipesForSnapshot();
  if (mvdanLoaded()) throw new Error('the warm-up loaded mvdan-sh: fast-parser.ts must accept it');
  const loaded = (process as unknown as { moduleLoadList: string[] }).moduleLoadList;
  for (const m of ['child_process', 'vm', 'zlib', 'module']) {
    if (loaded.includes(`NativeModule ${m}`)) throw new Error(`the warm-up loaded node:${m}: load it on first use instead`);
  }
});

v8.startupSnapshot.setDeserializeMainFunction(() => {
  // bin/hpatch-router sets GLIBC_TUNABLES (huge pages for the blob's buffers) only when the caller
  // had none, and says so with HPATCH_INTERP_TUNABLES: neither reaches the script or its children.
  if (process.env['HPATCH_INTERP_TUNABLES'] !== undefined) {
    delete process.env['HPATCH_INTERP_TUNABLES'];
    if (process.env['GLIBC_TUNABLES'] === 'glibc.malloc.hugetlb=1') delete process.env['GLIBC_TUNABLES'];
  }
  // (the warm-up above spawned through libuv: a native module cannot be in the blob)
  setSpawnAddon(findSpawnAddon([blobDir()]));
  const args = process.argv.slice(1);
  (args[0] === SHELL_WORKER_FLAG ? runShellWorker(args.slice(1)) : runInterpCli(args)).then(
    (code) => process.exit(code),
    (e: unknown) => { process.stderr.write(`interp: ${(e as Error)?.stack ?? String(e)}\n`); process.exit(70); },
  );
});
