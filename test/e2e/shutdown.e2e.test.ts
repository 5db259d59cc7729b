// End to end, graceful shutdown (issue 18.4): the REAL Codex CLI → the BUILT router → scripted upstream.
// The router is stopped while the upstream holds Codex's stream open; at the bound the stream is ended
// between events. Codex treats that as a stream closed before response.completed and retries; a new
// router started on the same port picks the retry up and the turn completes.
import { expect } from 'chai';
import { describeRun, makeWorkDir, removeDir, runCodex } from '../support/codex-cli.ts';
import { startRouterProcess, type RouterProcess } from '../support/router-process.ts';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('end to end: graceful shutdown with the real Codex CLI', function () {
  this.timeout(120_000);
  let upstream: ScriptedUpstream | undefined;
  const routers: RouterProcess[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const r of routers.splice(0)) await r.stop('SIGKILL');
    await upstream?.close();
    for (const d of dirs.splice(0)) removeDir(d);
  });

  it('a stream cut at the bound is retried by Codex and completed by the next router', async () => {
    upstream = await startScriptedUpstream([
      { items: [{ type: 'message', text: 'Thinking about it' }], omitCompleted: true, end: 'hang' },
      { items: [{ type: 'message', text: 'Finished after the restart.' }] },
    ]);
    const state = tempDir('shutdown-e2e-state');
    dirs.push(state.dir);
    const args = ['--upstream', upstream.url, '--state-dir', state.dir, '--shutdown-grace', '1s'];
    const first = await startRouterProcess({ args });
    routers.push(first);
    const cwd = makeWorkDir('shutdown-e2e');
    dirs.push(cwd);
    const codex = runCodex({ baseUrl: first.baseUrl, prompt: 'say something', model: 'gpt-5.5', cwd, timeoutMs: 60_000 });

    await upstream.waitForResponsesRequests(1, 30_000);
    await new Promise((r) => setTimeout(r, 300)); // the held-open stream's first events reach Codex
    process.kill(first.pid, 'SIGTERM');
    expect(await first.exited).to.equal(0);
    expect(first.stderrLines.join('\n')).to.contain('1 of 1 response(s) in flight were cut short');
    // A restart on the same address, within Codex's retry budget (5 retries, about 6 s of backoff).
    const second = await startRouterProcess({ args, listen: new URL(first.url).host });
    routers.push(second);

    const r = await codex;
    dirs.push(r.codexHome);
    expect(r.code, describeRun(r)).to.equal(0);
    expect(r.stdout, describeRun(r)).to.contain('Finished after the restart.');
    expect(r.stdout + r.stderr, describeRun(r)).to.match(/Reconnecting\.\.\. \d\/5/);
    // Codex retried the same turn: the second request reached the upstream through the new router.
    expect(upstream.responsesRequests().length).to.be.at.least(2);
    expect(await second.stop('SIGTERM')).to.equal(0);
  });
});
