// Starting the router: everything that can fail is checked before the listener opens, and every
// problem found is reported together (brief §5).
import { join } from 'node:path';
import { formatDuration } from './cli/duration.ts';
import { Ledger } from './history/ledger.ts';
import { startRetention } from './history/ledger-retention.ts';
import { Metrics } from './metrics/metrics.ts';
import { startServer, type RouterMode, type RunningServer } from './proxy/server.ts';
import { asLogger, type Logger, type LogSink } from './log/logger.ts';
import type { ToolRegistry } from './registry/registry.ts';
import { DEFAULT_LEDGER_RETENTION_MS, type RouterOptions } from './cli/router-options.ts';

export class StartupError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

export interface RouterDeps {
  /** The contributed tools; built-ins and plugins are loaded by the caller. */
  readonly registry: ToolRegistry;
  /** The operator's log; a bare line sink is a text log at level info. */
  readonly log: Logger | LogSink;
  readonly metrics?: Metrics;
  /** Problems the caller already found (plugin loading): reported with the router's own, and nothing listens. */
  readonly priorProblems?: readonly string[];
}

export interface RunningRouter extends RunningServer {
  readonly metrics: Metrics;
}


// The log options are the CLI's (it builds deps.log from them); embedders give a Logger or a sink.
export async function startRouter(options: Omit<RouterOptions, 'logFormat' | 'logLevel'>, deps: RouterDeps): Promise<RunningRouter> {
  const problems: string[] = [...(deps.priorProblems ?? [])];
  let mode: RouterMode = { kind: 'passthrough' };
  let ledger: Ledger | null = null;
  const retentionMs = options.ledgerRetentionMs ?? DEFAULT_LEDGER_RETENTION_MS;
  if (options.mode === 'hpatch') {
    try {
      // A thread in use has its file's mtime refreshed well within the retention period.
      const touchAfterMs = retentionMs > 0 ? Math.min(60 * 60 * 1000, Math.floor(retentionMs / 10)) : undefined;
      ledger = await Ledger.open(join(options.stateDir, 'ledger'), touchAfterMs === undefined ? {} : { touchAfterMs });
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
  const log = asLogger(deps.log);
  let server: RunningServer;
  try {
    server = await startServer({ mode, host: options.host, port: options.port, upstream: options.upstream, metrics, log });
  } catch (e) {
    await ledger?.close();
    const err = e as NodeJS.ErrnoException;
    throw new StartupError([`cannot listen on ${options.host}:${options.port}: ${err.code ?? ''} ${err.message}`.trim()]);
  }
  // After listening: the first sweep runs in the background, never delaying startup.
  const retention = ledger && retentionMs > 0 ? startRetention(ledger, retentionMs, log, formatDuration(retentionMs)) : null;
  return {
    ...server,
    metrics,
    close: async () => {
      await retention?.stop();
      await server.close();
      await ledger?.close();
    },
    // The ledger closes last: a stream that finishes within the bound still records its calls.
    shutdown: async (graceMs: number) => {
      await retention?.stop();
      try {
        return await server.shutdown(graceMs);
      } finally {
        await ledger?.close();
      }
    },
  };
}
