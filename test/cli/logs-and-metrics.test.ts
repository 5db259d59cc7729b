// Issue 18 item 6, through the built router as a process and a scripted upstream on 127.0.0.1:
// --log-format/--log-level shape stderr, and /metrics has the histograms, counters and gauge
// doc/operations.md lists.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROUTER_DIST, startRouterProcess, type RouterProcess } from '../support/router-process.ts';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.ts';
import { capturedRequest } from '../support/fixtures.ts';
import { tempDir } from '../support/temp-dir.ts';

type Json = Record<string, any>;
const THREAD = '01a22898-aaaa-7bbb-8ccc-0000000018a6';

describe('router logs and metrics (issue 18)', function () {
  this.timeout(60_000);
  let upstream: ScriptedUpstream | undefined;
  let router: RouterProcess | undefined;
  const state = tempDir('logs-state');
  afterEach(async () => {
    await router?.stop();
    await upstream?.close();
    router = upstream = undefined;
  });
  after(() => state.cleanup());

  const body = (): Json => structuredClone(capturedRequest('a-default-gpt55-001').body) as Json;
  async function post(b: unknown): Promise<{ status: number; text: string }> {
    const res = await fetch(`${router!.url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json', 'thread-id': THREAD }, body: JSON.stringify(b) });
    return { status: res.status, text: await res.text() };
  }
  const scrape = async (): Promise<string> => (await fetch(`${router!.url}/metrics`)).text();
  // The request line is written when the response closes, a moment after the client has read it.
  async function stderrLine(pred: (l: string) => boolean): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const l = router!.stderrLines.find(pred);
      if (l !== undefined) return l;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no such stderr line in:\n${router!.stderrLines.join('\n')}`);
  }

  it('--log-format json --log-level debug: startup, request and per-call records are JSON objects with the documented fields; /metrics counts diagnostics and routing failures by tool and times translation and added TTFB', async () => {
    upstream = await startScriptedUpstream([
      { items: [{ type: 'custom_tool_call', name: 'shell', input: '#!python3\nprint(6 * 7)\n', call_id: 'call_ok' }, { type: 'custom_tool_call', name: 'hpatch', input: 'not a patch', call_id: 'call_diag' }] },
      { items: [{ type: 'custom_tool_call', name: 'shell', input: 'echo hi', call_id: '' }] },
    ]);
    router = await startRouterProcess({ args: ['--upstream', upstream.url, '--state-dir', join(state.dir, 'json'), '--log-format', 'json', '--log-level', 'debug'] });
    const first = await post(body());
    expect(first.status, first.text).to.equal(200);
    const second = await post(body()); // a call with an empty call_id: a routing failure, reported in the stream
    expect(second.status).to.equal(200);
    await stderrLine((l) => l.includes('"msg":"request"') && l.includes('routing failure'));

    // Every stderr line is one JSON object with time, level and msg.
    const records = router.stderrLines.map((l) => JSON.parse(l) as Json);
    for (const r of records) expect(r).to.include.keys('time', 'level', 'msg');
    expect(records.find((r) => r['mode'] === 'hpatch')).to.include({ level: 'info', mode: 'hpatch', tools: 2 });
    const requests = records.filter((r) => r['msg'] === 'request');
    expect(requests).to.have.length(2);
    expect(requests[0]).to.include({ level: 'info', method: 'POST', path: '/v1/responses', thread: THREAD, shape: 'native', restored: 0, translated: 1, diagnostics: 1, status: 200, upstream_status: 200 });
    for (const k of ['ttfb_ms', 'added_ttfb_ms', 'total_ms']) expect(requests[0]![k], k).to.be.a('number').and.at.least(0);
    expect(requests[0]!['added_ttfb_ms']).to.be.at.most(requests[0]!['ttfb_ms']);
    expect(requests[1]).to.include({ translated: 0, error: 'routing failure reported to the client' });
    const calls = records.filter((r) => r['msg'] === 'translated call');
    expect(calls.map((c) => [c['level'], c['tool'], c['carrier'], c['outcome'], c['thread'], c['call']])).to.deep.equal([
      ['debug', 'shell', 'exec_command', 'carrier', THREAD, 'call_ok'],
      ['debug', 'hpatch', 'exec_command', 'diagnostic', THREAD, 'call_diag'],
    ]);

    const m = await scrape();
    expect(m).to.contain('# TYPE hpatch_router_diagnostics_total counter\nhpatch_router_diagnostics_total{tool="hpatch"} 1');
    expect(m).to.contain('# TYPE hpatch_router_routing_failures_total counter\nhpatch_router_routing_failures_total{tool="shell"} 1');
    expect(m).to.contain('# TYPE hpatch_router_translation_seconds histogram');
    // Every call is timed, the failed one too.
    expect(m).to.match(/^hpatch_router_translation_seconds_count\{tool="shell"\} 2$/m);
    expect(m).to.match(/^hpatch_router_translation_seconds_count\{tool="hpatch"\} 1$/m);
    expect(m).to.match(/^hpatch_router_translation_seconds_bucket\{tool="shell",le="\+Inf"\} 2$/m);
    expect(m).to.match(/^hpatch_router_added_ttfb_seconds_count\{mode="hpatch"\} 2$/m);
    expect(m).to.match(/^hpatch_router_added_ttfb_seconds_sum\{mode="hpatch"\} [0-9.e-]+$/m);
    expect(m).to.contain('# TYPE hpatch_router_in_flight_streams gauge\nhpatch_router_in_flight_streams 0');
    // Buckets are cumulative and end at the count.
    const buckets = [...m.matchAll(/^hpatch_router_added_ttfb_seconds_bucket\{mode="hpatch",le="([^"]+)"\} (\d+)$/gm)].map((x) => Number(x[2]));
    expect(buckets.length).to.be.greaterThan(5);
    expect(buckets).to.deep.equal([...buckets].sort((a, b) => a - b));
    expect(buckets.at(-1)).to.equal(2);

    // Stopping is logged as records too: no plain line reaches a JSON log.
    expect(await router.stop()).to.equal(0);
    const after = router.stderrLines.map((l) => JSON.parse(l) as Json);
    expect(after.find((r) => String(r['msg']).startsWith('SIGTERM: stopping'))).to.include({ level: 'info', signal: 'SIGTERM' });
  });

  it('text at the default level: the request line has the documented fields; --log-level warn drops request lines but keeps warnings', async () => {
    upstream = await startScriptedUpstream({ turns: [], after: { items: [{ type: 'custom_tool_call', name: 'shell', input: "python3 -c 'print(6 * 7)'\n", call_id: 'call_w' }] } });
    router = await startRouterProcess({ args: ['--upstream', upstream.url, '--state-dir', join(state.dir, 'text')] });
    expect((await post(body())).status).to.equal(200);
    const line = await stderrLine((l) => l.includes(' POST /v1/responses '));
    expect(line).to.match(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z POST /v1/responses thread=${THREAD} shape=native translated=1 status=200 ttfb=[0-9.]+ms added=[0-9.]+ms total=[0-9.]+ms$`));
    expect(router.stderrLines).to.include('hpatch-router: hpatch mode, upstream ' + new URL(upstream.url).href + ', 2 contributed tool(s)');
    await router.stop();

    router = await startRouterProcess({ args: ['--upstream', upstream.url, '--state-dir', join(state.dir, 'warn'), '--log-level', 'warn'] });
    expect((await post(body())).status).to.equal(200);
    const warning = await stderrLine((l) => l.includes('warn: shell warning:'));
    expect(warning).to.match(/^\S+Z warn: shell warning: .* thread=\S+ call=call_w$/);
    await new Promise((r) => setTimeout(r, 200));
    expect(router.stderrLines.filter((l) => l.includes('POST /v1/responses')), router.stderrLines.join('\n')).to.deep.equal([]);
    // No startup chatter at warn either.
    expect(router.stderrLines.filter((l) => l.startsWith('hpatch-router:'))).to.deep.equal([]);
  });

  it('counts an exchange in flight while its stream is open', async () => {
    upstream = await startScriptedUpstream([{ items: [{ type: 'message', text: 'slow' }], end: 'hang' }]);
    router = await startRouterProcess({ args: ['--mode', 'passthrough', '--upstream', upstream.url, '--state-dir', join(state.dir, 'flight')] });
    const controller = new AbortController();
    const res = await fetch(`${router.url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body()), signal: controller.signal });
    expect(res.status).to.equal(200);
    expect(await scrape()).to.contain('\nhpatch_router_in_flight_streams 1\n');
    controller.abort();
    await stderrLine((l) => l.includes('client-aborted'));
    expect(await scrape()).to.contain('\nhpatch_router_in_flight_streams 0\n');
  });

  it('refuses a bad --log-format or --log-level before listening, naming the choices', () => {
    const r = spawnSync(process.execPath, ['--no-node-snapshot', ROUTER_DIST, '--log-format', 'xml', '--log-level', 'loud'], { encoding: 'utf8', timeout: 20_000 });
    expect(r.status).to.equal(2);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.contain('--log-format must be "text" or "json", not "xml"').and.contain('--log-level must be one of error, warn, info, debug, not "loud"');
  });
});
