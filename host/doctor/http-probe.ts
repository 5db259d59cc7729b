// One bounded GET for doctor's network checks. node:http rather than fetch: fetch refuses ports on
// the WHATWG "bad port" list (9, 6000, …), which a local router or upstream may well use.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface ProbeAnswer {
  readonly status: number;
  /** The first `maxBody` bytes of the body, as UTF-8. */
  readonly body: string;
}

export class ProbeError extends Error {
  override readonly name = 'ProbeError';
  /** e.g. ECONNREFUSED, ENOTFOUND, or TIMEOUT. */
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export function probe(url: string, timeoutMs: number, maxBody = 64 * 1024): Promise<ProbeAnswer> {
  return new Promise((resolve, reject) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      reject(new ProbeError('EINVAL', `not a URL: ${url}`));
      return;
    }
    const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(u, { method: 'GET', headers: { accept: '*/*', 'user-agent': 'hpatch-router-doctor' } }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (d: Buffer) => {
        if (size < maxBody) chunks.push(d);
        size += d.length;
        if (size >= maxBody) res.destroy();
      });
      const done = (): void => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, maxBody).toString('utf8') });
      };
      res.on('end', done);
      res.on('close', done);
    });
    // One deadline for connect, headers and body together.
    const timer = setTimeout(() => req.destroy(new ProbeError('TIMEOUT', `no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(e instanceof ProbeError ? e : new ProbeError(e.code ?? 'ERROR', e.message));
    });
    req.end();
  });
}
