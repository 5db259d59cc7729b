// hpatch translation (issue 15): verify + apply + render of a 3-hunk patch on a 2,000-line file,
// file read included (planPatch, as the router runs it per call). Baseline in the same run: reading
// the same file and splitting it into lines, the least any line-anchored tool must do per call.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rowHash } from '../../isolates/core-v1/rows.ts';
import { planPatch } from '../../host/hpatch/plan-patch.ts';
import { readWorkspaceFile } from '../../host/hpatch/workspace-files.ts';
import { tempDir } from '../support/temp-dir.ts';
import { fmt, summarize } from './stats.ts';

export function benchHpatch(iterations: number): string {
  const tmp = tempDir('bench-hpatch');
  try {
    const lines = Array.from({ length: 2000 }, (_, i) => (i % 50 === 0 ? '}' : `    const value${i} = compute(${i}, "item-${i}");`));
    writeFileSync(join(tmp.dir, 'big.ts'), `${lines.join('\n')}\n`);
    const a = (n: number): string => `${n}:${rowHash(lines[n - 1]!)}`;
    const patch = `*** Begin Patch\n*** Update File: big.ts\n@@ replace ${a(100)}-${a(102)}\n+    const replaced = 1;\n` +
      `@@ insert after ${a(1000)}\n+    const inserted = 2;\n@@ delete ${a(1900)}\n*** End Patch\n`;
    const ws = { cwd: tmp.dir, roots: [tmp.dir] };
    const plan = (): void => {
      const p = planPatch({ text: patch, workspace: ws, history: [], read: (abs) => readWorkspaceFile(ws, abs) });
      if (!p.ok) throw new Error(p.refusal);
    };
    const baseline = (): void => {
      if (readFileSync(join(tmp.dir, 'big.ts'), 'utf8').split('\n').length < 2000) throw new Error('short');
    };
    for (let i = 0; i < 50; i++) { plan(); baseline(); }
    const p: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < iterations; i++) {
      let t0 = performance.now();
      plan();
      p.push(performance.now() - t0);
      t0 = performance.now();
      baseline();
      b.push(performance.now() - t0);
    }
    const sp = summarize(p);
    const sb = summarize(b);
    return [
      '## hpatch translation: 3 hunks on a 2,000-line file (read + verify + apply + render)',
      `hpatch planPatch          p50 ${fmt(sp.p50)}  p90 ${fmt(sp.p90)}  p99 ${fmt(sp.p99)}   (goal: p50 < 1 ms)`,
      `read + split (baseline)   p50 ${fmt(sb.p50)}  p90 ${fmt(sb.p90)}  p99 ${fmt(sb.p99)}`,
      `ratio p50: ${(sp.p50 / sb.p50).toFixed(1)}x the baseline`,
    ].join('\n');
  } finally {
    tmp.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(benchHpatch(Number(process.argv[2] ?? 1000)));
