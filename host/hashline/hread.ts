// `hread` output (doc/hashline.md): a header line that says what the file is, then its lines as
// `LINE:HASH|text` rows: core/v1's rowHash, computed on the file's own bytes (fast-rows.ts).
// The window is bounded by rows and bytes; when it ends early, a last line says how to read on.
// Pure: the private command (private-commands.ts) does the reading.
import type { LineRange } from '../../isolates/core-v1/operands.ts';
import { bashQuote } from '../carriers/bash-quote.ts';
import { byteLines, rowHashAt } from './fast-rows.ts';
import type { FileFacts } from './file-facts.ts';

/** At most this many rows per call (a model reads on with the next range). */
export const HREAD_MAX_ROWS = 2000;
/** At most this many bytes of rows per call. */
export const HREAD_MAX_BYTES = 64 * 1024;

export interface HreadOptions {
  readonly maxRows?: number;
  readonly maxBytes?: number;
}

/**
 * `# PATH: N lines, B bytes, STYLE line ends[, no final newline][, BOM], tag TAG` and, for a range or
 * a cut window, `# lines A-B of N`; then the rows. A range past the end is an error (status 1).
 */
export function renderHread(displayPath: string, facts: FileFacts, bytes: Uint8Array, range: LineRange | null, opts: HreadOptions = {}): { ok: true; text: string } | { ok: false; error: string } {
  const lines = byteLines(bytes);
  const total = lines.length;
  const start = range?.start ?? 1;
  const wanted = range?.end ?? total;
  if (total === 0 && range === null) return { ok: true, text: `${header(displayPath, facts)}\n` };
  if (start > total) return { ok: false, error: `line ${start} is past the end (${total} line${total === 1 ? '' : 's'})` };
  const end = Math.min(wanted, total);
  const maxRows = opts.maxRows ?? HREAD_MAX_ROWS;
  const maxBytes = opts.maxBytes ?? HREAD_MAX_BYTES;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rows: string[] = [];
  let size = 0;
  let last = start - 1;
  for (let n = start; n <= end && rows.length < maxRows; n++) {
    const l = lines[n - 1]!;
    const prefix = `${n}:${rowHashAt(bytes, l.start, l.end)}|`;
    const rowBytes = prefix.length + (l.end - l.start) + 1;
    // Always at least one row, however long: a line is never split.
    if (rows.length > 0 && size + rowBytes > maxBytes) break;
    rows.push(prefix + buf.toString('utf8', l.start, l.end));
    size += rowBytes;
    last = n;
  }
  const out = [header(displayPath, facts)];
  if (range !== null || last < end) out.push(`# lines ${start}-${last} of ${total}`);
  out.push(...rows);
  if (last < end) out.push(`# … ${end - last} more line${end - last === 1 ? '' : 's'}: hread ${bashQuote(displayPath)} ${last + 1}-${range?.end ?? ''}`);
  return { ok: true, text: `${out.join('\n')}\n` };
}

function header(displayPath: string, f: FileFacts): string {
  const parts = [`${f.lines} line${f.lines === 1 ? '' : 's'}`, `${f.bytes} bytes`];
  if (f.terminators !== 'none' && f.lines !== 0) parts.push(`${f.terminators} line ends`);
  if (f.finalNewline === false) parts.push('no final newline');
  if (f.bom) parts.push('BOM');
  parts.push(`tag ${f.tag}`);
  return `# ${displayPath}: ${parts.join(', ')}`;
}
