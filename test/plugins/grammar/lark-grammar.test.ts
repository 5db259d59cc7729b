import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { grammarProblems } from '../../../host/plugins/grammar/index.ts';
import { parseLarkGrammar, type Definition } from '../../../host/plugins/grammar/lark-grammar.ts';

const fixture = (name: string): string => readFileSync(new URL(`../../../fixtures/grammars/${name}`, import.meta.url), 'utf8');

// `line:column message` of every problem (`-` when a problem has no position).
function problems(definition: string): string[] {
  return grammarProblems({ type: 'grammar', syntax: 'lark', definition }).map((p) =>
    p.line === undefined ? `- ${p.message}` : `${p.line}:${p.column} ${p.message}`,
  );
}

function expectValid(definition: string): void {
  expect(problems(definition), definition).to.deep.equal([]);
}

describe('grammar validation: Lark format', () => {
  describe('Codex grammars', () => {
    it('accepts Codex’s apply_patch grammar', () => {
      expectValid(fixture('codex-apply-patch.lark'));
    });
    it('accepts the Code Mode exec grammar', () => {
      expectValid(fixture('codex-code-mode-exec.lark'));
    });
  });

  describe('supported syntax', () => {
    it('accepts every construct of the supported subset in one grammar', () => {
      expectValid(fixture('valid-full-syntax.lark'));
    });

    it('parses into an AST with positions', () => {
      const { grammar, problems: syntax } = parseLarkGrammar('start: a "x"i -> b\n?a: /y+/s ~ 2..3 | [C]\nC: "a".."c"\n');
      expect(syntax).to.deep.equal([]);
      const [start, a, c] = grammar.items as Definition[];
      expect(start?.kind).to.equal('rule');
      expect(start?.body[0]?.alias?.name).to.equal('b');
      expect(start?.body[0]?.items[1]?.atom).to.deep.include({ kind: 'string', value: 'x', caseInsensitive: true });
      expect(a?.modifier).to.equal('?');
      expect(a?.body[0]?.items[0]?.atom).to.deep.include({ kind: 'regex', pattern: 'y+', flags: 's' });
      expect(a?.body[0]?.items[0]?.repeat).to.deep.equal({ kind: 'count', min: 2, max: 3 });
      expect(a?.body[1]?.items[0]?.atom.kind).to.equal('maybe');
      expect(c).to.deep.include({ kind: 'terminal', name: 'C', nameSpan: { start: 42, end: 43 } });
      expect(c?.body[0]?.items[0]?.atom).to.deep.include({ kind: 'range', from: 'a', to: 'c' });
    });

    it('accepts alternatives continued on the next line, line continuations and both comment styles', () => {
      expectValid('start: "a"\n  // between\n  | "b" \\\n    "c"\n  # python style\n  | "d"\n');
    });

    it('accepts string escapes and the i flag', () => {
      expectValid('start: "\\"q\\" \\\\ \\/ \\n\\t\\r\\f\\b \\u00e9 \\x41" "case"i\n');
    });

    it('accepts rule modifiers and _inlined names', () => {
      expectValid('?start: _a b\n!_a: "x"\n!?b: _B\n?!c: "z"\n_B: "y"\n');
    });

    it('accepts %ignore with names and inline values', () => {
      expectValid('start: "a"\n%import common.WS\n%ignore WS\n%ignore " " | /\\t/\n');
    });
  });

  describe('unsupported constructs', () => {
    it('rejects terminal priorities', () => {
      expectValid('start: A\nA: "a"\n');
      expect(problems('start: A\nA.2: "a"\n')).to.deep.equal(['2:2 terminal priorities are not supported: `A.2`']);
    });

    it('rejects rule priorities', () => {
      expect(problems('start: a\na.-1: "a"\n')).to.deep.equal(['2:2 rule priorities are not supported: `a.-1`']);
    });

    it('rejects template definitions and uses', () => {
      expectValid('start: pair\npair: "a" ":" "b"\n');
      expect(problems('start: pair{"a"}\npair{x}: x ":" x\n')).to.deep.equal([
        '1:8 templates are not supported: `pair{…}`',
        '2:5 templates are not supported: `pair{x}`',
      ]);
    });

    it('rejects %declare', () => {
      expect(problems('start: A\n%declare A B\n')).to.deep.equal(['2:1 `%declare` is not supported']);
    });

    it('rejects %override and %extend', () => {
      expect(problems('start: a\na: "a"\n%override a: "b"\n%extend a: "c"\n')).to.deep.equal([
        '3:1 `%override` is not supported',
        '4:1 `%extend` is not supported',
      ]);
    });

    it('rejects unknown directives', () => {
      expect(problems('start: "a"\n%llguidance {}\n')).to.deep.equal([
        '2:1 unknown directive `%llguidance` (Lark has %ignore, %import, %declare, %override, %extend)',
      ]);
    });

    it('accepts every form of %import common', () => {
      expectValid('start: WS LF _N N1 CNAME INT\n%import common.WS\n%import common.LF\n%import common.NUMBER -> _N\n%import common.SIGNED_NUMBER -> N1\n%import common (CNAME, INT)\n');
    });

    it('rejects imports of anything but common, in every form', () => {
      const msg = (path: string): string => `\`%import ${path}\` is not supported: only \`%import common.NAME\` imports are available`;
      expect(problems('start: NAME\n%import python.NAME\n')).to.deep.equal([`2:1 ${msg('python.NAME')}`]);
      expect(problems('start: X\n%import .local.X\n')).to.deep.equal([`2:1 ${msg('.local.X')}`]);
      expect(problems('start: A B\n%import lib (A, B)\n')).to.deep.equal([`2:1 ${msg('lib')}`]);
      expect(problems('start: Y\n%import lib.X -> Y\n')).to.deep.equal([`2:1 ${msg('lib.X')}`]);
      expect(problems('start: "a"\n%import common\n')).to.deep.equal(['2:1 `%import common` must name one common terminal, e.g. `%import common.WS`']);
    });

    it('rejects unknown common terminal names and rule-named aliases', () => {
      expect(problems('start: WHITESPACE\n%import common.WHITESPACE\n')[0]).to.match(/^2:16 unknown common terminal `WHITESPACE` \(known: DIGIT, /);
      expect(problems('start: INT\n%import common (INT, _STRING_INNER)\n')[0]).to.match(/^2:22 unknown common terminal `_STRING_INNER`/);
      expect(problems('start: ws\n%import common.WS -> ws\n')).to.deep.equal([
        '1:8 undefined rule `ws`',
        '2:22 common terminal `WS` must be imported under an upper-case terminal name, not `ws`',
      ]);
    });
  });

  describe('symbols', () => {
    it('rejects undefined rules and terminals', () => {
      expectValid('start: a B\na: "a"\nB: "b"\n');
      expect(problems('start: a B\n')).to.deep.equal(['1:8 undefined rule `a`', '1:10 undefined terminal `B`']);
    });

    it('rejects duplicate definitions, including an import that collides', () => {
      expect(problems('start: a\na: "x"\na: "y"\n')).to.deep.equal(['3:1 duplicate definition of `a` (first defined at 2:1)']);
      expect(problems('start: WS\nWS: " "\n%import common.WS\n')).to.deep.equal(['3:16 duplicate definition of `WS` (first defined at 2:1)']);
    });

    it('rejects a terminal that references a rule (also in %ignore)', () => {
      expectValid('start: A\nA: B "x"\nB: "y"\n');
      expect(problems('start: A\nA: b "x"\nb: "y"\n')).to.deep.equal([
        '2:4 terminal `A` references rule `b`: terminals may only use terminals, strings and regexes',
      ]);
      expect(problems('start: a\na: "y"\n%ignore a\n')).to.deep.equal([
        '3:9 `%ignore` references rule `a`: terminals may only use terminals, strings and regexes',
      ]);
    });

    it('rejects recursive terminals', () => {
      expectValid('start: a\na: "(" a ")" | "x"\n');
      expect(problems('start: A\nA: "(" B ")"\nB: A | "x"\n')).to.deep.equal([
        '2:1 terminal `A` is recursive (A → B → A); recursion is only allowed in rules',
      ]);
    });

    it('rejects a missing start rule', () => {
      expectValid('?start: "a"\n');
      expect(problems('begin: "a"\n')).to.deep.equal(['- missing `start` rule: OpenAI grammars begin at `start`']);
      expect(problems('START: "a"\n')).to.deep.equal(['- missing `start` rule: OpenAI grammars begin at `start`']);
    });

    it('rejects aliases in terminals and upper-case aliases', () => {
      expectValid('start: "a" -> first | "b" -> second\n');
      expect(problems('start: A\nA: "a" -> x\n')).to.deep.equal(['2:11 aliases (`-> x`) are not allowed in terminal `A`']);
      expect(problems('start: "a" -> X\n')).to.deep.equal(['1:15 an alias must be a lower-case rule name, not `X`']);
    });
  });

  describe('literals', () => {
    it('rejects unterminated strings', () => {
      expect(problems('start: "abc\n')).to.deep.equal(['1:8 unterminated string literal']);
    });

    it('rejects unterminated regexes (a line end needs the x flag)', () => {
      expect(problems('start: /abc\n')).to.deep.equal(['1:8 unterminated regular expression (a line end inside /…/ needs the x flag)']);
      expect(problems('start: /abc\nd/\n')).to.deep.equal([
        '1:8 unterminated regular expression (a line end inside /…/ needs the x flag)',
        '2:2 unterminated regular expression (a line end inside /…/ needs the x flag)',
      ]);
      expectValid('start: /abc\n d/x\n');
    });

    it('rejects escapes OpenAI’s Lark engine does not know, raw control characters and empty literals', () => {
      expect(problems('start: "\\d"\n')).to.deep.equal([
        '1:9 unsupported escape `\\d` in string literal (use \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX or \\xHH)',
      ]);
      expect(problems('start: "a\tb"\n')).to.deep.equal(['1:10 control character "\\t" in string literal; write it as an escape']);
      expect(problems('start: ""\n')).to.deep.equal(['1:8 empty string literal: terminals cannot be empty']);
      expect(problems('start: //\n')).to.deep.equal([]);
    });

    it('checks "a".."z" ranges', () => {
      expectValid('start: "a".."z" | "\\u0000".."\\x7f"\n');
      expect(problems('start: "z".."a" | "ab".."c" | "a"i.."b"\n')).to.deep.equal([
        '1:8 range "z".."a" is reversed',
        '1:19 range "ab".."c" needs a single character on each side',
        '1:31 the `i` flag is not allowed in a `"a".."z"` range',
      ]);
    });

    it('checks ~ repetition counts', () => {
      expectValid('start: "a" ~ 3 "b" ~ 0..2\n');
      expect(problems('start: "a" ~ 3..1\n')).to.deep.equal(['1:14 bad repetition range ~ 3..1: the maximum is below the minimum']);
    });
  });

  describe('regexes inside a grammar are Rust regexes', () => {
    it('accepts Rust syntax and Lark flags', () => {
      expectValid('start: /(?P<n>[[:alpha:]])\\p{Greek}[a-z&&[^aeiou]]/ /a.b/is /\\/\\//\n');
    });

    it('maps look-around, back-reference and lazy problems into the grammar', () => {
      expect(problems('start: A\nA: "x" /foo(?=bar)/\n')).to.deep.equal([
        '2:12 invalid regex: look-around, including look-ahead and look-behind, is not supported',
      ]);
      expect(problems('start: /(a)\\1/\n')).to.deep.equal(['1:12 invalid regex: backreferences are not supported']);
      expect(problems('start: A\nA: /a+?b/\n')).to.deep.equal([
        '2:6 lazy quantifier `+?` is not supported (OpenAI grammars support greedy quantifiers only)',
      ]);
      // The x flag becomes a `(?x)` prefix; the position still points into the grammar text.
      expect(problems('start: /a\n  (?=b)/x\n')).to.deep.equal([
        '2:3 invalid regex: look-around, including look-ahead and look-behind, is not supported',
      ]);
    });

    it('rejects the U flag inside a regex and Lark’s l flag', () => {
      expect(problems('start: /(?U)a+/\n')).to.deep.equal([
        '1:11 the `U` (swap greed) flag is not supported: it makes quantifiers lazy (OpenAI grammars support greedy quantifiers only)',
      ]);
      expect(problems('start: /a/l\n')).to.deep.equal(['1:11 the `l` regex flag is not supported (Rust regex has no such flag)']);
    });
  });

  describe('malformed syntax', () => {
    it('rejects unbalanced parentheses and brackets', () => {
      expectValid('start: ("a" ["b"])+\n');
      expect(problems('start: ("a" | "b"\n')).to.deep.equal(['1:8 unclosed `(`']);
      expect(problems('start: ["a"\n')).to.deep.equal(['1:8 unclosed `[`']);
      expect(problems('start: "a")\n')).to.deep.equal(['1:11 unmatched `)`']);
      expect(problems('start: ("a"]\n')).to.deep.equal(['1:12 `]` cannot close `(`']);
    });

    it('rejects a missing colon, misplaced operators and stray characters', () => {
      expect(problems('start "a"\n')).to.deep.equal(['1:7 expected `:` after `start`, found `"a"`']);
      expect(problems('start: * "a"\n')).to.deep.equal(['1:8 misplaced operator `*`: it must follow an item']);
      expect(problems('start: "a" b?c\nb: "b"\nc: "c"\n')).to.deep.equal([
        '1:13 rule modifier `?` is only allowed before a rule definition (for an optional item, put a space between `?` and the next name)',
      ]);
      expect(problems('start: "a" @\n')).to.deep.equal(['1:12 unexpected character "@"']);
      expect(problems('start: "a"\nmixedCase: "b"\n')).to.deep.equal([
        '2:1 invalid name `mixedCase`: rule names are lower-case and terminal names upper-case',
      ]);
    });

    it('recovers at the next definition and reports every problem', () => {
      expect(problems('start: a b\na: ("x"\nb: "y" C\nc d: "z"\n')).to.deep.equal([
        '2:4 unclosed `(`',
        '3:8 undefined terminal `C`',
        '4:3 expected `:` after `c`, found `d`',
      ]);
      // Regexes are checked even inside a definition that failed to parse.
      expect(problems('start: ( /a(?=b)/\n')).to.deep.equal([
        '1:8 unclosed `(`',
        '1:12 invalid regex: look-around, including look-ahead and look-behind, is not supported',
      ]);
    });

    it('does not cascade from a broken %import into undefined-terminal reports', () => {
      expect(problems('start: LF LF\n%import common(.LF\n')).to.deep.equal(['2:16 expected a name in the import list, found `.`']);
    });

    it('reports all problems of a grammar with many, in source order', () => {
      expect(problems(fixture('invalid-multiple.lark')).map((p) => p.replace(/ \(known: .*\)$/, ''))).to.deep.equal([
        '3:14 templates are not supported: `pair{…}`',
        '4:5 terminal priorities are not supported: `NAME.2`',
        '4:15 lazy quantifier `+?` is not supported (OpenAI grammars support greedy quantifiers only)',
        '5:5 templates are not supported: `pair{x}`',
        '6:9 invalid regex: look-around, including look-ahead and look-behind, is not supported',
        '7:1 `%declare` is not supported',
        '8:1 `%import python.TOKEN` is not supported: only `%import common.NAME` imports are available',
        '9:16 unknown common terminal `NOT_A_COMMON`',
        '10:9 unclosed `(`',
        '11:1 duplicate definition of `TOKEN` (first defined at 8:16)',
        '11:8 terminal `TOKEN` references rule `item`: terminals may only use terminals, strings and regexes',
        '12:1 duplicate definition of `item` (first defined at 3:1)',
      ]);
    });
  });

  it('accepts CRLF line ends', () => {
    expectValid(fixture('codex-apply-patch.lark').replace(/\n/g, '\r\n'));
  });
});
