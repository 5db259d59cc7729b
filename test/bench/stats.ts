// Small statistics helpers for the benchmarks: percentiles over samples in milliseconds.
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

export function summarize(samples: readonly number[]): { p50: number; p90: number; p99: number } {
  return { p50: percentile(samples, 50), p90: percentile(samples, 90), p99: percentile(samples, 99) };
}

export const fmt = (ms: number): string => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);
