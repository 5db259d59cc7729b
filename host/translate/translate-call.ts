// One contributed call → its carrier item (brief §7). The translator's answer is validated, the
// exec wrapper renders it for a carrier the request offers, the ledger records it durably, and
// only then does the carrier item exist. Model-input problems become diagnostics for the model;
// anything else wrong is a RoutingFailure.
import { CARRIER_ITEM, type Carrier } from '../carriers/carrier.ts';
import { CarrierInputError } from '../carriers/carrier-errors.ts';
import { renderDiagnosticCarrier } from '../carriers/exec-wrapper.ts';
import { renderCarrier } from '../carriers/render-carrier.ts';
import type { CallReply } from '../history/call-reply.ts';
import type { Ledger } from '../history/ledger.ts';
import type { Logger } from '../log/logger.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { contributionIdentity, type TranslateOutcome } from '../registry/contribution.ts';
import type { RequestContext } from '../request/rewrite.ts';
import { RoutingFailure } from './routing-failure.ts';

type Json = Record<string, unknown>;

export interface TranslateDeps {
  readonly ledger: Ledger;
  readonly metrics: Metrics;
  /** The operator's log: one warning per warning a translation carries; each call at debug. */
  readonly log?: Logger;
}

export interface CallTranslation {
  readonly item: Json;
  readonly carrier: Carrier;
  readonly outcome: 'carrier' | 'diagnostic';
}

/** Whether an output item is a call of a tool this request exposed. */
export function isContributedCall(item: unknown, ctx: RequestContext): item is Json {
  if (typeof item !== 'object' || item === null) return false;
  const it = item as Json;
  if (it['type'] !== 'custom_tool_call' || typeof it['name'] !== 'string' || !ctx.exposed.has(it['name'])) return false;
  const ns = it['namespace'];
  return ns === undefined || ns === ctx.toolNamespace;
}

/** `originalText` is the exact JSON text of the item as the upstream sent it. */
export async function translateCall(item: Json, originalText: string, ctx: RequestContext, deps: TranslateDeps): Promise<CallTranslation> {
  const name = item['name'] as string;
  const started = performance.now();
  try {
    const t = await translateAndRecord(item, originalText, ctx, deps);
    if (deps.log?.enabled('debug')) {
      deps.log.event('debug', 'translated call', { tool: name, carrier: t.carrier.kind, outcome: t.outcome, thread: ctx.threadId ?? undefined, call: String(item['call_id']), ms: Math.round((performance.now() - started) * 100) / 100 });
    }
    return t;
  } finally {
    deps.metrics.translationSeconds(name, (performance.now() - started) / 1000);
  }
}

async function translateAndRecord(item: Json, originalText: string, ctx: RequestContext, deps: TranslateDeps): Promise<CallTranslation> {
  const name = item['name'] as string;
  const contribution = ctx.exposed.get(name)!;
  const callId = item['call_id'];
  const input = item['input'];
  // A malformed call is a routing failure of its tool too (counted before any translator runs).
  const malformed = (why: string): RoutingFailure => {
    deps.metrics.translation(name, 'none', 'routing_failure');
    return new RoutingFailure(why);
  };
  if (typeof callId !== 'string' || callId === '') throw malformed(`call of "${name}" has no call_id`);
  if (typeof input !== 'string') throw malformed(`call ${callId} of "${name}" has no string input`);
  if (!ctx.carriers || ctx.threadId === null) throw malformed(`call ${callId} of "${name}" arrived for a request that offers no carrier`);
  const carriers = ctx.carriers;

  let outcome: TranslateOutcome;
  try {
    outcome = await contribution.translate(input, { threadId: ctx.threadId, callId, carriers, workspace: ctx.workspace ?? null, thread: ctx.thread ?? null });
  } catch (e) {
    deps.metrics.translation(name, 'none', 'routing_failure');
    throw new RoutingFailure(`translator of "${name}" (${contributionIdentity(contribution)}) failed: ${errorMessage(e)}`);
  }

  let carrier: Carrier;
  let kind: CallTranslation['outcome'];
  let notes: readonly string[] = [];
  let warnings: readonly string[] = [];
  let reply: CallReply | undefined;
  // Only the router's own tools render their output (and enter hpatch's recovery ancestry).
  const builtin = contribution.source.kind === 'builtin';
  try {
    if (isDiagnostic(outcome)) {
      carrier = renderDiagnosticCarrier(`${name}: ${outcome.message}`, carriers);
      kind = 'diagnostic';
      if (outcome.verbatim === true && builtin) reply = { kind: 'refused', text: outcome.message };
    } else if (isCarrierOutcome(outcome)) {
      try {
        if (outcome.request.kind === 'apply_patch' && !builtin) throw new Error('asked for an apply_patch carrier, which only the built-in hpatch may use');
        carrier = renderCarrier(outcome.request, carriers);
        kind = 'carrier';
        warnings = outcome.warnings ?? [];
        notes = [...warnings, ...(outcome.notes ?? [])];
        if (outcome.reply !== undefined) {
          if (!builtin) throw new Error('returned a reply, which only built-in tools may render');
          reply = outcome.reply;
        }
      } catch (e) {
        if (!(e instanceof CarrierInputError)) throw e;
        carrier = renderDiagnosticCarrier(`${name}: ${e.message}`, carriers);
        kind = 'diagnostic';
        reply = builtin && outcome.reply !== undefined ? { kind: 'refused', text: `${name}: ${e.message}` } : undefined;
      }
    } else {
      throw new Error(`returned ${describeValue(outcome)}, not a carrier or a diagnostic`);
    }
  } catch (e) {
    deps.metrics.translation(name, 'none', 'routing_failure');
    throw new RoutingFailure(`translator of "${name}" (${contributionIdentity(contribution)}) broke its protocol: ${errorMessage(e)}`);
  }

  try {
    await deps.ledger.record({
      threadId: ctx.threadId,
      callId,
      contribution: contributionIdentity(contribution),
      tool: name,
      original: originalText,
      carrier,
      ...(notes.length > 0 ? { notes } : {}),
      ...(reply !== undefined ? { reply } : {}),
    });
  } catch (e) {
    // Without a durable record the call could never be restored: it must not reach Codex.
    deps.metrics.translation(name, carrier.kind, 'routing_failure');
    throw new RoutingFailure(`call ${callId} of "${name}" could not be recorded: ${errorMessage(e)}`);
  }
  deps.metrics.translation(name, carrier.kind, kind);
  for (const w of warnings) deps.log?.event('warn', `${name} ${w}`, { thread: ctx.threadId, call: callId });
  return { item: carrierItem(item, carrier), carrier, outcome: kind };
}

/** The original item with type, name, namespace and payload replaced; id, call_id and status kept in place. */
export function carrierItem(original: Json, carrier: Carrier): Json {
  const { type, name } = CARRIER_ITEM[carrier.kind];
  const payloadKey = carrier.kind === 'exec_command' ? 'arguments' : 'input';
  const payload = carrier.kind === 'exec_command' ? carrier.arguments : carrier.input;
  const out: Json = {};
  let placedNamespace = false;
  for (const [key, value] of Object.entries(original)) {
    if (key === 'type') out['type'] = type;
    else if (key === 'name') {
      out['name'] = name;
      if (carrier.namespace !== undefined) { out['namespace'] = carrier.namespace; placedNamespace = true; }
    } else if (key === 'namespace') continue;
    else if (key === 'input' || key === 'arguments') out[payloadKey] = payload;
    else out[key] = value;
  }
  if (!(payloadKey in out)) out[payloadKey] = payload;
  if (carrier.namespace !== undefined && !placedNamespace) out['namespace'] = carrier.namespace;
  return out;
}

function isDiagnostic(o: unknown): o is { kind: 'diagnostic'; message: string } {
  return typeof o === 'object' && o !== null && (o as Json)['kind'] === 'diagnostic' && typeof (o as Json)['message'] === 'string';
}

function isCarrierOutcome(o: unknown): o is Extract<TranslateOutcome, { kind: 'carrier' }> {
  if (typeof o !== 'object' || o === null || (o as Json)['kind'] !== 'carrier') return false;
  const req = (o as Json)['request'];
  return typeof req === 'object' && req !== null && ((req as Json)['kind'] === 'exec' || (req as Json)['kind'] === 'apply_patch');
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v !== 'object') return typeof v;
  return `an object with kind ${JSON.stringify((v as Json)['kind'])}`;
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
