// pattern.ts: the regex-free match of plain patterns (`X`, `*X`, `X*`, `*X*`) agrees with the
// compiled regex on every pattern shape, and leaves everything else to it.
import { expect } from 'chai';
import { matchPattern, patternRegex } from '../../../host/interp/words/pattern.ts';

describe('interp pattern matching', () => {
  const patterns = ['', '*', '**', '***', 'a', 'ab', '*b', 'a*', '*b*', '*.txt', 'x.*', '*a*b*', 'a*b', '*\\*', '\\**', 'a\\b',
    '*(a)', '@(a|b)', '!(a)', '+(a)', '?(a)', 'a?', '?', '[ab]*', '*[!a]', '(a)', 'a)', '*|*', 'é*', '*\xc3\xa9'];
  const subjects = ['', 'a', 'b', 'ab', 'ba', 'abc', 'aab', 'a.txt', '.txt', 'x.', 'x.y', '*', 'a*', '**', 'a\\b', '(a)', 'a)', 'a|b', '\xc3\xa9', 'x\xc3\xa9', '\n'];

  it('gives the regex result for every pattern and subject', () => {
    for (const extglob of [false, true]) {
      for (const p of patterns) {
        for (const s of subjects) {
          const want = patternRegex(p, { extglob }).test(s);
          expect(matchPattern(p, s, { extglob }), `${JSON.stringify(p)} vs ${JSON.stringify(s)} (extglob ${extglob})`).to.equal(want);
        }
      }
    }
  });

  it('keeps nocase and pathname matching on the regex', () => {
    expect(matchPattern('*B', 'ab', { nocase: true })).to.equal(true);
    expect(matchPattern('a*', 'a/b', { pathname: true })).to.equal(false);
    expect(matchPattern('a*', 'a/b')).to.equal(true);
  });
});
