// One line per request on stderr: what an operator needs to see what the router did and how fast.
export interface RequestLogFields {
  method: string;
  path: string;
  thread?: string;
  shape?: string;
  restored?: number;
  translated?: number;
  diagnostics?: number;
  status?: number;
  error?: string;
  ttfbMs?: number;
  totalMs?: number;
  aborted?: boolean;
}

export type LogSink = (line: string) => void;

export const stderrSink: LogSink = (line) => process.stderr.write(`${line}\n`);

export function formatRequestLog(f: RequestLogFields): string {
  const parts = [`${new Date().toISOString()} ${f.method} ${f.path}`];
  if (f.thread) parts.push(`thread=${f.thread}`);
  if (f.shape) parts.push(`shape=${f.shape}`);
  if (f.restored) parts.push(`restored=${f.restored}`);
  if (f.translated) parts.push(`translated=${f.translated}`);
  if (f.diagnostics) parts.push(`diagnostics=${f.diagnostics}`);
  parts.push(`status=${f.status ?? '-'}`);
  if (f.ttfbMs !== undefined) parts.push(`ttfb=${f.ttfbMs.toFixed(1)}ms`);
  if (f.totalMs !== undefined) parts.push(`total=${f.totalMs.toFixed(1)}ms`);
  if (f.aborted) parts.push('client-aborted');
  if (f.error) parts.push(`error=${JSON.stringify(f.error)}`);
  return parts.join(' ');
}
