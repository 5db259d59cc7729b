// What every proxied exchange shares: the upstream call, abort propagation, raw body piping,
// timing and the request log line.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { Metrics } from '../metrics/metrics.ts';
import { writeChunk } from './body.ts';
import type { Cuttable, InFlight } from './in-flight.ts';
import { sendJsonError } from './json-error.ts';
import type { Logger } from '../log/logger.ts';
import type { RequestLogFields } from './request-log.ts';
import { SseBoundary } from './sse-boundary.ts';
import type { Upstream, UpstreamRequest } from './upstream.ts';

export interface ExchangeDeps {
  readonly upstream: Upstream;
  readonly metrics: Metrics;
  readonly log: Logger;
  /** The metrics' mode label. */
  readonly mode: 'hpatch' | 'passthrough';
  /** Tracks this exchange for a graceful shutdown (absent: nothing drains it). */
  readonly inFlight: InFlight;
}

/** One client request, from arrival to the log line. */
export class Exchange implements Cuttable {
  readonly controller = new AbortController();
  readonly fields: RequestLogFields;
  readonly closed: Promise<void>;
  private readonly started = performance.now();
  // The upstream's own time to first byte: from sending to its first body byte.
  private upstreamSent: number | undefined;
  private upstreamTtfb: number | undefined;
  /** Set by cut(): the shutdown bound ended this exchange; nothing else may end or break it. */
  private cutShort = false;
  /**
   * How the response body streams, for cut(): 'events' when every write is whole SSE events (the
   * translator's output), a boundary tracker for raw SSE bytes, null for anything else.
   */
  private sse: 'events' | SseBoundary | null = null;

  constructor(readonly req: IncomingMessage, readonly res: ServerResponse, readonly path: string, readonly deps: ExchangeDeps) {
    this.fields = { method: req.method ?? 'GET', path: req.url ?? '/' };
    let closed = (): void => {};
    this.closed = new Promise((resolve) => (closed = resolve));
    deps.inFlight.add(this);
    // A client that goes away cancels the upstream request too.
    res.on('close', () => {
      closed();
      if (!res.writableFinished) {
        if (this.fields.error === undefined) this.fields.aborted = true;
        this.controller.abort();
      }
      this.fields.totalMs = performance.now() - this.started;
      // Observation never changes an answer (REQ-PLUGIN-001 acceptance 10): a failing log sink is ignored.
      try {
        deps.log.request(this.fields);
      } catch {
        /* the exchange is over; nothing to report it to */
      }
    });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The first body byte went to the client; with the upstream's own TTFB known, what the router added is observed. */
  markFirstByte(): void {
    if (this.fields.ttfbMs !== undefined) return;
    this.fields.ttfbMs = performance.now() - this.started;
    if (this.upstreamTtfb !== undefined) {
      this.fields.addedTtfbMs = Math.max(0, this.fields.ttfbMs - this.upstreamTtfb);
      this.deps.metrics.addedTtfbSeconds(this.deps.mode, this.fields.addedTtfbMs / 1000);
    }
  }

  /** The first upstream body byte arrived (for a body read whole: its headers, which come with it). */
  markUpstreamByte(): void {
    if (this.upstreamTtfb === undefined && this.upstreamSent !== undefined) this.upstreamTtfb = performance.now() - this.upstreamSent;
  }

  /** Sends to the upstream; on failure answers 502 itself and returns null. */
  async send(request: Omit<UpstreamRequest, 'signal'>): Promise<Dispatcher.ResponseData | null> {
    try {
      this.upstreamSent = performance.now();
      const up = await this.deps.upstream.send({ ...request, signal: this.signal });
      this.fields.status = up.statusCode;
      this.fields.upstreamStatus = up.statusCode;
      this.deps.metrics.upstreamResponse(up.statusCode);
      return up;
    } catch (e) {
      if (this.signal.aborted) return null;
      const message = e instanceof Error ? e.message : String(e);
      this.fail(502, 'upstream_unreachable', `upstream ${this.deps.upstream.targetOf(request.path)} failed: ${message}`);
      return null;
    }
  }

  fail(status: number, code: string, message: string): void {
    this.fields.status = status;
    this.fields.error = message;
    sendJsonError(this.res, status, code, message);
  }

  /** The response body is written as whole SSE events only (what a shutdown may end it after). */
  streamsWholeEvents(): void {
    this.sse = 'events';
  }

  /**
   * Copies a body to the client as it arrives; an upstream break breaks the client stream too. An
   * uncompressed SSE body is tracked for event boundaries: while the server drains, only whole
   * events are written, so a cut at the shutdown bound never ends the stream inside one.
   */
  async pipe(body: Readable | AsyncIterable<Uint8Array>, headers: Readonly<Record<string, string | string[] | undefined>> = {}): Promise<void> {
    const encoding = String(headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    const sse = String(headers['content-type'] ?? '').includes('text/event-stream') && (encoding === '' || encoding === 'identity');
    const boundary = sse ? new SseBoundary() : null;
    this.sse = boundary;
    try {
      for await (const chunk of body) {
        this.markUpstreamByte();
        this.markFirstByte();
        const out = boundary ? boundary.next(chunk as Uint8Array, this.deps.inFlight.draining) : (chunk as Uint8Array);
        if (out.length > 0 && !(await writeChunk(this.res, out, this.signal))) return;
      }
      // The upstream ended the body itself: what is held back (its own torn end) goes out as it came.
      const rest = boundary?.next(Buffer.alloc(0), false);
      if (rest && rest.length > 0 && !(await writeChunk(this.res, rest, this.signal))) return;
      this.res.end();
    } catch (e) {
      this.breakStream(e);
    }
  }

  /**
   * The shutdown bound passed (InFlight.drain). Not answered yet: a 503 the client may retry. An
   * SSE stream: ended after its last whole event with the final chunk, a clean end of the body that
   * lacks `response.completed` (Codex retries such a stream; doc/operations.md). Anything else is
   * closed: a truncated body cannot be ended cleanly.
   */
  cut(): void {
    if (this.cutShort || this.res.writableEnded || this.res.destroyed) return;
    this.cutShort = true;
    if (!this.res.headersSent) {
      this.res.shouldKeepAlive = false;
      this.fail(503, 'router_shutting_down', 'the router is shutting down; retry shortly');
      this.controller.abort();
      return;
    }
    this.fields.error = 'response cut short: the router is shutting down';
    this.controller.abort();
    const clean = this.sse === 'events' || (this.sse !== null && this.sse.clean);
    if (clean) this.res.end();
    else this.res.destroy();
  }

  /**
   * Mirrors an upstream failure mid-body: what was already written is flushed, then the connection
   * is closed without the final chunk, so the client sees a truncated stream, as it would directly.
   */
  breakStream(e: unknown): void {
    if (this.cutShort) return; // cut() already ended the response; the upstream failed because it aborted it
    if (!this.signal.aborted) this.fields.error = `upstream body failed: ${e instanceof Error ? e.message : String(e)}`;
    const socket = this.res.socket;
    if (!socket || socket.destroyed) {
      this.res.destroy();
      return;
    }
    socket.end();
    setTimeout(() => socket.destroy(), 5000).unref();
  }
}
