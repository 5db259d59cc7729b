// History restoration (brief §8): Codex resends the whole conversation, carriers included. Each
// carrier the ledger knows is verified byte-for-byte and replaced by the model's original call;
// its outputs are converted to the original call's output type. Nothing is ever guessed.
import { carrierOfItem, sameCarrier } from '../carriers/carrier.ts';
import type { Span } from '../json/json-scan.ts';
import { replaceSpan, type Edit } from '../json/splice.ts';
import { replyOutput } from './call-reply.ts';
import type { LedgerEntry, ThreadLedger } from './ledger.ts';
import { isJsonObject, type JsonObject } from '../json/json-object.ts';

export class ReplayMismatchError extends Error {
  override readonly name = 'ReplayMismatchError';
}

export interface RestoredCall {
  readonly callId: string;
  readonly entry: LedgerEntry;
}

type Json = JsonObject;
const isObject = isJsonObject;

const OUTPUT_TYPE: Readonly<Record<string, string>> = {
  custom_tool_call: 'custom_tool_call_output',
  function_call: 'function_call_output',
};
const CARRIER_NAMES = new Set(['exec', 'exec_command']);

/**
 * Edits that restore every ledger-known call in `input` (parsed items, with their spans in the
 * request text). Throws ReplayMismatchError when a known call id carries a different carrier.
 */
export function restoreHistory(input: readonly unknown[], spans: readonly Span[], thread: ThreadLedger): { edits: Edit[]; restored: RestoredCall[] } {
  const edits: Edit[] = [];
  const restored = new Map<string, LedgerEntry>();
  if (thread.size === 0) return { edits, restored: [] };

  input.forEach((item, i) => {
    if (!isObject(item) || (item['type'] !== 'function_call' && item['type'] !== 'custom_tool_call')) return;
    const callId = item['call_id'];
    if (typeof callId !== 'string') return;
    const variants = thread.entries(callId);
    if (variants.length === 0) return;
    const carrier = carrierOfItem(item);
    const entry = carrier ? variants.find((v) => sameCarrier(v.carrier, carrier)) : undefined;
    if (!entry) {
      throw new ReplayMismatchError(
        `history item input[${i}] (call_id ${callId}) is not the carrier the router emitted for ${variants[0]!.tool}: ` +
        `found ${describeItem(item)}; refusing to restore a call that was changed`);
    }
    edits.push(replaceSpan(spans[i]!, entry.original));
    restored.set(callId, entry);
  });

  input.forEach((item, i) => {
    if (!isObject(item) || (item['type'] !== 'function_call_output' && item['type'] !== 'custom_tool_call_output')) return;
    const entry = typeof item['call_id'] === 'string' ? restored.get(item['call_id']) : undefined;
    if (!entry) return;
    const converted = convertOutput(item, entry);
    if (converted !== null) edits.push(replaceSpan(spans[i]!, converted));
  });
  return { edits, restored: [...restored].map(([callId, entry]) => ({ callId, entry })) };
}

/** The output item as the original call type expects it; null when nothing changes. */
function convertOutput(item: Json, entry: LedgerEntry): string | null {
  const original = JSON.parse(entry.original) as Json;
  const wanted = OUTPUT_TYPE[String(original['type'])];
  if (!wanted) throw new ReplayMismatchError(`ledger entry for ${entry.callId} holds an unsupported call type`);
  let changed = false;
  const out: Json = {};
  for (const [key, value] of Object.entries(item)) {
    if (key === 'type' && value !== wanted) { out[key] = wanted; changed = true; continue; }
    // Codex mints output ids with the carrier's prefix; keep the id, with the prefix of the converted type.
    if (key === 'id' && typeof value === 'string' && wanted === 'custom_tool_call_output' && value.startsWith('fco_')) {
      out[key] = `ctco_${value.slice(4)}`; changed = true; continue;
    }
    if (key === 'id' && typeof value === 'string' && wanted === 'function_call_output' && value.startsWith('ctco_')) {
      out[key] = `fco_${value.slice(5)}`; changed = true; continue;
    }
    // notify() outputs name their tool: the model called the original, not the carrier.
    if (key === 'name' && typeof value === 'string' && CARRIER_NAMES.has(value)) { out[key] = entry.tool; changed = true; continue; }
    // A router-rendered reply (hpatch) is the whole output: the carrier's output only picks which.
    if (key === 'output' && entry.reply !== undefined) {
      out[key] = replyOutput(entry.reply, value);
      changed = true;
      continue;
    }
    // The entry's notes (shell retention, warnings) come first, once: a notify() item has a `name`.
    if (key === 'output' && entry.notes !== undefined && !Object.hasOwn(item, 'name')) {
      out[key] = withNotes(value, entry.notes);
      changed = true;
      continue;
    }
    out[key] = value;
  }
  return changed ? JSON.stringify(out) : null;
}

/**
 * The output with the notes before it, the same way in both shapes: a string output gets them as
 * leading lines; a content-item array (Code Mode exec) gets one leading input_text item.
 */
function withNotes(output: unknown, notes: readonly string[]): unknown {
  const text = `${notes.join('\n')}\n`;
  if (typeof output === 'string') return text + output;
  if (Array.isArray(output)) return [{ type: 'input_text', text }, ...output];
  return output;
}

function describeItem(item: Json): string {
  const payload = item['type'] === 'function_call' ? item['arguments'] : item['input'];
  const text = typeof payload === 'string' ? payload : '';
  return `${String(item['type'])} "${String(item['name'])}" with a ${text.length}-character payload`;
}
