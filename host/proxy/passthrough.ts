// Passthrough: request and response bytes forwarded unchanged, streamed both ways.
import type { Exchange } from './exchange.ts';
import { requestHeadersForUpstream, responseHeadersForClient } from './headers.ts';

const BODYLESS = new Set(['GET', 'HEAD']);

export async function passthrough(ex: Exchange): Promise<void> {
  const method = ex.req.method ?? 'GET';
  const up = await ex.send({
    method,
    path: ex.path,
    headers: requestHeadersForUpstream(ex.req.rawHeaders),
    ...(BODYLESS.has(method) ? {} : { body: ex.req }),
  });
  if (!up) return;
  ex.res.writeHead(up.statusCode, responseHeadersForClient(up.headers));
  ex.res.flushHeaders();
  await ex.pipe(up.body, up.headers);
}
