// Starts the BUILT router (dist/hpatch-router.mjs) as a child process, the way an operator runs it, and a
// transparent TCP relay that records the exact bytes a client sends (to prove the router forwards them unchanged).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { PROJECT_ROOT } from './codex-cli.ts';

export const ROUTER_DIST = path.join(PROJECT_ROOT, 'dist', 'hpatch-router.mjs');

/** The router entry to test: HPATCH_E2E_ROUTER (e.g. an installed build's .mjs) or the freshly built dist/. */
export function routerEntry(): string {
  return process.env.HPATCH_E2E_ROUTER ? path.resolve(process.env.HPATCH_E2E_ROUTER) : ROUTER_DIST;
}

export interface RouterProcessOptions {
  /** Arguments after `--listen 127.0.0.1:0`, e.g. ['--mode', 'passthrough', '--upstream', url]. */
  args?: string[];
  /** Extra environment (`undefined` deletes a variable). */
  env?: Record<string, string | undefined>;
  /** How long to wait for the `listening on` line. Default 15 s. */
  startTimeoutMs?: number;
  /** Override `--listen` (default 127.0.0.1:0). */
  listen?: string;
  /** Script to run instead of routerEntry(). */
  entry?: string;
}

export interface RouterProcess {
  /** `http://HOST:PORT` as printed by the router. */
  url: string;
  /** Codex base_url for this router: `${url}/v1`. */
  baseUrl: string;
  pid: number;
  stdoutLines: string[];
  stderrLines: string[];
  /** Sends `signal` (default SIGTERM), then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | null>;
  /** Resolves with the exit code (null if killed by a signal) whenever the process ends. */
  exited: Promise<number | null>;
}

const LISTENING = /^listening on (http:\/\/\S+?)\/?$/;

function lineCollector(stream: NodeJS.ReadableStream, sink: string[], onLine?: (line: string) => void): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (d: string) => {
    pending += d;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl).replace(/\r$/, '');
      pending = pending.slice(nl + 1);
      sink.push(line);
      onLine?.(line);
    }
  });
  stream.on('end', () => {
    if (pending) {
      sink.push(pending);
      onLine?.(pending);
    }
  });
}

export async function startRouterProcess(opts: RouterProcessOptions = {}): Promise<RouterProcess> {
  const entry = opts.entry ?? routerEntry();
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`make build\` first (make test does)`);
  // An empty config dir unless the test gives one: the developer's own plugins must not leak in.
  // Also a private runtime base and frontend directory: routers under test never share a lock.
  const scratch = (label: string): string => fs.mkdtempSync(path.join(os.tmpdir(), `hpatch-${label}-`));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_CONFIG_HOME: scratch('config'),
    HPATCH_RUNTIME_DIR: scratch('runtime'),
    HPATCH_FRONTEND_DIR: scratch('frontends'),
  };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const argv = ['--no-node-snapshot', entry, '--listen', opts.listen ?? '127.0.0.1:0', ...(opts.args ?? [])];
  const child: ChildProcess = spawn(process.execPath, argv, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdoutLines: string[] = [];
  const stderrLines: string[] = [];
  const verbose = !!process.env.ROUTER_E2E_VERBOSE;

  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let spawnError: Error | undefined;
  child.on('error', (err) => (spawnError = err));

  const url = await new Promise<string>((resolve, reject) => {
    const fail = (why: string): void => {
      clearTimeout(timer);
      try {
        child.kill('SIGKILL');
      } catch {
        /* already gone */
      }
      reject(new Error(`router did not start (${why}): node ${argv.join(' ')}\n--- stderr\n${stderrLines.join('\n')}\n--- stdout\n${stdoutLines.join('\n')}`));
    };
    const timer = setTimeout(() => fail(`no "listening on" line within ${opts.startTimeoutMs ?? 15_000} ms`), opts.startTimeoutMs ?? 15_000);
    lineCollector(child.stdout!, stdoutLines, (line) => {
      if (verbose) process.stderr.write(`[router stdout] ${line}\n`);
      const m = LISTENING.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    lineCollector(child.stderr!, stderrLines, (line) => {
      if (verbose) process.stderr.write(`[router stderr] ${line}\n`);
    });
    // 'close' (not 'exit') so the stderr of a failed start has been fully read.
    child.on('close', (code, signal) => fail(spawnError ? `spawn failed: ${spawnError.message}` : `exited with ${code ?? signal} before listening`));
  });

  const stop = async (signal: NodeJS.Signals = 'SIGTERM', graceMs = 5_000): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    }
    return exited;
  };

  return { url, baseUrl: `${url}/v1`, pid: child.pid!, stdoutLines, stderrLines, stop, exited };
}

/** One HTTP/1.1 request as parsed back from the recorded client→server byte stream. */
export interface TappedRequest {
  requestLine: string;
  method: string;
  path: string;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Header lines as sent (name case preserved). */
  rawHeaderLines: string[];
  body: Buffer;
}

export interface WireTap {
  /** `http://127.0.0.1:PORT`: point the client here instead of at `target`. */
  url: string;
  /** Requests the client sent, across all connections, in connection order then stream order. */
  requests(): TappedRequest[];
  close(): Promise<void>;
}

/**
 * A transparent TCP relay in front of `target` (an `http://host:port` origin) that records what the client
 * writes, byte for byte. Not a double: it changes nothing and answers nothing itself.
 */
export async function startWireTap(target: string): Promise<WireTap> {
  const t = new URL(target);
  const connections: Buffer[][] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const recorded: Buffer[] = [];
    connections.push(recorded);
    const upstream = net.connect(Number(t.port), t.hostname);
    sockets.add(client);
    sockets.add(upstream);
    client.on('data', (d: Buffer) => recorded.push(d));
    client.pipe(upstream);
    upstream.pipe(client);
    const teardown = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', teardown);
    upstream.on('error', teardown);
    client.on('close', teardown);
    upstream.on('close', teardown);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => connections.flatMap((bufs) => parseHttpRequests(Buffer.concat(bufs))),
    async close(): Promise<void> {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Splits a client→server HTTP/1.1 byte stream into requests (content-length or chunked bodies). */
export function parseHttpRequests(stream: Buffer): TappedRequest[] {
  const out: TappedRequest[] = [];
  let pos = 0;
  while (pos < stream.length) {
    const headEnd = stream.indexOf('\r\n\r\n', pos);
    if (headEnd < 0) break; // incomplete head: the connection ended mid-request
    const lines = stream.subarray(pos, headEnd).toString('latin1').split('\r\n');
    const requestLine = lines[0] ?? '';
    const rawHeaderLines = lines.slice(1);
    const headers: Record<string, string> = {};
    for (const l of rawHeaderLines) {
      const c = l.indexOf(':');
      const name = l.slice(0, c).trim().toLowerCase();
      const value = l.slice(c + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    pos = headEnd + 4;
    let body: Buffer;
    if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = stream.indexOf('\r\n', pos);
        if (lineEnd < 0) break;
        const size = parseInt(stream.subarray(pos, lineEnd).toString('latin1'), 16);
        pos = lineEnd + 2;
        if (!(size > 0)) {
          const trailerEnd = stream.indexOf('\r\n', pos);
          pos = trailerEnd < 0 ? stream.length : trailerEnd + 2;
          break;
        }
        parts.push(stream.subarray(pos, pos + size));
        pos += size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      const len = Number(headers['content-length'] ?? 0);
      body = stream.subarray(pos, pos + len);
      pos += len;
    }
    const [method = '', reqPath = ''] = requestLine.split(' ');
    out.push({ requestLine, method, path: reqPath, headers, rawHeaderLines, body: Buffer.from(body) });
  }
  return out;
}
