// The request log line: what an operator needs to see what the router did and how fast, one line
// per request, as text or as a JSON record (host/log/logger.ts picks).
export interface RequestLogFields {
  method: string;
  path: string;
  thread?: string;
  shape?: string;
  restored?: number;
  translated?: number;
  diagnostics?: number;
  /** The status the client got (the upstream's, or the router's own on a failure). */
  status?: number;
  /** The upstream's status, when it answered. */
  upstreamStatus?: number;
  error?: string;
  ttfbMs?: number;
  /** Time to first byte the router added on top of the upstream's own. */
  addedTtfbMs?: number;
  totalMs?: number;
  aborted?: boolean;
}

export function formatRequestLog(f: RequestLogFields, time: Date = new Date()): string {
  const parts = [`${time.toISOString()} ${f.method} ${f.path}`];
  if (f.thread) parts.push(`thread=${f.thread}`);
  if (f.shape) parts.push(`shape=${f.shape}`);
  if (f.restored) parts.push(`restored=${f.restored}`);
  if (f.translated) parts.push(`translated=${f.translated}`);
  if (f.diagnostics) parts.push(`diagnostics=${f.diagnostics}`);
  parts.push(`status=${f.status ?? '-'}`);
  if (f.upstreamStatus !== undefined && f.upstreamStatus !== f.status) parts.push(`upstream=${f.upstreamStatus}`);
  if (f.ttfbMs !== undefined) parts.push(`ttfb=${f.ttfbMs.toFixed(1)}ms`);
  if (f.addedTtfbMs !== undefined) parts.push(`added=${f.addedTtfbMs.toFixed(1)}ms`);
  if (f.totalMs !== undefined) parts.push(`total=${f.totalMs.toFixed(1)}ms`);
  if (f.aborted) parts.push('client-aborted');
  if (f.error) parts.push(`error=${JSON.stringify(f.error)}`);
  return parts.join(' ');
}

/** The same fields for a JSON line: snake_case names, counts always present, times in ms rounded to 0.1. */
export function requestLogRecord(f: RequestLogFields): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = { method: f.method, path: f.path };
  if (f.thread !== undefined) out['thread'] = f.thread;
  if (f.shape !== undefined) out['shape'] = f.shape;
  out['restored'] = f.restored ?? 0;
  out['translated'] = f.translated ?? 0;
  out['diagnostics'] = f.diagnostics ?? 0;
  if (f.status !== undefined) out['status'] = f.status;
  if (f.upstreamStatus !== undefined) out['upstream_status'] = f.upstreamStatus;
  if (f.ttfbMs !== undefined) out['ttfb_ms'] = round(f.ttfbMs);
  if (f.addedTtfbMs !== undefined) out['added_ttfb_ms'] = round(f.addedTtfbMs);
  if (f.totalMs !== undefined) out['total_ms'] = round(f.totalMs);
  if (f.aborted) out['client_aborted'] = true;
  if (f.error !== undefined) out['error'] = f.error;
  return out;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
