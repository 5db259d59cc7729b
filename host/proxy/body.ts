// Reading and decoding message bodies at the edge, with bounds.
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { brotliDecompressSync, createBrotliDecompress, createGunzip, createInflate, gunzipSync, inflateSync } from 'node:zlib';

export class BodyError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

/** Reads a whole body, refusing more than `limit` bytes. */
export async function readBody(stream: AsyncIterable<Buffer | Uint8Array>, limit: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > limit) throw new BodyError(413, 'body_too_large', `${what} is larger than ${limit} bytes`);
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** Undoes a request content-encoding the router must read through (Codex sends none today). */
export function decodeRequestBody(body: Buffer, encoding: string | undefined): Buffer {
  const enc = (encoding ?? 'identity').trim().toLowerCase();
  switch (enc) {
    case '': case 'identity': return body;
    case 'gzip': case 'x-gzip': return gunzipSync(body);
    case 'deflate': return inflateSync(body);
    case 'br': return brotliDecompressSync(body);
    default: throw new BodyError(415, 'unsupported_content_encoding', `request content-encoding "${enc}" is not supported in hpatch mode`);
  }
}

/** A response body stream with its content-encoding undone, or null for an unknown encoding. */
export function decodedResponseStream(body: Readable, encoding: string | string[] | undefined): Readable | null {
  const enc = (Array.isArray(encoding) ? encoding.join(',') : encoding ?? 'identity').trim().toLowerCase();
  switch (enc) {
    case '': case 'identity': return body;
    case 'gzip': case 'x-gzip': return body.pipe(createGunzip());
    case 'deflate': return body.pipe(createInflate());
    case 'br': return body.pipe(createBrotliDecompress());
    default: return null;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeUtf8(body: Buffer, what: string): string {
  try {
    return utf8.decode(body);
  } catch {
    throw new BodyError(400, 'invalid_utf8', `${what} is not valid UTF-8`);
  }
}

/** Writes respecting backpressure; resolves false when the client went away. */
export async function writeChunk(res: ServerResponse, chunk: string | Uint8Array, signal: AbortSignal): Promise<boolean> {
  if (res.destroyed || signal.aborted) return false;
  if (res.write(chunk)) return true;
  try {
    await once(res, 'drain', { signal });
    return true;
  } catch {
    return false;
  }
}

export function asReadable(body: AsyncIterable<Uint8Array> | Readable): Readable {
  return body instanceof Readable ? body : Readable.from(body);
}
