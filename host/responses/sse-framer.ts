// Serializes one SSE event in the shape Codex was recorded accepting (`event: <type>\ndata: <json>\n\n`,
// codex-protocol README §5.1), so reframed events are byte-identical to what upstream sends.

export class SseFramingError extends Error {
  override name = 'SseFramingError';
}

// SSE has no escaping: a CR, LF or NUL in a single-line field would split or corrupt the frame.
const FORBIDDEN_IN_FIELD = /[\r\n\0]/;
// Any terminator the parser accepts; data lines are split on each and rejoined with "\n" on parse.
const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * Serializes one event as `event: <name>\n` (if given), `id: <id>\n` (if given), one `data: <line>\n` per data
 * line, then `\n`. Throws SseFramingError on CR/LF/NUL in event name or id, or on a non-string data.
 *
 * Data is split at CRLF, CR and LF alike, because a parser reads each as a line break and rejoins data lines
 * with "\n": a CR or CRLF inside data therefore comes back as "\n" (SSE cannot carry a bare CR). JSON
 * payloads never contain raw line breaks, so Responses events round-trip exactly.
 */
export function frameSseEvent(ev: { event?: string; data: string; id?: string }): string {
  const { event, data, id } = ev;
  if (typeof data !== 'string') throw new SseFramingError(`SSE data must be a string, got ${describe(data)}`);
  let out = '';
  if (event !== undefined) out += `event: ${checkField('event', event)}\n`;
  if (id !== undefined) out += `id: ${checkField('id', id)}\n`;
  // Fast path: one-line data (every JSON payload) needs no split.
  if (data.indexOf('\n') === -1 && data.indexOf('\r') === -1) return `${out}data: ${data}\n\n`;
  return `${out}data: ${data.replace(LINE_BREAK, '\ndata: ')}\n\n`;
}

function checkField(name: string, value: unknown): string {
  if (typeof value !== 'string') throw new SseFramingError(`SSE ${name} must be a string, got ${describe(value)}`);
  if (FORBIDDEN_IN_FIELD.test(value)) throw new SseFramingError(`SSE ${name} must not contain CR, LF or NUL: ${JSON.stringify(value)}`);
  return value;
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}
