// Rewrites a response object's `output` array (the JSON body, or the response inside
// response.completed / failed / incomplete events): contributed calls become their carrier items,
// every other byte stays. Translations are memoized per response so the same call is translated
// once, however many times it appears.
import { arrayElements, memberValue, type Span } from '../json/json-scan.ts';
import { applyEdits, replaceSpan, type Edit } from '../json/splice.ts';
import type { RequestContext } from '../request/rewrite.ts';
import { isContributedCall, translateCall, type CallTranslation, type TranslateDeps } from './translate-call.ts';

type Json = Record<string, unknown>;

/** Per-response memo of translations, by call_id. */
export type TranslationMemo = Map<string, CallTranslation>;

export async function translateOnce(item: Json, itemText: string, ctx: RequestContext, deps: TranslateDeps, memo: TranslationMemo): Promise<CallTranslation> {
  const callId = String(item['call_id']);
  const known = memo.get(callId);
  if (known) return known;
  const t = await translateCall(item, itemText, ctx, deps);
  memo.set(callId, t);
  return t;
}

/**
 * Edits for the `output` array of the response object at `responseStart` in `text`
 * (`response` is its parsed value).
 */
export async function outputEdits(text: string, responseStart: number, response: Json, ctx: RequestContext, deps: TranslateDeps, memo: TranslationMemo): Promise<Edit[]> {
  const output = response['output'];
  if (!Array.isArray(output) || !output.some((it) => isContributedCall(it, ctx))) return [];
  const outSpan = memberValue(text, responseStart, 'output')!;
  const elements: Span[] = arrayElements(text, outSpan.start);
  const edits: Edit[] = [];
  for (let i = 0; i < output.length; i++) {
    const item = output[i];
    if (!isContributedCall(item, ctx)) continue;
    const el = elements[i]!;
    const t = await translateOnce(item, text.slice(el.start, el.end), ctx, deps, memo);
    edits.push(replaceSpan(el, JSON.stringify(t.item)));
  }
  return edits;
}

/** A whole JSON (non-streaming) response body. */
export async function translateJsonResponse(text: string, ctx: RequestContext, deps: TranslateDeps): Promise<string> {
  const body = JSON.parse(text) as unknown;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return text;
  const start = text.search(/\S/);
  const edits = await outputEdits(text, start, body as Json, ctx, deps, new Map());
  return applyEdits(text, edits);
}
