// Errors the router itself answers, as OpenAI-style JSON bodies that Codex prints verbatim.
import type { ServerResponse } from 'node:http';

export function sendJsonError(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { message: `hpatch-router: ${message}`, type: 'hpatch_router_error', code, param: null } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
