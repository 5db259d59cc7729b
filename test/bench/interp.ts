// The interpreter (issue 4): cold start of `interp -c 'echo hi'` against `node -e 0` and bash, and
// throughput on loop-, expansion- and pipeline-heavy scripts against bash, measured side by side.
// Needs `make build` (the launcher's startup snapshot dist/interp.blob and the code-cache bundle).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/codex-cli.ts';
import { fmt, summarize } from './stats.ts';

const env = { ...process.env };
delete env['NODE_EXTRA_CA_CERTS'];
delete env['NODE_OPTIONS']; // with V8 flags from NODE_OPTIONS the launcher cannot use its startup snapshot
const node = process.execPath;
const dist = (f: string): string => join(PROJECT_ROOT, 'dist', f);

function timeRun(cmd: string, args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${String(r.stderr)}`);
  return ms;
}

/** Interleaved runs of every command; p50 each. */
function compare(cmds: [string, string, string[]][], runs: number): Map<string, number> {
  const samples = new Map(cmds.map(([name]) => [name, [] as number[]]));
  for (let i = 0; i < runs + 2; i++) {
    for (const [name, cmd, args] of cmds) {
      const ms = timeRun(cmd, args);
      if (i >= 2) samples.get(name)!.push(ms);
    }
  }
  return new Map([...samples].map(([k, v]) => [k, summarize(v).p50]));
}

export function benchInterpColdStart(runs: number): string {
  const launcher = join(PROJECT_ROOT, 'bin', 'hpatch-router');
  // `make install` puts a symlink on PATH: the launcher then needs readlink -f to find dist/
  const linkDir = mkdtempSync(join(tmpdir(), 'hpatch-bench-'));
  const link = join(linkDir, 'hpatch-router');
  symlinkSync(launcher, link);
  try {
    const cmds: [string, string, string[]][] = [
      ['node -e 0', node, ['-e', '0']],
      ["bash -c 'echo hi'", 'bash', ['-c', 'echo hi']],
      [`hpatch-router interp -c 'echo hi' (bin/hpatch-router${existsSync(dist('interp.blob')) ? ', startup snapshot' : ''})`, launcher, ['interp', '-c', 'echo hi']],
      ['same through a symlink to the launcher (make install)', link, ['interp', '-c', 'echo hi']],
      // the price of a script fast-parser.ts declines: the blob loads mvdan-sh for it
      ["interp -c 'echo $[6 * 7]' (declined by the fast parser: loads mvdan-sh)", launcher, ['interp', '-c', 'echo $[6 * 7]']],
      ['interp, CJS bundle + V8 code cache (the fallback)', node, ['--no-turbo-inlining', '--min-semi-space-size=8', dist('interp-launch.cjs'), '-c', 'echo hi']],
      ['same through the router ESM bundle', node, ['--no-node-snapshot', dist('hpatch-router.mjs'), 'interp', '-c', 'echo hi']],
    ];
    const p50 = compare(cmds, runs);
    const base = p50.get('node -e 0')!;
    const lines = [`Interpreter cold start (${runs} interleaved runs, p50, NODE_EXTRA_CA_CERTS unset)`, '| command | p50 | vs node -e 0 |', '|---|---|---|'];
    for (const [name, ms] of p50) lines.push(`| ${name} | ${fmt(ms)} | ${(ms / base).toFixed(2)}× |`);
    return lines.join('\n');
  } finally {
    rmSync(linkDir, { recursive: true, force: true });
  }
}

export const SCRIPTS: Record<string, string> = {
  'arithmetic loop (20k iterations)': 'i=0; s=0; while [ $i -lt 20000 ]; do s=$((s + i * 2)); i=$((i + 1)); done; echo $s',
  'expansion-heavy (5k iterations)': 'x=abcdefghij; for i in $(seq 5000); do y=${x//c/C}; z=${y:2:5}; w=${#z}; a[$i]=$z$w; done; echo ${#a[@]} ${a[17]}',
  'pipeline per iteration (200)': 'for i in $(seq 200); do echo "line $i" | tr a-z A-Z | cut -c1-4 >/dev/null; done; echo done',
  'external command per iteration (300)': 'for i in $(seq 300); do /bin/true; done; echo done',
  'while read over 20k lines': 'seq 20000 | while read -r n; do t=$((t + n)); done; echo ok',
  'tests, case and echo per iteration (5k)': 'for i in $(seq 5000); do [[ $i == *7 ]] && echo "seven $i"; case $i in *0) printf "%s\\n" "$i" ;; *5) [ $i -gt 100 ] || echo small ;; esac; done | wc -l',
};

export function benchInterpThroughput(runs: number): string {
  const launcher = join(PROJECT_ROOT, 'bin', 'hpatch-router');
  const lines = [`Interpreter throughput vs bash (${runs} interleaved runs, p50, including process start)`, '| script | bash | interp | ratio |', '|---|---|---|---|'];
  for (const [name, script] of Object.entries(SCRIPTS)) {
    const p50 = compare([['bash', 'bash', ['-c', script]], ['interp', launcher, ['interp', '-c', script]]], runs);
    const b = p50.get('bash')!, i = p50.get('interp')!;
    lines.push(`| ${name} | ${fmt(b)} | ${fmt(i)} | ${(i / b).toFixed(2)}× |`);
  }
  return lines.join('\n');
}
