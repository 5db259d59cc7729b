// The HTTP front: routes /v1/* to the upstream (passthrough, or the hpatch data path for
// POST /v1/responses) and serves /metrics. Nothing else is reachable.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Ledger } from '../history/ledger.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { ToolRegistry } from '../registry/registry.ts';
import { Exchange } from './exchange.ts';
import { hpatchResponses } from './hpatch-exchange.ts';
import { InFlight, type DrainReport } from './in-flight.ts';
import { sendJsonError } from './json-error.ts';
import { passthrough } from './passthrough.ts';
import type { Logger } from '../log/logger.ts';
import { Upstream } from './upstream.ts';

export type RouterMode =
  | { readonly kind: 'passthrough' }
  | { readonly kind: 'hpatch'; readonly registry: ToolRegistry; readonly ledger: Ledger };

export interface ServerConfig {
  readonly mode: RouterMode;
  readonly host: string;
  readonly port: number;
  readonly upstream: URL;
  readonly metrics: Metrics;
  readonly log: Logger;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:8787 */
  readonly url: string;
  readonly address: AddressInfo;
  /** Stops at once: every connection is closed, whatever it was doing. */
  close(): Promise<void>;
  /**
   * Graceful stop: no new connection or request is accepted, exchanges in flight may finish within
   * `graceMs`, then the rest are cut (InFlight), then everything is closed.
   */
  shutdown(graceMs: number): Promise<DrainReport>;
}

export async function startServer(cfg: ServerConfig): Promise<RunningServer> {
  const upstream = new Upstream(cfg.upstream);
  const inFlight = new InFlight();
  cfg.metrics.inFlight.observe(() => inFlight.size);
  const deps = { upstream, metrics: cfg.metrics, log: cfg.log, mode: cfg.mode.kind, inFlight };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = req.url ?? '/';
    if (inFlight.draining) {
      // A request on a kept-alive connection after shutdown began: refused, and the connection closed.
      res.shouldKeepAlive = false;
      sendJsonError(res, 503, 'router_shutting_down', 'the router is shutting down; retry shortly');
      return;
    }
    if (url === '/metrics' && req.method === 'GET') {
      const body = cfg.metrics.render();
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    if (!url.startsWith('/v1/')) {
      sendJsonError(res, 404, 'not_found', `no route for ${req.method} ${url}; Codex's base_url must end in /v1`);
      return;
    }
    const ex = new Exchange(req, res, url.slice(3), deps);
    const pathname = ex.path.split('?')[0];
    if (cfg.mode.kind === 'hpatch' && req.method === 'POST' && pathname === '/responses') {
      await hpatchResponses(ex, cfg.mode);
    } else {
      if (cfg.mode.kind === 'passthrough') cfg.metrics.request('passthrough', 'untouched', 'forwarded');
      await passthrough(ex);
    }
  };

  const server: Server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    handle(req, res).catch((e: unknown) => {
      cfg.log.event('error', 'internal error', { error: e instanceof Error ? e.stack ?? e.message : String(e) });
      sendJsonError(res, 500, 'router_error', e instanceof Error ? e.message : String(e));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(cfg.port, cfg.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // server.close() once only: a second call waits for a 'close' event that may already be past.
  let listenerClosed: Promise<void> | null = null;
  const stopListening = (): Promise<void> => (listenerClosed ??= new Promise<void>((resolve) => server.close(() => resolve())));
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => (closing ??= (async () => {
    const closed = stopListening();
    server.closeAllConnections();
    await closed;
    await upstream.close();
  })());
  return {
    url: `http://${host}:${address.port}`,
    address,
    close,
    shutdown: async (graceMs: number) => {
      // Stop listening, drop idle keep-alive connections, and each one that turns idle meanwhile.
      if (closing) return { inFlight: 0, cut: 0 };
      void stopListening();
      server.closeIdleConnections();
      const idle = setInterval(() => server.closeIdleConnections(), 100);
      try {
        return await inFlight.drain(graceMs);
      } finally {
        clearInterval(idle);
        await close();
      }
    },
  };
}
