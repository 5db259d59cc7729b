// The installed `shell` locator (bin/shell, REQ-SHELL-001 acceptance 11 and 17): it validates
// CODEX_THREAD_ID before touching anything, computes the runtime base exactly as the router does,
// follows only <base>/hpatch-<thread>/.runtime to a snapshot's shell wrapper, and replaces itself
// with it — argv and the environment unchanged, names that are not identifiers included.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runtimeBasePath } from '../../host/runtime/runtime-base.ts';
import { PROJECT_ROOT } from '../support/codex-cli.ts';
import { ODD_ENV, RAW_ENTRY, entriesOf, withRawEntry } from '../support/odd-env.ts';
import { installShellWrapper } from '../support/shell-wrapper.ts';
import { tempDir } from '../support/temp-dir.ts';

const LOCATOR = join(PROJECT_ROOT, 'bin', 'shell');
const HASH = 'ab'.repeat(32);
// Stands for the snapshot's shell wrapper: prints its $0, argv and environment, NUL-separated.
const FAKE_WORKER = '#!/usr/bin/perl\nprint join("\\0", $0, @ARGV), "\\n"; print map { "$_=$ENV{$_}\\0" } sort keys %ENV;\n';

describe('REQ-SHELL-001: the shell locator (bin/shell)', function () {
  this.timeout(20_000);
  let tmp: { dir: string; cleanup: () => void };
  let base: string;
  let worker: string;

  beforeEach(() => {
    tmp = tempDir('shell-locator');
    base = join(tmp.dir, 'base');
    worker = join(base, 'snapshots', HASH, 'runtime', 'bin', 'shell-worker');
    mkdirSync(join(base, 'snapshots', HASH, 'runtime', 'bin'), { recursive: true, mode: 0o700 });
    chmodSync(base, 0o700);
    writeFileSync(worker, FAKE_WORKER, { mode: 0o700 });
    mkdirSync(join(base, 'hpatch-t1'), { mode: 0o700 });
    symlinkSync(worker, join(base, 'hpatch-t1', '.runtime'));
  });
  afterEach(() => tmp.cleanup());

  function locate(env: Record<string, string>, args: string[] = ['python3', 'print(1)\n']) {
    return spawnSync(LOCATOR, args, { env, encoding: 'utf8' });
  }
  const minimal = (extra: Record<string, string> = {}): Record<string, string> => ({ PATH: process.env['PATH']!, HPATCH_RUNTIME_DIR: base, CODEX_THREAD_ID: 't1', ...extra });

  it('replaces itself with the thread\'s wrapper: argv exact, environment exact (exported functions and odd names included)', () => {
    const env = minimal({ 'BASH_FUNC_greet%%': '() {  echo hi\n}', 'odd-name': 'v', 'a.b-c': 'x', EMPTY: '', ...ODD_ENV });
    const body = "line 1\n  'quoted' \"$x\" \\\n\ttab\n";
    const r = locate(env, ['python3', '-u', body]);
    expect(r.status, r.stderr).to.equal(0);
    const [argvLine, envText] = [r.stdout.slice(0, r.stdout.indexOf('\n', r.stdout.indexOf(body) + body.length)), r.stdout.slice(r.stdout.indexOf(body) + body.length + 1)];
    expect(argvLine.split('\0')).to.deep.equal([worker, 'python3', '-u', body]);
    const got = Object.fromEntries(envText.split('\0').filter((e) => e !== '').map((e) => [e.slice(0, e.indexOf('=', 1)), e.slice(e.indexOf('=', 1) + 1)]));
    // (plus the two entries the shebang's env(1) adds so that Perl never warns about the locale;
    // the real worker takes them out again, see below)
    expect(got).to.deep.equal({ ...env, PERL_BADLANG: '0', HPATCH_PERL_BADLANG: '' });
    // bytes that are not UTF-8, in a name and a value
    const [file, args] = withRawEntry([LOCATOR, 'python3', body]);
    const raw = spawnSync(file, args, { env, encoding: 'latin1' });
    expect(raw.status, raw.stderr).to.equal(0);
    expect(entriesOf(raw.stdout.slice(raw.stdout.indexOf(body) + body.length + 1))).to.include(RAW_ENTRY);
  });

  it('with the real worker: no Perl locale warning when LANG names a locale that is not installed (only the shell\'s own), and the caller\'s PERL_BADLANG (or its absence) comes back', () => {
    const hash = 'cd'.repeat(32);
    installShellWrapper(join(base, 'snapshots', hash));
    mkdirSync(join(base, 'hpatch-t3'), { mode: 0o700 });
    symlinkSync(join(base, 'snapshots', hash, 'runtime', 'bin', 'shell-worker'), join(base, 'hpatch-t3', '.runtime'));
    const env = minimal({ CODEX_THREAD_ID: 't3', LANG: 'xx_YY.UTF-8', LC_ALL: 'zz_QQ.UTF-8' });
    // (bash in-process, dash exec'd by the worker)
    for (const argv of [['bash', 'env -0'], ['dash', 'env -0']]) {
      for (const given of [{}, { PERL_BADLANG: '1' }] as Record<string, string>[]) {
        const r = locate({ ...env, ...given }, argv);
        // (what the shell itself says of such a locale, as bash 5.2 and dash do, and nothing from Perl)
        const own = argv[0] === 'bash' ? 'bash: warning: setlocale: LC_ALL: cannot change locale (zz_QQ.UTF-8)\n' : '';
        expect([r.stderr, r.status], argv[0]).to.deep.equal([own, 0]);
        const names = entriesOf(r.stdout).map((e) => e.slice(0, e.indexOf('=')));
        expect(names, argv[0]).to.not.include('HPATCH_PERL_BADLANG');
        expect(entriesOf(r.stdout).filter((e) => e.startsWith('PERL_BADLANG=')), argv[0]).to.deep.equal('PERL_BADLANG' in given ? ['PERL_BADLANG=1'] : []);
      }
    }
  });

  for (const [label, env, re] of [
    ['CODEX_THREAD_ID unset', { CODEX_THREAD_ID: '' }, /CODEX_THREAD_ID is not set/],
    ['a traversing thread id', { CODEX_THREAD_ID: '../hpatch-t1' }, /not a safe thread id/],
    ['a thread id with a slash', { CODEX_THREAD_ID: 'a/b' }, /not a safe thread id/],
    ['a dot thread id', { CODEX_THREAD_ID: '.' }, /not a safe thread id/],
    ['a thread nobody serves', { CODEX_THREAD_ID: 't2' }, /no hpatch-router serves thread t2/],
    ['a relative runtime dir', { HPATCH_RUNTIME_DIR: 'rel/base' }, /must be an absolute path/],
  ] as const) {
    it(`refuses ${label} with status 126 and creates nothing`, () => {
      const before = readdirSync(base).sort();
      const r = locate({ ...minimal(), ...env });
      expect(r.status).to.equal(126);
      expect(r.stderr).to.match(re).and.to.match(/^shell: not executed: /);
      expect(r.stdout).to.equal('');
      expect(readdirSync(base).sort()).to.deep.equal(before);
    });
  }

  it('follows .runtime only to a snapshot shell wrapper under its own base', () => {
    for (const target of ['/bin/echo', join(base, 'snapshots', HASH, 'runtime', 'bin', 'hpatch-router'), join(base, 'snapshots', 'x', 'runtime', 'bin', 'shell-worker'), `${base}/../base/snapshots/${HASH}/runtime/bin/shell-worker`]) {
      mkdirSync(join(base, 'hpatch-t3'), { mode: 0o700, recursive: true });
      spawnSync('ln', ['-sfn', target, join(base, 'hpatch-t3', '.runtime')]);
      const r = locate(minimal({ CODEX_THREAD_ID: 't3' }));
      expect(r.status, target).to.equal(126);
      expect(r.stderr).to.match(/does not point to a router snapshot's shell wrapper/);
    }
  });

  it('refuses an unsafe base, a symlinked thread directory and a .runtime that is not a link', () => {
    chmodSync(base, 0o750);
    expect(locate(minimal()).stderr).to.match(/unsafe runtime directory: .* group\/other access/);
    chmodSync(base, 0o700);
    symlinkSync(join(base, 'hpatch-t1'), join(base, 'hpatch-t4'));
    expect(locate(minimal({ CODEX_THREAD_ID: 't4' })).stderr).to.match(/no hpatch-router serves thread t4 \(.* is a symlink\)/);
    mkdirSync(join(base, 'hpatch-t5'), { mode: 0o700 });
    writeFileSync(join(base, 'hpatch-t5', '.runtime'), 'not a link');
    expect(locate(minimal({ CODEX_THREAD_ID: 't5' })).stderr).to.match(/is not a link/);
  });

  it('computes the runtime base exactly as the router does', () => {
    const xdg = join(tmp.dir, 'xdg');
    mkdirSync(xdg, { mode: 0o700 });
    const shared = join(tmp.dir, 'shared');
    mkdirSync(shared, { mode: 0o755 });
    const cases: Array<Record<string, string>> = [
      { HPATCH_RUNTIME_DIR: `${tmp.dir}//a/./b/../c/` },
      { XDG_RUNTIME_DIR: xdg },
      { XDG_RUNTIME_DIR: `${xdg}/` },
      { XDG_RUNTIME_DIR: shared, TMPDIR: `${tmp.dir}/t/` },
      { XDG_RUNTIME_DIR: 'relative', TMPDIR: tmp.dir },
      { TMPDIR: '', TMP: tmp.dir },
      {},
    ];
    for (const c of cases) {
      const env = { PATH: process.env['PATH']!, CODEX_THREAD_ID: 't1', ...c };
      // The router computes it in its own process: os.tmpdir() of that environment.
      const tmpdir = spawnSync(process.execPath, ['-e', 'process.stdout.write(require("os").tmpdir())'], { env, encoding: 'utf8' }).stdout;
      const want = runtimeBasePath(env, { uid: process.getuid!(), tmpdir });
      const r = locate(env);
      expect(r.status).to.equal(126);
      // The message names the base computed, or the thread directory under it when the base
      // exists (the default /tmp base does once any router has run on this machine).
      const named = r.stderr.includes(`${want} `) || r.stderr.includes(`${want}/hpatch-t1 `);
      expect(named, `${JSON.stringify(c)}: ${r.stderr}`).to.equal(true);
    }
  });
});
