// Two bounded network probes: the router answering on its listen address (GET /metrics, which only
// hpatch-router serves), and the upstream reachable. An unreachable upstream is a warning: the
// router still starts, and answers 502 upstream_unreachable until it is back.
import { errorText, fail, pass, warn, type CheckResult } from './check.ts';
import { probe, ProbeError } from './http-probe.ts';

export const ROUTER_TIMEOUT_MS = 3_000;
export const UPSTREAM_TIMEOUT_MS = 5_000;

function why(e: unknown): string {
  if (e instanceof ProbeError) return e.code === 'TIMEOUT' ? e.message : e.code;
  return errorText(e);
}

export async function checkRouter(routerUrl: string, listenArg: string): Promise<CheckResult> {
  const name = 'router';
  const url = `${routerUrl}/metrics`;
  try {
    const res = await probe(url, ROUTER_TIMEOUT_MS);
    if (res.status === 200 && res.body.includes('# TYPE hpatch_router_requests_total counter')) return pass(name, `hpatch-router answers on ${routerUrl}`);
    return fail(name, `something that is not hpatch-router answers on ${routerUrl} (GET /metrics: HTTP ${res.status})`, `stop it, or run the router and doctor with another --listen (and change base_url to match)`);
  } catch (e) {
    return fail(name, `nothing answers on ${routerUrl} (${why(e)})`, `start the router: hpatch-router --listen ${listenArg} (leave it running while Codex runs)`);
  }
}

export async function checkUpstream(upstream: URL): Promise<CheckResult> {
  const name = 'upstream';
  const url = `${upstream.href.replace(/\/+$/, '')}/models`;
  try {
    const res = await probe(url, UPSTREAM_TIMEOUT_MS, 0);
    // Any HTTP answer (401 without a key included) means the router can reach it.
    return pass(name, `${upstream.href} reachable (GET /models: HTTP ${res.status})`);
  } catch (e) {
    return warn(name, `${upstream.href} is not reachable (${why(e)})`, 'check the network, DNS and proxy settings, or --upstream; the router starts anyway and answers 502 until the upstream is back');
  }
}
