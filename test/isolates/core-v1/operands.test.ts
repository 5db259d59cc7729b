import { expect } from 'chai';
import { decodeQuotedOperand, parseLineRange, parsePositiveInt, splitQuotedOperands } from '../../../isolates/core-v1/index.ts';

describe('core-v1 operands', () => {
  it('parsePositiveInt accepts plain decimal positive safe integers only', () => {
    const ok: [string, number][] = [['1', 1], ['42', 42], ['9007199254740991', 9007199254740991]];
    for (const [s, n] of ok) expect(parsePositiveInt(s), s).to.equal(n);
    for (const s of ['', '0', '00', '01', '-1', '+1', '1.0', '1e3', ' 1', '1 ', '0x10', '9007199254740992', '١٢', 'Infinity', '1_000']) {
      expect(parsePositiveInt(s), s).to.equal(null);
    }
  });

  it('parseLineRange: N, N-M (M ≥ N) and N- only', () => {
    expect(parseLineRange('10')).to.deep.equal({ start: 10, end: 10 });
    expect(parseLineRange('10-20')).to.deep.equal({ start: 10, end: 20 });
    expect(parseLineRange('10-10')).to.deep.equal({ start: 10, end: 10 });
    expect(parseLineRange('10-')).to.deep.equal({ start: 10, end: null });
    for (const s of ['', '-', '-20', '20-10', '0-5', '10:20', '10..20', '10 - 20', '10-20-30', '01-2', '1-02', 'a-b', '10,20', '10+5']) {
      expect(parseLineRange(s), s).to.equal(null);
    }
  });

  describe('decodeQuotedOperand', () => {
    const ok: [string, string][] = [
      ['path/to/file.go', 'path/to/file.go'],
      ["'C:\\dir\\x'", 'C:\\dir\\x'], // backslashes need quotes
      ['$HOME/*.go', '$HOME/*.go'], // no expansion
      ["''", ''],
      ["'a b\\n\"c'", 'a b\\n"c'], // single quotes are verbatim
      ['""', ''],
      ['"a b"', 'a b'],
      ['"say \\"hi\\""', 'say "hi"'],
      ['"back\\\\slash"', 'back\\slash'],
      ['"line\\nnext\\ttab"', 'line\nnext\ttab'],
      ['"\\d+\\.go"', '\\d+\\.go'], // other escapes stay as written
      ['"it\'s"', "it's"],
      ["'multi\nline'", 'multi\nline'],
      ['"é 😀"', 'é 😀'],
    ];
    for (const [input, value] of ok) {
      it(`${JSON.stringify(input)} → ${JSON.stringify(value)}`, () => expect(decodeQuotedOperand(input)).to.equal(value));
    }
    const bad = ['', ' ', 'a b', ' a', 'a ', "'abc", '"abc', '"abc\\', '"abc\\"', "'a'b", '"a"b', "a'b'", 'a"b', "'a''b'", '"a\0"', 'a\nb', 'x\u00a0y', 'C:\\dir', 'my\\ file', 'abc\\'];
    for (const input of bad) {
      it(`${JSON.stringify(input)} → null`, () => expect(decodeQuotedOperand(input)).to.equal(null));
    }
  });

  it('splitQuotedOperands splits at ASCII spaces/tabs and decodes each operand', () => {
    expect(splitQuotedOperands('')).to.deep.equal([]);
    expect(splitQuotedOperands(' \t ')).to.deep.equal([]);
    expect(splitQuotedOperands('NAME  a.go\t"b c.go" \'d\'')).to.deep.equal(['NAME', 'a.go', 'b c.go', 'd']);
    expect(splitQuotedOperands(' x ')).to.deep.equal(['x']);
    expect(splitQuotedOperands('"" \'\'')).to.deep.equal(['', '']);
    expect(splitQuotedOperands('a "b')).to.equal(null);
    expect(splitQuotedOperands('a "b"c')).to.equal(null);
    expect(splitQuotedOperands('a\nb')).to.equal(null);
  });
});
