// What every proxied exchange shares: the upstream call, abort propagation, raw body piping,
// timing and the request log line.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { Metrics } from '../metrics/metrics.ts';
import { writeChunk } from './body.ts';
import { sendJsonError } from './json-error.ts';
import type { Logger } from '../log/logger.ts';
import type { RequestLogFields } from './request-log.ts';
import type { Upstream, UpstreamRequest } from './upstream.ts';

export interface ExchangeDeps {
  readonly upstream: Upstream;
  readonly metrics: Metrics;
  readonly log: Logger;
  /** The metrics' mode label. */
  readonly mode: 'hpatch' | 'passthrough';
}

/** One client request, from arrival to the log line. */
export class Exchange {
  readonly controller = new AbortController();
  readonly fields: RequestLogFields;
  private readonly started = performance.now();
  // The upstream's own time to first byte: from sending to its first body byte.
  private upstreamSent: number | undefined;
  private upstreamTtfb: number | undefined;

  constructor(readonly req: IncomingMessage, readonly res: ServerResponse, readonly path: string, readonly deps: ExchangeDeps) {
    this.fields = { method: req.method ?? 'GET', path: req.url ?? '/' };
    deps.metrics.inFlight.value++;
    // A client that goes away cancels the upstream request too.
    res.on('close', () => {
      deps.metrics.inFlight.value--;
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

  /** Copies a body to the client as it arrives; an upstream break breaks the client stream too. */
  async pipe(body: Readable | AsyncIterable<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of body) {
        this.markUpstreamByte();
        this.markFirstByte();
        if (!(await writeChunk(this.res, chunk as Uint8Array, this.signal))) return;
      }
      this.res.end();
    } catch (e) {
      this.breakStream(e);
    }
  }

  /**
   * Mirrors an upstream failure mid-body: what was already written is flushed, then the connection
   * is closed without the final chunk, so the client sees a truncated stream, as it would directly.
   */
  breakStream(e: unknown): void {
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
