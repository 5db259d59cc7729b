// hread and inspect_file as private commands of the shell worker (issue 15, first part): run from a
// Bash body through the snapshot's wrapper as Codex runs it, they take part in pipelines,
// redirections, cwd and status like any command, exist nowhere else, and read @shell/<id> only
// from the thread's confined storage.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rowHash } from '../../isolates/core-v1/rows.ts';
import { ShellThreadStorage } from '../../host/shell/thread-storage.ts';
import { installShellWrapper } from '../support/shell-wrapper.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('hashline private commands in the shell worker', function () {
  this.timeout(30_000);
  let tmp: { dir: string; cleanup: () => void };
  let wrapper: string;
  let base: string;
  let work: string;

  before(() => {
    tmp = tempDir('hashline-private');
    wrapper = installShellWrapper(tmp.dir);
    base = join(tmp.dir, 'base');
    mkdirSync(base, { mode: 0o700 });
    work = join(tmp.dir, 'work');
    mkdirSync(join(work, 'sub'), { recursive: true });
    writeFileSync(join(work, 'sub', 'notes.txt'), 'one\ntwo\nthree\n');
  });
  after(() => tmp.cleanup());

  const run = (body: string, env: Record<string, string> = {}) => {
    const e: NodeJS.ProcessEnv = { ...process.env, HPATCH_RUNTIME_DIR: base, CODEX_THREAD_ID: 't1', ...env };
    delete e['NODE_OPTIONS'];
    return spawnSync(wrapper, ['bash', body], { cwd: work, env: e, encoding: 'utf8' });
  };

  it('hread takes part in cwd, pipelines, redirections and status like any command', () => {
    const r = run('cd sub && hread notes.txt 2-3 | tail -n 2 > out.txt; echo "st=${PIPESTATUS[0]}"; cat out.txt; hread missing.txt; echo "st=$?"');
    expect(r.stdout).to.equal(`st=0\n2:${rowHash('two')}|two\n3:${rowHash('three')}|three\nst=1\n`);
    expect(r.stderr).to.equal('hread: missing.txt: No such file or directory\n');
  });

  it("hgrep runs in the worker with its linear-time engine, grep's statuses, and its rows name anchors hread shows", () => {
    const r = run('hgrep -C1 two sub/notes.txt; echo "st=$?"; hgrep zzz sub; echo "st=$?"; hgrep "(" sub; echo "st=$?"');
    expect(r.stdout).to.equal(`sub/notes.txt-${`1:${rowHash('one')}|one`}\nsub/notes.txt:${`2:${rowHash('two')}|two`}\nsub/notes.txt-${`3:${rowHash('three')}|three`}\nst=0\nst=1\nst=2\n`);
    expect(r.stderr).to.match(/^hgrep: bad pattern: regex parse error/);
  });

  it('hsymbol prints a Go definition\'s whole range from the worker, status 1 and a hint when there is none', () => {
    writeFileSync(join(work, 'sub', 'm.go'), 'package m\n\nfunc Hello() string {\n\treturn "hi"\n}\n');
    const r = run('hsymbol Hello sub; echo "st=$?"; hsymbol Nope sub; echo "st=$?"');
    expect(r.stdout).to.equal(`# sub/m.go: func Hello, lines 3-5\nsub/m.go:3:${rowHash('func Hello() string {')}|func Hello() string {\nsub/m.go:4:${rowHash('\treturn "hi"')}|\treturn "hi"\nsub/m.go:5:${rowHash('}')}|}\nst=0\nst=1\n`);
    expect(r.stderr).to.match(/hsymbol: no definition of Nope/);
  });

  it('hsymbol loads the TypeScript, Python and Rust grammars in the worker on first use (from beside the snapshot)', () => {
    const ts = ['export class Greeter {', '  hello(): string {', '    return "}";', '  }', '}'];
    writeFileSync(join(work, 'sub', 'm.ts'), `${ts.join('\n')}\n`);
    writeFileSync(join(work, 'sub', 'm.py'), 'def hello():\n    return "hi"\n');
    writeFileSync(join(work, 'sub', 'm.rs'), 'fn hello() -> &\'static str {\n    "hi"\n}\n');
    const r = run('hsymbol Greeter.hello sub; echo "st=$?"; hsymbol hello sub | grep "^#"; hsymbol nope sub; echo "st=$?"');
    expect(r.stdout).to.equal([
      '# sub/m.ts: method Greeter.hello, lines 2-4', ...[2, 3, 4].map((n) => `sub/m.ts:${n}:${rowHash(ts[n - 1]!)}|${ts[n - 1]}`), 'st=0',
      '# sub/m.py: function hello, lines 1-2', '# sub/m.rs: fn hello, lines 1-3', '# sub/m.ts: method Greeter.hello, lines 2-4', 'st=1', '',
    ].join('\n'));
    expect(r.stderr).to.equal('hsymbol: no definition of nope (Go, TypeScript/JavaScript, Python and Rust files are searched)\n');
  });

  it('usage errors are status 2, and a binary file is refused with what inspect_file says', () => {
    expect(run('hread').status).to.equal(2);
    expect(run('hread sub/notes.txt x-y')).to.include({ status: 2 }).and.to.have.property('stderr').that.match(/bad line range/);
    const bin = run('printf "a\\0b" > b.bin; hread b.bin; echo "st=$?"; inspect_file b.bin | grep encoding');
    expect(bin.stdout).to.equal('st=1\nencoding: binary (a NUL byte at offset 1)\n');
    expect(bin.stderr).to.match(/b\.bin is not text: a NUL byte at offset 1 \(inspect_file b\.bin says what it is\)/);
  });

  it('never blocks on a FIFO, a device or a directory: only regular files are read', () => {
    const r = run('mkfifo p; hread p; echo "st=$?"; inspect_file /dev/stdin < /dev/null; echo "st=$?"; hread sub; echo "st=$?"; rm p');
    expect(r.stdout).to.equal('st=1\nst=1\nst=1\n');
    expect(r.stderr).to.match(/hread: p: not a regular file\ninspect_file: \/dev\/stdin: not a regular file\nhread: sub: is a directory/);
  });

  it('exists only inside a shell body: not on PATH for the commands it runs', () => {
    const r = run('command -v hread; type -t inspect_file; bash -c "command -v hread || command -v hgrep || echo not-on-path"');
    expect(r.stdout).to.match(/not-on-path\n$/);
    expect(r.stdout).to.not.match(/^\//m);
  });

  it("hread @shell/<id> reads the thread's retained script, and nothing outside its storage", () => {
    const storage = new ShellThreadStorage(base, '/x');
    try {
      expect(storage.retain('t1', 'call_1', '#!python3\nprint("kept")\n')).to.equal(true);
      const r = run('hread @shell/call_1; inspect_file @shell/call_1 | grep -E "^(lines|format)"');
      expect(r.stdout).to.match(/^# @shell\/call_1: 2 lines, \d+ bytes, lf line ends, tag [0-9a-f]{8}\n1:[0-9a-f]{4}\|#!python3\n2:[0-9a-f]{4}\|print\("kept"\)\nlines: 2\nformat: python \(by content\)\n$/);
      for (const ref of ['@shell/../x', '@shell/.runtime', '@shell/', '@shell/call_2']) {
        const bad = run(`hread ${ref}; echo "st=$?"`);
        expect(bad.stdout, ref).to.equal('st=1\n');
      }
      // Another thread's scripts are not this thread's.
      expect(run('hread @shell/call_1', { CODEX_THREAD_ID: 't2' }).stderr).to.match(/@shell\/call_1 does not exist/);
    } finally {
      storage.close();
    }
  });
});
