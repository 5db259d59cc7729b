// `bin/hpatch-router interp` (issue 4 cold start): the launcher starts the interpreter from the
// startup snapshot dist/interp.blob when its stamp matches this node binary, CPU and an empty
// NODE_OPTIONS, else from the code-cache bundle; both behave exactly like the CLI. Needs `make build`.
import { expect } from 'chai';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../support/codex-cli.ts';
import { ODD_ENTRIES, ODD_ENV, RAW_ENTRY, entriesOf, withRawEntry } from '../../support/odd-env.ts';
import { tempDir } from '../../support/temp-dir.ts';

const LAUNCHER = join(PROJECT_ROOT, 'bin', 'hpatch-router');
const DIST = join(PROJECT_ROOT, 'dist');
const baseEnv = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  delete env['GLIBC_TUNABLES'];
  return env;
};

function run(bin: string, args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): SpawnSyncReturns<string> {
  return spawnSync(bin, ['interp', ...args], { input: opts.input ?? '', encoding: 'utf8', timeout: 30_000, env: opts.env ?? baseEnv(), cwd: opts.cwd ?? PROJECT_ROOT });
}

/** How the launcher started node: the interpreter's own command line, read through /proc. */
function startedWith(bin: string, env?: NodeJS.ProcessEnv): string {
  return run(bin, ['-c', 'tr "\\0" " " </proc/$$/cmdline'], env ? { env } : {}).stdout;
}

/** A copy of the install layout under `root` (dist files symlinked, the stamp copied with its mtime). */
function layout(root: string, stamp?: (text: string) => string): string {
  mkdirSync(join(root, 'bin'), { recursive: true });
  mkdirSync(join(root, 'dist'));
  copyFileSync(LAUNCHER, join(root, 'bin', 'hpatch-router'));
  for (const f of ['interp.cjs', 'interp-launch.cjs', 'interp.blob']) symlinkSync(join(DIST, f), join(root, 'dist', f));
  const text = readFileSync(join(DIST, 'interp.blob.stamp'), 'utf8');
  writeFileSync(join(root, 'dist', 'interp.blob.stamp'), stamp ? stamp(text) : text);
  const t = spawnSync('touch', ['-r', join(DIST, 'interp.blob.stamp'), join(root, 'dist', 'interp.blob.stamp')]);
  expect(t.status).to.equal(0);
  return join(root, 'bin', 'hpatch-router');
}

describe('bin/hpatch-router interp (launcher)', function () {
  this.timeout(120_000);

  before(function () {
    if (!existsSync(join(DIST, 'interp-launch.cjs'))) throw new Error('dist/interp-launch.cjs is missing: run make build');
    // make build prints why when the snapshot could not be built; on this project's machines it must be.
    if (!existsSync(join(DIST, 'interp.blob')) || !existsSync(join(DIST, 'interp.blob.stamp'))) throw new Error('dist/interp.blob is missing: see the warning of scripts/build-interp.mjs');
  });

  it('starts from the startup snapshot, with the node binary that built it', () => {
    const stamp = readFileSync(join(DIST, 'interp.blob.stamp'), 'utf8').split('\n');
    expect(startedWith(LAUNCHER)).to.match(new RegExp(`^${stamp[0]} --no-rehash-snapshot --no-turbo-inlining --min-semi-space-size=8 --snapshot-blob \\S*/interp\\.blob -- -c `));
  });

  it('also through a symlink to the launcher (make install)', () => {
    const t = tempDir('launcher');
    try {
      symlinkSync(LAUNCHER, join(t.dir, 'hpatch-router'));
      expect(startedWith(join(t.dir, 'hpatch-router'))).to.contain(`--snapshot-blob ${DIST}/interp.blob -- `);
    } finally { t.cleanup(); }
  });

  it('keeps the CLI semantics: $0 and arguments, stdin, stdout and stderr, exit status, parse errors', () => {
    const r = run(LAUNCHER, ['-c', 'read -r l; echo "$0|$1|$#|$l"; cat; echo err >&2; exit 7', 'me', 'a b', 'c'], { input: 'one\ntwo\n' });
    expect([r.stdout, r.stderr, r.status]).to.deep.equal(['me|a b|2|one\ntwo\n', 'err\n', 7]);
    // the same as the code-cache bundle, case by case
    const cases: [string[], string][] = [
      [['-c', 'echo first\nif true; then echo x'], ''],
      [['--posix', '-c', 'echo ok; a=(1 2)'], ''],
      [['-e', '-c', 'false; echo no'], ''],
      [['-o', 'nosuchopt', '-c', ':'], ''],
      [['--', '-c'], ''],
      [[], 'echo from stdin $((6 * 7)) | tr a-z A-Z\n'],
      [['-c', "trap 'echo caught TERM' TERM; kill $$; echo after"], ''],
    ];
    for (const [args, input] of cases) {
      const a = run(LAUNCHER, args, { input });
      const b = spawnSync(process.execPath, [join(DIST, 'interp-launch.cjs'), ...args], { input, encoding: 'utf8', timeout: 30_000, env: baseEnv(), cwd: PROJECT_ROOT });
      expect([a.stdout, a.stderr, a.status], args.join(' ')).to.deep.equal([b.stdout, b.stderr, b.status]);
    }
  });

  it('writes what builtins hold back for an inherited pipe in order, before children, at the end and when killed', () => {
    // (io.ts holds small writes to a pipe: here fd 1 and 2 are two fds of one pipe to `cat`)
    const scripts = [
      'for i in $(seq 3000); do echo "o$i"; if [ $((i % 1000)) = 0 ]; then echo "e$i" >&2; /bin/echo "x$i"; fi; done; printf "end\\n"',
      'echo before; printf "%s\\n" two; kill -TERM $$; echo never',
      'f() { echo "in $1"; }; for i in 1 2 3; do f $i; done; exec >&-; echo closed 2>/dev/null; echo "st $?" >&2',
    ];
    for (const script of scripts) {
      const through = (shell: string): SpawnSyncReturns<string> =>
        spawnSync('bash', ['-c', `${shell} -c "$1" 2>&1 | cat; echo "status \${PIPESTATUS[0]}"`, 'sh', script], { encoding: 'utf8', timeout: 30_000, env: baseEnv() });
      const want = through('bash'), got = through(`'${LAUNCHER}' interp`);
      expect(got.stdout, script).to.equal(want.stdout);
    }
  });

  it('sees the same per-process state as the code-cache path (nothing frozen into the blob)', () => {
    const t = tempDir('launcher');
    try {
      const script = 'echo "$PWD|$HOME|$X|${#PATH}|$SHLVL|$(umask)|$BASHPID=$$|$PPID"; [ -t 0 ] && echo tty || echo notty; env | grep -c -e GLIBC_TUNABLES -e HPATCH_INTERP_TUNABLES';
      const env = { ...baseEnv(), X: 'from-env', HOME: t.dir };
      const snap = run(LAUNCHER, ['-c', script], { env, cwd: t.dir });
      const cc = spawnSync(process.execPath, [join(DIST, 'interp-launch.cjs'), '-c', script], { encoding: 'utf8', env, cwd: t.dir, input: '' });
      const strip = (s: string): string => s.replace(/\|\d+=\d+\|\d+\n/, '|PIDS\n');
      expect(snap.stdout).to.match(new RegExp(`^${t.dir}\\|${t.dir}\\|from-env\\|\\d+\\|\\d+\\|\\d+\\|(\\d+)=\\1\\|${process.pid}\\nnotty\\n0\\n$`));
      expect(strip(snap.stdout)).to.equal(strip(cc.stdout));
    } finally { t.cleanup(); }
  });

  // (pipes are anonymous through the posix_spawn addon: process substitution still needs a FIFO)
  it('makes its FIFOs in this run\'s TMPDIR and leaves nothing there (the build\'s warm-up pipes are not in the blob)', () => {
    const t = tempDir('launcher');
    try {
      const env = { ...baseEnv(), TMPDIR: t.dir };
      const script = 'x=$(echo a); y=$(cat <(echo b | { read -r l; echo "$l"; })); for d in "$TMPDIR"/hpatch-interp-*; do [ "$d" = "$TMPDIR/hpatch-interp-fifos-$UID" ] || echo "dir ${d#$TMPDIR/}"; done | wc -l; echo "$x$y"';
      const r = run(LAUNCHER, ['-c', script], { env });
      expect([r.stdout, r.stderr, r.status]).to.deep.equal(['1\nab\n', '', 0]);
      // the private FIFO directory is gone at exit: only the shared pool stays
      const left = spawnSync('sh', ['-c', 'ls -A "$1"', 'sh', t.dir], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
      expect(left.every((n) => /^hpatch-interp-fifos-\d+$/.test(n)), left.join(' ')).to.equal(true);
    } finally { t.cleanup(); }
  });

  it('parses most scripts without mvdan-sh and loads it from beside the blob for the others', () => {
    const t = tempDir('launcher');
    try {
      // without dist/mvdan-sh.js: what fast-parser.ts accepts still runs, the rest says what is missing
      const bare = layout(join(t.dir, 'bare'));
      const plain = 'f() { local x=$1; echo "${x:-none}" | tr a-z A-Z; }\nfor i in 1 2; do f "v$i"; done\ncat <<EOF\n$((6 * 7)) $(echo sub)\nEOF\n[[ -n $HOME ]] && echo ok';
      let r = run(bare, ['-c', plain]);
      expect([r.stdout, r.stderr, r.status]).to.deep.equal(['V1\nV2\n42 sub\nok\n', '', 0]);
      r = run(bare, ['-c', 'echo $[6 * 7]']); // `$[…]`: left to mvdan-sh on purpose
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.match(/^interp: cannot load the shell parser \S*\/bare\/dist\/mvdan-sh\.js \(ENOENT\): the install is incomplete/);
      expect(r.status).to.equal(70);
      // with it (a copy, no code cache yet): the script runs, and the first run writes the cache
      const full = layout(join(t.dir, 'full'));
      copyFileSync(join(DIST, 'mvdan-sh.js'), join(t.dir, 'full', 'dist', 'mvdan-sh.js'));
      const cache = join(t.dir, 'full', 'dist', `mvdan-sh.js.${process.version}.cache`);
      for (let round = 0; round < 2; round++) {
        r = run(full, ['-c', 'echo $[6 * 7]']);
        expect([r.stdout, r.stderr, r.status], `round ${round}`).to.deep.equal(['42\n', '', 0]);
        expect(existsSync(cache), `round ${round}`).to.equal(true);
      }
      // a damaged cache (V8 checks only its header, and would crash) is not used, and is rewritten
      const good = readFileSync(cache);
      const bad = Buffer.from(good);
      for (let i = 2000; i < bad.length; i += 4099) bad[i]! ^= 0x55;
      writeFileSync(cache, bad);
      r = run(full, ['-c', 'echo $[6 * 7]']);
      expect([r.stdout, r.stderr, r.status]).to.deep.equal(['42\n', '', 0]);
      expect(readFileSync(cache).equals(bad), 'rewritten').to.equal(false);
      // a syntax error loads mvdan-sh (the fast parser declines it); the lines before it run, as in bash
      r = run(full, ['-c', 'echo hi\necho ${', 'me']);
      expect([r.stdout, r.stderr, r.status]).to.deep.equal(['hi\n', "me: -c: line 2: unexpected EOF while looking for matching `}'\n", 2]);
    } finally { t.cleanup(); }
  });

  it('the code-cache fallback ignores a damaged cache and writes a sound one', () => {
    const t = tempDir('launcher');
    try {
      mkdirSync(join(t.dir, 'dist'));
      for (const f of ['interp.cjs', 'interp-launch.cjs']) copyFileSync(join(DIST, f), join(t.dir, 'dist', f));
      const cache = join(t.dir, 'dist', `interp.cjs.${process.version}.cache`);
      const launch = (): SpawnSyncReturns<string> => spawnSync(process.execPath, [join(t.dir, 'dist', 'interp-launch.cjs'), '-c', 'echo "$((6 * 7))"'], { encoding: 'utf8', timeout: 30_000, env: baseEnv() });
      expect(launch().stdout).to.equal('42\n');
      const good = readFileSync(cache);
      const bad = Buffer.from(good);
      for (let i = 2000; i < bad.length; i += 4099) bad[i]! ^= 0x55;
      writeFileSync(cache, bad);
      const r = launch();
      expect([r.stdout, r.stderr, r.status]).to.deep.equal(['42\n', '', 0]);
      expect(readFileSync(cache).equals(bad), 'rewritten').to.equal(false);
    } finally { t.cleanup(); }
  });

  it('keeps no variable of the build environment in the blob (mvdan-sh copies process.env at init)', () => {
    const path = process.env['PATH'];
    expect(path, 'PATH').to.be.a('string').and.have.length.above(4);
    expect(readFileSync(join(DIST, 'interp.blob')).includes(Buffer.from(path!))).to.equal(false);
  });

  it('passes the environment through unchanged: names that are not identifiers reach the interpreter, its commands and a child bash (REQ-SHELL-001 9)', () => {
    const t = tempDir('launcher');
    try {
      const link = join(t.dir, 'hpatch-router');
      symlinkSync(LAUNCHER, link);
      const script = 'tr "\\0" " " </proc/$$/cmdline; printf "\\0--\\0"; env -0; printf "\\0--\\0"; bash -c "f; printenv a.b x-y"';
      for (const [label, bin, env, start] of [
        ['startup snapshot', LAUNCHER, baseEnv(), / --snapshot-blob /],
        ['startup snapshot through a symlink', link, baseEnv(), / --snapshot-blob /],
        ['code-cache bundle', LAUNCHER, { ...baseEnv(), NODE_OPTIONS: '--no-warnings' }, / \S*\/interp-launch\.cjs -c /],
      ] as const) {
        const r = run(bin, ['-c', script], { env: { ...env, ...ODD_ENV } });
        expect(r.status, `${label}: ${r.stderr}`).to.equal(0);
        const [cmdline, dump, bash] = r.stdout.split('\0--\0');
        expect(cmdline, label).to.match(start);
        expect(entriesOf(dump!), label).to.include.members([...ODD_ENTRIES]);
        expect(bash, label).to.equal('hi\n1\n2\n');
      }
    } finally { t.cleanup(); }
  });

  it('hands node exactly the environment it was given, bytes that are not UTF-8 included, plus only its tunables', () => {
    // (what node started with is /proc/PID/environ; node's process.env itself cannot hold a name that is not UTF-8)
    const env = { ...baseEnv(), ...ODD_ENV };
    const given = (argv: string[]): string[] => {
      const [file, args] = withRawEntry(argv);
      const r = spawnSync(file, args, { env, encoding: 'latin1', timeout: 30_000, cwd: PROJECT_ROOT });
      expect(r.status, r.stderr).to.equal(0);
      return entriesOf(r.stdout);
    };
    const received = given(['env', '-0']);
    expect(received).to.include(RAW_ENTRY).and.include.members(ODD_ENTRIES.map((e) => Buffer.from(e).toString('latin1')));
    expect(given([LAUNCHER, 'interp', '-c', 'cat /proc/$$/environ'])).to.deep.equal([...received, 'GLIBC_TUNABLES=glibc.malloc.hugetlb=1', 'HPATCH_INTERP_TUNABLES=1']);
    // and the interpreter hands its commands those bytes (node's process.env would have dropped the
    // name and turned the value's byte into U+FFFD), without the tunables
    const child = given([LAUNCHER, 'interp', '-c', 'env -0']);
    expect(child).to.include(RAW_ENTRY).and.include.members(ODD_ENTRIES.map((e) => Buffer.from(e).toString('latin1')));
    expect(child.filter((e) => /^(GLIBC_TUNABLES|HPATCH_INTERP_TUNABLES)=/.test(e))).to.deep.equal([]);
    // the code-cache path (NODE_OPTIONS set) adds nothing
    env['NODE_OPTIONS'] = '--no-warnings';
    expect(given([LAUNCHER, 'interp', '-c', 'cat /proc/$$/environ'])).to.deep.equal(given(['env', '-0']));
  });

  it('prints no Perl locale warning when LANG or LC_ALL name a locale that is not installed, only bash\'s own; PERL_BADLANG passes through', () => {
    const t = tempDir('launcher');
    try {
      const link = join(t.dir, 'hpatch-router');
      symlinkSync(LAUNCHER, link);
      const script = 'echo "[${PERL_BADLANG-unset}] [${HPATCH_PERL_BADLANG-unset}]"';
      for (const bin of [LAUNCHER, link]) {
        for (const [extra, badlang] of [[{ LANG: 'xx_YY.UTF-8' }, 'unset'], [{ LANG: 'xx_YY.UTF-8', LC_ALL: 'zz_ZZ.UTF-8' }, 'unset'], [{ LC_ALL: 'zz_ZZ.UTF-8', PERL_BADLANG: '7' }, '7']] as const) {
          const env = { ...baseEnv(), ...extra };
          const r = run(bin, ['-c', script], { env });
          const bash = spawnSync('bash', ['-c', script], { encoding: 'utf8', env });
          expect(r.stderr, JSON.stringify(extra)).to.equal(bash.stderr);
          expect(r.stdout).to.equal(`[${badlang}] [unset]\n`);
        }
      }
    } finally { t.cleanup(); }
  });

  it('leaves a GLIBC_TUNABLES of the caller alone', () => {
    const r = run(LAUNCHER, ['-c', 'echo "$GLIBC_TUNABLES"; tr "\\0" " " </proc/$$/cmdline'], { env: { ...baseEnv(), GLIBC_TUNABLES: 'glibc.malloc.check=0' } });
    expect(r.stdout).to.match(/^glibc\.malloc\.check=0\n\S+ (\S+ )*--snapshot-blob /);
  });

  it('falls back to the code cache when NODE_OPTIONS is set, or the stamp does not match the node binary or CPU', () => {
    const t = tempDir('launcher');
    try {
      expect(startedWith(LAUNCHER, { ...baseEnv(), NODE_OPTIONS: '--no-warnings' })).to.match(/^\S*node --no-turbo-inlining --min-semi-space-size=8 \S*\/dist\/interp-launch\.cjs -c /);
      const same = layout(join(t.dir, 'same'));
      expect(startedWith(same)).to.contain(' --snapshot-blob ');
      const cpu = layout(join(t.dir, 'cpu'), (s) => s.replace(/\n[^\n]*\n$/, '\ncpu:type:other\n'));
      expect(startedWith(cpu)).to.match(/^\S*node --no-turbo-inlining --min-semi-space-size=8 \S*\/interp-launch\.cjs -c /);
      const node = layout(join(t.dir, 'node'), (s) => s.replace(/^[^\n]*/, '/nonexistent/node'));
      expect(startedWith(node)).to.match(/^\S*node --no-turbo-inlining --min-semi-space-size=8 \S*\/interp-launch\.cjs -c /);
      const stale = layout(join(t.dir, 'stale'));
      expect(spawnSync('touch', [join(t.dir, 'stale', 'dist', 'interp.blob.stamp')]).status).to.equal(0);
      expect(startedWith(stale)).to.match(/^\S*node --no-turbo-inlining --min-semi-space-size=8 \S*\/interp-launch\.cjs -c /);
      const r = run(stale, ['-c', 'echo "$0|$1"; exit 3', 'n', 'v']);
      expect([r.stdout, r.status]).to.deep.equal(['n|v\n', 3]);
    } finally { t.cleanup(); }
  });
});
