// Pure builders for scripted Responses API output: SSE event sequences and JSON bodies shaped exactly like
// the ones Codex 0.171.0 was recorded accepting (fixtures/codex-protocol notes, README §5.1). No I/O here.

/** An output item as a test script describes it (before ids, statuses and deltas are added). */
export type ScriptItem =
  | { type: 'message'; text: string; phase?: 'commentary' | 'final_answer'; id?: string }
  | { type: 'reasoning'; summary: string | string[]; encrypted_content?: string; id?: string }
  | {
      type: 'function_call';
      name: string;
      /** An object is JSON.stringify'd; a string is sent verbatim (so invalid JSON can be scripted). */
      arguments: string | Record<string, unknown>;
      call_id: string;
      namespace?: string;
      id?: string;
    }
  | { type: 'custom_tool_call'; name: string; input: string; call_id: string; namespace?: string; id?: string }
  /** Sent as-is in `output_item.added` and `output_item.done` (no deltas, no id or status added). */
  | { type: 'raw_item'; item: Record<string, unknown> };

export type JsonObject = Record<string, unknown>;
/** One SSE event payload; `type` is what Codex dispatches on. */
export type SseEvent = JsonObject & { type: string };

export interface Usage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export const DEFAULT_USAGE: Usage = {
  input_tokens: 1000,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 50,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 1050,
};

/**
 * Mints `resp_mock0001`, `fc_mock0002`, … from one counter, like the recording mock did. Share one allocator
 * across the responses of a conversation so item ids stay unique (Codex echoes them back in history).
 */
export class IdAllocator {
  private next: number;
  constructor(start = 1) {
    this.next = start;
  }
  mint(prefix: string): string {
    return `${prefix}_mock${String(this.next++).padStart(4, '0')}`;
  }
}

/** How a response ends. `none` = no terminal event at all (stream just stops). */
export type Terminal =
  | { kind: 'completed' }
  | { kind: 'failed'; code?: string; message?: string }
  | { kind: 'incomplete'; reason?: string }
  | { kind: 'error'; code?: string; message?: string }
  | { kind: 'none' };

export interface BuildOptions {
  responseId?: string;
  /** Echoed in the response object; the scripted upstream passes the request's model. */
  model?: string;
  createdAt?: number;
  ids?: IdAllocator;
  /** `null` leaves usage out of `response.completed`. */
  usage?: Usage | null;
  /** How many delta events each streamed string is cut into (≥1); the recorded mock used 2. */
  deltaParts?: number;
  /** Event types to drop (e.g. everything but `output_item.done`, like the `sse1-minimal` capture). */
  omitTypes?: string[];
  /** Default `completed`. */
  terminal?: Terminal;
  /** Raw events appended after the terminal event; `__RESP_ID__` in any string becomes the response id. */
  appendEvents?: JsonObject[];
  /** Raw events inserted before the terminal event (same substitution). */
  insertEvents?: JsonObject[];
}

export interface EncodeOptions {
  /** Only `data:` lines, no `event:` lines (Codex dispatches on the JSON `type`). */
  dataOnly?: boolean;
  /** `\r\n` line endings instead of `\n`. */
  crlf?: boolean;
}

/** Splits by code points (never inside a surrogate pair) into `parts` nearly equal pieces, first ones longer. */
export function splitDeltas(text: string, parts = 2): string[] {
  const cps = Array.from(text);
  if (cps.length === 0) return [];
  const n = Math.max(1, Math.min(parts, cps.length));
  const out: string[] = [];
  let pos = 0;
  for (let i = 0; i < n; i++) {
    const size = Math.ceil((cps.length - pos) / (n - i));
    out.push(cps.slice(pos, pos + size).join(''));
    pos += size;
  }
  return out;
}

function argumentsString(args: string | Record<string, unknown>): string {
  return typeof args === 'string' ? args : JSON.stringify(args);
}

/** The completed form of an item, as it appears in `output_item.done` and `response.output`. */
export function completedItem(item: ScriptItem, id: string): JsonObject {
  switch (item.type) {
    case 'message': {
      const out: JsonObject = {
        id,
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: item.text, annotations: [] }],
      };
      if (item.phase) out.phase = item.phase;
      return out;
    }
    case 'reasoning': {
      const out: JsonObject = { id, type: 'reasoning', summary: summaries(item).map((text) => ({ type: 'summary_text', text })) };
      if (item.encrypted_content !== undefined) out.encrypted_content = item.encrypted_content;
      return out;
    }
    case 'function_call': {
      const out: JsonObject = { id, type: 'function_call', status: 'completed', name: item.name, call_id: item.call_id, arguments: argumentsString(item.arguments) };
      if (item.namespace !== undefined) out.namespace = item.namespace;
      return out;
    }
    case 'custom_tool_call': {
      const out: JsonObject = { id, type: 'custom_tool_call', status: 'completed', name: item.name, call_id: item.call_id, input: item.input };
      if (item.namespace !== undefined) out.namespace = item.namespace;
      return out;
    }
    case 'raw_item':
      return item.item;
  }
}

function summaries(item: { summary: string | string[] }): string[] {
  return typeof item.summary === 'string' ? [item.summary] : item.summary;
}

const ID_PREFIX = { message: 'msg', reasoning: 'rs', function_call: 'fc', custom_tool_call: 'ctc' } as const;

/** Assigns ids in item order (the allocator is advanced even for items that carry their own id: stable numbering). */
export function assignIds(items: readonly ScriptItem[], ids: IdAllocator): string[] {
  return items.map((item) => {
    if (item.type === 'raw_item') return '';
    const minted = ids.mint(ID_PREFIX[item.type]);
    return item.id ?? minted;
  });
}

/** Per-item event payloads without `sequence_number` (added afterwards so omitted types leave no gaps). */
function itemEvents(item: ScriptItem, id: string, outputIndex: number, parts: number): SseEvent[] {
  const base = { item_id: id, output_index: outputIndex };
  const done: SseEvent = { type: 'response.output_item.done', output_index: outputIndex, item: completedItem(item, id) };
  switch (item.type) {
    case 'message': {
      const part = { type: 'output_text', text: '', annotations: [] };
      return [
        { type: 'response.output_item.added', output_index: outputIndex, item: { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
        { type: 'response.content_part.added', ...base, content_index: 0, part },
        ...splitDeltas(item.text, parts).map((delta) => ({ type: 'response.output_text.delta', ...base, content_index: 0, delta })),
        { type: 'response.output_text.done', ...base, content_index: 0, text: item.text },
        { type: 'response.content_part.done', ...base, content_index: 0, part: { ...part, text: item.text } },
        done,
      ];
    }
    case 'reasoning': {
      const events: SseEvent[] = [{ type: 'response.output_item.added', output_index: outputIndex, item: { id, type: 'reasoning', summary: [] } }];
      summaries(item).forEach((text, summary_index) => {
        events.push(
          { type: 'response.reasoning_summary_part.added', ...base, summary_index, part: { type: 'summary_text', text: '' } },
          ...splitDeltas(text, parts).map((delta) => ({ type: 'response.reasoning_summary_text.delta', ...base, summary_index, delta })),
          { type: 'response.reasoning_summary_text.done', ...base, summary_index, text },
          { type: 'response.reasoning_summary_part.done', ...base, summary_index, part: { type: 'summary_text', text } },
        );
      });
      events.push(done);
      return events;
    }
    case 'function_call': {
      const args = argumentsString(item.arguments);
      const added: JsonObject = { id, type: 'function_call', status: 'in_progress', name: item.name, call_id: item.call_id, arguments: '' };
      if (item.namespace !== undefined) added.namespace = item.namespace;
      return [
        { type: 'response.output_item.added', output_index: outputIndex, item: added },
        ...splitDeltas(args, parts).map((delta) => ({ type: 'response.function_call_arguments.delta', ...base, delta })),
        { type: 'response.function_call_arguments.done', ...base, arguments: args },
        done,
      ];
    }
    case 'custom_tool_call': {
      const added: JsonObject = { id, type: 'custom_tool_call', status: 'in_progress', name: item.name, call_id: item.call_id, input: '' };
      if (item.namespace !== undefined) added.namespace = item.namespace;
      return [
        { type: 'response.output_item.added', output_index: outputIndex, item: added },
        ...splitDeltas(item.input, parts).map((delta) => ({ type: 'response.custom_tool_call_input.delta', ...base, delta })),
        { type: 'response.custom_tool_call_input.done', ...base, input: item.input },
        done,
      ];
    }
    case 'raw_item':
      return [{ type: 'response.output_item.added', output_index: outputIndex, item: item.item }, done];
  }
}

/** Replaces `__RESP_ID__` in every string of a JSON value. */
export function substituteResponseId<T>(value: T, responseId: string): T {
  if (typeof value === 'string') return value.split('__RESP_ID__').join(responseId) as T;
  if (Array.isArray(value)) return value.map((v) => substituteResponseId(v, responseId)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteResponseId(v, responseId)])) as T;
  }
  return value;
}

/** Gives each event the next `sequence_number` (kept if an event already has one). Mutates copies only. */
export function numberEvents(events: readonly JsonObject[]): SseEvent[] {
  return events.map((e, i) => asEvent({ ...e, sequence_number: e.sequence_number ?? i }));
}

/** The complete event list for one response: created, in_progress, items, terminal event, extras. */
export function buildEvents(items: readonly ScriptItem[], opts: BuildOptions = {}): SseEvent[] {
  const ids = opts.ids ?? new IdAllocator();
  const responseId = opts.responseId ?? ids.mint('resp');
  const model = opts.model ?? 'gpt-5.5';
  const createdAt = opts.createdAt ?? Math.floor(Date.now() / 1000);
  const itemIds = assignIds(items, ids);
  const head = { id: responseId, object: 'response', created_at: createdAt, status: 'in_progress', model, output: [] };
  const events: SseEvent[] = [
    { type: 'response.created', response: head },
    { type: 'response.in_progress', response: head },
  ];
  items.forEach((item, i) => events.push(...itemEvents(item, itemIds[i] ?? '', i, opts.deltaParts ?? 2)));
  events.push(...substituteResponseId(opts.insertEvents ?? [], responseId).map(asEvent));
  const terminal = opts.terminal ?? { kind: 'completed' };
  switch (terminal.kind) {
    case 'completed': {
      const response: JsonObject = { ...head, status: 'completed', output: items.map((it, i) => completedItem(it, itemIds[i] ?? '')) };
      if (opts.usage !== null) response.usage = opts.usage ?? DEFAULT_USAGE;
      events.push({ type: 'response.completed', response });
      break;
    }
    case 'failed':
      events.push({
        type: 'response.failed',
        response: { id: responseId, object: 'response', status: 'failed', error: { code: terminal.code ?? 'server_error', message: terminal.message ?? 'mock failure' }, output: [] },
      });
      break;
    case 'incomplete':
      events.push({
        type: 'response.incomplete',
        response: { id: responseId, object: 'response', status: 'incomplete', incomplete_details: { reason: terminal.reason ?? 'max_output_tokens' }, output: [] },
      });
      break;
    case 'error':
      events.push({ type: 'error', code: terminal.code ?? 'server_error', message: terminal.message ?? 'mock error event', param: null });
      break;
    case 'none':
      break;
  }
  events.push(...substituteResponseId(opts.appendEvents ?? [], responseId).map(asEvent));
  const omit = new Set(opts.omitTypes ?? []);
  return numberEvents(events.filter((e) => !omit.has(e.type)));
}

function asEvent(e: JsonObject): SseEvent {
  if (typeof e.type !== 'string') throw new Error(`raw SSE event without a string "type": ${JSON.stringify(e)}`);
  return e as SseEvent;
}

/** One SSE frame: `event: <type>\ndata: <json>\n\n` (or data-only / CRLF). */
export function encodeEvent(event: JsonObject, opts: EncodeOptions = {}): string {
  const nl = opts.crlf ? '\r\n' : '\n';
  const data = `data: ${JSON.stringify(event)}${nl}`;
  return (opts.dataOnly || typeof event.type !== 'string' ? data : `event: ${event.type}${nl}${data}`) + nl;
}

export function encodeSse(events: readonly JsonObject[], opts: EncodeOptions = {}): string {
  return events.map((e) => encodeEvent(e, opts)).join('');
}

/** Convenience: items → SSE text. */
export function buildSse(items: readonly ScriptItem[], opts: BuildOptions & EncodeOptions = {}): string {
  return encodeSse(buildEvents(items, opts), opts);
}

/** A non-streaming (`stream:false`) Responses body: the completed response object. */
export function buildJsonResponse(
  items: readonly ScriptItem[],
  opts: Pick<BuildOptions, 'responseId' | 'model' | 'createdAt' | 'ids' | 'usage'> = {},
): JsonObject {
  const ids = opts.ids ?? new IdAllocator();
  const responseId = opts.responseId ?? ids.mint('resp');
  const itemIds = assignIds(items, ids);
  const body: JsonObject = {
    id: responseId,
    object: 'response',
    created_at: opts.createdAt ?? Math.floor(Date.now() / 1000),
    status: 'completed',
    model: opts.model ?? 'gpt-5.5',
    output: items.map((it, i) => completedItem(it, itemIds[i] ?? '')),
  };
  if (opts.usage !== null) body.usage = opts.usage ?? DEFAULT_USAGE;
  return body;
}

/** A parsed SSE frame. `json` is undefined when `data` is not JSON (e.g. `[DONE]`). */
export interface ParsedFrame {
  event?: string;
  data: string;
  json?: SseEvent;
}

/**
 * A tolerant SSE parser for assertions (LF, CRLF or CR line ends, multi-line data, comments, no trailing
 * blank line). Frames with no data lines are skipped, as EventSource does.
 */
export function parseSse(text: string): ParsedFrame[] {
  const frames: ParsedFrame[] = [];
  let event: string | undefined;
  let data: string[] = [];
  const flush = (): void => {
    if (data.length > 0) {
      const joined = data.join('\n');
      const frame: ParsedFrame = { data: joined };
      if (event !== undefined) frame.event = event;
      try {
        frame.json = JSON.parse(joined) as SseEvent;
      } catch {
        /* not JSON: keep the raw data only */
      }
      frames.push(frame);
    }
    event = undefined;
    data = [];
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      flush();
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  flush();
  return frames;
}
