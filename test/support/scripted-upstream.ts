// Scripted Responses API server: the only test double allowed, standing in for OpenAI in end-to-end tests.
// Listens on 127.0.0.1 only, answers `POST …/responses` from a script, records every request it sees.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import zlib from 'node:zlib';
import {
  IdAllocator,
  buildEvents,
  buildJsonResponse,
  encodeEvent,
  numberEvents,
  substituteResponseId,
  type BuildOptions,
  type EncodeOptions,
  type JsonObject,
  type ScriptItem,
  type Terminal,
  type Usage,
} from './sse-script.ts';

export interface RecordedRequest {
  /** 0-based position among all requests this server received. */
  index: number;
  /** 0-based position among `POST …/responses` requests (the turn answered), else undefined. */
  turnIndex?: number;
  method: string;
  /** Path and query as received, e.g. `/v1/responses`. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Alternating names/values exactly as received (case and duplicates preserved). */
  rawHeaders: string[];
  /** Body bytes exactly as received (before any content-encoding is undone). */
  body: Buffer;
  /** Parsed JSON of the (decoded) body, if it is JSON. */
  json?: any;
  /** WebSocket upgrade attempt (answered 426). */
  upgrade?: boolean;
  /** Set when the client went away before the response finished (stopped writing at that point). */
  clientAborted: boolean;
  /** Resolves when the exchange is over: `finished` (response fully sent) or `aborted` (client left first). */
  settled: Promise<'finished' | 'aborted' | 'server-ended'>;
  /** Bytes of the response body written before the exchange ended. */
  bytesWritten: number;
  /** The response body bytes written so far (what a transparent proxy must deliver unchanged). */
  responseBody(): Buffer;
}

export interface Chunking {
  /** Bytes per write. */
  size: number;
  /** Pause between writes, so frames really arrive split across reads. */
  delayMs?: number;
}

export interface Turn {
  items?: ScriptItem[];
  /** Default: SSE unless the request body says `"stream": false`. */
  stream?: boolean;
  /** HTTP status; default 200, or 400 when `json` is given. */
  status?: number;
  /** Extra response headers (e.g. `x-codex-turn-state`, `retry-after`). */
  headers?: Record<string, string>;
  /** A raw JSON body (e.g. an error) sent instead of any generated body. */
  json?: unknown;
  /** A raw body sent verbatim (content-type from `headers`, default text/plain). */
  rawBody?: string | Buffer;
  /** Raw event list sent instead of the generated one; missing `sequence_number`s are filled in; `__RESP_ID__` replaced. */
  events?: JsonObject[];
  /** SSE generation knobs: terminal event, omitted types, appended events, data-only, CRLF, usage… */
  sse?: Omit<BuildOptions, 'ids' | 'model' | 'responseId'> & EncodeOptions;
  /** Shorthand for `sse.terminal = { kind: 'none' }`. */
  omitCompleted?: boolean;
  /** Split the body bytes into small writes (exercises frames split across reads). */
  chunking?: Chunking;
  /** Pause between SSE frames (when not chunking). */
  eventGapMs?: number;
  /**
   * How the exchange ends after the body: `complete` (normal end), `close` (TCP FIN without the terminating
   * chunk), `destroy` (socket destroyed), `reset` (TCP RST), `hang` (never ends; until the client leaves or close()).
   */
  end?: 'complete' | 'close' | 'destroy' | 'reset' | 'hang';
  /** Delay before the response headers. */
  delayMs?: number;
  /** Answer headers only after this many ms more (e.g. to test a stalled upstream), same as delayMs but after headers. */
  stallAfterHeadersMs?: number;
  usage?: Usage | null;
}

export type ScriptFn = (req: RecordedRequest, turnIndex: number) => Turn | Promise<Turn>;
export type Script = Turn[] | { turns: Turn[]; after?: Turn } | ScriptFn;

export interface ScriptedUpstream {
  /** Base URL for a provider, e.g. `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** `http://127.0.0.1:PORT` (no path). */
  origin: string;
  requests: RecordedRequest[];
  /** Only the `POST …/responses` requests, in order. */
  responsesRequests(): RecordedRequest[];
  /** Resolves once `count` responses requests have arrived (rejects after `timeoutMs`). */
  waitForResponsesRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Problems of the script itself (e.g. a `last_output_match` without a match); also answered as HTTP 400. */
  scriptErrors: string[];
  close(): Promise<void>;
}

export const DEFAULT_AFTER_TURN: Turn = { items: [{ type: 'message', text: 'Done.' }] };

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Tool outputs in a request's input, newest first, as plain text (array outputs joined by "\n"). */
export function toolOutputsNewestFirst(body: any): string[] {
  const input: unknown[] = Array.isArray(body?.input) ? body.input : [];
  const outs: string[] = [];
  for (const item of input as any[]) {
    if (item?.type !== 'function_call_output' && item?.type !== 'custom_tool_call_output') continue;
    const o = item.output;
    if (typeof o === 'string') outs.push(o);
    else if (Array.isArray(o)) outs.push(o.map((p: any) => (typeof p?.text === 'string' ? p.text : '')).join('\n'));
  }
  return outs.reverse();
}

const PLACEHOLDER = /\{\{last_output_match:(.+?)\}\}/g;

/**
 * Replaces `{{last_output_match:REGEX}}` with capture group 1 (or the whole match) of REGEX applied to the
 * request's tool outputs, newest first. Throws when nothing matches: a scripted value must never be guessed.
 */
export function substituteLastOutputMatch(text: string, body: unknown): string {
  if (!text.includes('{{last_output_match:')) return text;
  const outputs = toolOutputsNewestFirst(body);
  return text.replace(PLACEHOLDER, (_whole, source: string) => {
    const re = new RegExp(source);
    for (const out of outputs) {
      const m = re.exec(out);
      if (m) return m[1] ?? m[0];
    }
    throw new Error(`last_output_match: /${source}/ matched none of ${outputs.length} tool output(s) in the request`);
  });
}

function substituteDeep(value: unknown, body: unknown): unknown {
  if (typeof value === 'string') return substituteLastOutputMatch(value, body);
  if (Array.isArray(value)) return value.map((v) => substituteDeep(v, body));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteDeep(v, body)]));
  }
  return value;
}

/** Applies the placeholder to function-call arguments (string or object form) and custom-tool inputs. */
export function resolveItems(items: readonly ScriptItem[], body: unknown): ScriptItem[] {
  return items.map((item) => {
    if (item.type === 'function_call') {
      return { ...item, arguments: substituteDeep(item.arguments, body) as string | Record<string, unknown> };
    }
    if (item.type === 'custom_tool_call') return { ...item, input: substituteLastOutputMatch(item.input, body) };
    return item;
  });
}

function decodeBody(raw: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
      return zlib.gunzipSync(raw);
    case 'deflate':
      return zlib.inflateSync(raw);
    case 'br':
      return zlib.brotliDecompressSync(raw);
    default:
      return raw;
  }
}

function parseJson(buf: Buffer): any {
  if (buf.length === 0) return undefined;
  try {
    return JSON.parse(buf.toString('utf8'));
  } catch {
    return undefined;
  }
}

export async function startScriptedUpstream(script: Script = []): Promise<ScriptedUpstream> {
  const requests: RecordedRequest[] = [];
  const scriptErrors: string[] = [];
  const ids = new IdAllocator();
  const sockets = new Set<Socket>();
  const serverEnded = new WeakSet<http.ServerResponse>();
  const writtenBy = new WeakMap<http.ServerResponse, Buffer[]>();
  const waiters: Array<() => void> = [];
  let turnCounter = 0;
  let closing = false;

  const turnFor = async (rec: RecordedRequest, turnIndex: number): Promise<Turn> => {
    if (typeof script === 'function') return script(rec, turnIndex);
    const turns = Array.isArray(script) ? script : script.turns;
    const after = Array.isArray(script) ? DEFAULT_AFTER_TURN : (script.after ?? DEFAULT_AFTER_TURN);
    return turns[turnIndex] ?? after;
  };

  const notify = (): void => {
    for (const w of waiters.splice(0)) w();
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let complete = false;
    req.on('data', (c: Buffer) => chunks.push(c));
    // A client that leaves while still sending its body: recorded (partial body), never answered.
    req.on('close', () => {
      if (complete) return;
      requests.push({
        index: requests.length,
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
        clientAborted: true,
        settled: Promise.resolve('aborted'),
        bytesWritten: 0,
        responseBody: () => Buffer.alloc(0),
      });
      notify();
    });
    req.on('end', () => {
      complete = true;
      const body = Buffer.concat(chunks);
      let settle!: (v: 'finished' | 'aborted' | 'server-ended') => void;
      const rec: RecordedRequest = {
        index: requests.length,
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body,
        clientAborted: false,
        settled: new Promise((r) => (settle = r)),
        bytesWritten: 0,
        responseBody: () => Buffer.concat(written),
      };
      const written: Buffer[] = [];
      writtenBy.set(res, written);
      try {
        rec.json = parseJson(decodeBody(body, req.headers['content-encoding']));
      } catch {
        /* undecodable body: keep the raw bytes only */
      }
      const pathOnly = rec.path.split('?')[0] ?? '';
      const isResponses = rec.method === 'POST' && /\/responses$/.test(pathOnly);
      if (isResponses) rec.turnIndex = turnCounter++;
      requests.push(rec);
      notify();

      // The client leaving before we finish = abort; record it and stop writing. Ends we cause
      // ourselves (scripted close/destroy/reset, or close() of the server) are not aborts.
      let done = false;
      res.on('close', () => {
        if (done) return;
        done = true;
        if (res.writableFinished) settle('finished');
        else if (closing || serverEnded.has(res)) settle('server-ended');
        else {
          rec.clientAborted = true;
          settle('aborted');
        }
      });
      res.on('finish', () => {
        if (done) return;
        done = true;
        settle('finished');
      });

      if (isResponses) {
        answerResponses(rec, res).catch((err: unknown) => {
          scriptErrors.push(String(err));
          if (!res.headersSent) sendJson(res, 500, { error: { message: `scripted-upstream: ${String(err)}`, type: 'server_error' } });
          else res.destroy();
        });
      } else if (rec.method === 'GET' && /\/models$/.test(pathOnly)) {
        sendJson(res, 200, { object: 'list', data: [], models: [] });
      } else {
        sendJson(res, 404, { error: { message: `scripted-upstream: no route for ${rec.method} ${rec.path}`, type: 'invalid_request_error' } });
      }
    });
  });

  const answerResponses = async (rec: RecordedRequest, res: http.ServerResponse): Promise<void> => {
    const turnIndex = rec.turnIndex ?? 0;
    const turn = await turnFor(rec, turnIndex);
    let items: ScriptItem[];
    try {
      items = resolveItems(turn.items ?? [], rec.json);
    } catch (err) {
      // Fail loudly and without retries: Codex does not retry a 400 and prints its body.
      const message = `scripted-upstream turn ${turnIndex}: ${(err as Error).message}`;
      scriptErrors.push(message);
      sendJson(res, 400, { error: { message, type: 'invalid_request_error', param: null, code: 'script_error' } });
      return;
    }
    if (turn.delayMs) await sleep(turn.delayMs);
    if (isGone(res)) return;

    const headers: Record<string, string> = { 'x-request-id': `req_mock_${turnIndex + 1}` };
    let payload: Buffer[];
    let status = turn.status ?? 200;
    const model = typeof rec.json?.model === 'string' ? rec.json.model : undefined;

    if (turn.json !== undefined || turn.rawBody !== undefined) {
      status = turn.status ?? 400;
      if (turn.json !== undefined) {
        headers['content-type'] = 'application/json';
        payload = [Buffer.from(JSON.stringify(turn.json))];
      } else {
        headers['content-type'] = 'text/plain';
        payload = [Buffer.from(turn.rawBody ?? '')];
      }
    } else if (turn.stream ?? rec.json?.stream !== false) {
      headers['content-type'] = 'text/event-stream';
      headers['cache-control'] = 'no-cache';
      const sse = turn.sse ?? {};
      let events: JsonObject[];
      if (turn.events) {
        events = numberEvents(substituteResponseId(turn.events, ids.mint('resp')));
      } else {
        const terminal: Terminal | undefined = turn.omitCompleted ? { kind: 'none' } : sse.terminal;
        const opts: BuildOptions = { ...sse, ids };
        if (terminal) opts.terminal = terminal;
        if (model) opts.model = model;
        if (turn.usage !== undefined) opts.usage = turn.usage;
        events = buildEvents(items, opts);
      }
      payload = events.map((e) => Buffer.from(encodeEvent(e, sse)));
    } else {
      headers['content-type'] = 'application/json';
      const opts: Parameters<typeof buildJsonResponse>[1] = { ids };
      if (model) opts.model = model;
      if (turn.usage !== undefined) opts.usage = turn.usage;
      payload = [Buffer.from(JSON.stringify(buildJsonResponse(items, opts)))];
    }
    Object.assign(headers, turn.headers ?? {});

    const end = turn.end ?? 'complete';
    if (end === 'complete' && !turn.chunking && !turn.eventGapMs && !turn.stallAfterHeadersMs) {
      // Plain, fully buffered answer: content-length framing like a real API's error bodies.
      const all = Buffer.concat(payload);
      res.writeHead(status, { ...headers, 'content-length': String(all.length) });
      rec.bytesWritten = all.length;
      writtenBy.get(res)?.push(all);
      res.end(all);
      return;
    }

    res.writeHead(status, headers);
    res.flushHeaders();
    if (turn.stallAfterHeadersMs) await sleep(turn.stallAfterHeadersMs);
    const writes = turn.chunking ? rechunk(Buffer.concat(payload), turn.chunking.size) : payload;
    const gap = turn.chunking ? (turn.chunking.delayMs ?? 0) : (turn.eventGapMs ?? 0);
    for (let i = 0; i < writes.length; i++) {
      if (isGone(res)) return;
      const w = writes[i]!;
      res.write(w);
      rec.bytesWritten += w.length;
      writtenBy.get(res)?.push(w);
      if (gap > 0 && i < writes.length - 1) await sleep(gap);
    }
    if (isGone(res)) return;
    const socket = res.socket;
    if (end !== 'complete' && end !== 'hang') serverEnded.add(res);
    switch (end) {
      case 'complete':
        res.end();
        break;
      case 'close':
        // Let the written bytes drain, then half-close the TCP stream without the final chunk.
        socket?.end();
        break;
      case 'destroy':
        socket?.destroy();
        break;
      case 'reset':
        socket?.resetAndDestroy();
        break;
      case 'hang':
        break;
    }
  };

  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  // WebSocket attempts (only with supports_websockets or the built-in provider): recorded, refused.
  server.on('upgrade', (req: http.IncomingMessage, socket: Socket) => {
    const rec: RecordedRequest = {
      index: requests.length,
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body: Buffer.alloc(0),
      upgrade: true,
      clientAborted: false,
      settled: Promise.resolve('finished'),
      bytesWritten: 0,
      responseBody: () => Buffer.alloc(0),
    };
    requests.push(rec);
    notify();
    socket.end('HTTP/1.1 426 Upgrade Required\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  const responsesRequests = (): RecordedRequest[] => requests.filter((r) => r.turnIndex !== undefined);

  return {
    url: `${origin}/v1`,
    origin,
    requests,
    responsesRequests,
    scriptErrors,
    waitForResponsesRequests(count: number, timeoutMs = 10_000): Promise<RecordedRequest[]> {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const got = responsesRequests();
          if (got.length >= count) {
            clearTimeout(timer);
            resolve(got);
            return true;
          }
          return false;
        };
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${count} responses request(s); got ${responsesRequests().length}`)), timeoutMs);
        const loop = (): void => {
          if (!check()) waiters.push(loop);
        };
        loop();
      });
    },
    async close(): Promise<void> {
      closing = true;
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function isGone(res: http.ServerResponse): boolean {
  return res.destroyed || res.writableEnded || (res.socket?.destroyed ?? true);
}

function rechunk(buf: Buffer, size: number): Buffer[] {
  const n = Math.max(1, Math.floor(size));
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += n) out.push(buf.subarray(i, i + n));
  return out;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const buf = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(buf.length) });
  res.end(buf);
}
