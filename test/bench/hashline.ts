// The hashline reads (issue 15): `hread` of a 100k-line file against `cat -n`, and `hgrep` over a
// 5,000-file tree of real sources (copied from node_modules) against `grep -rn`, on the same input in
// the same run. Worker start is excluded: the commands' own work is timed in-process; the tools'
// process start is taken off their times (the p50 of spawning `true`).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileFacts } from '../../host/hashline/file-facts.ts';
import { hgrep } from '../../host/hashline/hgrep.ts';
import { renderHread } from '../../host/hashline/hread.ts';
import { PROJECT_ROOT } from '../support/codex-cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { fmt, summarize } from './stats.ts';

function spawnMs(cmd: string, args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'ignore'] });
  const ms = performance.now() - t0;
  if (r.status !== 0 && !(cmd === 'grep' && r.status === 1)) throw new Error(`${cmd} exited ${r.status}`);
  return ms;
}

/**
 * A tree of `n` real text files: the sources and docs of node_modules (under 256 KB), copied as they
 * are; when there are fewer than `n`, the set is copied again under `copy-2/`, `copy-3/`… until the
 * tree holds `n` files (the same real content, as a monorepo's vendored copies are).
 */
function sourceTree(dir: string, n: number): number {
  const sources: string[] = [];
  const walk = (d: string): void => {
    let names: string[];
    try { names = readdirSync(d).sort(); } catch { return; }
    for (const name of names) {
      const p = join(d, name);
      let st;
      try { st = statSync(p); } catch { continue; }
      if (st.isDirectory()) walk(p);
      else if (/\.(js|ts|mjs|cjs|mts|cts|json|md|txt|yml|h|c|cc|py|rs|go)$/.test(name) && st.size < 256 * 1024) sources.push(p);
    }
  };
  walk(join(PROJECT_ROOT, 'node_modules'));
  let count = 0;
  for (let copy = 1; count < n && sources.length > 0; copy++) {
    for (const p of sources) {
      if (count >= n) break;
      const to = join(dir, copy === 1 ? '' : `copy-${copy}`, relative(join(PROJECT_ROOT, 'node_modules'), p));
      mkdirSync(join(to, '..'), { recursive: true });
      copyFileSync(p, to);
      count++;
    }
  }
  return count;
}

export function benchHashline(runs: number): string {
  const tmp = tempDir('bench-hashline');
  try {
    // A 100k-line file made of real source lines.
    const lines = readFileSync(join(PROJECT_ROOT, 'host', 'interp', 'runner.ts'), 'utf8').split('\n');
    const big = join(tmp.dir, 'big.ts');
    writeFileSync(big, Array.from({ length: 100_000 }, (_, i) => lines[i % lines.length]).join('\n') + '\n');
    const tree = join(tmp.dir, 'tree');
    const files = sourceTree(tree, 5000);
    // Two patterns nothing matches, so both tools scan every file: one with a literal every match
    // needs (hgrep skips files on their bytes), one without (an alternation: every file is decoded
    // and searched by the regex engine).
    const patterns = ['zq[0-9]xq', '(?:zqj|xqj)[0-9]q'] as const;
    const spawnBase: number[] = [], hreadMs: number[] = [], catMs: number[] = [];
    const hgrepMs: number[][] = patterns.map(() => []), grepMs: number[][] = patterns.map(() => []);
    for (let i = 0; i < runs + 1; i++) {
      const s = spawnMs('true', []);
      let t0 = performance.now();
      const bytes = readFileSync(big);
      const r = renderHread('big.ts', fileFacts('big.ts', bytes), bytes, null, { maxRows: Infinity, maxBytes: Infinity });
      const h = performance.now() - t0;
      if (!r.ok) throw new Error(r.error);
      const c = spawnMs('cat', ['-n', big]);
      if (i >= 1) { spawnBase.push(s); hreadMs.push(h); catMs.push(c); }
      patterns.forEach((pattern, k) => {
        const t1 = performance.now();
        const g = hgrep({ pattern, paths: [tree], caseInsensitive: false, fixed: false, context: 0 }, tmp.dir);
        const hg = performance.now() - t1;
        if ('error' in g) throw new Error(g.error);
        if (g.matches !== 0) throw new Error(`${pattern} matched`);
        // (grep's ERE has no (?:…): the same alternation as a plain group)
        const gr = spawnMs('grep', ['-rnE', pattern.replace('(?:', '('), tree]);
        if (i >= 1) { hgrepMs[k]!.push(hg); grepMs[k]!.push(gr); }
      });
    }
    const base = summarize(spawnBase).p50;
    const row = (name: string, ours: number[], theirs: number[], tool: string): string => {
      const o = summarize(ours).p50, t = Math.max(0.001, summarize(theirs).p50 - base);
      return `| ${name} | ${fmt(o)} | ${tool} ${fmt(t)} | ${(o / t).toFixed(2)}× |`;
    };
    return [`Hashline reads (${runs} interleaved runs, p50; tools' process start of ${fmt(base)} taken off)`,
      '| command | ours (in-process) | tool | ratio |', '|---|---|---|---|',
      row('hread, all 100,000 rows of a 4 MB file (no window)', hreadMs, catMs, 'cat -n'),
      row(`hgrep '${patterns[0]}' over ${files} files (no match; literal prefilter)`, hgrepMs[0]!, grepMs[0]!, 'grep -rnE'),
      row(`hgrep '${patterns[1]}' over ${files} files (no match; no literal: regex on every file)`, hgrepMs[1]!, grepMs[1]!, 'grep -rnE'),
    ].join('\n');
  } finally {
    tmp.cleanup();
  }
}
