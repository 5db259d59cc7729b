// Event boundaries in a raw SSE byte stream the router forwards without parsing (passthrough), so
// that a shutdown can end the stream between two events instead of inside one. Until aligning is
// asked for, bytes pass through at once; from then on, bytes after the last complete event are held
// back, and dropped if the stream is ended before the event completes.
//
// A boundary is a blank line: a line terminator (CRLF, LF or CR) right after another one, as in the
// WHATWG event stream format. A CR followed by LF is one terminator, even split across chunks.

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = Buffer.alloc(0);

export class SseBoundary {
  /** Bytes not handed out yet (aligning only): the start of an incomplete event. */
  private held: Buffer = EMPTY;
  private atLineStart = true;
  private pendingCr = false;
  private crWasBoundary = false;
  /** Stream offsets: bytes scanned, end of the last complete event, bytes handed out. */
  private scanned = 0;
  private lastBoundary = 0;
  private handedOut = 0;

  /**
   * The bytes that may be written now: any held bytes and `chunk`, or when `align` is set, only up
   * to the end of the last complete event (the rest is held). An empty chunk without `align`
   * flushes what is held (the upstream's own torn end is forwarded as it came).
   */
  next(chunk: Uint8Array, align: boolean): Buffer {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.scan(buf);
    const all = this.held.length === 0 ? buf : Buffer.concat([this.held, buf]);
    if (!align) {
      this.held = EMPTY;
      this.handedOut = this.scanned;
      return all;
    }
    const start = this.scanned - all.length;
    const cut = Math.max(this.lastBoundary, this.handedOut) - start;
    this.held = Buffer.from(all.subarray(cut));
    this.handedOut = start + cut;
    return all.subarray(0, cut);
  }

  /** Whether everything handed out ends at an event boundary (ending the stream now tears no event). */
  get clean(): boolean {
    return this.handedOut === this.lastBoundary;
  }

  private scan(buf: Buffer): void {
    for (let i = 0; i < buf.length; i++) {
      const b = buf[i]!;
      if (b === LF && this.pendingCr) {
        // The LF of a CRLF: the terminator (and a boundary it made) now ends after this byte.
        this.pendingCr = false;
        if (this.crWasBoundary) this.lastBoundary = this.scanned + i + 1;
      } else if (b === LF || b === CR) {
        const boundary = this.atLineStart;
        if (boundary) this.lastBoundary = this.scanned + i + 1;
        this.atLineStart = true;
        this.pendingCr = b === CR;
        this.crWasBoundary = b === CR && boundary;
      } else {
        this.atLineStart = false;
        this.pendingCr = false;
      }
    }
    this.scanned += buf.length;
  }
}
