import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { SseFramingError, frameSseEvent } from '../../host/responses/sse-framer.ts';
import { SseParser, type SseChunk } from '../../host/responses/sse-parser.ts';
import { seededRandom } from '../support/prng.ts';

const enc = new TextEncoder();
const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/sse/${name}`, import.meta.url), 'utf8');

/** Parses text fed in chunks of the given byte sizes (cycled). */
function parseText(text: string, sizes: number[] = [Infinity]): { chunks: SseChunk[]; incomplete: string } {
  const input = enc.encode(text);
  const p = new SseParser();
  const chunks: SseChunk[] = [];
  for (let o = 0, i = 0; o < input.length; i++) {
    const size = sizes[i % sizes.length]!;
    chunks.push(...p.push(input.subarray(o, o + size)));
    o += size;
  }
  const end = p.end();
  return { chunks: [...chunks, ...end.chunks], incomplete: end.incomplete };
}

const rng = seededRandom;

describe('frameSseEvent', () => {
  it('frames an event the way the captured Responses streams do', () => {
    expect(frameSseEvent({ event: 'response.created', data: '{"type":"response.created"}' })).to.equal(
      'event: response.created\ndata: {"type":"response.created"}\n\n',
    );
  });

  it('omits the event line when no event is given, and emits an id line when one is', () => {
    expect(frameSseEvent({ data: '{}' })).to.equal('data: {}\n\n');
    expect(frameSseEvent({ event: 'e', id: '42', data: 'x' })).to.equal('event: e\nid: 42\ndata: x\n\n');
    expect(frameSseEvent({ event: '', data: '' })).to.equal('event: \ndata: \n\n');
  });

  it('writes one data line per line of data, treating CRLF, CR and LF alike', () => {
    expect(frameSseEvent({ data: 'a\nb\r\nc\rd' })).to.equal('data: a\ndata: b\ndata: c\ndata: d\n\n');
    expect(frameSseEvent({ data: '\n' })).to.equal('data: \ndata: \n\n');
    expect(frameSseEvent({ data: '\r\n\r' })).to.equal('data: \ndata: \ndata: \n\n');
  });

  it('reproduces every captured stream byte for byte from its parsed events', () => {
    for (const name of ['b-exec-gpt55-001-resp.sse', 'sse2-data-only-001-resp.sse', 'a-default-gpt55-001-resp.sse']) {
      const text = fixture(name);
      const { chunks } = parseText(text);
      const reframed = chunks.map((c) => {
        if (c.kind !== 'event') throw new Error('captured streams have no comments');
        const { event, data } = c.event;
        return frameSseEvent(event === undefined ? { data } : { event, data });
      });
      expect(reframed.join(''), name).to.equal(text);
    }
  });

  it('rejects CR, LF and NUL in the event name and id', () => {
    for (const bad of ['a\nb', 'a\rb', 'a\r\n', '\n', 'a\0b']) {
      expect(() => frameSseEvent({ event: bad, data: 'x' }), JSON.stringify(bad)).to.throw(SseFramingError, /event must not contain/);
      expect(() => frameSseEvent({ id: bad, data: 'x' }), JSON.stringify(bad)).to.throw(SseFramingError, /id must not contain/);
    }
  });

  it('rejects non-string data, event or id', () => {
    for (const bad of [undefined, null, 1, {}, ['a'], Buffer.from('x')]) {
      expect(() => frameSseEvent({ data: bad as unknown as string }), String(bad)).to.throw(SseFramingError, /data must be a string/);
    }
    expect(() => frameSseEvent({ event: 1 as unknown as string, data: '' })).to.throw(SseFramingError, /event must be a string/);
    expect(() => frameSseEvent({ id: null as unknown as string, data: '' })).to.throw(SseFramingError, /id must be a string/);
  });

  it('SseFramingError is an Error with its own name', () => {
    const e = new SseFramingError('m');
    expect(e).to.be.instanceOf(Error);
    expect(e.name).to.equal('SseFramingError');
  });

  it('round-trips random events through the parser (data CR/CRLF come back as LF)', () => {
    const rand = rng(0xf4a3e);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    // Data alphabet includes every line break, leading spaces, colons, field-like text, NUL and non-BMP text.
    const dataAtoms = ['a', 'Z', ' ', '  ', ':', 'data: ', 'event: x', '\n', '\r', '\r\n', '\n\n', '\0', '\t', 'é', '世界', '😀', '\uFEFF', '"', '{}'];
    const nameAtoms = ['response', '.', 'output_text', 'delta', ' ', ':', 'é', '😀', '\t', '-'];
    const text = (atoms: string[], max: number): string => Array.from({ length: Math.floor(rand() * max) }, () => pick(atoms)).join('');
    for (let iter = 0; iter < 3000; iter++) {
      const ev: { event?: string; data: string; id?: string } = { data: text(dataAtoms, 12) };
      if (rand() < 0.7) ev.event = text(nameAtoms, 6);
      if (rand() < 0.3) ev.id = text(nameAtoms, 4);
      const framed = frameSseEvent(ev);
      const sizes = [1 + Math.floor(rand() * 7), 1 + Math.floor(rand() * 3)];
      const { chunks, incomplete } = parseText(framed, sizes);
      const expected: Record<string, unknown> = { data: ev.data.replace(/\r\n?/g, '\n'), raw: framed };
      if (ev.event !== undefined) expected.event = ev.event;
      if (ev.id !== undefined) expected.id = ev.id;
      const ctx = `iteration ${iter}: ${JSON.stringify(ev)}`;
      expect(incomplete, ctx).to.equal('');
      expect(chunks, ctx).to.deep.equal([{ kind: 'event', event: expected }]);
    }
  });

  it('round-trips a sequence of framed events as one stream', () => {
    const evs = [
      { event: 'response.output_text.delta', data: JSON.stringify({ delta: 'line1\nline2\r\n😀' }) },
      { data: 'multi\nline' },
      { event: 'response.completed', data: '{}' },
    ];
    const stream = evs.map(frameSseEvent).join('');
    const { chunks } = parseText(stream, [3]);
    expect(chunks.map((c) => (c.kind === 'event' ? { event: c.event.event, data: c.event.data } : c))).to.deep.equal(
      evs.map((e) => ({ event: e.event, data: e.data })),
    );
  });
});
