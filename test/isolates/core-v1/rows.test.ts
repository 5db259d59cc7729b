import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  contentTag,
  formatRow,
  looksLikeRowPrefix,
  parseAnchor,
  parseRow,
  rowHash,
  splitLines,
  utf8Encode,
  xxHash32,
} from '../../../isolates/core-v1/index.ts';

const enc = (s: string): Uint8Array => utf8Encode(s);

describe('core-v1 rows', () => {
  it('xxHash32 matches the reference XXH32 vectors (seed 0)', () => {
    expect(xxHash32(enc(''))).to.equal(0x02cc5d05);
    expect(xxHash32(enc('a'))).to.equal(0x550d7456);
    expect(xxHash32(enc('abc'))).to.equal(0x32d153ff);
    // ≥ 16 bytes exercises the four-lane stripe loop.
    expect(xxHash32(enc('Nobody inspects the spammish repetition'))).to.equal(0xe2293b2f);
  });

  it('rowHash test vectors (documented in doc/core-v1.md)', () => {
    const vectors: [string, string][] = [
      ['', '5fc9'],
      ['abc', '612e'],
      ['func main() {', '621f'],
      ['\tfmt.Println("héllo, 世界 🌍")', '749a'],
      ['}', 'ba5c'],
    ];
    for (const [line, hash] of vectors) expect(rowHash(line), JSON.stringify(line)).to.equal(hash);
  });

  it('rowHash is 4 lowercase hex, significant in indentation, trailing blanks and a lone CR', () => {
    for (const s of ['x', ' x', '\tx', 'x ', 'x\r', '\rx']) expect(rowHash(s)).to.match(/^[0-9a-f]{4}$/);
    expect(rowHash('  return x')).not.to.equal(rowHash('return x'));
    expect(rowHash('\treturn x')).not.to.equal(rowHash('    return x'));
    expect(rowHash('x ')).not.to.equal(rowHash('x'));
    expect(rowHash('x\r')).not.to.equal(rowHash('x'));
  });

  it('rowHash hashes UTF-8 bytes: a lone surrogate hashes like U+FFFD (its encoding)', () => {
    expect(rowHash('a\ud800b')).to.equal(rowHash('a\ufffdb'));
    const h = xxHash32(Uint8Array.from([0xc3, 0xa9]));
    expect(rowHash('é')).to.equal(((h ^ (h >>> 16)) & 0xffff).toString(16).padStart(4, '0'));
  });

  it('contentTag is xxHash32 of the exact bytes as 8 hex; strings and bytes agree', () => {
    expect(contentTag('')).to.equal('02cc5d05');
    expect(contentTag('abc')).to.equal(contentTag(enc('abc')));
    expect(contentTag('a\r\n')).not.to.equal(contentTag('a\n'));
  });

  it('formatRow / parseRow round-trip, including text containing | and :', () => {
    for (const [n, text] of [[1, ''], [12, 'a|b'], [9007199254740991, '1:abcd|x'], [3, '  \tindent']] as const) {
      const row = formatRow(n, text);
      expect(row).to.equal(`${n}:${rowHash(text)}|${text}`);
      expect(parseRow(row)).to.deep.equal({ line: n, hash: rowHash(text), text });
    }
  });

  it('formatRow rejects non-positive or unsafe line numbers', () => {
    for (const n of [0, -1, 1.5, NaN, Infinity, 2 ** 53]) expect(() => formatRow(n, 'x'), String(n)).to.throw(RangeError);
  });

  it('parseRow rejects malformed rows', () => {
    for (const s of ['', '1:abc|x', '01:abcd|x', '0:abcd|x', '1:ABCD|x', '1:abcd x', '1:abcdef|x', 'x1:abcd|', '9007199254740992:abcd|x', ' 1:abcd|x']) {
      expect(parseRow(s), s).to.equal(null);
    }
  });

  it('parseAnchor is strict: positive line without leading zeros, exactly 4 lowercase hex', () => {
    expect(parseAnchor('12:ab3f')).to.deep.equal({ line: 12, hash: 'ab3f' });
    expect(parseAnchor('1:0000')).to.deep.equal({ line: 1, hash: '0000' });
    for (const s of ['012:ab3f', '0:ab3f', '12:AB3F', '12:ab3', '12:ab3f0', '12:ab3g', '12 :ab3f', '12:ab3f ', '+1:ab3f', '12:ab3f|', '12', ':ab3f', '1e3:ab3f', '99999999999999999:abcd']) {
      expect(parseAnchor(s), s).to.equal(null);
    }
  });

  it('looksLikeRowPrefix detects pasted anchors at column 0 (any hex case, leading zeros)', () => {
    for (const s of ['12:ab3f|foo', '1:0000|', '007:ABCD|  x', '3:abcd|']) expect(looksLikeRowPrefix(s), s).to.equal(true);
    for (const s of ['foo 12:ab3f|', '12:ab3|x', '12:ab3f x', 'a:abcd|', '  12:ab3f|x', '12:abcg|', '']) expect(looksLikeRowPrefix(s), s).to.equal(false);
  });

  it('collision rate on real source lines matches an ideal 16-bit hash (birthday bound) and bits are balanced', () => {
    const lines = new Set<string>();
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir).sort()) {
        const p = join(dir, name);
        const st = statSync(p);
        if (st.isDirectory()) walk(p);
        else if (/\.(ts|mjs|md)$/.test(name)) for (const l of splitLines(readFileSync(p, 'utf8'))) lines.add(l.text);
      }
    };
    for (const d of ['host', 'isolates', 'test', 'doc', 'node_modules/typescript/lib']) {
      try { walk(d); } catch { /* a directory another engineer is reshaping */ }
    }
    const n = lines.size;
    expect(n).to.be.greaterThan(20000);
    const buckets = new Map<string, number>();
    const bits = new Array<number>(16).fill(0);
    for (const l of lines) {
      const h = rowHash(l);
      buckets.set(h, (buckets.get(h) ?? 0) + 1);
      const v = parseInt(h, 16);
      for (let b = 0; b < 16; b++) if ((v >> b) & 1) bits[b]!++;
    }
    let pairs = 0;
    for (const c of buckets.values()) pairs += (c * (c - 1)) / 2;
    const expected = (n * (n - 1)) / 2 / 65536;
    // Colliding pairs are ~Poisson(expected): ±15% is many standard deviations at this size.
    expect(pairs / expected, `${pairs} colliding pairs among ${n} lines, ${expected.toFixed(0)} expected`).to.be.within(0.85, 1.15);
    for (const c of bits) expect(c / n).to.be.within(0.48, 0.52);
  });

  it('distinct lines in a typical 300-line file rarely collide (vs 2-hex hashes)', () => {
    // Expected colliding pairs among 300 distinct lines: 300·299/2/65536 ≈ 0.68 (vs ≈175 with 8 bits).
    const text = readFileSync('isolates/core-v1/go-lexical.ts', 'utf8');
    const distinct = [...new Set(splitLines(text).map((l) => l.text))];
    const seen = new Map<string, number>();
    for (const l of distinct) seen.set(rowHash(l), (seen.get(rowHash(l)) ?? 0) + 1);
    const pairs = [...seen.values()].reduce((a, c) => a + (c * (c - 1)) / 2, 0);
    expect(pairs).to.be.at.most(3);
  });
});
