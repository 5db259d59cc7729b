// Drives `codex app-server` the way the IDE extensions do: newline-delimited JSON-RPC over stdio
// without a "jsonrpc" member — initialize → initialized → thread/start → turn/start — and collects
// every notification until turn/completed (codex-protocol README §11).
import { spawn } from 'node:child_process';
import { CODEX_BIN, codexEnv, providerArgs } from './codex-cli.ts';

type Json = Record<string, any>;

export interface AppServerTurn {
  readonly threadId: string;
  /** Every server→client message of the session, in order. */
  readonly messages: readonly Json[];
  /** The commands Codex ran in the turn (item/completed commandExecution), with their output. */
  readonly commands: readonly { command: string; output: string; exitCode: number | null }[];
  readonly stderr: string;
}

export interface AppServerOptions {
  readonly baseUrl: string;
  readonly codexHome: string;
  readonly cwd: string;
  readonly prompt: string;
  readonly model?: string;
  readonly env?: Record<string, string | undefined>;
  readonly timeoutMs?: number;
  /** Interrupts the turn (`turn/interrupt`, as an IDE's stop button does) `afterMs` after the first message that matches. */
  readonly interrupt?: { readonly when: (message: Json) => boolean; readonly afterMs: number };
}

export function runAppServerTurn(opts: AppServerOptions): Promise<AppServerTurn> {
  const child = spawn(CODEX_BIN, ['app-server', ...providerArgs(opts.baseUrl)], {
    cwd: opts.cwd,
    env: codexEnv(opts.codexHome, opts.env),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const messages: Json[] = [];
  let stderr = '';
  let buffered = '';
  const waiters = new Map<number, (m: Json) => void>();
  let onTurnDone: (() => void) | undefined;
  let turnId: string | undefined;
  let threadIdSeen: string | undefined;
  let interrupted = false;
  const send = (m: Json): void => { child.stdin.write(`${JSON.stringify(m)}\n`); };
  const request = (id: number, method: string, params: Json): Promise<Json> => new Promise((resolve) => {
    waiters.set(id, resolve);
    send({ id, method, params });
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buffered += d;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.trim() === '') continue;
      const m = JSON.parse(line) as Json;
      messages.push(m);
      if (typeof m['id'] === 'number' && waiters.has(m['id'])) { waiters.get(m['id'])!(m); waiters.delete(m['id']); }
      if (m['method'] === 'turn/completed') onTurnDone?.();
      if (opts.interrupt && !interrupted && turnId !== undefined && opts.interrupt.when(m)) {
        interrupted = true;
        setTimeout(() => send({ id: 4, method: 'turn/interrupt', params: { threadId: threadIdSeen, turnId } }), opts.interrupt.afterMs);
      }
    }
  });
  const kill = (): void => { try { if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } };
  const session = (async (): Promise<AppServerTurn> => {
    const init = await request(1, 'initialize', { clientInfo: { name: 'hpatch_router_e2e', title: null, version: '0.0.1' }, capabilities: { experimentalApi: true, requestAttestation: false } });
    if (init['error']) throw new Error(`initialize failed: ${JSON.stringify(init['error'])}`);
    send({ method: 'initialized' });
    const started = await request(2, 'thread/start', { cwd: opts.cwd, approvalPolicy: 'never', sandbox: 'danger-full-access', ...(opts.model ? { model: opts.model } : {}) });
    if (started['error']) throw new Error(`thread/start failed: ${JSON.stringify(started['error'])}`);
    const threadId = String(started['result']['thread']['id']);
    threadIdSeen = threadId;
    const done = new Promise<void>((r) => { onTurnDone = r; });
    const turnStarted = request(3, 'turn/start', { threadId, input: [{ type: 'text', text: opts.prompt, text_elements: [] }] });
    const turn = await turnStarted;
    if (turn['error']) throw new Error(`turn/start failed: ${JSON.stringify(turn['error'])}`);
    turnId = String(turn['result']['turn']['id']);
    await done;
    const commands = messages
      .filter((m) => m['method'] === 'item/completed' && m['params']?.['item']?.['type'] === 'commandExecution')
      .map((m) => {
        const item = m['params']['item'] as Json;
        return { command: String(item['command']), output: String(item['aggregatedOutput'] ?? ''), exitCode: typeof item['exitCode'] === 'number' ? item['exitCode'] : null };
      });
    return { threadId, messages, commands, stderr };
  })();
  const timeout = new Promise<never>((_, reject) => {
    const t = setTimeout(() => reject(new Error(`app-server turn timed out\n--- stderr\n${stderr}`)), opts.timeoutMs ?? 60_000);
    void session.finally(() => clearTimeout(t)).catch(() => undefined);
  });
  return Promise.race([session, timeout]).finally(() => { child.stdin.end(); kill(); });
}
