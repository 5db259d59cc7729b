// Two builds of the interpreter side by side (an issue's "within 3% of the numbers before the
// change, measured in the same run"): cold start and every throughput script of interp.ts, run
// alternately through each checkout's bin/hpatch-router, p50 of each and new/old.
//   env -u NODE_EXTRA_CA_CERTS node --import=tsx test/bench/interp-ab.ts OLD_CHECKOUT NEW_CHECKOUT [RUNS [ROW]]
// ROW: only the rows whose name contains it (to measure a noisy row again).
// Each checkout must be built (`make build`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SCRIPTS } from './interp.ts';
import { fmt, summarize } from './stats.ts';

const [oldDir, newDir, runsArg, rowFilter] = process.argv.slice(2);
if (!oldDir || !newDir) {
  process.stderr.write('usage: interp-ab.ts OLD_CHECKOUT NEW_CHECKOUT [RUNS [ROW]]\n');
  process.exit(2);
}
const runs = Number(runsArg ?? 11);
const env = { ...process.env };
delete env['NODE_EXTRA_CA_CERTS'];
delete env['NODE_OPTIONS'];
const launchers = [oldDir, newDir].map((d) => join(resolve(d), 'bin', 'hpatch-router'));
for (const l of launchers) if (!existsSync(join(l, '..', '..', 'dist', 'interp.blob'))) throw new Error(`${l}: not built (make build)`);

function timeRun(launcher: string, script: string): number {
  const t0 = performance.now();
  const r = spawnSync(launcher, ['interp', '-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${launcher} -c ${script} exited ${r.status}: ${String(r.stderr)}`);
  return ms;
}

const rows = ([['cold start (-c :)', ':'], ...Object.entries(SCRIPTS)] as [string, string][]).filter(([name]) => rowFilter === undefined || name.includes(rowFilter));
console.log(`| script (${runs} interleaved runs, p50) | old | new | new/old |\n|---|---|---|---|`);
for (const [name, script] of rows) {
  const samples: number[][] = [[], []];
  for (let i = 0; i < runs + 1; i++) {
    for (const k of [0, 1]) {
      const ms = timeRun(launchers[k]!, script);
      if (i > 0) samples[k]!.push(ms); // (the first round warms the page cache)
    }
  }
  const [o, n] = samples.map((s) => summarize(s).p50) as [number, number];
  console.log(`| ${name} | ${fmt(o)} | ${fmt(n)} | ${(n / o).toFixed(3)} |`);
}
