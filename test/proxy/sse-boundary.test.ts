// SseBoundary: what a draining router may forward of a raw SSE stream, however it is split.
import { expect } from 'chai';
import { SseBoundary } from '../../host/proxy/sse-boundary.ts';
import { seededRandom } from '../support/prng.ts';

const take = (b: SseBoundary, s: string, align: boolean): string => b.next(Buffer.from(s, 'latin1'), align).toString('latin1');

describe('SseBoundary', () => {
  it('passes bytes through unchanged until aligning is asked for', () => {
    const b = new SseBoundary();
    expect(take(b, 'data: 1\n\ndata: 2', false)).to.equal('data: 1\n\ndata: 2');
    expect(b.clean).to.equal(false);
    expect(take(b, '\n\n', false)).to.equal('\n\n');
    expect(b.clean).to.equal(true);
  });

  it('while aligning, hands out whole events only; an unaligned flush forwards what is held', () => {
    const b = new SseBoundary();
    expect(take(b, 'data: 1\n\nda', true)).to.equal('data: 1\n\n');
    expect(b.clean).to.equal(true);
    expect(take(b, 'ta: 2\n', true)).to.equal('');
    expect(take(b, '\ndata: 3', true)).to.equal('data: 2\n\n');
    expect(take(b, '', false)).to.equal('data: 3');
  });

  it('completes an event begun before aligning, then holds the next', () => {
    const b = new SseBoundary();
    expect(take(b, 'data: 1', false)).to.equal('data: 1');
    expect(take(b, '\n\ndata: 2', true)).to.equal('\n\n');
    expect(b.clean).to.equal(true);
  });

  it('knows CRLF and CR terminators, a CRLF split across chunks included', () => {
    const b = new SseBoundary();
    expect(take(b, 'data: 1\r\n\r', true)).to.equal('data: 1\r\n\r');
    expect(take(b, '\ndata: 2\r\r', true)).to.equal('\ndata: 2\r\r');
    // A lone CR inside a line is a terminator too: "a\rb" is two lines, not a blank one.
    expect(take(b, 'data: a\rdata: b\r', true)).to.equal('');
    expect(b.clean).to.equal(true);
  });

  it('for any split, aligned output is the stream up to its last blank line', () => {
    const rand = seededRandom(18);
    const pieces = ['data: x', '\n', '\r\n', '\r', 'event: e', ': c', 'data: {"a":1}'];
    for (let run = 0; run < 300; run++) {
      let text = '';
      const n = 1 + Math.floor(rand() * 20);
      for (let i = 0; i < n; i++) text += pieces[Math.floor(rand() * pieces.length)];
      const b = new SseBoundary();
      let out = '';
      for (let pos = 0; pos < text.length; ) {
        const len = 1 + Math.floor(rand() * 6);
        out += take(b, text.slice(pos, pos + len), true);
        pos += len;
      }
      // Reference, on the whole text: the end of the last line terminator that follows another one.
      let end = 0;
      let atLineStart = true;
      for (const m of text.matchAll(/\r\n|\r|\n|[^\r\n]+/g)) {
        const terminator = m[0] === '\n' || m[0] === '\r' || m[0] === '\r\n';
        if (terminator && atLineStart) end = m.index + m[0].length;
        atLineStart = terminator;
      }
      expect(out, JSON.stringify(text)).to.equal(text.slice(0, end));
    }
  });
});
