// The host's fast rows (host/hashline/fast-rows.ts) are core/v1's rows: the same lines and the same
// hashes for the same bytes, on random text with every kind of line end, a BOM and non-ASCII.
import { expect } from 'chai';
import { byteLines, decodeUtf8, rowHashAt } from '../../host/hashline/fast-rows.ts';
import { logicalLineCount, splitLines, terminatorStyle } from '../../isolates/core-v1/lines.ts';
import { fileFacts } from '../../host/hashline/file-facts.ts';
import { rowHash } from '../../isolates/core-v1/rows.ts';
import { utf8Decode } from '../../isolates/core-v1/utf8.ts';
import { seededRandom } from '../support/prng.ts';

describe('fast rows agree with core/v1', () => {
  it('byteLines + rowHashAt = splitLines + rowHash, and decodeUtf8 = utf8Decode, on 2000 random texts', () => {
    const rnd = seededRandom(15);
    const pieces = ['a', 'Z', ' ', '\t', '\r', '\n', '\r\n', 'é', '€', '😀', '\ufeff', 'line', '{}', '|', ':'];
    for (let k = 0; k < 2000; k++) {
      let text = '';
      const n = Math.floor(rnd() * 60);
      for (let i = 0; i < n; i++) text += pieces[Math.floor(rnd() * pieces.length)];
      const bytes = Buffer.from(text, 'utf8');
      expect(decodeUtf8(bytes), JSON.stringify(text)).to.equal(utf8Decode(bytes));
      const core = splitLines(text);
      const fast = byteLines(bytes);
      expect(fast.length, JSON.stringify(text)).to.equal(core.length);
      fast.forEach((l, i) => {
        expect(bytes.toString('utf8', l.start, l.end)).to.equal(core[i]!.text);
        expect(rowHashAt(bytes, l.start, l.end)).to.equal(rowHash(core[i]!.text));
      });
    }
  });
  it('fileFacts counts lines, line ends and trailing whitespace on the bytes as core/v1 does on the text', () => {
    const rnd = seededRandom(16);
    const pieces = ['a', ' ', '\t', '\r', '\n', '\r\n', 'é', '\ufeff', 'x '];
    for (let k = 0; k < 3000; k++) {
      let text = '';
      const n = Math.floor(rnd() * 30);
      for (let i = 0; i < n; i++) text += pieces[Math.floor(rnd() * pieces.length)];
      const f = fileFacts('t.txt', Buffer.from(text, 'utf8'));
      const want = {
        lines: logicalLineCount(text),
        terminators: terminatorStyle(text),
        finalNewline: text.length === 0 ? null : text.endsWith('\n'),
        trailing: [...text.matchAll(/[ \t]\r?(?:\n|$)/g)].length,
      };
      expect({ lines: f.lines, terminators: f.terminators, finalNewline: f.finalNewline, trailing: f.trailingWhitespaceLines }, JSON.stringify(text)).to.deep.equal(want);
    }
  });

  it('decodeUtf8 refuses what is not UTF-8 and keeps a BOM', () => {
    expect(decodeUtf8(Uint8Array.from([0x61, 0xff]))).to.equal(null);
    expect(decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]))).to.equal('\ufeffa');
  });
});
