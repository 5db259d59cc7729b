import { expect } from 'chai';
import { requiredLiteral, requiredLiterals } from '../../host/hashline/required-literal.ts';
import { compileRegex } from '../../host/hashline/linear-regex.ts';
import { seededRandom } from '../support/prng.ts';

describe('hgrep prefilter: the literal every match contains', () => {
  const table: Array<[string, string | null]> = [
    ['zq[0-9]xq', 'zq'], ['fooBar', 'fooBar'], ['foo.*bar', 'foo'], ['hello\\.world', 'hello.world'],
    ['colou?r', 'colo'], ['ab+c', 'ab'], ['a{0,3}bcd', 'bcd'], ['x{2}yz', 'yz'], ['^import ', 'import '],
    ['(foo)', null], ['(foo)barbaz', 'barbaz'], ['(?:a|b)+cde', 'cde'], ['x(?i:ab)yz', 'yz'], ['(?i)foo', null], ['(?i)foo', null], ['\\d+', null], ['a', null], ['[abc]', null],
    ['\\bword\\b', 'word'], ['\\x41BC', null], ['é+te', 'te'], ['[]]abc', 'abc'], ['[a\\]]xyz', 'xyz'],
  ];
  for (const [pattern, want] of table) {
    it(`${pattern} → ${String(want)}`, () => expect(requiredLiteral(pattern)).to.equal(want));
  }

  it('alternatives: one literal per top-level branch, or none when a branch has none', () => {
    expect(requiredLiterals('foo|barx')).to.deep.equal(['foo', 'barx']);
    expect(requiredLiterals('(a|b)cd|efg')).to.deep.equal(['cd', 'efg']);
    expect(requiredLiterals('foo|\\d+')).to.equal(null);
    expect(requiredLiterals('[|]ab')).to.deep.equal(['ab']);
  });

  it('is never wrong: on random patterns and lines, a line the regex matches contains the literal', () => {
    const rnd = seededRandom(21);
    const atoms = ['a', 'b', 'ab', '.', '\\.', '[ab]', '[^a]', '\\d', '\\w', 'é', ' ', '^', '$', '\\b', '(a|b)', '(?:ab|ba)', '(?i:a)', '|'];
    const quants = ['', '', '', '?', '*', '+', '{0,2}', '{1,2}', '{2}'];
    const alphabet = ['a', 'b', '.', '1', ' ', 'é', 'x'];
    let checked = 0;
    for (let k = 0; k < 400; k++) {
      let pattern = '';
      const n = 1 + Math.floor(rnd() * 6);
      for (let i = 0; i < n; i++) pattern += atoms[Math.floor(rnd() * atoms.length)]! + quants[Math.floor(rnd() * quants.length)]!;
      const lits = requiredLiterals(pattern);
      if (lits === null) continue;
      const m = compileRegex(pattern, false);
      if ('error' in m) continue;
      try {
        for (let j = 0; j < 200; j++) {
          let line = '';
          const len = Math.floor(rnd() * 12);
          for (let i = 0; i < len; i++) line += alphabet[Math.floor(rnd() * alphabet.length)];
          if (m.test(line)) {
            expect(lits.some((l) => line.includes(l)), `${pattern} matched ${JSON.stringify(line)} without any of ${JSON.stringify(lits)}`).to.equal(true);
            checked++;
          }
        }
      } finally {
        m.free();
      }
    }
    expect(checked).to.be.greaterThan(100);
  });
});
