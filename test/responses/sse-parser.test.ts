import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { SseParseError, SseParser, type SseChunk, type SseEvent } from '../../host/responses/sse-parser.ts';
import { seededRandom } from '../support/prng.ts';

const enc = new TextEncoder();
const bytes = (s: string): Uint8Array => enc.encode(s);
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../fixtures/sse/${name}`, import.meta.url)));
const FIXTURES = ['b-exec-gpt55-001-resp.sse', 'sse2-data-only-001-resp.sse', 'a-default-gpt55-001-resp.sse'];

interface Result {
  chunks: SseChunk[];
  incomplete: string;
}

/** Parses `input` fed as the given pieces (byte arrays), then end(). */
function parsePieces(pieces: Uint8Array[], parser = new SseParser()): Result {
  const chunks: SseChunk[] = [];
  for (const p of pieces) chunks.push(...parser.push(p));
  const end = parser.end();
  return { chunks: [...chunks, ...end.chunks], incomplete: end.incomplete };
}

/** Splits `input` at the given (sorted) byte offsets. */
function splitAt(input: Uint8Array, offsets: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const o of offsets) {
    out.push(input.subarray(prev, o));
    prev = o;
  }
  out.push(input.subarray(prev));
  return out;
}

const parse = (input: Uint8Array | string): Result => parsePieces([typeof input === 'string' ? bytes(input) : input]);
const bytewise = (input: Uint8Array): Result => parsePieces(Array.from(input, (_, i) => input.subarray(i, i + 1)));
const events = (r: Result): SseEvent[] => r.chunks.flatMap((c) => (c.kind === 'event' ? [c.event] : []));
const rawOf = (c: SseChunk): string => (c.kind === 'event' ? c.event.raw : c.raw);
const ev = (e: Partial<SseEvent> & { raw: string }): SseChunk => ({ kind: 'event', event: { data: '', ...e } });
const comment = (raw: string): SseChunk => ({ kind: 'comment', raw });

const rng = seededRandom;

/**
 * Independent, deliberately naive implementation of the same rules over the whole decoded text at once:
 * the oracle the incremental parser is fuzzed against.
 */
function reference(input: Uint8Array): Result {
  const text = new TextDecoder().decode(input); // strips a leading BOM, replaces invalid UTF-8
  const chunks: SseChunk[] = [];
  const line = /([^\r\n]*)(\r\n|\r|\n)/y;
  let rawLines: string[] = [];
  let started = false;
  let event: string | undefined;
  let data: string[] | undefined;
  let id: string | undefined;
  let retry: number | undefined;
  let pos = 0;
  for (let m = line.exec(text); m; m = line.exec(text)) {
    pos = line.lastIndex;
    const [all, content = ''] = m;
    if (content === '') {
      if (started) {
        if (data !== undefined || event !== undefined) {
          const e: { event?: string; data: string; id?: string; retry?: number; raw: string } = { data: (data ?? []).join('\n'), raw: rawLines.join('') + all };
          if (event !== undefined) e.event = event;
          if (id !== undefined) e.id = id;
          if (retry !== undefined) e.retry = retry;
          chunks.push({ kind: 'event', event: e });
        }
        rawLines = [];
        started = false;
        event = data = id = retry = undefined;
      }
    } else if (content.startsWith(':')) {
      chunks.push({ kind: 'comment', raw: all });
    } else {
      started = true;
      rawLines.push(all);
      const c = content.indexOf(':');
      const name = c === -1 ? content : content.slice(0, c);
      let value = c === -1 ? '' : content.slice(c + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (name === 'data') (data ??= []).push(value);
      else if (name === 'event') event = value;
      else if (name === 'id' && !value.includes('\0')) id = value;
      else if (name === 'retry' && /^[0-9]+$/.test(value) && Number.isSafeInteger(Number(value))) retry = Number(value);
    }
  }
  return { chunks, incomplete: rawLines.join('') + text.slice(pos) };
}

describe('SseParser', () => {
  describe('captured Responses streams', () => {
    it('parses the full b-exec stream into its 8 typed events, raw frames reproducing the bytes', () => {
      const input = fixture('b-exec-gpt55-001-resp.sse');
      const r = parse(input);
      const evs = events(r);
      expect(evs.map((e) => e.event)).to.deep.equal([
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.done',
        'response.output_item.done',
        'response.completed',
      ]);
      evs.forEach((e, i) => {
        const json = JSON.parse(e.data) as { type: string; sequence_number: number };
        expect(json.type).to.equal(e.event);
        expect(json.sequence_number).to.equal(i);
        expect(e.raw).to.equal(`event: ${e.event}\ndata: ${e.data}\n\n`);
      });
      expect(r.chunks.map(rawOf).join('')).to.equal(new TextDecoder().decode(input));
      expect(r.incomplete).to.equal('');
    });

    it('parses a data-only stream (no event lines): event is absent, dispatch is on the JSON type', () => {
      const r = parse(fixture('sse2-data-only-001-resp.sse'));
      const evs = events(r);
      expect(evs).to.have.length.greaterThan(2);
      for (const e of evs) {
        expect(e).to.not.have.property('event');
        expect(e.raw).to.equal(`data: ${e.data}\n\n`);
        expect(JSON.parse(e.data)).to.have.property('type').that.is.a('string');
      }
      expect((JSON.parse(evs.at(-1)!.data) as { type: string }).type).to.equal('response.completed');
    });

    for (const name of FIXTURES) {
      it(`gives identical results for ${name} split at every byte offset, and fed byte by byte`, () => {
        const input = fixture(name);
        const whole = parse(input);
        expect(whole).to.deep.equal(reference(input));
        for (let k = 0; k <= input.length; k++) {
          const r = parsePieces(splitAt(input, [k]));
          if (JSON.stringify(r) !== JSON.stringify(whole)) expect(r, `split at ${k}`).to.deep.equal(whole);
        }
        expect(bytewise(input)).to.deep.equal(whole);
      });
    }

    for (const [label, term] of [
      ['CRLF', '\r\n'],
      ['CR-only', '\r'],
    ] as const) {
      it(`parses the captured stream re-terminated with ${label} to the same events, raw keeping ${label}`, () => {
        const lf = fixture('b-exec-gpt55-001-resp.sse');
        const text = new TextDecoder().decode(lf).replace(/\n/g, term);
        const input = bytes(text);
        const expected = events(parse(lf)).map((e) => ({ ...e, raw: e.raw.replace(/\n/g, term) }));
        const whole = parse(input);
        expect(events(whole)).to.deep.equal(expected);
        expect(whole.chunks.map(rawOf).join('')).to.equal(text);
        expect(whole.incomplete).to.equal('');
        for (let k = 0; k <= input.length; k++) {
          const r = parsePieces(splitAt(input, [k]));
          if (JSON.stringify(r) !== JSON.stringify(whole)) expect(r, `split at ${k}`).to.deep.equal(whole);
        }
        expect(bytewise(input)).to.deep.equal(whole);
      });
    }
  });

  describe('line terminators', () => {
    it('treats a CRLF split between chunks as one terminator, not as a blank line', () => {
      const p = new SseParser();
      expect(p.push(bytes('data: a\r'))).to.deep.equal([]);
      expect(p.push(bytes('\ndata: b\r'))).to.deep.equal([]);
      expect(p.push(bytes('\n\r'))).to.deep.equal([]); // the final CR could still be the start of CRLF
      expect(p.push(bytes('\n'))).to.deep.equal([ev({ data: 'a\nb', raw: 'data: a\r\ndata: b\r\n\r\n' })]);
      expect(p.end()).to.deep.equal({ chunks: [], incomplete: '' });
    });

    it('dispatches a frame held on a trailing CR as soon as the next chunk starts with anything but LF', () => {
      const p = new SseParser();
      expect(p.push(bytes('data: a\r\r'))).to.deep.equal([]);
      expect(p.push(bytes('data: b'))).to.deep.equal([ev({ data: 'a', raw: 'data: a\r\r' })]);
      expect(p.end()).to.deep.equal({ chunks: [], incomplete: 'data: b' });
    });

    it('accepts mixed terminators within one stream', () => {
      const r = parse('event: x\r\ndata: 1\rdata: 2\n\r\ndata: 3\r\r: c\n\n');
      expect(r.chunks).to.deep.equal([
        ev({ event: 'x', data: '1\n2', raw: 'event: x\r\ndata: 1\rdata: 2\n\r\n' }),
        ev({ data: '3', raw: 'data: 3\r\r' }),
        comment(': c\n'),
      ]);
    });

    it('handles a CR-only stream fed one byte at a time (every frame end is a held CR)', () => {
      const input = bytes('data: a\r\rdata: b\r\r');
      expect(bytewise(input).chunks).to.deep.equal([ev({ data: 'a', raw: 'data: a\r\r' }), ev({ data: 'b', raw: 'data: b\r\r' })]);
    });
  });

  describe('fields', () => {
    it('joins multi-line data with LF and removes exactly one space after the colon', () => {
      const raw = 'data: a\ndata:b\ndata\ndata:  c\ndata: \n\n';
      expect(parse(raw).chunks).to.deep.equal([ev({ data: 'a\nb\n\n c\n', raw })]);
    });

    it('treats a line without a colon as a field name with an empty value', () => {
      expect(parse('data\n\n').chunks).to.deep.equal([ev({ data: '', raw: 'data\n\n' })]);
      expect(parse('event\ndata: x\n\n').chunks).to.deep.equal([ev({ event: '', data: 'x', raw: 'event\ndata: x\n\n' })]);
    });

    it('keeps colons inside values and uses the last event field', () => {
      const raw = 'event: a\nevent: b:c\ndata: {"k":"v: w"}\n\n';
      expect(parse(raw).chunks).to.deep.equal([ev({ event: 'b:c', data: '{"k":"v: w"}', raw })]);
    });

    it('reports id and retry per frame; ignores an id with NUL and a non-numeric retry', () => {
      const r = parse('id: 7\nretry: 1500\ndata: a\n\ndata: b\n\nid: x\0y\nretry: 1.5\nretry: -1\nretry:\ndata: c\n\n');
      expect(r.chunks).to.deep.equal([
        ev({ id: '7', retry: 1500, data: 'a', raw: 'id: 7\nretry: 1500\ndata: a\n\n' }),
        ev({ data: 'b', raw: 'data: b\n\n' }),
        ev({ data: 'c', raw: 'id: x\0y\nretry: 1.5\nretry: -1\nretry:\ndata: c\n\n' }),
      ]);
    });

    it('keeps unknown fields in raw but otherwise ignores them; field names are case-sensitive', () => {
      const raw = 'foo: bar\nData: x\ndata: y\n\n';
      expect(parse(raw).chunks).to.deep.equal([ev({ data: 'y', raw })]);
    });

    it('returns an event-only frame with empty data (documented deviation from EventSource)', () => {
      expect(parse('event: ping\n\n').chunks).to.deep.equal([ev({ event: 'ping', data: '', raw: 'event: ping\n\n' })]);
    });

    it('produces nothing for frames with neither data nor event, nor for runs of blank lines', () => {
      expect(parse('\n\r\n\r\nid: 1\n\nretry: 5\n\nfoo\n\n\n').chunks).to.deep.equal([]);
      // ... and those lines do not leak into the raw of the next frame.
      expect(parse('\n\nid: 1\n\n\r\ndata: x\n\n').chunks).to.deep.equal([ev({ data: 'x', raw: 'data: x\n\n' })]);
    });
  });

  describe('comments', () => {
    it('returns each comment line as its own chunk with its terminator', () => {
      expect(parse(': keep-alive\n:\r\n:x\rdata: 1\n\n').chunks).to.deep.equal([
        comment(': keep-alive\n'),
        comment(':\r\n'),
        comment(':x\r'),
        ev({ data: '1', raw: 'data: 1\n\n' }),
      ]);
    });

    it('emits a comment inside a frame before the frame and leaves it out of the frame raw', () => {
      const r = parse('event: e\n: mid\ndata: 1\n\n');
      expect(r.chunks).to.deep.equal([comment(': mid\n'), ev({ event: 'e', data: '1', raw: 'event: e\ndata: 1\n\n' })]);
      // Same when the comment arrives in its own chunks.
      const split = parsePieces([bytes('event: e\n: m'), bytes('id\ndata: 1\n'), bytes('\n')]);
      expect(split).to.deep.equal(r);
    });
  });

  describe('UTF-8 and BOM', () => {
    const text = 'event: é\ndata: {"t":"héllo → 世界 😀"}\n\n: ☃\n\n';

    it('decodes multi-byte characters split across chunks at every offset, and every pair of offsets', () => {
      const input = bytes(text);
      const whole = parse(input);
      expect(whole.chunks).to.deep.equal([ev({ event: 'é', data: '{"t":"héllo → 世界 😀"}', raw: 'event: é\ndata: {"t":"héllo → 世界 😀"}\n\n' }), comment(': ☃\n')]);
      for (let i = 0; i <= input.length; i++) {
        for (let j = i; j <= input.length; j++) {
          const r = parsePieces(splitAt(input, [i, j]));
          if (JSON.stringify(r) !== JSON.stringify(whole)) expect(r, `split at ${i},${j}`).to.deep.equal(whole);
        }
      }
    });

    it('strips a BOM at stream start, even split across chunks, and keeps it out of raw', () => {
      const input = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('data: x\n\n')]);
      const expected = { chunks: [ev({ data: 'x', raw: 'data: x\n\n' })], incomplete: '' };
      expect(parse(input)).to.deep.equal(expected);
      expect(bytewise(input)).to.deep.equal(expected);
    });

    it('does not strip a BOM after stream start (it becomes part of a field name)', () => {
      const r = parse(new Uint8Array([...bytes('data: x\n\n'), 0xef, 0xbb, 0xbf, ...bytes('data: y\n\n')]));
      expect(r.chunks).to.deep.equal([ev({ data: 'x', raw: 'data: x\n\n' })]); // "\uFEFFdata" is an unknown field
      const twoBoms = parse(new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, ...bytes('data: y\n\n')]));
      expect(twoBoms.chunks).to.deep.equal([]);
    });

    it('replaces invalid UTF-8 with U+FFFD as EventSource does', () => {
      const r = parse(new Uint8Array([...bytes('data: a'), 0xff, 0xc3, ...bytes('b\n\n')]));
      expect(events(r).map((e) => e.data)).to.deep.equal(['a\uFFFD\uFFFDb']);
    });
  });

  describe('end()', () => {
    it('reports a truncated final frame as incomplete and does not dispatch it', () => {
      expect(parse('data: a\n\ndata: b')).to.deep.equal({ chunks: [ev({ data: 'a', raw: 'data: a\n\n' })], incomplete: 'data: b' });
      expect(parse('data: a\n\nevent: x\r\ndata: y\n')).to.deep.equal({
        chunks: [ev({ data: 'a', raw: 'data: a\n\n' })],
        incomplete: 'event: x\r\ndata: y\n',
      });
      // Split at every offset gives the same result (pieces of the partial frame sit in different buffers).
      const input = bytes('data: a\n\nevent: x\r\n: c\ndata: y\nda');
      const whole = parse(input);
      expect(whole.incomplete).to.equal('event: x\r\ndata: y\nda');
      for (let k = 0; k <= input.length; k++) expect(parsePieces(splitAt(input, [k])), `split at ${k}`).to.deep.equal(whole);
    });

    it('dispatches a frame whose blank line is a CR held at the very end of the stream', () => {
      const p = new SseParser();
      expect(p.push(bytes('data: a\n\r'))).to.deep.equal([]);
      expect(p.end()).to.deep.equal({ chunks: [ev({ data: 'a', raw: 'data: a\n\r' })], incomplete: '' });
    });

    it('returns a trailing unterminated comment as incomplete, and a truncated UTF-8 sequence as U+FFFD', () => {
      expect(parse(': ping')).to.deep.equal({ chunks: [], incomplete: ': ping' });
      const p = new SseParser();
      p.push(bytes('data: a'));
      p.push(new Uint8Array([0xe4, 0xb8])); // first two bytes of 世
      expect(p.end()).to.deep.equal({ chunks: [], incomplete: 'data: a\uFFFD' });
    });

    it('returns nothing for an empty stream and refuses use after end', () => {
      const p = new SseParser();
      expect(p.end()).to.deep.equal({ chunks: [], incomplete: '' });
      expect(() => p.push(bytes('data: x\n\n'))).to.throw(SseParseError, /ended/);
      expect(() => p.end()).to.throw(SseParseError, /ended/);
    });

    it('tolerates empty chunks anywhere', () => {
      const empty = new Uint8Array(0);
      const r = parsePieces([empty, bytes('data: a\r'), empty, bytes('\n'), empty, bytes('\n'), empty]);
      expect(r).to.deep.equal({ chunks: [ev({ data: 'a', raw: 'data: a\r\n\n' })], incomplete: '' });
    });
  });

  describe('maxFrameBytes', () => {
    it('accepts a frame of exactly the limit and rejects one byte more, counting UTF-8 bytes', () => {
      expect(events(parsePieces([bytes('data: 12\n\n')], new SseParser({ maxFrameBytes: 10 })))).to.have.length(1);
      expect(() => parsePieces([bytes('data: 123\n\n')], new SseParser({ maxFrameBytes: 10 }))).to.throw(SseParseError, /maxFrameBytes/);
      // 'é' is 2 bytes: 12 bytes in 10 UTF-16 units.
      expect(events(parsePieces([bytes('data: éé\n\n')], new SseParser({ maxFrameBytes: 12 })))).to.have.length(1);
      expect(() => parsePieces([bytes('data: ééé\n\n')], new SseParser({ maxFrameBytes: 12 }))).to.throw(SseParseError);
    });

    it('throws while a pending frame grows past the limit, before it ends, and stays failed', () => {
      const p = new SseParser({ maxFrameBytes: 100 });
      expect(p.push(bytes(`event: e\ndata: ${'x'.repeat(50)}`))).to.deep.equal([]);
      expect(() => p.push(bytes('x'.repeat(50)))).to.throw(SseParseError, /exceeds maxFrameBytes/);
      expect(() => p.push(bytes('\n\n'))).to.throw(SseParseError, /already failed/);
    });

    it('limits each frame, not the stream, and applies to comment lines too', () => {
      const p = new SseParser({ maxFrameBytes: 64 });
      let n = 0;
      for (let i = 0; i < 1000; i++) n += p.push(bytes(`data: ${i}\n\n`)).length;
      expect(n).to.equal(1000);
      expect(() => parsePieces([bytes(`: ${'c'.repeat(100)}\n`)], new SseParser({ maxFrameBytes: 64 }))).to.throw(SseParseError);
      expect(() => parsePieces([bytes(`: ${'c'.repeat(40)}`), bytes(`${'c'.repeat(40)}\n`)], new SseParser({ maxFrameBytes: 64 }))).to.throw(SseParseError);
    });

    it('rejects a nonsensical limit', () => {
      expect(() => new SseParser({ maxFrameBytes: 0 })).to.throw(RangeError);
      expect(() => new SseParser({ maxFrameBytes: 1.5 })).to.throw(RangeError);
    });
  });

  describe('fuzz against a naive whole-text reference', () => {
    // Byte tokens, including terminators, field names, multi-byte and invalid UTF-8, NUL and BOM.
    const tokens: Uint8Array[] = [
      ...['data', 'data:', 'data: ', 'event:', 'event: ', 'id:', 'retry:', 'x', ':', ' ', '12', '\0', 'é', '世', '😀', '\uFEFF'].map(bytes),
      ...['\n', '\n', '\r', '\r\n', '\n\n', '\r\n\r\n', '\r\r'].map(bytes),
      new Uint8Array([0xff]),
      new Uint8Array([0xf0, 0x9f]),
    ];
    it('matches the reference for 2000 random streams under random chunking', () => {
      const rand = rng(0x5eed);
      for (let iter = 0; iter < 2000; iter++) {
        const parts: number[] = [];
        const nTokens = 1 + Math.floor(rand() * 40);
        for (let i = 0; i < nTokens; i++) parts.push(...tokens[Math.floor(rand() * tokens.length)]!);
        const input = new Uint8Array(parts);
        const offsets: number[] = [];
        for (let o = 0; o < input.length; o += 1 + Math.floor(rand() * 6)) if (o > 0) offsets.push(o);
        const got = parsePieces(splitAt(input, offsets));
        const want = reference(input);
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          expect(got, `iteration ${iter}: ${JSON.stringify(new TextDecoder().decode(input))} split at ${offsets.join(',')}`).to.deep.equal(want);
        }
      }
    });
  });

  // Large inputs: correctness at size (speed is measured by `make bench`, never asserted here).
  describe('large inputs', () => {
    it('parses an 8 MiB data line arriving in 1 KiB chunks', function () {
      this.timeout(10_000);
      const payload = 'x'.repeat(8 * 1024 * 1024);
      const input = bytes(`event: big\ndata: ${payload}\n\n`);
      const p = new SseParser();
      const out: SseChunk[] = [];
      for (let o = 0; o < input.length; o += 1024) out.push(...p.push(input.subarray(o, o + 1024)));
      expect(out).to.have.length(1);
      const first = out[0]!;
      expect(first.kind === 'event' && first.event.data.length).to.equal(payload.length);
    });

    it('parses 40k LF-only frames (no CR anywhere) in one chunk', function () {
      this.timeout(10_000);
      const input = bytes('data: {"type":"response.output_text.delta","delta":"ab"}\n\n'.repeat(40_000));
      const r = new SseParser().push(input);
      expect(r).to.have.length(40_000);
    });

    it('parses 200k colon-less lines in one chunk', function () {
      this.timeout(10_000);
      const input = bytes(`${'data\n'.repeat(200_000)}\n`);
      const r = new SseParser().push(input);
      expect(r).to.have.length(1);
    });
  });
});
