// Streaming translation of a Responses SSE body, per output item (brief §7).
//   - Items that are not contributed calls stream through untouched and immediately.
//   - A contributed call is held from output_item.added to output_item.done; each withheld event
//     is replaced by a content-free response.in_progress event, so the stream stays alive without
//     exposing untranslated input.
//   - At output_item.done the call is translated and emitted as the carrier's own event sequence
//     (added, argument/input delta, done, item done), renumbering later sequence_numbers.
//   - Terminal events get their response.output rewritten the same way.
import { memberValue, objectMembers, rootStart } from '../json/json-scan.ts';
import { applyEdits, replaceSpan, type Edit } from '../json/splice.ts';
import type { SseChunk, SseEvent } from '../responses/sse-parser.ts';
import { frameSseEvent } from '../responses/sse-framer.ts';
import type { RequestContext } from '../request/rewrite.ts';
import { outputEdits, translateOnce, type TranslationMemo } from './output-items.ts';
import { RoutingFailure } from './routing-failure.ts';
import { isContributedCall, type TranslateDeps } from './translate-call.ts';

type Json = Record<string, unknown>;

const TERMINAL = new Set(['response.completed', 'response.failed', 'response.incomplete']);

export interface TranslatedFrames {
  readonly text: string;
  /** The stream must end after these frames (a routing failure was reported in them). */
  readonly stop: boolean;
}

export class SseTranslator {
  private shift = 0;
  private responseShell: Json | null = null;
  private readonly held = new Set<number>();
  private readonly memo: TranslationMemo = new Map();
  private stopped = false;

  constructor(private readonly ctx: RequestContext, private readonly deps: TranslateDeps) {}

  /** How many calls this stream translated with the given outcome. */
  count(outcome: 'carrier' | 'diagnostic'): number {
    let n = 0;
    for (const t of this.memo.values()) if (t.outcome === outcome) n++;
    return n;
  }

  async push(chunk: SseChunk): Promise<TranslatedFrames> {
    if (this.stopped) return { text: '', stop: true };
    if (chunk.kind === 'comment') return { text: chunk.raw, stop: false };
    try {
      return { text: await this.event(chunk.event), stop: false };
    } catch (e) {
      if (!(e instanceof RoutingFailure)) throw e;
      this.stopped = true;
      return { text: this.failure(e.message), stop: true };
    }
  }

  private async event(ev: SseEvent): Promise<string> {
    let data: Json;
    try {
      const parsed = JSON.parse(ev.data) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return ev.raw;
      data = parsed as Json;
    } catch {
      return ev.raw; // not ours to judge: Codex sees exactly what the upstream sent
    }
    const type = data['type'];
    const seq = typeof data['sequence_number'] === 'number' ? data['sequence_number'] : undefined;
    const index = typeof data['output_index'] === 'number' ? data['output_index'] : undefined;

    if (type === 'response.created' || type === 'response.in_progress') this.rememberShell(data['response']);

    if (type === 'response.output_item.added' && index !== undefined && isContributedCall(data['item'], this.ctx)) {
      this.held.add(index);
      return this.inProgress(ev, seq);
    }
    if (type === 'response.output_item.done' && index !== undefined && (this.held.has(index) || isContributedCall(data['item'], this.ctx))) {
      this.held.delete(index);
      return this.emitCarrier(ev, data, index, seq);
    }
    if (index !== undefined && this.held.has(index)) return this.inProgress(ev, seq);

    if (typeof type === 'string' && TERMINAL.has(type) && typeof data['response'] === 'object' && data['response'] !== null) {
      const respSpan = memberValue(ev.data, rootStart(ev.data), 'response')!;
      const edits = await outputEdits(ev.data, respSpan.start, data['response'] as Json, this.ctx, this.deps, this.memo);
      return this.renumbered(ev, seq, edits);
    }
    return this.renumbered(ev, seq, []);
  }

  private rememberShell(response: unknown): void {
    if (typeof response !== 'object' || response === null) return;
    // Content-free: the response's identity and status, never its output.
    const { output: _output, ...rest } = response as Json;
    this.responseShell = { ...rest, status: 'in_progress', output: [] };
  }

  private inProgress(ev: SseEvent, seq: number | undefined): string {
    const data: Json = { type: 'response.in_progress' };
    if (this.responseShell) data['response'] = this.responseShell;
    if (seq !== undefined) data['sequence_number'] = seq + this.shift;
    return this.frame(ev, 'response.in_progress', JSON.stringify(data));
  }

  private async emitCarrier(ev: SseEvent, data: Json, index: number, seq: number | undefined): Promise<string> {
    const itemSpan = memberValue(ev.data, rootStart(ev.data), 'item')!;
    const item = data['item'] as Json;
    const t = await translateOnce(item, ev.data.slice(itemSpan.start, itemSpan.end), this.ctx, this.deps, this.memo);
    const done = t.item;
    const id = typeof done['id'] === 'string' ? { item_id: done['id'] } : {};
    const isFunction = t.carrier.kind === 'exec_command';
    const payload = isFunction ? (done['arguments'] as string) : (done['input'] as string);
    const added: Json = { ...done, status: 'in_progress', [isFunction ? 'arguments' : 'input']: '' };
    if (!('status' in done)) delete added['status'];
    const events: Json[] = [
      { type: 'response.output_item.added', output_index: index, item: added },
      isFunction
        ? { type: 'response.function_call_arguments.delta', ...id, output_index: index, delta: payload }
        : { type: 'response.custom_tool_call_input.delta', ...id, output_index: index, delta: payload },
      isFunction
        ? { type: 'response.function_call_arguments.done', ...id, output_index: index, arguments: payload }
        : { type: 'response.custom_tool_call_input.done', ...id, output_index: index, input: payload },
      { type: 'response.output_item.done', output_index: index, item: done },
    ];
    let out = '';
    events.forEach((e, k) => {
      if (seq !== undefined) e['sequence_number'] = seq + this.shift + k;
      out += this.frame(ev, e['type'] as string, JSON.stringify(e));
    });
    this.shift += events.length - 1;
    return out;
  }

  /** The event as received, with its sequence_number moved by the current shift and `edits` applied. */
  private renumbered(ev: SseEvent, seq: number | undefined, edits: Edit[]): string {
    if (edits.length === 0 && (seq === undefined || this.shift === 0)) return ev.raw;
    const all = [...edits];
    if (seq !== undefined && this.shift !== 0) {
      const m = objectMembers(ev.data, rootStart(ev.data)).findLast((x) => x.key === 'sequence_number')!;
      all.push(replaceSpan(m.value, String(seq + this.shift)));
    }
    return frameSseEvent({ ...(ev.event !== undefined ? { event: ev.event } : {}), data: applyEdits(ev.data, all), ...(ev.id !== undefined ? { id: ev.id } : {}) });
  }

  private frame(like: SseEvent, type: string, data: string): string {
    // Keep the upstream's framing style: `event:` lines only if it used them.
    return frameSseEvent(like.event !== undefined ? { event: type, data } : { data });
  }

  /** A terminal, non-retryable failure Codex shows with our message (it retries server errors, not invalid_prompt). */
  private failure(message: string): string {
    const response: Json = { ...(this.responseShell ?? {}), status: 'failed', output: [], error: { code: 'invalid_prompt', message: `hpatch-router routing failure: ${message}` } };
    const data = JSON.stringify({ type: 'response.failed', response });
    return frameSseEvent({ event: 'response.failed', data });
  }
}
