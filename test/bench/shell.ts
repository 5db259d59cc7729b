// The built-in shell tool (issue 14): one call as Codex runs it — `bash -lc '<carrier command>'`
// through the installed locator, the snapshot's wrapper and the worker — against the direct
// `bash -lc '<body>'`, with `node -e 0` measured in the same run as the yardstick; and the router's
// side of one call: the declaration's isolate, the direct-carrier decision, retention, the exec
// wrapper and the durable ledger record.
// Needs `make build` (dist/ with the interpreter's startup snapshot, plugins/shell.mjs).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AvailableCarriers } from '../../host/carriers/carrier.ts';
import { renderCarrier } from '../../host/carriers/render-carrier.ts';
import { Ledger } from '../../host/history/ledger.ts';
import { Metrics } from '../../host/metrics/metrics.ts';
import type { RequestContext } from '../../host/request/rewrite.ts';
import { createSnapshot, SHELL_WRAPPER_PATH } from '../../host/runtime/snapshot.ts';
import { loadBuiltinShell } from '../../host/shell/builtin-shell.ts';
import { ShellThreadStorage } from '../../host/shell/thread-storage.ts';
import { translateCall } from '../../host/translate/translate-call.ts';
import { PROJECT_ROOT } from '../support/codex-cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { fmt, summarize } from './stats.ts';

const NATIVE: AvailableCarriers = { exec_command: {}, primary: 'exec_command' };
const THREAD = 'bench-thread';

const CASES: ReadonlyArray<{ name: string; input: string; direct: string }> = [
  { name: 'echo hi', input: 'echo hi\n', direct: 'echo hi' },
  { name: '1k-iteration loop', input: 'i=0; s=0\nwhile [ $i -lt 1000 ]; do s=$((s + i)); i=$((i + 1)); done\necho $s\n', direct: 'i=0; s=0\nwhile [ $i -lt 1000 ]; do s=$((s + i)); i=$((i + 1)); done\necho $s\n' },
  { name: 'grep pipeline', input: 'seq 1 20000 | grep 7 | wc -l\n', direct: 'seq 1 20000 | grep 7 | wc -l' },
  { name: '#!python3 print(1) vs python3 -c', input: '#!python3\nprint(1)\n', direct: "python3 -c 'print(1)'" },
];

export async function benchShellCall(runs: number): Promise<string> {
  const tmp = tempDir('bench-shell');
  const base = join(tmp.dir, 'base');
  mkdirSync(base, { mode: 0o700 });
  const snapshot = createSnapshot({ base, installRoot: PROJECT_ROOT, plugins: [], frontendDir: null });
  const storage = new ShellThreadStorage(base, join(snapshot.dir, SHELL_WRAPPER_PATH));
  const loaded = await loadBuiltinShell(() => storage);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  const bin = join(tmp.dir, 'bin');
  mkdirSync(bin);
  copyFileSync(join(PROJECT_ROOT, 'bin', 'shell'), join(bin, 'shell'));
  chmodSync(join(bin, 'shell'), 0o755);
  writeFileSync(join(tmp.dir, '.profile'), `export PATH=${JSON.stringify(bin)}:"$PATH"\n`);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: tmp.dir, HPATCH_RUNTIME_DIR: base, CODEX_THREAD_ID: THREAD };
  delete env['NODE_EXTRA_CA_CERTS'];
  delete env['NODE_OPTIONS'];
  try {
    const carriers: Array<{ name: string; carrier: string; direct: string }> = [];
    for (const c of CASES) {
      const outcome = await loaded.contribution.translate(c.input, { threadId: THREAD, callId: `call_${carriers.length}`, carriers: NATIVE });
      if (outcome.kind !== 'carrier') throw new Error(outcome.message);
      const cmd = (JSON.parse((renderCarrier(outcome.request, NATIVE) as { arguments: string }).arguments) as { cmd: string }).cmd;
      carriers.push({ name: c.name, carrier: cmd, direct: c.direct });
    }
    const time = (args: string[]): number => {
      const t0 = performance.now();
      const r = spawnSync(args[0]!, args.slice(1), { env, cwd: tmp.dir, stdio: ['ignore', 'pipe', 'pipe'] });
      const ms = performance.now() - t0;
      if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${String(r.stderr)}`);
      return ms;
    };
    const nodeSamples: number[] = [];
    const samples = carriers.map(() => ({ helper: [] as number[], direct: [] as number[] }));
    for (let i = 0; i < runs + 2; i++) {
      const n = time([process.execPath, '-e', '0']);
      if (i >= 2) nodeSamples.push(n);
      carriers.forEach((c, k) => {
        const h = time(['bash', '-lc', c.carrier]);
        const d = time(['bash', '-lc', c.direct]);
        if (i >= 2) { samples[k]!.helper.push(h); samples[k]!.direct.push(d); }
      });
    }
    const node = summarize(nodeSamples).p50;
    const lines = [
      `One shell call as Codex runs it: bash -lc '<carrier>' vs bash -lc '<body>' (${runs} interleaved runs, p50; node -e 0 = ${fmt(node)})`,
      '| body | direct | through the helper | added | added / node -e 0 |', '|---|---|---|---|---|',
    ];
    carriers.forEach((c, k) => {
      const h = summarize(samples[k]!.helper).p50, d = summarize(samples[k]!.direct).p50;
      lines.push(`| ${c.name} | ${fmt(d)} | ${fmt(h)} | ${fmt(h - d)} | ${((h - d) / node).toFixed(2)}× |`);
    });
    return lines.join('\n');
  } finally {
    storage.close();
    loaded.dispose();
    tmp.cleanup();
  }
}

export async function benchShellTranslate(iterations: number): Promise<string> {
  const rows: string[] = [];
  // The runtime base is $XDG_RUNTIME_DIR/hpatch-router (a tmpfs) on most systems, else under the
  // temp dir; the ledger is always in the state directory (disk).
  if (existsSync('/dev/shm')) rows.push(...(await translateRows(iterations, '/dev/shm', 'runtime base on tmpfs (as under $XDG_RUNTIME_DIR)')));
  rows.push(...(await translateRows(iterations, tmpdir(), `runtime base on ${tmpdir()} (disk here)`)));
  return [`Router side of one shell call (${iterations} calls over 3 bodies: Python, a direct command, a Bash pipeline; ledger on disk)`,
    '| runtime base | stage | p50 | p90 | p99 |', '|---|---|---|---|---|', ...rows].join('\n');
}

async function translateRows(iterations: number, root: string, label: string): Promise<string[]> {
  const tmp = tempDir('bench-shell-translate');
  const baseTmp = mkdtempSync(join(root, 'hpatch-bench-base-'));
  const base = join(baseTmp, 'base');
  mkdirSync(base, { mode: 0o700 });
  const storage = new ShellThreadStorage(base, '/snapshots/x/runtime/bin/shell-worker');
  const loaded = await loadBuiltinShell(() => storage);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  const ledger = await Ledger.open(join(tmp.dir, 'ledger'));
  const ctx: RequestContext = { threadId: THREAD, shape: 'native', carriers: NATIVE, exposed: new Map([['shell', loaded.contribution]]) };
  const deps = { ledger, metrics: new Metrics() };
  const inputs = ['#!python3\nimport sys\nfor l in sys.stdin:\n    print(l.upper(), end="")\n', "rtk shadowtree test . -run='^$'\n", 'for f in *.ts; do wc -l "$f"; done | sort -n | tail -3\n'];
  try {
    // Two separate loops: the ledger's fsyncs would otherwise stall the translation rows too.
    const translate: number[] = [], full: number[] = [];
    for (let i = 0; i < iterations + 50; i++) {
      const input = inputs[i % inputs.length]!;
      const t0 = performance.now();
      const outcome = await loaded.contribution.translate(input, { threadId: THREAD, callId: `call_t${i}`, carriers: NATIVE });
      if (outcome.kind === 'carrier') renderCarrier(outcome.request, NATIVE);
      if (i >= 50) translate.push(performance.now() - t0);
    }
    for (let i = 0; i < iterations + 50; i++) {
      const input = inputs[i % inputs.length]!;
      const item = { type: 'custom_tool_call', name: 'shell', input, call_id: `call_f${i}` };
      const t0 = performance.now();
      await translateCall(item, JSON.stringify(item), ctx, deps);
      if (i >= 50) full.push(performance.now() - t0);
    }
    const a = summarize(translate), b = summarize(full);
    return [
      `| ${label} | isolate parse + direct-carrier decision + warnings + retention write + exec wrapper | ${fmt(a.p50)} | ${fmt(a.p90)} | ${fmt(a.p99)} |`,
      `| ${label} | the same + the durable ledger record (fsync) — translateCall | ${fmt(b.p50)} | ${fmt(b.p90)} | ${fmt(b.p99)} |`];
  } finally {
    storage.close();
    loaded.dispose();
    tmp.cleanup();
    rmSync(baseTmp, { recursive: true, force: true });
  }
}
