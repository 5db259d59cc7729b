// Bounded ledger state: the files of threads idle longer than the retention period are removed, by
// the router at startup and periodically (in the background: startup never waits for a sweep) and
// by `hpatch-router ledger gc`. Idle means the file's mtime is older than the period: every append
// sets it, and Ledger.thread() sets it on use (touchAfterMs), so a thread in use within the period
// is never removed, whichever process sweeps. See doc/ledger.md "Retention".
import type { Logger } from '../log/logger.ts';
import type { Ledger } from './ledger.ts';
import { ledgerEntries } from './ledger-files.ts';

export interface SweepReport {
  /** Thread files looked at. */
  readonly scanned: number;
  /** Removed (or, in a dry run, that would be). */
  readonly removed: number;
  readonly removedBytes: number;
  /** Thread ids removed, at most MAX_LISTED (for `ledger gc` output). */
  readonly removedIds: readonly string[];
  /** Files that could not be judged or removed (bounded); they stay. */
  readonly problems: readonly string[];
  readonly ms: number;
}

export interface SweepOptions {
  /** Reference time (ms since the epoch); default now. */
  readonly now?: number;
  /** Report only; remove nothing. */
  readonly dryRun?: boolean;
  /** Stops the sweep between two files. */
  readonly signal?: AbortSignal;
}

const MAX_LISTED = 1000;
const MAX_PROBLEMS = 20;

/** Removes the thread files of `ledger` idle longer than `retentionMs`. */
export async function sweepLedger(ledger: Ledger, retentionMs: number, opts: SweepOptions = {}): Promise<SweepReport> {
  if (!(retentionMs > 0)) throw new RangeError('retentionMs must be positive');
  const started = performance.now();
  const idleSince = (opts.now ?? Date.now()) - retentionMs;
  let scanned = 0;
  let removed = 0;
  let removedBytes = 0;
  const removedIds: string[] = [];
  const problems: string[] = [];
  for await (const entry of ledgerEntries(ledger.dir)) {
    if (opts.signal?.aborted) break;
    if (entry.kind !== 'thread') continue;
    scanned++;
    // lstat said old: the ledger checks again through the open file, in the thread's chain.
    if (entry.mtimeMs >= idleSince) continue;
    let bytes: number | null = entry.size;
    if (!opts.dryRun) {
      try {
        bytes = await ledger.removeIfIdle(entry.threadId, idleSince);
      } catch (e) {
        if (problems.length < MAX_PROBLEMS) problems.push(e instanceof Error ? e.message : String(e));
        continue;
      }
    }
    if (bytes === null) continue;
    removed++;
    removedBytes += bytes;
    if (removedIds.length < MAX_LISTED) removedIds.push(entry.threadId);
  }
  return { scanned, removed, removedBytes, removedIds, problems, ms: performance.now() - started };
}

export interface RetentionTask {
  /** Resolves when the first sweep (started at once) is over. */
  readonly firstSweep: Promise<SweepReport | null>;
  /** Stops the timer and any sweep in progress (between two files). */
  stop(): Promise<void>;
}

/** How often the router sweeps: hourly, or more often for a short period (never below a second). */
export function sweepInterval(retentionMs: number): number {
  return Math.max(1000, Math.min(60 * 60 * 1000, Math.floor(retentionMs / 2)));
}

/**
 * The router's retention: a sweep now, then every sweepInterval(). Each sweep that removed
 * something or met a problem is reported through `log`; a failing sweep never stops the router.
 */
export function startRetention(ledger: Ledger, retentionMs: number, log: Logger, describe: string): RetentionTask {
  const abort = new AbortController();
  let running: Promise<SweepReport | null> = Promise.resolve(null);
  const sweep = (): Promise<SweepReport | null> => {
    running = sweepLedger(ledger, retentionMs, { signal: abort.signal }).then(
      (r) => {
        if (r.removed > 0) {
          log.event('info', `ledger retention: removed ${r.removed} thread file(s), ${r.removedBytes} bytes, idle longer than ${describe} (${r.scanned} scanned in ${Math.round(r.ms)} ms)`);
        }
        for (const p of r.problems) log.event('warn', `ledger retention: kept a file: ${p}`);
        return r;
      },
      (e: unknown) => {
        if (!abort.signal.aborted) log.event('error', `ledger retention sweep failed: ${e instanceof Error ? e.message : String(e)}`);
        return null;
      },
    );
    return running;
  };
  // Not before the listener is up: the caller starts this after listening, and the sweep is async.
  const firstSweep = sweep();
  let busy = true;
  void firstSweep.finally(() => (busy = false));
  const timer = setInterval(() => {
    // A sweep slower than the interval is not stacked on: the next tick starts the next one.
    if (busy || abort.signal.aborted) return;
    busy = true;
    void sweep().finally(() => (busy = false));
  }, sweepInterval(retentionMs));
  timer.unref();
  return {
    firstSweep,
    stop: async () => {
      clearInterval(timer);
      abort.abort();
      await running;
    },
  };
}
