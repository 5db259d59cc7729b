// The upstream Responses API, reached through one keep-alive undici Agent.
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type { Agent as AgentType, Dispatcher } from 'undici';

// undici's package entry loads fetch, cookies, WebSocket and HTTP/2 too (about 190 ms at startup);
// the router needs the Agent and the request API only (about 50 ms). undici is pinned, so these
// module paths are stable; the types still come from the package.
const load = createRequire(import.meta.url);
const Agent = load('undici/lib/dispatcher/agent.js') as typeof AgentType;
const requestApi = load('undici/lib/api/api-request.js') as (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

export interface UpstreamRequest {
  readonly method: string;
  /** Path after the `/v1` prefix, with its query string, e.g. `/responses`. */
  readonly path: string;
  readonly headers: string[];
  readonly body?: Readable | Buffer | string;
  readonly signal: AbortSignal;
}

export class Upstream {
  private readonly agent: AgentType;
  private readonly origin: string;
  private readonly basePath: string;

  constructor(baseUrl: URL) {
    this.origin = baseUrl.origin;
    this.basePath = baseUrl.pathname.replace(/\/+$/, '');
    // No body timeout: a model may think silently for minutes; the client's own idle timeout and
    // disconnect (propagated as an abort) bound a stalled stream, as on a direct connection.
    this.agent = new Agent({ keepAliveTimeout: 30_000, headersTimeout: 300_000, bodyTimeout: 0 });
  }

  targetOf(path: string): string {
    return this.origin + this.basePath + path;
  }

  send(req: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    return requestApi.call(this.agent, {
      origin: this.origin,
      path: this.basePath + req.path,
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body ?? null,
      signal: req.signal,
    });
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
