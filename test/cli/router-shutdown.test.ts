// Graceful shutdown of the BUILT router (issue 18): SIGTERM/SIGINT stop accepting, a stream in flight
// finishes within --shutdown-grace or is ended between two events with the body's final chunk (a
// clean end: what Codex sees as "stream closed before response.completed" and retries), the frontend
// lock is released, the exit status is 0; a second signal exits at once.
import { expect } from 'chai';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { LOCK_FILE } from '../../host/runtime/frontend-lock.ts';
import { capturedRequest, FIXTURES } from '../support/fixtures.ts';
import { startRouterProcess, type RouterProcess } from '../support/router-process.ts';
import { startScriptedUpstream, type Script, type ScriptedUpstream } from '../support/scripted-upstream.ts';
import { parseSse } from '../support/sse-script.ts';
import { tempDir } from '../support/temp-dir.ts';

type Json = Record<string, any>;
const THREAD = '019ab3c4-d5e6-7f80-9a1b-2c3d4e5f6a7b';

interface Streamed {
  /** Resolves with the status once the response head arrived. */
  head: Promise<number>;
  /** Resolves once `text` appeared in the body. */
  sawText(text: string): Promise<void>;
  /** `complete`: the body ended with its final chunk (IncomingMessage.complete); else it was torn. */
  done: Promise<{ complete: boolean; body: string; at: number }>;
}

/** A POST whose body is read as it streams, so a test can act while the stream is in flight. */
function streamPost(url: string, body: unknown): Streamed {
  let gotHead!: (status: number) => void;
  const head = new Promise<number>((r) => (gotHead = r));
  let text = '';
  const watchers: Array<{ text: string; resolve: () => void }> = [];
  const done = new Promise<{ complete: boolean; body: string; at: number }>((resolve) => {
    const req = http.request(`${url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json', 'thread-id': THREAD } }, (res) => {
      gotHead(res.statusCode ?? 0);
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
        for (const w of watchers.splice(0)) if (text.includes(w.text)) w.resolve(); else watchers.push(w);
      });
      const finish = (): void => resolve({ complete: res.complete, body: text, at: Date.now() });
      res.on('end', finish);
      res.on('error', finish);
      res.on('aborted', finish);
    });
    req.on('error', () => resolve({ complete: false, body: text, at: Date.now() }));
    req.end(JSON.stringify(body));
  });
  const sawText = (t: string): Promise<void> =>
    text.includes(t) ? Promise.resolve() : new Promise((resolve) => watchers.push({ text: t, resolve }));
  return { head, sawText, done };
}

const types = (body: string): string[] => parseSse(body).map((f) => (JSON.parse(f.data) as Json)['type'] as string);

describe('hpatch-router graceful shutdown (process)', function () {
  this.timeout(60_000);
  let upstream: ScriptedUpstream | undefined;
  let routers: RouterProcess[] = [];
  let dirs: Array<{ dir: string; cleanup: () => void }> = [];
  const dir = (label: string): string => {
    const d = tempDir(label);
    dirs.push(d);
    return d.dir;
  };
  afterEach(async () => {
    for (const r of routers) await r.stop('SIGKILL');
    await upstream?.close();
    for (const d of dirs) d.cleanup();
    routers = [];
    dirs = [];
    upstream = undefined;
  });

  /** hpatch mode with one configured plugin, so the router holds the frontend lock in `runtime`. */
  async function start(script: Script, args: string[], shared?: { runtime: string; frontends: string; config: string }): Promise<{ router: RouterProcess; runtime: string; frontends: string; config: string }> {
    upstream ??= await startScriptedUpstream(script);
    const env = shared ?? { runtime: join(dir('shutdown-runtime'), 'base'), frontends: dir('shutdown-frontends'), config: dir('shutdown-config') };
    if (!shared) {
      mkdirSync(join(env.config, 'hpatch', 'plugins'), { recursive: true });
      copyFileSync(join(FIXTURES, 'plugins', 'valid', '10-text-echo.mjs'), join(env.config, 'hpatch', 'plugins', '10-text-echo.mjs'));
    }
    const router = await startRouterProcess({
      args: ['--upstream', upstream.url, '--state-dir', dir('shutdown-state'), ...args],
      env: { HPATCH_RUNTIME_DIR: env.runtime, HPATCH_FRONTEND_DIR: env.frontends, XDG_CONFIG_HOME: env.config },
    });
    routers.push(router);
    return { router, runtime: env.runtime, frontends: env.frontends, config: env.config };
  }

  const stderrHas = async (r: RouterProcess, text: string): Promise<void> => {
    for (let i = 0; i < 200 && !r.stderrLines.some((l) => l.includes(text)); i++) await new Promise((res) => setTimeout(res, 25));
    expect(r.stderrLines.join('\n')).to.contain(text);
  };

  it('SIGTERM: a stream in flight that finishes within the bound completes; new connections are refused; exit 0', async () => {
    const { router, runtime } = await start([{ items: [{ type: 'message', text: 'one two three four five six seven eight' }], eventGapMs: 150 }], ['--shutdown-grace', '20s']);
    expect(existsSync(join(runtime, LOCK_FILE)), 'the router holds the frontend lock').to.equal(true);
    const s = streamPost(router.url, capturedRequest('a-default-gpt55-001').body);
    expect(await s.head).to.equal(200);
    await s.sawText('response.created');
    const signalled = Date.now();
    process.kill(router.pid, 'SIGTERM');
    await stderrHas(router, 'SIGTERM: stopping');
    // The listener is closed while the stream still runs.
    const refused = await new Promise<string>((resolve) => {
      http.get(`${router.url}/metrics`, (res) => resolve(`answered ${res.statusCode}`)).on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    });
    expect(refused).to.equal('ECONNREFUSED');
    const got = await s.done;
    expect(got.complete).to.equal(true);
    expect(types(got.body).at(-1)).to.equal('response.completed');
    expect(got.at - signalled).to.be.greaterThan(300); // it really was in flight
    expect(await router.exited).to.equal(0);
    expect(existsSync(join(runtime, LOCK_FILE)), 'lock released').to.equal(false);
  });

  it('a stream still open at the bound ends between two events with the final chunk; the lock is released and a new router starts at once', async () => {
    const first = await start([{ items: [{ type: 'message', text: 'partial answer' }], omitCompleted: true, end: 'hang' }], ['--shutdown-grace', '1s']);
    const s = streamPost(first.router.url, capturedRequest('a-default-gpt55-001').body);
    await s.sawText('response.output_item.done');
    const signalled = Date.now();
    process.kill(first.router.pid, 'SIGINT');
    const got = await s.done;
    // Cleanly: the chunked body is complete, it ends with a whole event, and every event parses.
    expect(got.complete, 'final chunk received').to.equal(true);
    expect(got.body.endsWith('\n\n')).to.equal(true);
    expect(types(got.body)).to.include('response.output_item.done').and.not.include('response.completed');
    expect(got.at - signalled).to.be.within(900, 5000);
    expect(await first.router.exited).to.equal(0);
    expect(first.router.stderrLines.join('\n')).to.contain('1 of 1 response(s) in flight were cut short');
    expect(existsSync(join(first.runtime, LOCK_FILE)), 'lock released').to.equal(false);
    // The upstream request was cancelled, not left hanging.
    expect(await upstream!.requests.at(-1)!.settled).to.equal('aborted');
    const second = await start([], [], first);
    expect(existsSync(join(first.runtime, LOCK_FILE))).to.equal(true);
    const t = Date.now();
    expect(await second.router.stop('SIGTERM'), `${Date.now() - t} ms\n${second.router.stderrLines.join('\n')}`).to.equal(0);
  });

  it('a second signal exits at once, still releasing the frontend lock', async () => {
    const first = await start([{ items: [{ type: 'message', text: 'never finishes' }], omitCompleted: true, end: 'hang' }], ['--shutdown-grace', '60s']);
    const s = streamPost(first.router.url, capturedRequest('a-default-gpt55-001').body);
    await s.sawText('response.output_item.done');
    process.kill(first.router.pid, 'SIGTERM');
    await stderrHas(first.router, 'SIGTERM: stopping');
    const again = Date.now();
    process.kill(first.router.pid, 'SIGTERM');
    expect(await first.router.exited).to.equal(143);
    expect(Date.now() - again).to.be.below(2000);
    expect(first.router.stderrLines.join('\n')).to.contain('SIGTERM again: exiting now');
    expect(existsSync(join(first.runtime, LOCK_FILE)), 'lock released').to.equal(false);
    await s.done;
    const second = await start([], [], first);
    expect(await second.router.stop('SIGTERM'), second.router.stderrLines.join('\n')).to.equal(0);
  });

  it('passthrough: SSE bytes arriving while draining are forwarded up to the last whole event; a torn event is held back and dropped at the bound', async () => {
    // Headers at once; the body only after the signal, in small writes, ending inside an event.
    const raw = 'data: {"type":"a","n":1}\n\nevent: b\r\ndata: {"type":"b","n":2}\r\n\r\ndata: {"type":"c","torn';
    upstream = await startScriptedUpstream([{ status: 200, headers: { 'content-type': 'text/event-stream' }, rawBody: raw, stallAfterHeadersMs: 600, chunking: { size: 7, delayMs: 10 }, end: 'hang' }]);
    const router = await startRouterProcess({ args: ['--mode', 'passthrough', '--upstream', upstream.url, '--state-dir', dir('shutdown-pt'), '--shutdown-grace', '2s'] });
    routers.push(router);
    const s = streamPost(router.url, { stream: true });
    expect(await s.head).to.equal(200);
    process.kill(router.pid, 'SIGTERM');
    const got = await s.done;
    expect(got.complete).to.equal(true);
    expect(got.body).to.equal('data: {"type":"a","n":1}\n\nevent: b\r\ndata: {"type":"b","n":2}\r\n\r\n');
    expect(await router.exited).to.equal(0);
  });
});
