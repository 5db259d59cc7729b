import { expect } from 'chai';
import { hasFinalNewline, logicalLineCount, splitLines, terminatorStyle } from '../../../isolates/core-v1/index.ts';
import { seededRandom } from '../../support/prng.ts';

describe('core-v1 lines', () => {
  const table: [string, [string, string][], 'lf' | 'crlf' | 'mixed' | 'none', boolean][] = [
    ['', [], 'none', false],
    ['a', [['a', '']], 'none', false],
    ['\n', [['', '\n']], 'lf', true],
    ['a\n', [['a', '\n']], 'lf', true],
    ['a\nb', [['a', '\n'], ['b', '']], 'lf', false],
    ['a\r\nb\r\n', [['a', '\r\n'], ['b', '\r\n']], 'crlf', true],
    ['a\r\nb\n', [['a', '\r\n'], ['b', '\n']], 'mixed', true],
    // A lone CR is content, not a terminator.
    ['a\rb', [['a\rb', '']], 'none', false],
    ['a\r', [['a\r', '']], 'none', false],
    ['a\r\r\nb', [['a\r', '\r\n'], ['b', '']], 'crlf', false],
    ['\n\n', [['', '\n'], ['', '\n']], 'lf', true],
    ['\r\n', [['', '\r\n']], 'crlf', true],
  ];

  for (const [text, lines, style, final] of table) {
    it(`${JSON.stringify(text)}: ${lines.length} lines, ${style}, final newline ${final}`, () => {
      expect(splitLines(text)).to.deep.equal(lines.map(([t, terminator]) => ({ text: t, terminator })));
      expect(logicalLineCount(text)).to.equal(lines.length);
      expect(terminatorStyle(text)).to.equal(style);
      expect(hasFinalNewline(text)).to.equal(final);
    });
  }

  it('splitLines is lossless and agrees with logicalLineCount on random text', () => {
    const rnd = seededRandom(31);
    const alphabet = ['a', ' ', '\t', '\n', '\r', '\r\n', 'é', '😀'];
    for (let k = 0; k < 2000; k++) {
      let s = '';
      const len = Math.floor(rnd() * 20);
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(rnd() * alphabet.length)];
      const lines = splitLines(s);
      expect(lines.map((l) => l.text + l.terminator).join('')).to.equal(s);
      expect(logicalLineCount(s)).to.equal(lines.length);
      for (const l of lines) expect(l.text.includes('\n')).to.equal(false);
      expect(hasFinalNewline(s)).to.equal(lines.length > 0 && lines[lines.length - 1]!.terminator !== '');
    }
  });
});
