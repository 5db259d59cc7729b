// The upstream Responses API, reached through one keep-alive undici Agent.
import { Agent, request, type Dispatcher } from 'undici';
import type { Readable } from 'node:stream';

export interface UpstreamRequest {
  readonly method: string;
  /** Path after the `/v1` prefix, with its query string, e.g. `/responses`. */
  readonly path: string;
  readonly headers: string[];
  readonly body?: Readable | Buffer | string;
  readonly signal: AbortSignal;
}

export class Upstream {
  private readonly agent: Agent;
  private readonly base: string;

  constructor(baseUrl: URL) {
    this.base = baseUrl.href.replace(/\/+$/, '');
    // No body timeout: a model may think silently for minutes; the client's own idle timeout and
    // disconnect (propagated as an abort) bound a stalled stream, as on a direct connection.
    this.agent = new Agent({ keepAliveTimeout: 30_000, headersTimeout: 300_000, bodyTimeout: 0 });
  }

  targetOf(path: string): string {
    return this.base + path;
  }

  send(req: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    return request(this.targetOf(req.path), {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body ?? null,
      signal: req.signal,
      dispatcher: this.agent,
    });
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
