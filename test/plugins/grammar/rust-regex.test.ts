import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { RRegex } from 'rregex';
import { grammarProblems } from '../../../host/plugins/grammar/index.ts';
import { checkRustRegex, clearRegexCache, hasNonGreedy, scanGreediness } from '../../../host/plugins/grammar/rust-regex.ts';

// `line:column message` of every problem of a regex-format definition.
function problems(definition: string): string[] {
  return grammarProblems({ type: 'grammar', syntax: 'regex', definition }).map((p) => `${p.line}:${p.column} ${p.message}`);
}

const LAZY = 'is not supported (OpenAI grammars support greedy quantifiers only)';

describe('grammar validation: regex format (Rust syntax via rregex)', () => {
  it('accepts Rust-only syntax that JS-dialect parsers reject', () => {
    for (const p of [
      '(?P<year>\\d{4})-(?<month>\\d{2})',
      '[[:alpha:]]+[[:^digit:]]',
      '\\p{Greek}+\\PL\\pN',
      '(?i)abc(?-i:d)',
      '[a-z&&[^aeiou]]+',
      '\\A[0-9]+\\z',
      '\\x{1F600}\\u{41}\\x41',
      '[]a]+[^]b]*',
      '(?s:.)*',
      '(?x) a b  # a comment with *? inside\n c',
      '[*?+]+\\*?\\+?\\??',
      '(?-U)a+',
      '',
    ]) {
      expect(problems(p), p).to.deep.equal([]);
    }
  });

  it('rejects look-arounds with rregex’s own message and position', () => {
    expect(problems('foo(?=bar)')).to.deep.equal(['1:4 invalid regex: look-around, including look-ahead and look-behind, is not supported']);
    expect(problems('a(?!b)')).to.deep.equal(['1:2 invalid regex: look-around, including look-ahead and look-behind, is not supported']);
    expect(problems('\\d{1,2}(?<=x)')).to.deep.equal(['1:8 invalid regex: look-around, including look-ahead and look-behind, is not supported']);
    // Columns count code points, as Rust does.
    expect(problems('😀é(?<!x)')).to.deep.equal(['1:3 invalid regex: look-around, including look-ahead and look-behind, is not supported']);
  });

  it('rejects back-references', () => {
    expect(problems('(a)\\1')).to.deep.equal(['1:4 invalid regex: backreferences are not supported']);
  });

  it('surfaces other parse errors concisely with the Rust position', () => {
    expect(problems('ab(c')).to.deep.equal(['1:3 invalid regex: unclosed group']);
    expect(problems('a{3,1}')).to.deep.equal(['1:2 invalid regex: invalid repetition count range, the start must be <= the end']);
    expect(problems('[a')).to.deep.equal(['1:1 invalid regex: unclosed character class']);
    expect(problems('\\Q')).to.deep.equal(['1:1 invalid regex: unrecognized escape sequence']);
    // Multi-line patterns are displayed with line numbers by regex-syntax.
    expect(problems('(?x)\n  a\n  (?=b)')).to.deep.equal(['3:3 invalid regex: look-around, including look-ahead and look-behind, is not supported']);
  });

  it('reports the compiled-size limit as a local limit', () => {
    expect(problems('x{1000000}')).to.deep.equal(['1:1 regex exceeds the local compiled-size limit (10 MiB) used for startup validation']);
    expect(problems('.{1,40000}')).to.deep.equal(['1:1 regex exceeds the local compiled-size limit (10 MiB) used for startup validation']);
  });

  it('rejects every lazy quantifier form that Rust accepts', () => {
    expect(problems('a+?')).to.deep.equal([`1:2 lazy quantifier \`+?\` ${LAZY}`]);
    expect(problems('a*?b')).to.deep.equal([`1:2 lazy quantifier \`*?\` ${LAZY}`]);
    expect(problems('ab??')).to.deep.equal([`1:3 lazy quantifier \`??\` ${LAZY}`]);
    expect(problems('a{2,5}?')).to.deep.equal([`1:2 lazy quantifier \`{2,5}?\` ${LAZY}`]);
    expect(problems('a{2,}?')).to.deep.equal([`1:2 lazy quantifier \`{2,}?\` ${LAZY}`]);
    // The HIR folds `{1}` away, so only the scanner sees this one.
    expect(problems('a{1}?')).to.deep.equal([`1:2 lazy quantifier \`{1}?\` ${LAZY}`]);
    // `a???` is `(a??)?`: one lazy, then a greedy optional.
    expect(problems('a???')).to.deep.equal([`1:2 lazy quantifier \`??\` ${LAZY}`]);
    expect(problems('(a|b)+?c')).to.deep.equal([`1:6 lazy quantifier \`+?\` ${LAZY}`]);
  });

  it('rejects the U (swap greed) flag in every flag form, but not its negation', () => {
    const u = 'the `U` (swap greed) flag is not supported: it makes quantifiers lazy (OpenAI grammars support greedy quantifiers only)';
    expect(problems('(?U)a+')).to.deep.equal([`1:3 ${u}`]);
    expect(problems('x(?iU:a+)')).to.deep.equal([`1:5 ${u}`]);
    expect(problems('(?U)a+?')).to.deep.equal([`1:3 ${u}`, `1:6 lazy quantifier \`+?\` ${LAZY}`]);
    expect(problems('(?i-U)a+')).to.deep.equal([]);
  });

  it('scanner skips escapes, nested and ASCII classes, group names and x-mode comments', () => {
    expect(scanGreediness('\\p{Greek}{2}\\x{41}+[a-z&&[^?]]*?')).to.deep.equal([{ message: `lazy quantifier \`*?\` ${LAZY}`, offset: 30 }]);
    expect(scanGreediness('[[:alpha:]?]+')).to.deep.equal([]);
    expect(scanGreediness('(?P<n>a)+(?<m>b)*')).to.deep.equal([]);
    expect(scanGreediness('(?x) a* # *? here is a comment\n b')).to.deep.equal([]);
    // x mode: whitespace after `*` ends the quantifier, but regex-syntax skips it after `}`.
    expect(scanGreediness('(?x)a+ ?')).to.deep.equal([]);
    expect(scanGreediness('(?x)a{2} ?')).to.have.length(1);
    // The x flag is scoped to its group.
    expect(scanGreediness('(?x: a)# *?')).to.have.length(1);
  });

  it('agrees with rregex’s HIR on greediness (the cross-check)', () => {
    const hirLazy = (p: string): boolean => {
      const re = new RRegex(p);
      try {
        return hasNonGreedy(re.syntax());
      } finally {
        re.free();
      }
    };
    for (const p of ['a+?', 'a*?b', 'a{2,5}?', '(?U)a+', '(x|y)??']) expect(hirLazy(p), p).to.equal(true);
    for (const p of ['a+', '(?U)a+?', '[a-z]*', '\\p{Greek}{2,3}']) expect(hirLazy(p), p).to.equal(false);
  });

  it('checks the regex fixtures', () => {
    const fixture = (name: string): string => readFileSync(new URL(`../../../fixtures/grammars/${name}`, import.meta.url), 'utf8');
    expect(problems(fixture('valid-iso-date.regex'))).to.deep.equal([]);
    expect(problems(fixture('invalid-lazy-lookaround.regex'))).to.deep.equal([
      `1:11 lazy quantifier \`+?\` ${LAZY}`,
      '1:31 invalid regex: look-around, including look-ahead and look-behind, is not supported',
    ]);
  });

  it('caches results by pattern text', () => {
    clearRegexCache();
    const first = checkRustRegex('a(?=b)');
    expect(checkRustRegex('a(?=b)')).to.equal(first);
    expect(Object.isFrozen(first)).to.equal(true);
  });
});
