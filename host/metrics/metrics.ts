// What the router did and how fast, in Prometheus text exposition format (GET /metrics).
// Every translated call is classified by tool, carrier kind and outcome; doc/operations.md lists
// every metric.

type Labels = Readonly<Record<string, string>>;

class Counter {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(readonly name: string, readonly help: string) {}

  inc(labels: Labels, by = 1): void {
    const key = JSON.stringify(labels);
    const cur = this.values.get(key);
    if (cur) cur.value += by;
    else this.values.set(key, { labels, value: by });
  }

  get(labels: Labels): number {
    return this.values.get(JSON.stringify(labels))?.value ?? 0;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.values.values()) {
      lines.push(`${this.name}${renderLabels(labels)} ${value}`);
    }
    return lines.join('\n');
  }
}

function renderLabels(labels: Labels, extra?: string): string {
  const l = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  if (extra !== undefined) l.push(extra);
  return l.length > 0 ? `{${l.join(',')}}` : '';
}

/** Cumulative buckets, sum and count per label set; bounds in seconds, ascending. */
class Histogram {
  private readonly values = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(readonly name: string, readonly help: string, readonly bounds: readonly number[]) {}

  observe(labels: Labels, seconds: number): void {
    if (!Number.isFinite(seconds)) return;
    const key = JSON.stringify(labels);
    let cur = this.values.get(key);
    if (!cur) this.values.set(key, (cur = { labels, counts: this.bounds.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < this.bounds.length; i++) if (seconds <= this.bounds[i]!) cur.counts[i]!++;
    cur.sum += seconds;
    cur.count++;
  }

  count(labels: Labels): number {
    return this.values.get(JSON.stringify(labels))?.count ?? 0;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { labels, counts, sum, count } of this.values.values()) {
      this.bounds.forEach((b, i) => lines.push(`${this.name}_bucket${renderLabels(labels, `le="${b}"`)} ${counts[i]}`));
      lines.push(`${this.name}_bucket${renderLabels(labels, 'le="+Inf"')} ${count}`);
      lines.push(`${this.name}_sum${renderLabels(labels)} ${sum}`);
      lines.push(`${this.name}_count${renderLabels(labels)} ${count}`);
    }
    return lines.join('\n');
  }
}

/** A gauge read from its owner at each scrape (the count lives where the things counted are kept). */
class Gauge {
  private read: () => number = () => 0;
  constructor(readonly name: string, readonly help: string) {}

  observe(read: () => number): void {
    this.read = read;
  }

  render(): string {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`, `${this.name} ${this.read()}`].join('\n');
  }
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

export type TranslationOutcome = 'carrier' | 'diagnostic' | 'routing_failure';

export class Metrics {
  readonly requests = new Counter('hpatch_router_requests_total', 'Requests received, by mode, request shape and result.');
  readonly translations = new Counter('hpatch_router_translated_calls_total', 'Contributed calls translated, by tool, carrier kind and outcome.');
  readonly restored = new Counter('hpatch_router_restored_calls_total', 'Contributed calls restored in history, by tool and carrier kind.');
  readonly upstream = new Counter('hpatch_router_upstream_responses_total', 'Upstream responses, by status code.');
  readonly diagnostics = new Counter('hpatch_router_diagnostics_total', 'Contributed calls answered with a diagnostic for the model, by tool.');
  readonly routingFailures = new Counter('hpatch_router_routing_failures_total', 'Contributed calls that ended in a routing failure, by tool.');
  readonly addedTtfb = new Histogram('hpatch_router_added_ttfb_seconds', "Time to first byte the router added to the upstream's, by mode.", [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]);
  readonly translationTime = new Histogram('hpatch_router_translation_seconds', 'Time to translate one contributed call into its carrier (ledger write included), by tool.', [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]);
  readonly inFlight = new Gauge('hpatch_router_in_flight_streams', 'Proxied exchanges in progress (request received, response not yet finished).');

  request(mode: string, shape: string, result: string): void {
    this.requests.inc({ mode, shape, result });
  }

  translation(tool: string, carrier: string, outcome: TranslationOutcome): void {
    this.translations.inc({ tool, carrier, outcome });
    if (outcome === 'diagnostic') this.diagnostics.inc({ tool });
    else if (outcome === 'routing_failure') this.routingFailures.inc({ tool });
  }

  translationSeconds(tool: string, seconds: number): void {
    this.translationTime.observe({ tool }, seconds);
  }

  addedTtfbSeconds(mode: string, seconds: number): void {
    this.addedTtfb.observe({ mode }, seconds);
  }

  restoredCall(tool: string, carrier: string): void {
    this.restored.inc({ tool, carrier });
  }

  upstreamResponse(status: number): void {
    this.upstream.inc({ status: String(status) });
  }

  render(): string {
    return [this.requests, this.translations, this.restored, this.upstream, this.diagnostics, this.routingFailures, this.addedTtfb, this.translationTime, this.inFlight].map((c) => c.render()).join('\n') + '\n';
  }
}
