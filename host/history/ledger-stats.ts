// `hpatch-router ledger stats`: what a ledger directory holds and what retention would remove, from
// names and lstat only (no file is opened), so it is cheap and safe beside a running router.
import { ledgerEntries } from './ledger-files.ts';

export interface LedgerStats {
  readonly dir: string;
  readonly threads: number;
  readonly bytes: number;
  /** mtimes (ms since the epoch) of the least and most recently used thread files; null when none. */
  readonly oldestMs: number | null;
  readonly newestMs: number | null;
  /** Thread files idle longer than the retention period (0: retention off, nothing counted). */
  readonly expired: number;
  readonly expiredBytes: number;
  /** Entries that are not thread files (never used or removed), first MAX_OTHERS of them. */
  readonly others: number;
  readonly otherExamples: ReadonlyArray<{ readonly name: string; readonly why: string }>;
}

const MAX_OTHERS = 10;

export async function ledgerStats(dir: string, retentionMs: number, now = Date.now()): Promise<LedgerStats> {
  const idleSince = now - retentionMs;
  let threads = 0, bytes = 0, expired = 0, expiredBytes = 0, others = 0;
  let oldestMs: number | null = null;
  let newestMs: number | null = null;
  const otherExamples: Array<{ name: string; why: string }> = [];
  for await (const e of ledgerEntries(dir)) {
    if (e.kind === 'other') {
      others++;
      if (otherExamples.length < MAX_OTHERS) otherExamples.push({ name: e.name, why: e.why });
      continue;
    }
    threads++;
    bytes += e.size;
    oldestMs = oldestMs === null ? e.mtimeMs : Math.min(oldestMs, e.mtimeMs);
    newestMs = newestMs === null ? e.mtimeMs : Math.max(newestMs, e.mtimeMs);
    if (retentionMs > 0 && e.mtimeMs < idleSince) {
      expired++;
      expiredBytes += e.size;
    }
  }
  return { dir, threads, bytes, oldestMs, newestMs, expired, expiredBytes, others, otherExamples };
}
