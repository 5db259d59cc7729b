// Header forwarding: end-to-end headers (authorization included) pass; hop-by-hop ones do not
// (RFC 9110 §7.6.1), nor any header the `Connection` header names.
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection',
  'te', 'trailer', 'transfer-encoding', 'upgrade',
]);

function connectionTokens(value: string | string[] | undefined): Set<string> {
  const joined = Array.isArray(value) ? value.join(',') : value ?? '';
  return new Set(joined.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean));
}

/** Flat [name, value, …] list from Node's rawHeaders, minus hop-by-hop, `host` and `drop`. */
export function requestHeadersForUpstream(rawHeaders: readonly string[], drop: ReadonlySet<string> = new Set()): string[] {
  let connection: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'connection') connection.push(rawHeaders[i + 1]!);
  }
  const named = connectionTokens(connection);
  const out: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower) || lower === 'host' || drop.has(lower)) continue;
    out.push(name, rawHeaders[i + 1]!);
  }
  return out;
}

/** Flat list for res.writeHead from undici's response headers, minus hop-by-hop and `drop`. */
export function responseHeadersForClient(headers: Readonly<Record<string, string | string[] | undefined>>, drop: ReadonlySet<string> = new Set()): string[] {
  const named = connectionTokens(headers['connection']);
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower) || drop.has(lower)) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.push(name, v);
  }
  return out;
}
