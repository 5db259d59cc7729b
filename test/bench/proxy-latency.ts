// Added SSE time-to-first-byte and total time through the router vs direct to the same scripted
// upstream, measured interleaved in one run so machine noise hits both sides alike. Upstream, routers and
// client each run on their own thread, as separate processes would.
import { request, Agent } from 'undici';
import { Worker } from 'node:worker_threads';
import { capturedRequest } from '../support/fixtures.ts';
import { tempDir } from '../support/temp-dir.ts';
import { fmt, summarize } from './stats.ts';

async function timeOne(agent: Agent, url: string, body: string, headers: Record<string, string>): Promise<{ ttfb: number; total: number }> {
  const t0 = performance.now();
  const res = await request(url, { method: 'POST', body, headers, dispatcher: agent });
  let ttfb = -1;
  for await (const _ of res.body) if (ttfb < 0) ttfb = performance.now() - t0;
  return { ttfb, total: performance.now() - t0 };
}

function party(data: object): Promise<{ url: string; worker: Worker }> {
  const worker = new Worker(new URL('./ts-worker.mjs', import.meta.url), { workerData: { ...data, entry: new URL('./router-worker.ts', import.meta.url).href } });
  return new Promise((resolve, reject) => {
    worker.once('message', (url: string) => resolve({ url, worker }));
    worker.once('error', reject);
  });
}

export async function benchProxyLatency(rounds: number): Promise<string> {
  const state = tempDir('bench-state');
  const upstream = await party({ role: 'upstream' });
  const floor = await party({ role: 'floor', upstream: upstream.url });
  const pass = await party({ role: 'router', mode: 'passthrough', upstream: upstream.url, stateDir: state.dir });
  const hp = await party({ role: 'router', mode: 'hpatch', upstream: upstream.url, stateDir: state.dir });
  const body = JSON.stringify(capturedRequest('a-default-gpt55-001').body);
  const headers = { 'content-type': 'application/json', 'thread-id': 'bench-thread' };
  const targets = { direct: `${upstream.url}/responses`, 'minimal proxy (floor)': `${floor.url}/v1/responses`, passthrough: `${pass.url}/v1/responses`, hpatch: `${hp.url}/v1/responses` };
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const samples = Object.fromEntries(Object.keys(targets).map((k) => [k, { ttfb: [] as number[], total: [] as number[] }])) as Record<keyof typeof targets, { ttfb: number[]; total: number[] }>;
  for (let i = 0; i < rounds + 20; i++) {
    for (const k of Object.keys(targets) as (keyof typeof targets)[]) {
      const r = await timeOne(agent, targets[k], body, headers);
      if (i >= 20) { samples[k].ttfb.push(r.ttfb); samples[k].total.push(r.total); } // first 20: warm-up
    }
  }
  await agent.close();
  for (const p of [floor, pass, hp, upstream]) await p.worker.terminate();
  state.cleanup();
  const d = { ttfb: summarize(samples.direct.ttfb), total: summarize(samples.direct.total) };
  const lines = [`SSE through the router vs direct (${rounds} interleaved rounds, ${body.length}-byte captured request, 3 output items)`,
    '| path | TTFB p50 | TTFB p90 | added TTFB p50 | total p50 | total ratio p50 |', '|---|---|---|---|---|---|'];
  for (const k of Object.keys(targets) as (keyof typeof targets)[]) {
    const t = summarize(samples[k].ttfb), tot = summarize(samples[k].total);
    lines.push(`| ${k} | ${fmt(t.p50)} | ${fmt(t.p90)} | ${k === 'direct' ? '—' : fmt(t.p50 - d.ttfb.p50)} | ${fmt(tot.p50)} | ${(tot.p50 / d.total.p50).toFixed(2)}× |`);
  }
  return lines.join('\n');
}
