import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { bashQuote, bashQuoteArgv } from '../../host/carriers/bash-quote.ts';
import { CarrierInputError } from '../../host/carriers/carrier-errors.ts';
import { seededRandom } from '../support/prng.ts';

// Feed quoted words to a real `bash -c` (as Codex does with `bash -lc <cmd>`) and read back the
// exact bytes of every word; one spawn per batch keeps thousands of values fast.
function bashWords(values: readonly string[], locale: string): Buffer[] {
  const out: Buffer[] = [];
  let batch: string[] = [];
  let size = 0;
  const flush = (): void => {
    if (batch.length === 0) return;
    const script = `printf '%s\\0' ${batch.join(' ')}`;
    // stdin /dev/null: on a socketpair stdin (libuv's pipes) Debian's bash would source ~/.bashrc.
    const r = spawnSync('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, LC_ALL: locale }, maxBuffer: 64 << 20 });
    expect(r.status, `bash failed: ${r.stderr.toString()}`).to.equal(0);
    expect(r.stderr.toString()).to.equal('');
    const parts: Buffer[] = [];
    let start = 0;
    for (let i = 0; i < r.stdout.length; i++) {
      if (r.stdout[i] === 0) { parts.push(r.stdout.subarray(start, i)); start = i + 1; }
    }
    expect(start, 'trailing bytes after last NUL').to.equal(r.stdout.length);
    expect(parts.length).to.equal(batch.length);
    out.push(...parts);
    batch = [];
    size = 0;
  };
  for (const v of values) {
    const q = bashQuote(v);
    // Stay far below MAX_ARG_STRLEN for the -c argument.
    if (size + q.length > 60_000) flush();
    batch.push(q);
    size += q.length + 1;
  }
  flush();
  return out;
}

const mulberry32 = seededRandom;

const PIECES = [
  '\n', '\r', '\r\n', '\t', "'", '"', "'\\''", '$', '`', '\\', '!', '!!', '~', '~root', '#', '=', 'x=y', '*', '?', '[a]',
  '{', '}', '{a,b}', '{1..3}', '^', '(', ')', '<', '>', '|', '&', ';', ' ', '  ', '%', '@', ',', ':', '.', '/', '-', '-n',
  '-e', '--', '_', 'a', 'Z', '0', '9', 'f', 'F', 'ab', '$(echo pwned)', '${HOME}', '$HOME', "$'x'", '$&', '{.}', '%s',
  'é', 'ü', 'ß', '日本語', '😀', '👩‍👩‍👧', 'e\u0301', '\u0308', '\u200b', '\u2028', '\u2029', '\u00a0', '\u0085', '\u009b',
  '\ufeff', '\ufffd', '\x01', '\x02', '\x1b', '\x1b[31m', '\x7f', '\x1f', '\x0b', '\x0c', '\x08', '\x07', '\x01ab', '\x7f7f',
  'if', 'time', 'in',
];

function randomValue(rnd: () => number): string {
  const roll = rnd();
  if (roll < 0.05) return '';
  let s = '';
  const n = 1 + Math.floor(rnd() * 12);
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.75) {
      s += PIECES[Math.floor(rnd() * PIECES.length)]!;
    } else if (r < 0.85) {
      s += String.fromCharCode(1 + Math.floor(rnd() * 0x7f)); // any ASCII except NUL
    } else if (r < 0.95) {
      let cp = 0x80 + Math.floor(rnd() * (0xffff - 0x80));
      if (cp >= 0xd800 && cp <= 0xdfff) cp = 0x4e2d; // keep it well-formed
      s += String.fromCodePoint(cp);
    } else {
      s += String.fromCodePoint(0x10000 + Math.floor(rnd() * 0xfffff));
    }
  }
  return s;
}

describe('bashQuote', () => {
  it('chooses bare, single-quoted and ANSI-C forms canonically', () => {
    const table: Array<[string, string]> = [
      ['abc', 'abc'],
      ['a-b_c.d/e:f,g+h@i%j', 'a-b_c.d/e:f,g+h@i%j'],
      ['-n', '-n'],
      ['0', '0'],
      ['', "''"],
      ['a b', "'a b'"],
      ["it's", "'it'\\''s'"],
      ["'", "''\\'''"],
      ['x=y', "'x=y'"],
      ['~', "'~'"],
      ['~/x', "'~/x'"],
      ['#x', "'#x'"],
      ['{a,b}', "'{a,b}'"],
      ['*', "'*'"],
      ['?', "'?'"],
      ['[a]', "'[a]'"],
      ['!', "'!'"],
      ['^x', "'^x'"],
      ['$HOME', "'$HOME'"],
      ['`id`', "'`id`'"],
      ['a\\b', "'a\\b'"],
      ['héllo', "'héllo'"],
      ['😀', "'😀'"],
      ['\u2028', "'\u2028'"],
      ['\u0085', "'\u0085'"],
      ['if', "'if'"],
      ['time', "'time'"],
      ['iff', 'iff'],
      ['a\nb', "$'a\\nb'"],
      ["a'\\\r\t", "$'a\\'\\\\\\r\\t'"],
      ['\x01a', "$'\\x01a'"],
      ['\x7f', "$'\\x7f'"],
      ['\x1b[0m', "$'\\x1b[0m'"],
      ['é\n😀', "$'é\\n😀'"],
      ['\x0b\x0c\x1f', "$'\\x0b\\x0c\\x1f'"],
      ['$x\n"', "$'$x\\n\"'"],
    ];
    for (const [value, quoted] of table) expect(bashQuote(value), JSON.stringify(value)).to.equal(quoted);
  });

  it('keeps \\xHH to two digits when a literal hex digit follows (checked in bash)', () => {
    const values = ['\x01a', '\x01ab', '\x7ff', '\x1b0', '\x0f\x0fF'];
    expect(bashWords(values, 'C').map((b) => b.toString('utf8'))).to.deep.equal(values);
  });

  it('joins independently quoted words with single spaces', () => {
    expect(bashQuoteArgv(['grep', '-e', 'a b', '', 'x\ny'])).to.equal("grep -e 'a b' '' $'x\\ny'");
    expect(bashQuoteArgv([])).to.equal('');
  });

  it('keeps reserved words ordinary words in command position', () => {
    for (const word of ['if', 'then', 'do', 'done', 'time', 'function', 'coproc', 'in', 'case', 'while']) {
      // An empty PATH makes a real command `if` unfindable: 127 proves bash looked one up.
      const r = spawnSync('bash', ['-c', `PATH=/nonexistent; ${bashQuoteArgv([word, 'x'])}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      expect(r.status, `${word}: ${r.stderr}`).to.equal(127);
      expect(r.stderr).to.contain(`${word}: command not found`);
    }
  });

  it('rejects NUL and lone surrogates with CarrierInputError naming the argv index', () => {
    for (const bad of ['a\0b', '\ud800', 'x\udc00', '\ude00\ud83d', 'a\ud83d']) {
      expect(() => bashQuote(bad), JSON.stringify(bad)).to.throw(CarrierInputError);
      expect(() => bashQuoteArgv(['ok', 'fine', bad]), JSON.stringify(bad)).to.throw(CarrierInputError, /argv\[2\]/);
    }
    expect(() => bashQuoteArgv(['a\0'])).to.throw(CarrierInputError, /argv\[0\] contains NUL/);
    expect(() => bashQuoteArgv(['x', '\ud800'])).to.throw(CarrierInputError, /argv\[1\] contains a lone surrogate \(U\+D800\)/);
    // A well-formed pair is fine.
    expect(bashQuote('\ud83d\ude00')).to.equal("'😀'");
  });

  for (const locale of ['C', 'C.UTF-8']) {
    it(`round-trips thousands of random values byte-exactly through real bash (LC_ALL=${locale})`, () => {
      const seed = 0x5eed2024;
      const rnd = mulberry32(seed);
      const values = Array.from({ length: 4000 }, () => randomValue(rnd));
      for (const v of values) {
        const q = bashQuote(v);
        expect(q, `seed ${seed}: ${JSON.stringify(v)}`).not.to.match(/[\n\r]/);
        expect(bashQuote(v), 'deterministic').to.equal(q);
      }
      const got = bashWords(values, locale);
      for (let i = 0; i < values.length; i++) {
        const want = Buffer.from(values[i]!, 'utf8');
        expect(got[i]!.equals(want), `seed ${seed} value ${i} ${JSON.stringify(values[i])} quoted ${bashQuote(values[i]!)} got ${JSON.stringify(got[i]!.toString('utf8'))}`).to.equal(true);
      }
      // All three forms were exercised.
      const forms = new Set(values.map((v) => { const q = bashQuote(v); return q.startsWith("$'") ? 'ansi' : q.startsWith("'") ? 'single' : 'bare'; }));
      expect([...forms].sort()).to.deep.equal(['ansi', 'bare', 'single']);
    });
  }

  it('round-trips every single non-NUL ASCII character and C1 control', () => {
    const values: string[] = [];
    for (let c = 1; c < 0xa0; c++) values.push(String.fromCharCode(c), `a${String.fromCharCode(c)}b`);
    const got = bashWords(values, 'C.UTF-8');
    got.forEach((b, i) => expect(b.toString('utf8'), JSON.stringify(values[i])).to.equal(values[i]));
  });
});
