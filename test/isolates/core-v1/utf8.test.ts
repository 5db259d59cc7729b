import { expect } from 'chai';
import {
  isValidUtf8,
  isWellFormed,
  utf8ByteLength,
  utf8Decode,
  utf8Encode,
  utf8TruncateToBytes,
} from '../../../isolates/core-v1/index.ts';
import { seededRandom } from '../../support/prng.ts';

const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);
// Node 20 has the ES2024 String methods; the project's lib setting is ES2023.
type Es2024String = { isWellFormed(): boolean; toWellFormed(): string };
const es24 = (s: string): Es2024String => s as unknown as Es2024String;
const whatwg = new TextDecoder('utf-8', { ignoreBOM: true });
const strictDecoder = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });

// Strings mixing every UTF-8 width, surrogate pairs and lone surrogates.
function randomString(rnd: () => number, maxLen: number): string {
  const len = Math.floor(rnd() * maxLen);
  let s = '';
  for (let i = 0; i < len; i++) {
    const r = rnd();
    if (r < 0.3) s += String.fromCharCode(Math.floor(rnd() * 0x80));
    else if (r < 0.45) s += String.fromCharCode(0x80 + Math.floor(rnd() * 0x780));
    else if (r < 0.65) s += String.fromCharCode(0x800 + Math.floor(rnd() * 0xf7ff));
    else if (r < 0.85) s += String.fromCodePoint(0x10000 + Math.floor(rnd() * 0x100000));
    else if (r < 0.92) s += String.fromCharCode(0xd800 + Math.floor(rnd() * 0x400));
    else s += String.fromCharCode(0xdc00 + Math.floor(rnd() * 0x400));
  }
  return s;
}

// Byte arrays that are often almost valid: lead bytes followed by plausible or boundary continuation bytes.
function randomBytes(rnd: () => number, maxLen: number): Uint8Array {
  const interesting = [0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];
  const len = Math.floor(rnd() * maxLen);
  const out = new Uint8Array(len);
  for (let i = 0; i < len; i++) {
    const r = rnd();
    out[i] = r < 0.4 ? interesting[Math.floor(rnd() * interesting.length)]! : r < 0.7 ? 0x80 + Math.floor(rnd() * 0x40) : Math.floor(rnd() * 256);
  }
  return out;
}

describe('core-v1 utf8', () => {
  it('encodes every width and replaces lone surrogates with EF BF BD', () => {
    expect([...utf8Encode('a\u00e9\u20ac\u{1f600}')]).to.deep.equal([0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80]);
    expect([...utf8Encode('\ud800')]).to.deep.equal([0xef, 0xbf, 0xbd]);
    expect([...utf8Encode('\udc00\ud800')]).to.deep.equal([0xef, 0xbf, 0xbd, 0xef, 0xbf, 0xbd]);
    expect(utf8ByteLength('a\u00e9\u20ac\u{1f600}\ud800')).to.equal(13);
  });

  it('decodes with WHATWG maximal-subpart replacement and keeps a BOM', () => {
    const table: [Uint8Array, string][] = [
      [bytes(0xef, 0xbb, 0xbf, 0x61), '\ufeffa'],
      [bytes(0xc0, 0x80), '\ufffd\ufffd'], // overlong: C0 is never a lead byte
      [bytes(0xe0, 0x80, 0x80), '\ufffd\ufffd\ufffd'],
      [bytes(0xed, 0xa0, 0x80), '\ufffd\ufffd\ufffd'], // encoded surrogate
      [bytes(0xf4, 0x90, 0x80, 0x80), '\ufffd\ufffd\ufffd\ufffd'], // above U+10FFFF
      [bytes(0xe2, 0x82), '\ufffd'], // truncated sequence is one replacement
      [bytes(0xe2, 0x82, 0x41), '\ufffdA'],
      [bytes(0xf0, 0x9f, 0x98), '\ufffd'],
      [bytes(0xff, 0x61), '\ufffda'],
      [bytes(), ''],
    ];
    for (const [b, s] of table) expect(utf8Decode(b), [...b].join(' ')).to.equal(s);
  });

  it('fuzz: utf8Encode equals Buffer.from and TextEncoder; byte length and well-formedness agree', () => {
    const rnd = seededRandom(0xc0de);
    const te = new TextEncoder();
    for (let k = 0; k < 5000; k++) {
      const s = randomString(rnd, 40);
      const ours = utf8Encode(s);
      expect(Buffer.from(ours).equals(Buffer.from(s, 'utf8')), JSON.stringify(s)).to.equal(true);
      expect(Buffer.from(ours).equals(Buffer.from(te.encode(s)))).to.equal(true);
      expect(utf8ByteLength(s)).to.equal(Buffer.byteLength(s, 'utf8'));
      expect(isWellFormed(s)).to.equal(es24(s).isWellFormed());
      expect(utf8Decode(ours)).to.equal(es24(s).toWellFormed());
    }
  });

  it('fuzz: utf8Decode equals TextDecoder (ignoreBOM) and Buffer#toString; isValidUtf8 equals a fatal decoder', () => {
    const rnd = seededRandom(0xbeef);
    for (let k = 0; k < 20000; k++) {
      const b = randomBytes(rnd, 24);
      const ours = utf8Decode(b);
      // Build the failure message only on failure: this loop runs 20000 times.
      if (ours !== whatwg.decode(b) || ours !== Buffer.from(b).toString('utf8')) {
        expect.fail(`decode mismatch for bytes ${[...b].map((x) => x.toString(16)).join(' ')}`);
      }
      let valid = true;
      try {
        strictDecoder.decode(b);
      } catch {
        valid = false;
      }
      expect(isValidUtf8(b)).to.equal(valid);
    }
  });

  it('decodes long inputs (chunked string building) identically', () => {
    const rnd = seededRandom(7);
    const s = randomString(rnd, 100000);
    expect(utf8Decode(utf8Encode(s))).to.equal(es24(s).toWellFormed());
  });

  it('utf8TruncateToBytes never splits a code point or surrogate pair and is maximal', () => {
    expect(utf8TruncateToBytes('a\u00e9b', 2)).to.equal('a');
    expect(utf8TruncateToBytes('a\u00e9b', 3)).to.equal('a\u00e9');
    expect(utf8TruncateToBytes('\u{1f600}x', 3)).to.equal('');
    expect(utf8TruncateToBytes('\u{1f600}x', 4)).to.equal('\u{1f600}');
    expect(utf8TruncateToBytes('abc', 0)).to.equal('');
    expect(utf8TruncateToBytes('abc', -1)).to.equal('');
    expect(utf8TruncateToBytes('abc', 99)).to.equal('abc');
    const rnd = seededRandom(99);
    for (let k = 0; k < 3000; k++) {
      const s = randomString(rnd, 30);
      const max = Math.floor(rnd() * 80);
      const t = utf8TruncateToBytes(s, max);
      expect(s.startsWith(t)).to.equal(true);
      expect(utf8ByteLength(t)).to.be.at.most(max);
      // Cutting inside a pair would leave a lone high surrogate where the source had a pair.
      if (t.length > 0 && t.length < s.length) {
        const last = t.charCodeAt(t.length - 1);
        const next = s.charCodeAt(t.length);
        expect(last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff).to.equal(false);
        // Maximal: the next whole code point (1 or 2 units) would not fit.
        const step = next >= 0xd800 && next <= 0xdbff && s.charCodeAt(t.length + 1) >= 0xdc00 && s.charCodeAt(t.length + 1) <= 0xdfff ? 2 : 1;
        expect(utf8ByteLength(s.slice(0, t.length + step))).to.be.greaterThan(max);
      }
      if (isWellFormed(s)) expect(isWellFormed(t)).to.equal(true);
    }
  });

  it('isWellFormed and isValidUtf8 tables', () => {
    expect(isWellFormed('')).to.equal(true);
    expect(isWellFormed('\u{1f600}')).to.equal(true);
    expect(isWellFormed('\ud83d')).to.equal(false);
    expect(isWellFormed('\ude00\ud83d')).to.equal(false);
    expect(isValidUtf8(bytes(0xf0, 0x9f, 0x98, 0x80))).to.equal(true);
    expect(isValidUtf8(bytes(0xf0, 0x9f, 0x98))).to.equal(false);
    expect(isValidUtf8(bytes(0xc1, 0xbf))).to.equal(false);
    expect(isValidUtf8(bytes(0xed, 0x9f, 0xbf))).to.equal(true);
    expect(isValidUtf8(bytes(0xed, 0xa0, 0x80))).to.equal(false);
  });
});
