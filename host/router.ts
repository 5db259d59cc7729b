// Starting the router: everything that can fail is checked before the listener opens, and every
// problem found is reported together (brief §5).
import { join } from 'node:path';
import { Ledger } from './history/ledger.ts';
import { Metrics } from './metrics/metrics.ts';
import { startServer, type RouterMode, type RunningServer } from './proxy/server.ts';
import type { LogSink } from './proxy/request-log.ts';
import type { ToolRegistry } from './registry/registry.ts';
import type { RouterOptions } from './cli/router-options.ts';

export class StartupError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

export interface RouterDeps {
  /** The contributed tools; built-ins and plugins are loaded by the caller. */
  readonly registry: ToolRegistry;
  readonly log: LogSink;
  readonly metrics?: Metrics;
  /** Problems the caller already found (plugin loading): reported with the router's own, and nothing listens. */
  readonly priorProblems?: readonly string[];
}

export interface RunningRouter extends RunningServer {
  readonly metrics: Metrics;
}

export async function startRouter(options: RouterOptions, deps: RouterDeps): Promise<RunningRouter> {
  const problems: string[] = [...(deps.priorProblems ?? [])];
  let mode: RouterMode = { kind: 'passthrough' };
  let ledger: Ledger | null = null;
  if (options.mode === 'hpatch') {
    try {
      ledger = await Ledger.open(join(options.stateDir, 'ledger'));
      mode = { kind: 'hpatch', registry: deps.registry, ledger };
    } catch (e) {
      problems.push(`ledger: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (problems.length > 0) {
    await ledger?.close();
    throw new StartupError(problems);
  }
  const metrics = deps.metrics ?? new Metrics();
  let server: RunningServer;
  try {
    server = await startServer({ mode, host: options.host, port: options.port, upstream: options.upstream, metrics, log: deps.log });
  } catch (e) {
    await ledger?.close();
    const err = e as NodeJS.ErrnoException;
    throw new StartupError([`cannot listen on ${options.host}:${options.port}: ${err.code ?? ''} ${err.message}`.trim()]);
  }
  return {
    ...server,
    metrics,
    close: async () => {
      await server.close();
      await ledger?.close();
    },
    // The ledger closes last: a stream that finishes within the bound still records its calls.
    shutdown: async (graceMs: number) => {
      try {
        return await server.shutdown(graceMs);
      } finally {
        await ledger?.close();
      }
    },
  };
}
