// hgrep (issue 15, first part): rows with paths that hpatch can name, a deterministic recursive walk
// that honours .gitignore/.ignore and skips .git, symlinks and binaries, context groups, -i/-F,
// bounded output, grep's statuses — and a linear-time regex, so no pattern can hang the worker.
import { expect } from 'chai';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hgrep, parseHgrepArgs, type HgrepOptions } from '../../host/hashline/hgrep.ts';
import { ignoredBy, parseIgnoreFile } from '../../host/hashline/ignore-rules.ts';
import { rowHash } from '../../isolates/core-v1/rows.ts';
import { tempDir } from '../support/temp-dir.ts';

const row = (n: number, t: string): string => `${n}:${rowHash(t)}|${t}`;

describe('hgrep', () => {
  let tmp: { dir: string; cleanup: () => void };
  before(() => {
    tmp = tempDir('hgrep');
    const d = tmp.dir;
    mkdirSync(join(d, 'src', 'deep'), { recursive: true });
    mkdirSync(join(d, '.git'));
    mkdirSync(join(d, 'build'));
    writeFileSync(join(d, 'src', 'a.ts'), 'const foo = 1;\nconst bar = 2;\nfoo();\n');
    writeFileSync(join(d, 'src', 'deep', 'b.ts'), 'line\nFOO here\n');
    writeFileSync(join(d, 'src', 'gen.ts'), 'foo generated\n');
    writeFileSync(join(d, 'build', 'out.js'), 'foo built\n');
    writeFileSync(join(d, '.git', 'config'), 'foo in git\n');
    writeFileSync(join(d, 'bin.dat'), Buffer.from('foo\0binary'));
    writeFileSync(join(d, '.gitignore'), 'build/\n/src/gen.ts\n');
    writeFileSync(join(d, 'src', '.ignore'), '!gen.ts\n');
    symlinkSync(join(d, 'src'), join(d, 'src', 'deep', 'loop'));
  });
  after(() => tmp.cleanup());

  const run = (o: Partial<HgrepOptions> & { pattern: string }) => {
    const r = hgrep({ paths: ['.'], caseInsensitive: false, fixed: false, context: 0, ...o }, tmp.dir);
    if ('error' in r) throw new Error(r.error);
    return r;
  };

  it('prints path:LINE:HASH|text rows in byte order of paths, honouring ignore files, skipping .git, symlinks and binaries', () => {
    const r = run({ pattern: 'foo' });
    // src/gen.ts: ignored by the root .gitignore, re-included by src/.ignore (the deeper rule wins).
    expect(r.text).to.equal([`src/a.ts:${row(1, 'const foo = 1;')}`, `src/a.ts:${row(3, 'foo();')}`, `src/gen.ts:${row(1, 'foo generated')}`, ''].join('\n'));
    expect(r.matches).to.equal(3);
  });
  it('-i, -F and context groups separated by --', () => {
    expect(run({ pattern: 'foo', caseInsensitive: true, paths: ['src/deep'] }).text).to.equal(`src/deep/b.ts:${row(2, 'FOO here')}\n`);
    expect(run({ pattern: 'foo()', fixed: true }).text).to.equal(`src/a.ts:${row(3, 'foo();')}\n`);
    expect(run({ pattern: '^const', context: 1, paths: ['src/a.ts'] }).text).to.equal([`src/a.ts:${row(1, 'const foo = 1;')}`, `src/a.ts:${row(2, 'const bar = 2;')}`, `src/a.ts-${row(3, 'foo();')}`, ''].join('\n'));
  });
  it('line anchors mean each line, in LF and CRLF files alike (the whole-file prefilter never hides a match)', () => {
    mkdirSync(join(tmp.dir, 'anchors'));
    writeFileSync(join(tmp.dir, 'anchors', 'crlf.txt'), 'x foo\r\nfoo y\r\nbar\r\n');
    const lines = (pattern: string): string[] => run({ pattern, paths: ['anchors'] }).text.trimEnd().split('\n').filter((l) => l !== '');
    expect(lines('foo$')).to.deep.equal([`anchors/crlf.txt:${row(1, 'x foo')}`]);
    expect(lines('^foo')).to.deep.equal([`anchors/crlf.txt:${row(2, 'foo y')}`]);
    expect(lines('\\Abar\\z')).to.deep.equal([`anchors/crlf.txt:${row(3, 'bar')}`]);
    expect(lines('^$')).to.deep.equal([]);
  });
  it('a pattern with catastrophic backtracking in a backtracking engine runs in linear time', () => {
    writeFileSync(join(tmp.dir, 'src', 'deep', 'aaa.txt'), `${'a'.repeat(50_000)}!\n`);
    const t0 = Date.now();
    const r = run({ pattern: '(a+)+$', paths: ['src/deep/aaa.txt'] });
    expect(r.matches).to.equal(0);
    // (a JavaScript RegExp takes longer than the age of the universe here; bounded for the test's sake)
    expect(Date.now() - t0).to.be.below(5_000);
  });
  it('a bad pattern is an error with the engine\'s message; missing paths are problems beside the results', () => {
    const bad = hgrep({ pattern: 'a(', paths: ['.'], caseInsensitive: false, fixed: false, context: 0 }, tmp.dir);
    expect(bad).to.have.property('error').that.match(/bad pattern: regex parse error/);
    const r = run({ pattern: 'bar', paths: ['nope', 'src'] });
    expect(r.problems).to.deep.equal(['nope: No such file or directory']);
    expect(r.matches).to.equal(1);
  });
  it('output is bounded, and says so', () => {
    mkdirSync(join(tmp.dir, 'many'));
    writeFileSync(join(tmp.dir, 'many', 'x.txt'), 'hit\n'.repeat(5000));
    const r = run({ pattern: 'hit', paths: ['many'] });
    const lines = r.text.trimEnd().split('\n');
    expect(lines).to.have.length(1001);
    expect(lines.at(-1)).to.match(/^# … output stopped after 1000 matching lines in 1 file: narrow the pattern or the paths$/);
  });
  it('parses its options like grep', () => {
    expect(parseHgrepArgs(['-i', '-C', '2', 'x', 'a', 'b'])).to.deep.equal({ ok: true, options: { pattern: 'x', paths: ['a', 'b'], caseInsensitive: true, fixed: false, context: 2 } });
    expect(parseHgrepArgs(['-C3', '--', '-x'])).to.deep.include({ ok: true });
    expect(parseHgrepArgs(['-z', 'x'])).to.deep.include({ ok: false });
    expect(parseHgrepArgs(['-C', '99', 'x'])).to.deep.include({ ok: false });
    expect(parseHgrepArgs([])).to.deep.include({ ok: false });
  });
});

describe('ignore rules (.gitignore subset)', () => {
  const cases: Array<[string, string, boolean, boolean | null]> = [
    ['*.log', 'a/b/x.log', false, true],
    ['/top.txt', 'top.txt', false, true],
    ['/top.txt', 'sub/top.txt', false, null],
    ['build/', 'build', true, true],
    ['build/', 'build', false, null],
    ['doc/*.md', 'doc/a.md', false, true],
    ['doc/*.md', 'doc/x/a.md', false, null],
    ['a/**/b', 'a/x/y/b', false, true],
    ['**/tmp', 'x/tmp', true, true],
    ['x?z', 'xyz', false, true],
    ['[ab].c', 'b.c', false, true],
    ['*.log\n!keep.log', 'keep.log', false, false],
    ['\\#file', '#file', false, true],
    ['# comment', '# comment', false, null],
  ];
  for (const [rules, path, isDir, want] of cases) {
    it(`${JSON.stringify(rules)} on ${path}${isDir ? '/' : ''} → ${want}`, () => expect(ignoredBy(parseIgnoreFile(rules), path, isDir)).to.equal(want));
  }
});
