// Counters of what the router did, in Prometheus text exposition format (GET /metrics).
// Every translated call is classified by tool, carrier kind and outcome.

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
      const l = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',');
      lines.push(`${this.name}${l ? `{${l}}` : ''} ${value}`);
    }
    return lines.join('\n');
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

  request(mode: string, shape: string, result: string): void {
    this.requests.inc({ mode, shape, result });
  }

  translation(tool: string, carrier: string, outcome: TranslationOutcome): void {
    this.translations.inc({ tool, carrier, outcome });
  }

  restoredCall(tool: string, carrier: string): void {
    this.restored.inc({ tool, carrier });
  }

  upstreamResponse(status: number): void {
    this.upstream.inc({ status: String(status) });
  }

  render(): string {
    return [this.requests, this.translations, this.restored, this.upstream].map((c) => c.render()).join('\n') + '\n';
  }
}
