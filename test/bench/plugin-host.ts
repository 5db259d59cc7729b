// Plugin host costs: the translate round trip through an isolate vs calling the same plugin
// function directly in-process, and router startup with 1, 20 and 100 plugins vs the bare router.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PluginIsolate } from '../../host/plugins/isolate.ts';
import { FIXTURES } from '../support/fixtures.ts';
import { PROJECT_ROOT } from '../support/codex-cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { fmt, summarize } from './stats.ts';

const FIXTURE = join(FIXTURES, 'plugins', 'valid', '10-text-echo.mjs');
const INPUT = 'one line\nanother line with "quotes"\nthird';

export async function benchTranslate(iterations: number): Promise<string> {
  const iso = await PluginIsolate.load({ file: FIXTURE, source: readFileSync(FIXTURE, 'utf8') });
  const mod = (await import(pathToFileURL(FIXTURE).href)) as { default: { tools: { parse(i: string): { ok: boolean; value?: unknown }; translate(v: unknown, c: unknown): unknown }[] } };
  const tool = mod.default.tools[0]!;
  const ctx = { exec: (argv: string[], options?: object) => ({ kind: 'exec', argv: [...argv], ...options }), carriers: ['exec_command'], threadId: 't' };
  const direct = (): unknown => {
    const p = tool.parse(INPUT);
    return p.ok ? tool.translate(p.value, ctx) : p;
  };
  const req = { tool: 'text_echo', input: INPUT, carriers: ['exec_command'], threadId: 't' };
  for (let i = 0; i < 200; i++) { await iso.translate(req); direct(); }
  const through: number[] = [], inProcess: number[] = [];
  for (let i = 0; i < iterations; i++) {
    let t0 = performance.now();
    await iso.translate(req);
    through.push(performance.now() - t0);
    t0 = performance.now();
    direct();
    inProcess.push(performance.now() - t0);
  }
  iso.dispose();
  const a = summarize(through), b = summarize(inProcess);
  return [`Plugin translate round trip (${iterations} calls, text_echo fixture)`,
    '| path | p50 | p99 | added p50 |', '|---|---|---|---|',
    `| direct in-process call | ${fmt(b.p50)} | ${fmt(b.p99)} | — |`,
    `| through the isolate (JSON control channel) | ${fmt(a.p50)} | ${fmt(a.p99)} | ${fmt(a.p50 - b.p50)} |`].join('\n');
}

/** Writes `n` valid plugins, each a copy of the fixture with its own id and tool names. */
function pluginDir(root: string, n: number): string {
  const dir = join(root, `config-${n}`, 'hpatch', 'plugins');
  mkdirSync(dir, { recursive: true });
  const source = readFileSync(FIXTURE, 'utf8');
  for (let i = 0; i < n; i++) {
    const text = source.replace("id: 'test.text-echo'", `id: 'bench.p${i}'`).replace(/name: '(text_echo|templated_echo)'/g, `name: '$1_${i}'`);
    writeFileSync(join(dir, `p${String(i).padStart(3, '0')}.mjs`), text);
  }
  return join(root, `config-${n}`);
}

function startupMs(configHome: string, root: string, run: number): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: configHome, HPATCH_RUNTIME_DIR: join(root, `rt-${run}`), HPATCH_FRONTEND_DIR: join(root, `fe-${run}`) };
  delete env['NODE_EXTRA_CA_CERTS'];
  mkdirSync(env['HPATCH_FRONTEND_DIR']!, { recursive: true });
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--no-node-snapshot', join(PROJECT_ROOT, 'dist', 'hpatch-router.mjs'), '--listen', '127.0.0.1:0', '--upstream', 'http://127.0.0.1:9/v1', '--state-dir', join(root, `state-${run}`)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += String(d)));
    child.stdout.once('data', () => {
      const ms = performance.now() - t0;
      child.kill('SIGKILL');
      resolve(ms);
    });
    child.once('exit', (code) => reject(new Error(`router exited ${code}: ${err}`)));
  });
}

export async function benchStartup(runs: number): Promise<string> {
  const tmp = tempDir('bench-startup');
  let run = 0;
  try {
    const counts = [0, 1, 20, 100];
    const dirs = new Map(counts.map((n) => [n, pluginDir(tmp.dir, n)]));
    const samples = new Map(counts.map((n) => [n, [] as number[]]));
    for (let r = 0; r < runs; r++) for (const n of counts) samples.get(n)!.push(await startupMs(dirs.get(n)!, tmp.dir, run++));
    const bare = summarize(samples.get(0)!).p50;
    const lines = [`Router startup until "listening on" (${runs} interleaved runs each, p50; hpatch mode, built dist/)`,
      '| plugins | tools | p50 | over the bare router |', '|---|---|---|---|'];
    for (const n of counts) {
      const p = summarize(samples.get(n)!).p50;
      lines.push(`| ${n} | ${2 * n} | ${fmt(p)} | ${n === 0 ? '—' : `+${fmt(p - bare)}`} |`);
    }
    return lines.join('\n');
  } finally {
    tmp.cleanup();
  }
}
