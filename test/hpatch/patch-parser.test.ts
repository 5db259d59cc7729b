import { expect } from 'chai';
import { parsePatch } from '../../host/hpatch/patch-parser.ts';
import { HPATCH_GRAMMAR } from '../../host/hpatch/patch-grammar.ts';
import { grammarProblems } from '../../host/plugins/grammar/index.ts';

const wrap = (body: string): string => `*** Begin Patch\n${body}*** End Patch\n`;

describe('hpatch patch parser', () => {
  it('the built-in grammar is a valid Lark grammar for custom tools', () => {
    expect(grammarProblems({ type: 'grammar', syntax: 'lark', definition: HPATCH_GRAMMAR })).to.deep.equal([]);
  });

  it('accepts every operation', () => {
    const r = parsePatch(wrap(
      '*** Update File: src/a.ts\n@@ replace 12:ab3f-14:09cd\n+x\n+y\n@@ replace 7:1c2d\n+z\n@@ delete 30:c4d2-31:0b9e\n' +
      '@@ delete 40:0000\n@@ insert before 3:77c0\n+b\n@@ insert after 20:5e1a\n+a\n@@ insert at start\n+s\n@@ insert at end\n+e\n' +
      '*** Add File: new.md\n+# t\n+\n*** Add File: empty.txt\n*** Delete File: old.txt\n*** Update File: a.txt\n*** Move to: b.txt\n'));
    expect(r.ok).to.equal(true);
    if (!r.ok) return;
    const [u, add, empty, del, mv] = r.patch.files;
    expect(u).to.deep.include({ kind: 'update', path: 'src/a.ts', moveTo: null, tag: null });
    expect((u as unknown as { edits: unknown[] }).edits.map((e) => (e as { op: string }).op)).to.deep.equal(
      ['replace', 'replace', 'delete', 'delete', 'insert_before', 'insert_after', 'insert_start', 'insert_end']);
    expect((u as unknown as { edits: unknown[] }).edits[1]).to.deep.equal({ op: 'replace', from: { line: 7, hash: '1c2d' }, to: { line: 7, hash: '1c2d' }, lines: ['z'] });
    expect(add).to.deep.equal({ kind: 'add', path: 'new.md', lines: ['# t', ''] });
    expect(empty).to.deep.equal({ kind: 'add', path: 'empty.txt', lines: [] });
    expect(del).to.deep.equal({ kind: 'delete', path: 'old.txt' });
    expect(mv).to.deep.equal({ kind: 'update', path: 'a.txt', moveTo: 'b.txt', tag: null, edits: [] });
  });

  it('keeps new text exactly (spaces, tabs, a lone CR inside) and takes a CRLF patch as its own line ends', () => {
    const r = parsePatch('*** Begin Patch\r\n*** Update File: a\r\n@@ replace 1:abcd\r\n+  x\t \r\n+a\rb\r\n*** End Patch\r\n');
    expect(r.ok && r.patch.files[0]).to.deep.equal({ kind: 'update', path: 'a', moveTo: null, tag: null, edits: [{ op: 'replace', from: { line: 1, hash: 'abcd' }, to: { line: 1, hash: 'abcd' }, lines: ['  x\t ', 'a\rb'] }] });
  });

  it('ignores blank lines around the envelope', () => {
    const r = parsePatch('\n\n*** Begin Patch\n*** Delete File: a\n*** End Patch\n\n  \n');
    expect(r.ok && r.patch.files).to.deep.equal([{ kind: 'delete', path: 'a' }]);
  });

  it('reads the optional tag of the rows the anchors come from', () => {
    const r = parsePatch(wrap('*** Update File: a\n*** Move to: b\n*** Tag: 0a1b2c3d\n@@ delete 1:abcd\n'));
    expect(r.ok && r.patch.files[0]).to.deep.include({ moveTo: 'b', tag: '0a1b2c3d' });
  });

  const refused: Array<[string, string, RegExp]> = [
    ['a bad tag', wrap('*** Update File: a\n*** Tag: 12\n@@ delete 1:abcd\n'), /takes a file tag/],
    ['no envelope', '*** Update File: a\n@@ delete 1:abcd\n', /starts with "\*\*\* Begin Patch"/],
    ['no end', '*** Begin Patch\n*** Delete File: a\n', /ends with "\*\*\* End Patch"/],
    ['no file operation', wrap(''), /no file operation/],
    ['context lines', wrap('*** Update File: a\n@@\n-old\n+new\n'), /unknown hunk operation|no context or "-" lines/],
    ['a minus line', wrap('*** Update File: a\n@@ delete 1:abcd\n-old\n'), /no context or "-" lines/],
    ['a bad anchor', wrap('*** Update File: a\n@@ replace 1:ABCD\n+x\n'), /is not an anchor/],
    ['a zero line', wrap('*** Update File: a\n@@ replace 0:abcd\n+x\n'), /is not an anchor/],
    ['a whole row as anchor', wrap('*** Update File: a\n@@ replace 1:abcd|text\n+x\n'), /is a whole row/],
    ['a backwards range', wrap('*** Update File: a\n@@ delete 5:abcd-3:abcd\n'), /runs backwards/],
    ['one line, two hashes', wrap('*** Update File: a\n@@ delete 5:abcd-5:abce\n'), /two different hashes/],
    ['replace without lines', wrap('*** Update File: a\n@@ replace 1:abcd\n'), /needs at least one "\+" line/],
    ['insert without lines', wrap('*** Update File: a\n@@ insert after 1:abcd\n'), /needs at least one "\+" line/],
    ['delete with lines', wrap('*** Update File: a\n@@ delete 1:abcd\n+x\n'), /takes no "\+" lines/],
    ['an empty update', wrap('*** Update File: a\n'), /has no hunk/],
    ['an empty file name', wrap('*** Delete File:  \n'), /file name is empty/],
    ['a stray hunk', wrap('@@ delete 1:abcd\n'), /belongs under "\*\*\* Update File/],
    ['a stray + line', wrap('+x\n'), /belongs under a hunk header/],
    ['an unknown line', wrap('*** Copy File: a\n'), /unexpected line/],
    ['pasted row prefixes', wrap('*** Update File: a\n@@ replace 1:abcd\n+1:abcd|x\n+ok\n+12:00FF|y\n'), /lines 4, 6 starts with a pasted row prefix/],
    ['a pasted prefix in an added file', wrap('*** Add File: a\n+3:0a0b|x\n'), /pasted row prefix/],
  ];
  for (const [what, text, why] of refused) {
    it(`refuses ${what}`, () => {
      const r = parsePatch(text);
      expect(r.ok, what).to.equal(false);
      if (!r.ok) expect(r.error).to.match(why);
    });
  }
});
