// `hread` output (doc/hashline.md): a header line that says what the file is, then its lines as
// `LINE:HASH|text` rows: core/v1's rowHash, computed on the file's own bytes (fast-rows.ts).
// The window is bounded by rows and bytes; when it ends early, a last line says how to read on.
// Pure: the private command (private-commands.ts) does the reading.
import type { LineRange } from '../../isolates/core-v1/operands.ts';
import { bashQuote } from '../carriers/bash-quote.ts';
import { rowHashValue } from './fast-rows.ts';
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
export function renderHread(displayPath: string, facts: FileFacts, bytes: Uint8Array, range: LineRange | null, opts: HreadOptions = {}): { ok: true; bytes: Buffer } | { ok: false; error: string } {
  const total = facts.lines ?? 0;
  const start = range?.start ?? 1;
  const wanted = range?.end ?? total;
  if (total === 0 && range === null) return { ok: true, bytes: Buffer.from(`${header(displayPath, facts)}\n`, 'utf8') };
  if (start > total) return { ok: false, error: `line ${start} is past the end (${total} line${total === 1 ? '' : 's'})` };
  const end = Math.min(wanted, total);
  const top = header(displayPath, facts);
  // Bytes, not a string: the rows are the file's own bytes, written as they are (no decode and
  // re-encode), after room for the header lines, which are known only once the window is.
  const reserve = Buffer.byteLength(top) + 80;
  const rows = renderRows(bytes, start, end, opts.maxRows ?? HREAD_MAX_ROWS, opts.maxBytes ?? HREAD_MAX_BYTES, reserve);
  const last = rows.last;
  const head = Buffer.from(range !== null || last < end ? `${top}\n# lines ${start}-${last} of ${total}\n` : `${top}\n`, 'utf8');
  const from = reserve - head.length;
  head.copy(rows.out, from);
  if (last >= end) return { ok: true, bytes: rows.out.subarray(from, rows.at) };
  const tail = Buffer.from(`# … ${end - last} more line${end - last === 1 ? '' : 's'}: hread ${bashQuote(displayPath)} ${last + 1}-${range?.end ?? ''}\n`, 'utf8');
  return { ok: true, bytes: Buffer.concat([rows.out.subarray(from, rows.at), tail]) };
}

const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** `out` with room for `need` bytes, keeping its first `keep`. */
function grow(out: Buffer, keep: number, need: number): Buffer {
  const grown = Buffer.allocUnsafe(Math.max(out.length * 2, need));
  out.copy(grown, 0, 0, keep);
  return grown;
}

/**
 * Rows `start..end` (1-based) written straight into one buffer from the file's bytes: each line's
 * bytes are hashed in place and copied once, with no per-line string or object (a 100k-line file
 * is one pass). Stops before the row that would pass `maxBytes`, but always writes one row.
 */
function renderRows(bytes: Uint8Array, start: number, end: number, maxRows: number, maxBytes: number, reserve: number): { out: Buffer; at: number; last: number } {
  const src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = src.length;
  let pos = 0;
  for (let n = 1; n < start; n++) pos = src.indexOf(0x0a, pos) + 1;
  // (plain loops: Buffer.indexOf and Buffer.copy cost more per call than a short line's bytes)
  // Room for the whole window up front (its bytes plus a prefix per row), within the byte bound.
  let out: Buffer = Buffer.allocUnsafe(reserve + Math.max(256, Math.min(maxBytes + 256, (len - pos) + (end - start + 1) * 16)));
  let at = reserve;
  let last = start - 1;
  for (let n = start; n <= end && n - start < maxRows; n++) {
    let digits = 1;
    for (let v = n; v >= 10; v = Math.floor(v / 10)) digits++;
    // The line is copied while its end is searched for (one pass), after room for its prefix.
    const body = at + digits + 6;
    let lineEnd = pos;
    let w = body;
    for (; lineEnd < len; lineEnd++) {
      const c = src[lineEnd]!;
      if (c === 0x0a) break;
      if (w >= out.length) out = grow(out, w, w + 1);
      out[w++] = c;
    }
    if (lineEnd < len && lineEnd > pos && src[lineEnd - 1] === 0x0d) w--; // CRLF: the CR is the line end's
    const rowEnd = w + 1;
    if (n > start && rowEnd - reserve > maxBytes) break;
    if (rowEnd > out.length) out = grow(out, w, rowEnd);
    for (let k = digits - 1, v = n; k >= 0; k--, v = Math.floor(v / 10)) out[at + k] = 0x30 + (v % 10);
    at += digits;
    out[at++] = 0x3a; // ':'
    const h = rowHashValue(out, body, w);
    out[at++] = HEX[(h >> 12) & 15]!;
    out[at++] = HEX[(h >> 8) & 15]!;
    out[at++] = HEX[(h >> 4) & 15]!;
    out[at++] = HEX[h & 15]!;
    out[at++] = 0x7c; // '|'
    out[w] = 0x0a;
    at = rowEnd;
    last = n;
    pos = lineEnd + 1;
  }
  return { out, at, last };
}

function header(displayPath: string, f: FileFacts): string {
  const parts = [`${f.lines} line${f.lines === 1 ? '' : 's'}`, `${f.bytes} bytes`];
  if (f.terminators !== 'none' && f.lines !== 0) parts.push(`${f.terminators} line ends`);
  if (f.finalNewline === false) parts.push('no final newline');
  if (f.bom) parts.push('BOM');
  parts.push(`tag ${f.tag}`);
  return `# ${displayPath}: ${parts.join(', ')}`;
}
