// The hpatch-mode data path for POST /v1/responses, read top to bottom:
//   request → rewrite (classify, restore history, offer tools) → upstream → translate → response.
import type { Readable } from 'node:stream';
import { isSafeThreadId } from '../history/thread-id.ts';
import type { Ledger } from '../history/ledger.ts';
import { ReplayMismatchError } from '../history/replay.ts';
import type { ToolRegistry } from '../registry/registry.ts';
import { UnsupportedShapeError } from '../request/classify.ts';
import { prepareRequest, type PreparedRequest, type RequestContext } from '../request/rewrite.ts';
import { SseParser } from '../responses/sse-parser.ts';
import { translateJsonResponse } from '../translate/output-items.ts';
import { RoutingFailure } from '../translate/routing-failure.ts';
import { SseTranslator } from '../translate/sse-translator.ts';
import { BodyError, decodedResponseStream, decodeRequestBody, decodeUtf8, readBody, writeChunk } from './body.ts';
import type { Exchange } from './exchange.ts';
import { requestHeadersForUpstream, responseHeadersForClient } from './headers.ts';

export interface HpatchDeps {
  readonly registry: ToolRegistry;
  readonly ledger: Ledger;
}

const REQUEST_LIMIT = 64 * 1024 * 1024;
const JSON_RESPONSE_LIMIT = 64 * 1024 * 1024;
// The router reads what it forwards; it asks the upstream for plain bytes so it never has to
// decode an encoding Node 20 lacks (zstd), and re-encodes nothing towards Codex on loopback.
const REQUEST_DROP = new Set(['content-length', 'content-encoding', 'accept-encoding']);
const RESPONSE_DROP = new Set(['content-length', 'content-encoding']);

export async function hpatchResponses(ex: Exchange, deps: HpatchDeps): Promise<void> {
  const read = await prepare(ex, deps);
  if (!read) return;
  const { prepared, raw, text } = read;
  const { context } = prepared;
  // An untouched request goes out as the very bytes that came in.
  const bytes = prepared.text === text ? raw : Buffer.from(prepared.text, 'utf8');
  const up = await ex.send({
    method: 'POST',
    path: ex.path,
    headers: [...requestHeadersForUpstream(ex.req.rawHeaders, REQUEST_DROP), 'content-length', String(bytes.length), 'accept-encoding', 'identity'],
    body: bytes,
  });
  if (!up) return;

  const type = String(up.headers['content-type'] ?? '');
  const translatable = context.exposed.size > 0 && up.statusCode >= 200 && up.statusCode < 300 &&
    (type.includes('text/event-stream') || type.includes('application/json'));
  if (!translatable) {
    ex.res.writeHead(up.statusCode, responseHeadersForClient(up.headers));
    ex.res.flushHeaders();
    await ex.pipe(up.body, up.headers);
    return;
  }
  const body = decodedResponseStream(up.body, up.headers['content-encoding']);
  if (!body) {
    up.body.destroy();
    ex.fail(502, 'upstream_encoding', `upstream answered with content-encoding "${String(up.headers['content-encoding'])}" after being asked for identity`);
    return;
  }
  const headers = responseHeadersForClient(up.headers, RESPONSE_DROP);
  if (type.includes('text/event-stream')) await translateSse(ex, deps, context, up.statusCode, headers, body);
  else await translateJson(ex, deps, context, up.statusCode, headers, body);
}

async function prepare(ex: Exchange, deps: HpatchDeps): Promise<{ prepared: PreparedRequest; raw: Buffer; text: string } | null> {
  const threadHeader = ex.req.headers['thread-id'] ?? ex.req.headers['session-id'];
  const threadId = typeof threadHeader === 'string' ? threadHeader : null;
  if (threadId !== null) ex.fields.thread = threadId;
  try {
    if (threadId !== null && !isSafeThreadId(threadId)) {
      throw new BodyError(400, 'invalid_thread_id', 'the thread-id header is not a safe thread id (1-128 of [A-Za-z0-9._-], not starting with ".")');
    }
    const raw = decodeRequestBody(await readBody(ex.req, REQUEST_LIMIT, 'request body'), ex.req.headers['content-encoding']);
    const text = decodeUtf8(raw, 'request body');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (e) {
      throw new BodyError(400, 'invalid_json', `request body is not JSON: ${(e as Error).message}`);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BodyError(400, 'invalid_json', 'request body must be a JSON object');
    const thread = threadId !== null ? await deps.ledger.thread(threadId) : null;
    const prepared = prepareRequest(text, body as Record<string, unknown>, { registry: deps.registry, threadId, thread });
    ex.fields.shape = prepared.context.shape;
    ex.fields.restored = prepared.restored.length;
    ex.deps.metrics.request('hpatch', prepared.context.shape, 'forwarded');
    for (const r of prepared.restored) ex.deps.metrics.restoredCall(r.entry.tool, r.entry.carrier.kind);
    return { prepared, raw, text };
  } catch (e) {
    if (e instanceof BodyError) ex.fail(e.status, e.code, e.message);
    else if (e instanceof UnsupportedShapeError) ex.fail(400, 'unsupported_request_shape', `unsupported request shape: ${e.message}`);
    else if (e instanceof ReplayMismatchError) ex.fail(400, 'history_mismatch', `routing failure: ${e.message}`);
    else if (!ex.signal.aborted) ex.fail(500, 'router_error', e instanceof Error ? e.message : String(e));
    ex.deps.metrics.request('hpatch', 'refused', ex.fields.error ? 'refused' : 'aborted');
    return null;
  }
}

async function translateSse(ex: Exchange, deps: HpatchDeps, ctx: RequestContext, status: number, headers: string[], body: Readable): Promise<void> {
  ex.res.writeHead(status, headers);
  ex.res.flushHeaders();
  ex.streamsWholeEvents();
  const parser = new SseParser();
  const translator = new SseTranslator(ctx, { ledger: deps.ledger, metrics: ex.deps.metrics, log: ex.deps.log });
  // Everything translated from one upstream read goes out in one write (one syscall, one HTTP
  // chunk); the next read is not awaited first, so nothing waits on the upstream.
  const emit = async (chunks: ReturnType<SseParser['push']>): Promise<boolean> => {
    let pending = '';
    for (const chunk of chunks) {
      const out = await translator.push(chunk);
      pending += out.text;
      if (out.stop) {
        ex.fields.error = 'routing failure reported to the client';
        if (pending !== '') {
          ex.markFirstByte();
          await writeChunk(ex.res, pending, ex.signal);
        }
        return false;
      }
    }
    if (pending === '') return true;
    ex.markFirstByte();
    return writeChunk(ex.res, pending, ex.signal);
  };
  try {
    for await (const buf of body) {
      ex.markUpstreamByte();
      if (!(await emit(parser.push(buf as Uint8Array)))) {
        body.destroy();
        ex.res.end();
        return;
      }
    }
    const tail = parser.end();
    if (!(await emit(tail.chunks))) {
      ex.res.end();
      return;
    }
    // A torn final frame is forwarded as it came: Codex judges an incomplete stream itself.
    if (tail.incomplete !== '') await writeChunk(ex.res, tail.incomplete, ex.signal);
    ex.res.end();
  } catch (e) {
    ex.breakStream(e);
  } finally {
    ex.fields.translated = translator.count('carrier');
    ex.fields.diagnostics = translator.count('diagnostic');
  }
}

async function translateJson(ex: Exchange, deps: HpatchDeps, ctx: RequestContext, status: number, headers: string[], body: Readable): Promise<void> {
  let out: string;
  // The upstream's JSON arrives with its headers; the router's added time is the read and translation.
  ex.markUpstreamByte();
  try {
    const text = decodeUtf8(await readBody(body, JSON_RESPONSE_LIMIT, 'upstream JSON response'), 'upstream JSON response');
    out = await translateJsonResponse(text, ctx, { ledger: deps.ledger, metrics: ex.deps.metrics, log: ex.deps.log });
  } catch (e) {
    if (ex.signal.aborted) return;
    if (e instanceof RoutingFailure) ex.fail(502, 'routing_failure', `routing failure: ${e.message}`);
    else if (e instanceof BodyError) ex.fail(502, e.code, e.message);
    else ex.fail(502, 'upstream_invalid_json', `upstream JSON response could not be translated: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  const bytes = Buffer.from(out, 'utf8');
  ex.res.writeHead(status, [...headers, 'content-length', String(bytes.length)]);
  ex.markFirstByte();
  ex.res.end(bytes);
}
