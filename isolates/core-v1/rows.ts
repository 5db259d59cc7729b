// Verified rows `LINE:HASH|text` (brief §10). HASH is 16 bits: 2-hex (8-bit) hashes collide
// constantly in real files (prior-art §A.5, opencrabs#573), 4 hex makes a stale line pass with p≈1/65536.
import { utf8Encode } from './utf8.ts';

const P1 = 0x9e3779b1;
const P2 = 0x85ebca77;
const P3 = 0xc2b2ae3d;
const P4 = 0x27d4eb2f;
const P5 = 0x165667b1;

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

function read32(b: Uint8Array, i: number): number {
  return (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
}

function round(acc: number, input: number): number {
  return Math.imul(rotl((acc + Math.imul(input, P2)) | 0, 13), P1);
}

/** xxHash32 (Yann Collet's XXH32) of `bytes` with `seed`, as an unsigned 32-bit integer. */
export function xxHash32(bytes: Uint8Array, seed = 0): number {
  return xxHash32Range(bytes, 0, bytes.length, seed);
}

/** xxHash32 of `bytes[start, end)` (host fast paths hash lines in place; not part of the module's API). */
export function xxHash32Range(bytes: Uint8Array, start: number, end: number, seed = 0): number {
  const len = end - start;
  let i = start;
  let h: number;
  if (len >= 16) {
    let v1 = (seed + P1 + P2) | 0;
    let v2 = (seed + P2) | 0;
    let v3 = seed | 0;
    let v4 = (seed - P1) | 0;
    for (; i <= end - 16; i += 16) {
      v1 = round(v1, read32(bytes, i));
      v2 = round(v2, read32(bytes, i + 4));
      v3 = round(v3, read32(bytes, i + 8));
      v4 = round(v4, read32(bytes, i + 12));
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
  } else h = (seed + P5) | 0;
  h = (h + len) | 0;
  for (; i + 4 <= end; i += 4) h = Math.imul(rotl((h + Math.imul(read32(bytes, i), P3)) | 0, 17), P4);
  for (; i < end; i++) h = Math.imul(rotl((h + Math.imul(bytes[i]!, P5)) | 0, 11), P1);
  h ^= h >>> 15;
  h = Math.imul(h, P2);
  h ^= h >>> 13;
  h = Math.imul(h, P3);
  h ^= h >>> 16;
  return h >>> 0;
}

function hex(n: number, digits: number): string {
  return n.toString(16).padStart(digits, '0');
}

/**
 * The row hash of one line's content (no terminator): xxHash32 (seed 0) of its exact UTF-8 bytes,
 * folded to 16 bits as `(h ^ (h >>> 16)) & 0xffff`, as 4 lowercase hex digits.
 * Nothing is normalized: indentation, trailing spaces and a lone CR are all significant.
 */
export function rowHash(line: string): string {
  const h = xxHash32(utf8Encode(line));
  return hex((h ^ (h >>> 16)) & 0xffff, 4);
}

/** Whole-content tag (e.g. for an hread header): xxHash32 (seed 0) of the exact bytes, 8 lowercase hex. */
export function contentTag(content: string | Uint8Array): string {
  return hex(xxHash32(typeof content === 'string' ? utf8Encode(content) : content), 8);
}

function isLineNumber(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 1;
}

/** `LINE:HASH|text`. Throws RangeError unless lineNumber is a positive safe integer. */
export function formatRow(lineNumber: number, text: string): string {
  if (!isLineNumber(lineNumber)) throw new RangeError(`line number must be a positive safe integer, got ${String(lineNumber)}`);
  return `${lineNumber}:${rowHash(text)}|${text}`;
}

export interface Anchor {
  readonly line: number;
  readonly hash: string;
}

export interface Row extends Anchor {
  readonly text: string;
}

const ANCHOR = /^([1-9][0-9]*):([0-9a-f]{4})$/;
const ROW = /^([1-9][0-9]*):([0-9a-f]{4})\|/;

function lineOf(digits: string): number | null {
  const n = Number(digits);
  return isLineNumber(n) ? n : null;
}

/** Strict `LINE:HASH`: LINE positive without leading zeros (≤ 2^53−1), HASH exactly 4 lowercase hex. */
export function parseAnchor(s: string): Anchor | null {
  const m = ANCHOR.exec(s);
  if (m === null) return null;
  const line = lineOf(m[1]!);
  return line === null ? null : { line, hash: m[2]! };
}

/**
 * Inverse of formatRow: `LINE:HASH|text` → { line, hash, text }, or null. The text is everything after
 * the first `|` (it may itself contain `|`). The hash is not checked against the text: compare with rowHash.
 */
export function parseRow(s: string): Row | null {
  const m = ROW.exec(s);
  if (m === null) return null;
  const line = lineOf(m[1]!);
  return line === null ? null : { line, hash: m[2]!, text: s.slice(m[0].length) };
}

/**
 * True when `text` starts with what looks like a pasted row prefix: decimal digits, ':', 4 hex digits
 * (either case), '|'. Looser than parseRow on purpose (leading zeros, uppercase), because it guards
 * new text against echoed anchors; column 0 only, since hread output puts the prefix there.
 */
export function looksLikeRowPrefix(text: string): boolean {
  return /^[0-9]+:[0-9a-fA-F]{4}\|/.test(text);
}
