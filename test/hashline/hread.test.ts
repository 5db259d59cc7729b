// hread's rows and header, and inspect_file's facts (issue 15, first part): exact bytes, never
// normalized; rows use core/v1's rowHash so router, worker and plugins agree.
import { expect } from 'chai';
import { fileFacts, renderFacts } from '../../host/hashline/file-facts.ts';
import { renderHread } from '../../host/hashline/hread.ts';
import { rowHash } from '../../isolates/core-v1/rows.ts';

const enc = (s: string): Uint8Array => Buffer.from(s, 'utf8');
const hread = (text: string, range: { start: number; end: number | null } | null = null, opts = {}) => {
  const r = renderHread('f.txt', fileFacts('f.txt', enc(text)), enc(text), range, opts);
  if (!r.ok) throw new Error(r.error);
  return r.bytes.toString('utf8');
};

describe('hread rows', () => {
  it('a header that says what the file is, then LINE:HASH|text rows of the exact line contents', () => {
    const text = 'alpha\n  beta  \n\tgamma\n';
    expect(hread(text)).to.equal(`# f.txt: 3 lines, ${text.length} bytes, lf line ends, tag ${fileFacts('f.txt', enc(text)).tag}\n` +
      `1:${rowHash('alpha')}|alpha\n2:${rowHash('  beta  ')}|  beta  \n3:${rowHash('\tgamma')}|\tgamma\n`);
  });
  it('CRLF, mixed line ends, a missing final newline and a BOM are in the header; a lone CR stays content', () => {
    expect(hread('a\r\nb\r\n').split('\n')[0]).to.match(/2 lines, 6 bytes, crlf line ends, tag/);
    expect(hread('a\r\nb\nc').split('\n')[0]).to.match(/3 lines, 6 bytes, mixed line ends, no final newline, tag/);
    expect(hread('only').split('\n')[0]).to.match(/1 line, 4 bytes, no final newline, tag/);
    expect(hread('\ufeffx\n').split('\n')[0]).to.match(/, BOM, tag/);
    expect(hread('a\rb\n').split('\n')[1]).to.equal(`1:${rowHash('a\rb')}|a\rb`);
  });
  it('ranges N, N-M and N- say which lines they show; a range past the end is an error', () => {
    const text = 'l1\nl2\nl3\nl4\n';
    expect(hread(text, { start: 2, end: 3 }).split('\n').slice(1, 4)).to.deep.equal(['# lines 2-3 of 4', `2:${rowHash('l2')}|l2`, `3:${rowHash('l3')}|l3`]);
    expect(hread(text, { start: 4, end: null }).split('\n').slice(1, 3)).to.deep.equal(['# lines 4-4 of 4', `4:${rowHash('l4')}|l4`]);
    expect(hread(text, { start: 3, end: 99 }).split('\n')[1]).to.equal('# lines 3-4 of 4');
    const r = renderHread('f.txt', fileFacts('f.txt', enc(text)), enc(text), { start: 5, end: 5 });
    expect(r).to.deep.equal({ ok: false, error: 'line 5 is past the end (4 lines)' });
  });
  it('the window is bounded by rows and bytes, and its last line says how to read on', () => {
    const text = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const out = hread(text, null, { maxRows: 3 }).trimEnd().split('\n');
    expect(out[1]).to.equal('# lines 1-3 of 10');
    expect(out.at(-1)).to.equal('# … 7 more lines: hread f.txt 4-');
    const byBytes = hread(text, { start: 2, end: 9 }, { maxBytes: 30 }).trimEnd().split('\n');
    expect(byBytes.at(-1)).to.match(/^# … \d+ more lines?: hread f\.txt \d+-9$/);
    // A single line longer than the byte bound is still shown whole.
    expect(hread(`${'x'.repeat(500)}\n`, null, { maxBytes: 10 }).split('\n')[1]).to.equal(`1:${rowHash('x'.repeat(500))}|${'x'.repeat(500)}`);
  });
  it('an empty file is a header alone', () => {
    expect(hread('')).to.equal(`# f.txt: 0 lines, 0 bytes, tag ${fileFacts('f.txt', enc('')).tag}\n`);
  });
});

describe('inspect_file facts', () => {
  it('reports size, lines, line ends, final newline, trailing whitespace, format and what applies', () => {
    const f = fileFacts('main.go', enc('package main \r\n\nfunc main() {}'));
    expect(renderFacts('main.go', f)).to.equal([
      'path: main.go', 'bytes: 30', 'encoding: utf-8', 'lines: 3', 'line ends: mixed', 'final newline: no',
      'trailing whitespace: 1 line', 'format: go (by extension)', `tag: ${f.tag}`, 'hread: yes', 'hpatch: yes', 'hsymbol: yes', '',
    ].join('\n'));
  });
  it('says why a file is not text: a NUL, or bytes that are not UTF-8', () => {
    expect(renderFacts('a.bin', fileFacts('a.bin', Uint8Array.from([0x61, 0, 0x62])))).to.contain('encoding: binary (a NUL byte at offset 1)').and.to.contain('hread: no');
    expect(renderFacts('a.txt', fileFacts('a.txt', Uint8Array.from([0x61, 0xff])))).to.contain('encoding: binary (bytes that are not UTF-8 at offset 1)');
  });
  it('a BOM is reported with the encoding', () => {
    expect(renderFacts('a.txt', fileFacts('a.txt', enc('\ufeffx\n')))).to.contain('encoding: utf-8 with BOM');
  });
});
