// Incremental Server-Sent Events parser (WHATWG HTML "event stream interpretation") for the proxy hot path.
//
// Decisions beyond the WHATWG algorithm, all made so a proxy can forward frames it does not rewrite:
// - `raw` is the frame's text exactly as received (terminators included), minus any comment lines inside it:
//   comments are returned as their own chunks, before the frame they interrupt, so forwarding every chunk's
//   raw never duplicates a byte. Forwarding all raws reproduces the input except for the BOM, frames that
//   produce nothing (below) and comments moved ahead of the frame they interrupted.
// - A frame with an `event` field but no `data` field is returned (data ''), unlike EventSource, which drops
//   it: a proxy must not silently lose what upstream sent. A frame with neither (only `id`, `retry` or unknown
//   fields) produces nothing, as does a run of blank lines between frames.
// - `id`/`retry` are the frame's own fields, not EventSource's persistent last-event-id/reconnection time.
// - A leading BOM is not part of any frame (TextDecoder strips it once, at stream start only).
// - Invalid UTF-8 decodes to U+FFFD (as EventSource does), so `raw` is byte-exact only for valid UTF-8.
// - maxFrameBytes bounds every frame and comment line (UTF-8 bytes of its raw), whether it is still being
//   buffered or arrived whole in one chunk, so the outcome does not depend on how the stream was split.
// - A CR that is the last decoded character is held until the next chunk (or end()) shows whether an LF
//   follows, so a CRLF split across chunks is one terminator, never an extra blank line.

import { Buffer } from 'node:buffer';

export interface SseEvent {
  readonly event?: string; // value of the last `event:` field, if any
  readonly data: string; // data lines joined with "\n" (WHATWG EventSource rules)
  readonly id?: string;
  readonly retry?: number;
  /** The frame's exact original text, from its first line through the blank line that ended it (line terminators as received). */
  readonly raw: string;
}

export type SseChunk = { readonly kind: 'event'; readonly event: SseEvent } | { readonly kind: 'comment'; readonly raw: string };

export interface SseParserOptions {
  /** Largest frame (or comment line) accepted, in UTF-8 bytes of its raw text. Default 16 MiB. */
  readonly maxFrameBytes?: number;
}

export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

export class SseParseError extends Error {
  override name = 'SseParseError';
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const DIGITS = /^[0-9]+$/;

type LineKind = 'blank' | 'comment' | 'field';

export class SseParser {
  readonly #max: number;
  readonly #decoder = new TextDecoder('utf-8'); // ignoreBOM=false: strips one BOM at stream start only
  // Pieces of an unterminated line carried over from earlier pushes (joined once, when it terminates).
  #carry: string[] = [];
  #carryBytes = 0;
  // The carried line ends in a CR terminator; whether an LF follows is not known yet.
  #heldCr = false;
  // Raw text of the pending frame that came from earlier pushes, or that precedes a comment inside it.
  #frameParts: string[] = [];
  #frameBytes = 0;
  // Fields of the pending frame. `#started` = it has had at least one field line.
  #started = false;
  #event: string | undefined = undefined;
  #data: string | undefined = undefined;
  #id: string | undefined = undefined;
  #retry: number | undefined = undefined;
  #ended = false;
  #failed: SseParseError | undefined = undefined;

  constructor(options: SseParserOptions = {}) {
    const max = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    if (!Number.isSafeInteger(max) || max <= 0) throw new RangeError(`maxFrameBytes must be a positive integer, got ${max}`);
    this.#max = max;
  }

  /** Feed bytes as they arrive (chunks may split anywhere, including inside a UTF-8 sequence or between \r and \n). Returns complete frames in order. */
  push(chunk: Uint8Array): SseChunk[] {
    this.#checkUsable();
    return this.#guard(() => this.#feed(this.#decoder.decode(chunk, { stream: true }), false));
  }

  /** End of stream: returns any complete frame still pending; `incomplete` is the text of a trailing partial frame (no terminating blank line), or '' . */
  end(): { chunks: SseChunk[]; incomplete: string } {
    this.#checkUsable();
    this.#ended = true;
    return this.#guard(() => {
      // Flushing may yield U+FFFD for a truncated UTF-8 sequence; it lands in the partial line.
      const chunks = this.#feed(this.#decoder.decode(), true);
      const incomplete = this.#frameParts.join('') + this.#carry.join('');
      this.#frameParts = [];
      this.#carry = [];
      this.#resetFrame();
      return { chunks, incomplete };
    });
  }

  #checkUsable(): void {
    if (this.#failed) throw new SseParseError(`parser already failed: ${this.#failed.message}`);
    if (this.#ended) throw new SseParseError('parser already ended');
  }

  #guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      if (e instanceof SseParseError) this.#failed = e;
      throw e;
    }
  }

  #feed(text: string, final: boolean): SseChunk[] {
    const out: SseChunk[] = [];
    const len = text.length;
    let pos = 0; // start of the next unprocessed line in `text`
    // Start in `text` of pending-frame raw not yet moved to #frameParts; -1 = none. Consecutive frame lines
    // within one chunk stay one slice, so a frame costs one slice, not one per line.
    let seg = -1;

    if (this.#carry.length > 0) {
      let lineEnd: number; // end of the carried line's content within `text` (content is carry + text[0, lineEnd))
      let next: number; // end of its terminator within `text`
      if (this.#heldCr) {
        if (len === 0 && !final) return out;
        lineEnd = -1; // content excludes the held CR at the end of the carry
        next = len > 0 && text.charCodeAt(0) === LF ? 1 : 0;
      } else {
        const lf = text.indexOf('\n');
        const cr = text.indexOf('\r');
        const t = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
        if (t === -1) {
          if (len > 0) this.#carryPiece(text, false); // at end() this is the decoder's flushed tail, if any
          return out;
        }
        if (t === cr && t === len - 1 && !final) {
          this.#carryPiece(text, true);
          return out;
        }
        lineEnd = t;
        next = t === cr && t + 1 < len && text.charCodeAt(t + 1) === LF ? t + 2 : t + 1;
      }
      const prefix = this.#carry.join('');
      const line = lineEnd === -1 ? prefix.slice(0, -1) : prefix + text.slice(0, lineEnd);
      const raw = prefix + text.slice(0, next);
      this.#carry = [];
      this.#carryBytes = 0;
      this.#heldCr = false;
      const kind = this.#line(line, 0, line.length, line.indexOf(':'));
      if (kind === 'comment') {
        this.#pushComment(out, raw);
      } else if (kind === 'field' || this.#started) {
        this.#stash(raw);
        if (kind === 'blank') this.#dispatch(out, '');
      }
      pos = next;
    }

    // Cached next-occurrence indexes: each is searched again only once the scan has passed it, so a
    // terminator or colon that is absent (e.g. CR in an LF stream) costs one scan per chunk, not per line.
    let lf = text.indexOf('\n', pos);
    let cr = text.indexOf('\r', pos);
    let colon = text.indexOf(':', pos);
    while (true) {
      if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
      if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
      const t = lf === -1 ? cr : cr === -1 ? lf : lf < cr ? lf : cr;
      if (t === -1) break;
      let next: number;
      if (t === cr) {
        if (t + 1 < len) next = text.charCodeAt(t + 1) === LF ? t + 2 : t + 1;
        else if (final) next = t + 1;
        else break; // hold: an LF may start the next chunk
      } else {
        next = t + 1;
      }
      if (colon !== -1 && colon < pos) colon = text.indexOf(':', pos);
      const kind = this.#line(text, pos, t, colon !== -1 && colon < t ? colon : -1);
      if (kind === 'field') {
        if (seg === -1) seg = pos;
      } else if (kind === 'comment') {
        if (seg !== -1) {
          this.#stash(text.slice(seg, pos));
          seg = -1;
        }
        this.#pushComment(out, text.slice(pos, next));
      } else if (this.#started) {
        this.#dispatch(out, text.slice(seg === -1 ? pos : seg, next));
        seg = -1;
      }
      pos = next;
    }

    if (seg !== -1) this.#stash(text.slice(seg, pos));
    // What is left is one unterminated line (at end(), reported as incomplete); the loop only stops short
    // of the end at a CR when it is the last character, i.e. a held terminator.
    if (pos < len) this.#carryPiece(pos === 0 ? text : text.slice(pos), !final && text.charCodeAt(len - 1) === CR);
    return out;
  }

  /** Interprets one line (content, terminator excluded) `s[start, end)`; `colon` is its first ':' or -1. */
  #line(s: string, start: number, end: number, colon: number): LineKind {
    if (start === end) return 'blank';
    if (s.charCodeAt(start) === COLON) return 'comment';
    this.#started = true;
    let nameEnd = end;
    let valueStart = end;
    if (colon !== -1) {
      nameEnd = colon;
      valueStart = colon + 1;
      if (valueStart < end && s.charCodeAt(valueStart) === SPACE) valueStart++;
    }
    const nameLen = nameEnd - start;
    // Compare in place rather than slicing the name out; data lines dominate, so test them first.
    if (nameLen === 4 && s.startsWith('data', start)) {
      const value = s.slice(valueStart, end);
      this.#data = this.#data === undefined ? value : this.#data + '\n' + value;
    } else if (nameLen === 5 && s.startsWith('event', start)) {
      this.#event = s.slice(valueStart, end);
    } else if (nameLen === 2 && s.startsWith('id', start)) {
      const value = s.slice(valueStart, end);
      if (!value.includes('\0')) this.#id = value; // WHATWG: an id containing NUL is ignored
    } else if (nameLen === 5 && s.startsWith('retry', start)) {
      const value = s.slice(valueStart, end);
      const n = DIGITS.test(value) ? Number(value) : NaN;
      if (Number.isSafeInteger(n)) this.#retry = n; // digits only, per WHATWG; absurd values are ignored
    }
    return 'field';
  }

  /** Ends the pending frame at a blank line; `tail` is its raw text from this chunk (already-stashed parts precede it). */
  #dispatch(out: SseChunk[], tail: string): void {
    // Exact byte counts only near the limit: a UTF-16 code unit is at most 3 UTF-8 bytes.
    if (this.#frameBytes + tail.length * 3 > this.#max) this.#checkSize(this.#frameBytes + Buffer.byteLength(tail, 'utf8'), 'frame');
    const raw = this.#frameParts.length === 0 ? tail : this.#frameParts.join('') + tail;
    if (this.#data !== undefined || this.#event !== undefined) {
      const ev: { event?: string; data: string; id?: string; retry?: number; raw: string } = { data: this.#data ?? '', raw };
      if (this.#event !== undefined) ev.event = this.#event;
      if (this.#id !== undefined) ev.id = this.#id;
      if (this.#retry !== undefined) ev.retry = this.#retry;
      out.push({ kind: 'event', event: ev });
    }
    this.#frameParts = [];
    this.#frameBytes = 0;
    this.#resetFrame();
  }

  #resetFrame(): void {
    this.#started = false;
    this.#event = undefined;
    this.#data = undefined;
    this.#id = undefined;
    this.#retry = undefined;
  }

  #pushComment(out: SseChunk[], raw: string): void {
    if (raw.length * 3 > this.#max) this.#checkSize(Buffer.byteLength(raw, 'utf8'), 'comment line');
    out.push({ kind: 'comment', raw });
  }

  #stash(piece: string): void {
    this.#frameParts.push(piece);
    this.#frameBytes += Buffer.byteLength(piece, 'utf8');
    this.#checkSize(this.#frameBytes + this.#carryBytes, 'pending frame');
  }

  #carryPiece(piece: string, endsWithCr: boolean): void {
    this.#carry.push(piece);
    this.#carryBytes += Buffer.byteLength(piece, 'utf8');
    this.#heldCr = endsWithCr;
    this.#checkSize(this.#frameBytes + this.#carryBytes, 'pending frame');
  }

  #checkSize(bytes: number, what: string): void {
    if (bytes > this.#max) {
      throw new SseParseError(`SSE ${what} exceeds maxFrameBytes (${bytes} > ${this.#max} bytes)`);
    }
  }
}
