// The ledger's on-disk record framing: pure encode/decode, no I/O. Format and recovery rules are
// documented in doc/ledger.md.
//
//   HPL1 <length> <crc32>\n<payload>\n
//
// <length> is the payload's byte length in decimal (no leading zeros), <crc32> eight lowercase hex
// digits of CRC-32 over the bytes "HPL1 <length> " followed by the payload. The payload is one JSON
// text in UTF-8 that contains no raw newline and no NUL byte (JSON.stringify never emits either),
// so a newline always ends a header or a record and NUL never occurs in anything we wrote: that is
// what lets the decoder tell a torn append (cut short or zero-filled) from a damaged record.
import { crc32 } from 'node:zlib';

export const RECORD_MAGIC = 'HPL1';
/** Largest payload accepted in either direction; far above any real call item. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

const MAGIC = Buffer.from(`${RECORD_MAGIC} `, 'latin1');
const NL = 0x0a;
const NUL = 0x00;
const LENGTH_DIGITS = String(MAX_RECORD_BYTES).length;
/** "HPL1 " + length + " " + 8 hex + "\n". */
const MAX_HEADER_BYTES = MAGIC.length + LENGTH_DIGITS + 1 + 8 + 1;
const HEADER = new RegExp(`^${RECORD_MAGIC} ([1-9][0-9]{0,${LENGTH_DIGITS - 1}}) ([0-9a-f]{8})$`);
/** Every proper prefix of a header line (without its newline), including the empty string. */
const HEADER_PREFIX = new RegExp(
  `^(?:H?|HP|HPL|${RECORD_MAGIC}|${RECORD_MAGIC} (?:[1-9][0-9]{0,${LENGTH_DIGITS - 1}})?|` +
    `${RECORD_MAGIC} [1-9][0-9]{0,${LENGTH_DIGITS - 1}} [0-9a-f]{0,8})$`,
);
const LONE_SURROGATE = /\p{Cs}/u;

function checksum(length: number, payload: Uint8Array): string {
  const seed = crc32(`${RECORD_MAGIC} ${length} `);
  return (crc32(payload, seed) >>> 0).toString(16).padStart(8, '0');
}

/** One self-delimiting, checksummed record holding `json` (which must be newline- and NUL-free). */
export function encodeRecord(json: string): Buffer {
  if (typeof json !== 'string' || json.length === 0) throw new TypeError('ledger record payload must be a non-empty string');
  if (json.includes('\n') || json.includes('\0')) {
    throw new TypeError('ledger record payload must not contain a raw newline or NUL (serialize with JSON.stringify)');
  }
  // A lone surrogate would be replaced by U+FFFD in UTF-8: the record would not round-trip exactly.
  if (LONE_SURROGATE.test(json)) throw new TypeError('ledger record payload contains a lone UTF-16 surrogate');
  const payload = Buffer.from(json, 'utf8');
  if (payload.length > MAX_RECORD_BYTES) {
    throw new RangeError(`ledger record payload is ${payload.length} bytes; the limit is ${MAX_RECORD_BYTES}`);
  }
  const header = Buffer.from(`${RECORD_MAGIC} ${payload.length} ${checksum(payload.length, payload)}\n`, 'latin1');
  return Buffer.concat([header, payload, Buffer.from([NL])]);
}

export interface DecodedRecords {
  /** Payloads of the valid records before the first invalid byte, in file order. */
  records: string[];
  /** Byte offset of each record in `records` (for error messages naming the record). */
  offsets: number[];
  /** Length of the valid prefix: everything after it is a torn tail or corruption. */
  validBytes: number;
  /** The bytes after `validBytes` are what an interrupted append leaves: safe to truncate. */
  tornTail: boolean;
  /** Set when the bytes after `validBytes` are damage that must not be discarded automatically. */
  corruptAt?: number;
  /** Why the record at `corruptAt` is invalid. */
  reason?: string;
}

type Parsed = { ok: true; end: number; payload: Buffer } | { ok: false; reason: string };

/** Parses the complete record that should start at `pos`. */
function parseAt(buf: Buffer, pos: number): Parsed {
  const nl = buf.indexOf(NL, pos);
  if (nl === -1 || nl - pos >= MAX_HEADER_BYTES) {
    return { ok: false, reason: nl === -1 ? 'incomplete record header' : 'malformed record header' };
  }
  const m = HEADER.exec(buf.toString('latin1', pos, nl));
  if (!m) return { ok: false, reason: 'malformed record header' };
  const length = Number(m[1]);
  if (length > MAX_RECORD_BYTES) return { ok: false, reason: `record length ${length} exceeds the limit` };
  const start = nl + 1;
  const end = start + length;
  if (end >= buf.length) return { ok: false, reason: 'record extends past the end of the file' };
  if (buf[end] !== NL) return { ok: false, reason: 'record terminator missing' };
  const payload = buf.subarray(start, end);
  if (checksum(length, payload) !== m[2]) return { ok: false, reason: 'checksum mismatch' };
  // Only another writer could produce these with a matching checksum; the framing relies on them.
  if (payload.includes(NL) || payload.includes(NUL)) return { ok: false, reason: 'payload contains a newline or NUL' };
  return { ok: true, end: end + 1, payload };
}

/**
 * Whether `tail` is what an interrupted append leaves: the strict prefix of one record, possibly
 * followed (from its first NUL on) by bytes a crash left unwritten. File systems can persist a
 * file's new size before its data, so unwritten ranges read back as zeros.
 */
function isTornTail(tail: Buffer): boolean {
  if (tail.length > MAX_HEADER_BYTES + MAX_RECORD_BYTES + 1) return false;
  const zero = tail.indexOf(NUL);
  const head = zero === -1 ? tail : tail.subarray(0, zero);
  const nl = head.indexOf(NL);
  if (nl === -1) return head.length < MAX_HEADER_BYTES && HEADER_PREFIX.test(head.toString('latin1'));
  const m = HEADER.exec(head.toString('latin1', 0, nl));
  if (!m || Number(m[1]) > MAX_RECORD_BYTES) return false;
  const partial = head.subarray(nl + 1);
  // Payload cut short, or complete but without its terminator; never a newline inside.
  return partial.length <= Number(m[1]) && !partial.includes(NL);
}

/** Offset of the first complete, valid record that starts after `from`, or -1. */
function nextValidRecord(buf: Buffer, from: number): number {
  for (let p = buf.indexOf(MAGIC, from + 1); p !== -1; p = buf.indexOf(MAGIC, p + 1)) {
    if (parseAt(buf, p).ok) return p;
  }
  return -1;
}

/**
 * Decodes a whole ledger file. Records are used up to the first invalid byte. What follows is a
 * torn tail only if it looks like one interrupted append and no valid record follows it; anything
 * else is corruption, reported at the offset of the first invalid byte.
 */
export function decodeRecords(buf: Buffer): DecodedRecords {
  const records: string[] = [];
  const offsets: number[] = [];
  let pos = 0;
  let failure = '';
  while (pos < buf.length) {
    const r = parseAt(buf, pos);
    if (!r.ok) {
      failure = r.reason;
      break;
    }
    records.push(r.payload.toString('utf8'));
    offsets.push(pos);
    pos = r.end;
  }
  if (pos === buf.length) return { records, offsets, validBytes: pos, tornTail: false };
  const later = nextValidRecord(buf, pos);
  if (later !== -1) {
    return {
      records, offsets, validBytes: pos, tornTail: false, corruptAt: pos,
      reason: `${failure}; a valid record follows at offset ${later}`,
    };
  }
  if (isTornTail(buf.subarray(pos))) return { records, offsets, validBytes: pos, tornTail: true };
  return { records, offsets, validBytes: pos, tornTail: false, corruptAt: pos, reason: failure };
}

/** One piece of a ledger file as `scanRecords` reads it. */
export type ScannedPiece =
  | { readonly kind: 'record'; readonly offset: number; readonly payload: string }
  /** Bytes that are no record, up to the next valid one (or the end). */
  | { readonly kind: 'damage'; readonly offset: number; readonly length: number; readonly reason: string }
  /** What an interrupted append leaves at the end; the router truncates it on its next append. */
  | { readonly kind: 'torn-tail'; readonly offset: number; readonly length: number };

/**
 * Reads a whole file for inspection (`hpatch-router ledger show`): unlike decodeRecords, which the
 * router uses and which stops at the first damage, it resumes at each valid record after damage,
 * so an operator sees every record that survived.
 */
export function scanRecords(buf: Buffer): ScannedPiece[] {
  const pieces: ScannedPiece[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const r = parseAt(buf, pos);
    if (r.ok) {
      pieces.push({ kind: 'record', offset: pos, payload: r.payload.toString('utf8') });
      pos = r.end;
      continue;
    }
    const later = nextValidRecord(buf, pos);
    if (later !== -1) {
      pieces.push({ kind: 'damage', offset: pos, length: later - pos, reason: r.reason });
      pos = later;
      continue;
    }
    const tail = buf.subarray(pos);
    pieces.push(isTornTail(tail) ? { kind: 'torn-tail', offset: pos, length: tail.length } : { kind: 'damage', offset: pos, length: tail.length, reason: r.reason });
    break;
  }
  return pieces;
}
