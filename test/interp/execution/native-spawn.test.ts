// External commands through the posix_spawn addon (host/interp/execution/native/posix-spawn.cc), and through
// libuv's fork when the addon is missing: both against bash.
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expectSameAsBash, runInterp, freshDir } from '../harness.ts';
import { findSpawnAddon, setSpawnAddon, spawnAddon } from '../../../host/interp/execution/native-spawn.ts';

const built = findSpawnAddon([path.resolve('dist')]);

// what both ways of starting a command must do like bash
const both: Record<string, string> = {
  'argv, exit status, PATH search': `ls /nonexistent-dir; echo "st=$?"; sh -c 'echo "$0|$1|$#"; exit 7' zero 'one two'; echo "st=$?"`,
  'stdin, stdout and stderr of a child, and fds above 2': `echo in | tr a-z A-Z; exec 3>&1; sh -c 'echo via3 >&3; echo err >&2' 2>/dev/null; exec 3>&-`,
  'swapped fds: no dup2 clobbers a source another target needs': `{ sh -c 'echo out; echo err >&2' 3>&1 1>&2 2>&3; } 2>&1 | sed 's/^/piped: /'`,
  'cwd and the exported environment (with _ last, as bash)': `cd /tmp && /bin/pwd; export V1=one; V2=two env | grep -E '^V[12]=' | sort; env | tail -n 1`,
  'a #! script run through a relative path sees it as $0': `printf '#!/bin/sh\\necho "script $0 $1"\\n' >s; chmod +x s; ./s arg; mkdir -p d; cd d; ../s up`,
  'not executable, not found, a directory': `touch f; ./f; echo "st=$?"; ./missing; echo "st=$?"; mkdir -p dd; ./dd; echo "st=$?"; nosuchcmd_x; echo "st=$?"`,
  'a command killed by a signal has status 128+n': `{ sh -c 'kill -USR1 $$'; } 2>/dev/null; echo "st=$?"; (sh -c 'kill -TERM $$'); echo "st=$?"`,
  'many children at once are all reaped': `for i in $(seq 40); do sh -c "exit $((i % 5))" & p[i]=$!; done; n=0; for i in $(seq 40); do wait "\${p[i]}"; n=$((n + $?)); done; echo "sum=$n"`,
  'background external job and $!': `sleep 0.05 & p=$!; wait $p; echo "st=$? $([ "$p" -gt 0 ] && echo pid)"`,
};
// only the addon does these like bash: libuv opens /dev/null on a closed fd 0-2, and Node
// re-encodes argv and env as UTF-8
const nativeOnly: Record<string, string> = {
  'a closed stdin or stdout stays closed in the child': `exec 0<&-; cat; echo "st=$?"; (exec >&-; /bin/echo x; echo "st=$?" >&2) 2>&1`,
  'argv, env and cwd bytes that are not UTF-8 pass through exactly': `x=$(printf 'a\\377b'); /usr/bin/printf '%s' "$x" | od -An -c; X=$x /usr/bin/env | grep '^X=' | od -An -c; d=$(printf 'd\\376'); mkdir "$d"; cd "$d"; /bin/pwd | od -An -c | sed 's#^.*/##'`,
};

const sameAsBash = (name: string, script: string): Promise<void> => expectSameAsBash({ name, script: script + '\n', stderr: true, file: 'native-spawn' });

describe('interp external commands', function () {
  this.timeout(20000);
  after(() => setSpawnAddon(built));

  it('`make build` built the posix_spawn addon, and it loads here (pidfds)', () => {
    expect(built, 'dist/interp-spawn.node').to.be.a('string');
    setSpawnAddon(built);
    expect(spawnAddon()).to.not.equal(null);
  });

  // (not bash's way, which only makes groups under job control: the interpreter's own, so that
  // cancellation reaches a command's descendants; libuv's `detached` is a new session too)
  const groups = `sh -c 'ps -o pid=,pgid=,sid= -p $$' | awk '{ print ($1 == $2 && $2 == $3) ? "own session and group" : "shared" }'`;

  describe('through posix_spawn', () => {
    before(() => setSpawnAddon(built));
    it('each command leads its own session and process group', async () => {
      const d = freshDir();
      try { expect((await runInterp({ name: 'groups', script: groups, file: 'native-spawn' }, d)).stdout).to.equal('own session and group\n'); } finally { fs.rmSync(d, { recursive: true, force: true }); }
    });
    for (const [name, script] of Object.entries({ ...both, ...nativeOnly })) it(name, () => sameAsBash(name, script));
    it('a spawn error leaves no process or fd behind', async () => {
      const fds = fs.readdirSync('/proc/self/fd').length;
      await sameAsBash('errors', `for i in 1 2 3 4 5; do ./nope$i; done 2>/dev/null; echo "st=$?"`);
      expect(fs.readdirSync('/proc/self/fd').length).to.equal(fds);
    });
  });

  describe("through libuv's fork (no addon)", () => {
    before(() => setSpawnAddon(undefined));
    it('the addon is not used', () => expect(spawnAddon()).to.equal(null));
    it('each command leads its own session and process group', async () => {
      const d = freshDir();
      try { expect((await runInterp({ name: 'groups', script: groups, file: 'native-spawn' }, d)).stdout).to.equal('own session and group\n'); } finally { fs.rmSync(d, { recursive: true, force: true }); }
    });
    for (const [name, script] of Object.entries(both)) it(name, () => sameAsBash(name, script));
  });
});
