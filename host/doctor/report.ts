// Doctor's output: one line per check (✓ pass, ✗ fail, ! warning) with the fix under each ✗ and !,
// or one JSON object for scripts.
import type { CheckResult } from './check.ts';

const MARK = { pass: '✓', fail: '✗', warn: '!' } as const;

export function doctorOk(results: readonly CheckResult[]): boolean {
  return results.every((r) => r.status !== 'fail');
}

export function renderText(results: readonly CheckResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    const [first, ...more] = r.detail.split('\n');
    out.push(`${MARK[r.status]} ${r.name}: ${first}`);
    for (const m of more) out.push(`    ${m}`);
    if (r.fix !== undefined) {
      const [f, ...rest] = r.fix.split('\n');
      out.push(`    fix: ${f}`);
      for (const m of rest) out.push(m === '' ? '' : `         ${m}`);
    }
  }
  const failed = results.filter((r) => r.status === 'fail').length;
  const warned = results.filter((r) => r.status === 'warn').length;
  out.push(failed === 0
    ? `all ${results.length} checks passed${warned > 0 ? ` (${warned} warning${warned === 1 ? '' : 's'})` : ''}`
    : `${failed} of ${results.length} checks failed`);
  return out.join('\n') + '\n';
}

export function renderJson(results: readonly CheckResult[]): string {
  return JSON.stringify({ ok: doctorOk(results), checks: results }, null, 2) + '\n';
}
