// `hpatch-router ledger show THREAD`: every translation recorded for a thread (the tool, what the
// model asked for, the carrier Codex ran), read without the router's all-or-nothing rule: a torn
// tail or damage is reported and skipped, and every record that survived is shown. Read-only.
import { constants as FS, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { LEDGER_SUFFIX } from './ledger-files.ts';
import { parseEntry, type LedgerEntry } from './ledger.ts';
import { scanRecords } from './ledger-log.ts';
import { assertSafeThreadId } from './thread-id.ts';

export type ShownItem =
  | { readonly kind: 'entry'; readonly offset: number; readonly entry: LedgerEntry }
  /** A record with a valid checksum that is not a ledger entry of this thread. */
  | { readonly kind: 'invalid-record'; readonly offset: number; readonly reason: string }
  | { readonly kind: 'damage'; readonly offset: number; readonly length: number; readonly reason: string }
  | { readonly kind: 'torn-tail'; readonly offset: number; readonly length: number };

export interface ShownThread {
  readonly file: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly items: readonly ShownItem[];
}

/** The thread cannot be shown at all (missing, not a regular file, too large); the message says why. */
export class ShowError extends Error {
  override readonly name = 'ShowError';
}

/** Far above any real thread; bounds what one `show` reads into memory. */
export const MAX_SHOW_BYTES = 1024 * 1024 * 1024;

/** Reads `<dir>/<threadId>.ledger`. Throws UnsafeThreadIdError before any filesystem access for a hostile id. */
export async function readThread(dir: string, threadId: string): Promise<ShownThread> {
  assertSafeThreadId(threadId);
  const file = path.join(dir, threadId + LEDGER_SUFFIX);
  let fh: FileHandle;
  try {
    // O_NOFOLLOW: a planted symlink is refused; O_NONBLOCK: a planted FIFO cannot hang the command.
    fh = await fsp.open(file, FS.O_RDONLY | FS.O_NOFOLLOW | FS.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ShowError(`no ledger file for thread ${threadId} in ${dir} (nothing was recorded for it, or retention removed it)`);
    if (code === 'ELOOP' || code === 'EMLINK') throw new ShowError(`${file} is a symbolic link; refusing to follow it`);
    throw new ShowError(`cannot open ${file}: ${(e as Error).message}`);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new ShowError(`${file} is not a regular file; refusing to read it`);
    if (st.size > MAX_SHOW_BYTES) throw new ShowError(`${file} is ${st.size} bytes; show reads at most ${MAX_SHOW_BYTES}`);
    const buf = await fh.readFile();
    const items: ShownItem[] = scanRecords(buf).map((p) => {
      if (p.kind !== 'record') return p;
      const entry = parseEntry(p.payload, threadId);
      return typeof entry === 'string' ? { kind: 'invalid-record', offset: p.offset, reason: entry } : { kind: 'entry', offset: p.offset, entry };
    });
    return { file, size: buf.length, mtimeMs: st.mtimeMs, items };
  } finally {
    await fh.close();
  }
}

/** What the model asked for: the call's arguments or input, from the exact original item. */
export function originalInput(original: string): { readonly label: string; readonly text: string } {
  try {
    const item = JSON.parse(original) as Record<string, unknown>;
    if (typeof item['arguments'] === 'string') return { label: `${String(item['type'])} arguments`, text: item['arguments'] };
    if (typeof item['input'] === 'string') return { label: `${String(item['type'])} input`, text: item['input'] };
  } catch {
    /* shown raw below */
  }
  return { label: 'original item', text: original };
}

/**
 * Terminal-safe text: control characters (ESC included, so no escape sequence from a model reaches
 * the operator's terminal) become \u escapes; newlines and tabs stay, each line indented.
 */
export function safeText(text: string, indent: string): string {
  // eslint-disable-next-line no-control-regex
  const escaped = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.split('\n').map((l) => indent + l).join('\n');
}

/** One entry as an operator reads it. */
export function formatEntry(n: number, offset: number, e: LedgerEntry): string {
  const asked = originalInput(e.original);
  const ns = e.carrier.namespace === undefined ? '' : `, namespace ${e.carrier.namespace}`;
  const ran = e.carrier.kind === 'exec_command'
    ? { label: `exec_command${ns} arguments`, text: e.carrier.arguments }
    : { label: `Code Mode exec${ns} input`, text: e.carrier.input };
  const lines = [
    `[${n}] call ${safeText(e.callId, '')}  tool ${safeText(e.tool, '')}  (${safeText(e.contribution, '')}, byte ${offset})`,
    `    model asked for (${asked.label}):`,
    safeText(asked.text, '      '),
    `    Codex ran (${ran.label}):`,
    safeText(ran.text, '      '),
  ];
  if (e.notes) lines.push('    notes:', ...e.notes.map((note) => safeText(note, '      ')));
  if (e.reply?.kind === 'refused') lines.push('    router reply (refused):', safeText(e.reply.text, '      '));
  if (e.reply?.kind === 'edit') {
    lines.push(`    router reply (edit${e.reply.by === 'router' ? ', made by the router' : ''}, ${e.reply.files.length} file(s)):`, safeText(e.reply.report, '      '));
  }
  return lines.join('\n');
}

/** A problem found while reading, as one line (for stderr). */
export function formatProblem(item: Exclude<ShownItem, { kind: 'entry' }>): string {
  switch (item.kind) {
    case 'torn-tail':
      return `torn tail: ${item.length} byte(s) at offset ${item.offset} (an interrupted append, never acknowledged); skipped — the router cuts it off on its next append`;
    case 'damage':
      return `damage: ${item.length} byte(s) at offset ${item.offset} (${item.reason}); skipped — the router refuses this thread until it is repaired (doc/ledger.md)`;
    case 'invalid-record':
      return `invalid record at offset ${item.offset}: ${safeText(item.reason, '')}; skipped — the router refuses this thread until it is repaired (doc/ledger.md)`;
  }
}
