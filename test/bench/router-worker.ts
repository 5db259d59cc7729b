// Runs one party of the latency benchmark on its own thread (its own event loop), as it would
// run in its own process: the scripted upstream, or a router (passthrough, or hpatch with a test
// contribution registered through the real registry).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { ToolRegistry } from '../../host/registry/registry.ts';
import { startRouter } from '../../host/router.ts';
import { startScriptedUpstream } from '../support/scripted-upstream.ts';
import { argvEcho } from '../support/test-contributions.ts';

const data = workerData as { role: 'upstream' } | { role: 'floor'; upstream: string } | { role: 'router'; mode: 'hpatch' | 'passthrough'; upstream: string; stateDir: string };
if (data.role === 'floor') {
  // The floor: the least a node:http + undici streaming proxy can do (no routing, logging or checks).
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const server = createServer(async (req, res) => {
    const headers: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const n = req.rawHeaders[i]!.toLowerCase();
      if (n !== 'host' && n !== 'connection') headers.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    }
    const up = await request(data.upstream + req.url!.slice(3), { method: 'POST', headers, body: req, dispatcher: agent });
    res.writeHead(up.statusCode, { 'content-type': String(up.headers['content-type']) });
    for await (const c of up.body) res.write(c);
    res.end();
  });
  server.listen(0, '127.0.0.1', () => parentPort!.postMessage(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
} else if (data.role === 'upstream') {
  let n = 0;
  const up = await startScriptedUpstream(() => ({
    items: [
      { type: 'reasoning', summary: 'planning' },
      { type: 'message', text: 'a short answer with several words in it' },
      { type: 'custom_tool_call', name: 'argv_echo', input: 'x\ny', call_id: `call_${n++}` },
    ],
  }));
  parentPort!.postMessage(up.url);
} else {
  const registry = data.mode === 'hpatch' ? ToolRegistry.create([argvEcho()]) : ToolRegistry.empty;
  const r = await startRouter({ mode: data.mode, host: '127.0.0.1', port: 0, upstream: new URL(data.upstream), stateDir: data.stateDir }, { registry, log: () => {} });
  parentPort!.postMessage(r.url);
}
