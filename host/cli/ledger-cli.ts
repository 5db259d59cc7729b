// `hpatch-router ledger stats|gc|show`: the operator's view of the history ledger. All three are safe
// beside a running router: stats and show only read; gc removes a file only when its mtime says the
// thread was idle for the whole retention period (a router refreshes the mtime of threads it uses).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatDuration, parseDuration } from './duration.ts';
import { DEFAULT_LEDGER_RETENTION, defaultStateDir } from './router-options.ts';

export const LEDGER_USAGE = `usage: hpatch-router ledger stats [--state-dir DIR] [--ledger-retention DURATION] [--json]
       hpatch-router ledger gc    [--state-dir DIR] [--ledger-retention DURATION] [--dry-run]
       hpatch-router ledger show  [--state-dir DIR] [--json] THREAD
       hpatch-router ledger --help | --version

  stats  thread files, their size, when they were last used, and how many retention would remove
  gc     removes the files of threads idle longer than --ledger-retention (default ${DEFAULT_LEDGER_RETENTION},
         at least 1h); --dry-run lists them only. A running router does the same on its own.
  show   every translation recorded for THREAD: the tool, what the model asked for, and the
         carrier Codex ran; a torn tail or damaged bytes are reported on stderr and skipped
         (exit 1 when the router would refuse the thread until it is repaired)

  --state-dir  the router's state directory (default $XDG_STATE_HOME/hpatch-router or
               ~/.local/state/hpatch-router); the ledger is its ledger/ subdirectory
  --json       stats: one JSON object; show: one JSON object per recorded translation
`;

/** Below this, gc could remove a thread a running router uses: it refreshes mtimes up to hourly. */
const MIN_GC_RETENTION_MS = 60 * 60 * 1000;

type Out = { out(text: string): void; err(text: string): void };
const std: Out = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

export async function runLedgerCli(argv: readonly string[], io: Out = std): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    (command === undefined ? io.err : io.out)(LEDGER_USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || rest.includes('--version')) {
    const { versionLine } = await import('./version.ts');
    io.out(versionLine());
    return 0;
  }
  if (command !== 'stats' && command !== 'gc' && command !== 'show') return usageError(io, `unknown ledger command ${JSON.stringify(clip(command))}`);
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...rest],
      options: {
        'state-dir': { type: 'string' },
        'ledger-retention': { type: 'string' },
        json: { type: 'boolean' },
        'dry-run': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (e) {
    return usageError(io, (e as Error).message);
  }
  if (values['help']) {
    io.out(LEDGER_USAGE);
    return 0;
  }
  const problems: string[] = [];
  const allowed = { stats: ['ledger-retention', 'json'], gc: ['ledger-retention', 'dry-run'], show: ['json'] }[command];
  for (const k of Object.keys(values)) if (k !== 'state-dir' && !allowed.includes(k)) problems.push(`ledger ${command} takes no --${k}`);
  if (command === 'show' ? positionals.length !== 1 : positionals.length !== 0) {
    problems.push(command === 'show' ? 'ledger show takes exactly one THREAD' : `ledger ${command} takes no arguments`);
  }
  const stateDir = (values['state-dir'] as string | undefined) ?? defaultStateDir(process.env);
  if (stateDir === null) problems.push('no --state-dir given and neither XDG_STATE_HOME nor HOME is set');
  const retention = parseDuration('--ledger-retention', (values['ledger-retention'] as string | undefined) ?? DEFAULT_LEDGER_RETENTION);
  if (typeof retention === 'string') problems.push(retention);
  else if (command === 'gc' && retention < MIN_GC_RETENTION_MS) {
    problems.push(`ledger gc needs --ledger-retention of at least ${formatDuration(MIN_GC_RETENTION_MS)}: a running router refreshes the mtime of threads it uses only hourly`);
  }
  if (problems.length > 0 || stateDir === null || typeof retention === 'string') return usageError(io, ...problems);
  const dir = join(stateDir, 'ledger');
  const json = values['json'] === true;
  switch (command) {
    case 'stats':
      return stats(io, dir, retention, json);
    case 'gc':
      return gc(io, dir, retention, values['dry-run'] === true);
    case 'show':
      return show(io, dir, positionals[0]!, json);
  }
}

function usageError(io: Out, ...problems: string[]): number {
  for (const p of problems) io.err(`hpatch-router ledger: ${p}\n`);
  io.err(`\n${LEDGER_USAGE}`);
  return 2;
}

function clip(s: string): string {
  return s.length > 64 ? `${s.slice(0, 64)}…` : s;
}

const iso = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString());
const ago = (ms: number, now: number): string => {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  return s >= 86_400 ? `${Math.floor(s / 86_400)}d ago` : s >= 3600 ? `${Math.floor(s / 3600)}h ago` : s >= 60 ? `${Math.floor(s / 60)}m ago` : `${s}s ago`;
};

async function stats(io: Out, dir: string, retentionMs: number, json: boolean): Promise<number> {
  const { ledgerStats } = await import('../history/ledger-stats.ts');
  if (!existsSync(dir)) {
    if (json) io.out(`${JSON.stringify({ dir, exists: false, threads: 0, bytes: 0 })}\n`);
    else io.out(`ledger directory ${dir} does not exist yet: nothing recorded\n`);
    return 0;
  }
  const now = Date.now();
  const s = await ledgerStats(dir, retentionMs, now);
  if (json) {
    io.out(`${JSON.stringify({ ...s, exists: true, retentionMs, oldest: s.oldestMs === null ? null : iso(s.oldestMs), newest: s.newestMs === null ? null : iso(s.newestMs) })}\n`);
    return 0;
  }
  const lines = [`ledger directory: ${dir}`, `threads: ${s.threads} file(s), ${s.bytes} bytes`];
  if (s.oldestMs !== null && s.newestMs !== null) lines.push(`last used: oldest ${iso(s.oldestMs)} (${ago(s.oldestMs, now)}), newest ${iso(s.newestMs)} (${ago(s.newestMs, now)})`);
  lines.push(retentionMs > 0
    ? `idle longer than ${formatDuration(retentionMs)}: ${s.expired} file(s), ${s.expiredBytes} bytes (a running router or \`ledger gc\` removes them)`
    : 'retention off (--ledger-retention 0): nothing is removed');
  if (s.others > 0) {
    lines.push(`other entries (never used or removed): ${s.others}`);
    for (const o of s.otherExamples) lines.push(`  ${JSON.stringify(o.name)}: ${o.why}`);
    if (s.others > s.otherExamples.length) lines.push(`  … and ${s.others - s.otherExamples.length} more`);
  }
  io.out(`${lines.join('\n')}\n`);
  return 0;
}

async function gc(io: Out, dir: string, retentionMs: number, dryRun: boolean): Promise<number> {
  if (!existsSync(dir)) {
    io.out(`ledger directory ${dir} does not exist: nothing to remove\n`);
    return 0;
  }
  const { Ledger } = await import('../history/ledger.ts');
  const { sweepLedger } = await import('../history/ledger-retention.ts');
  let ledger;
  try {
    // Open refuses an unsafe directory (symlink, other owner, group/world-writable) before any removal.
    ledger = await Ledger.open(dir);
  } catch (e) {
    io.err(`hpatch-router ledger gc: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  try {
    const r = await sweepLedger(ledger, retentionMs, { dryRun });
    for (const id of r.removedIds) io.out(`${dryRun ? 'would remove' : 'removed'} ${id}\n`);
    if (r.removed > r.removedIds.length) io.out(`… and ${r.removed - r.removedIds.length} more\n`);
    io.out(`${dryRun ? 'would remove' : 'removed'} ${r.removed} of ${r.scanned} thread file(s), ${r.removedBytes} bytes, idle longer than ${formatDuration(retentionMs)}\n`);
    for (const p of r.problems) io.err(`hpatch-router ledger gc: kept: ${p}\n`);
    return r.problems.length > 0 ? 1 : 0;
  } finally {
    await ledger.close();
  }
}

async function show(io: Out, dir: string, threadId: string, json: boolean): Promise<number> {
  const { formatEntry, formatProblem, readThread, ShowError } = await import('../history/ledger-show.ts');
  const { UnsafeThreadIdError } = await import('../history/thread-id.ts');
  let shown;
  try {
    shown = await readThread(dir, threadId);
  } catch (e) {
    if (e instanceof UnsafeThreadIdError) return usageError(io, e.message);
    if (e instanceof ShowError) {
      io.err(`hpatch-router ledger show: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
  const entries = shown.items.filter((i) => i.kind === 'entry');
  if (!json) io.out(`thread ${threadId}: ${entries.length} translation(s) in ${shown.file} (${shown.size} bytes, last used ${iso(shown.mtimeMs)})\n`);
  let n = 0;
  let refused = false;
  for (const item of shown.items) {
    if (item.kind === 'entry') {
      n++;
      if (json) {
        const e = item.entry;
        io.out(`${JSON.stringify({ n, offset: item.offset, callId: e.callId, contribution: e.contribution, tool: e.tool, original: e.original, carrier: e.carrier, ...(e.notes ? { notes: e.notes } : {}), ...(e.reply ? { reply: e.reply } : {}) })}\n`);
      } else io.out(`\n${formatEntry(n, item.offset, item.entry)}\n`);
      continue;
    }
    if (item.kind !== 'torn-tail') refused = true;
    io.err(`hpatch-router ledger show: ${shown.file}: ${formatProblem(item)}\n`);
  }
  return refused ? 1 : 0;
}
