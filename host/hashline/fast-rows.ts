// The host's fast path to rows: lines found and hashed directly in a file's UTF-8 bytes (native
// decoding, no per-line re-encoding), for hread and hgrep on large inputs. It must give exactly what
// core/v1's splitLines + rowHash give for the decoded text (test/hashline/fast-rows.test.ts checks
// that on random text); core/v1 stays the definition, pure ECMAScript for the isolates.
import { xxHash32Range } from '../../isolates/core-v1/rows.ts';

export interface ByteLine {
  /** Byte offsets of the content (terminator excluded). */
  readonly start: number;
  readonly end: number;
}

/** The logical lines of UTF-8 `bytes`: LF or CRLF end a line, a lone CR is content. */
export function byteLines(bytes: Uint8Array): ByteLine[] {
  const out: ByteLine[] = [];
  let start = 0;
  for (;;) {
    const nl = bytes.indexOf(0x0a, start);
    if (nl < 0) break;
    out.push({ start, end: nl > start && bytes[nl - 1] === 0x0d ? nl - 1 : nl });
    start = nl + 1;
  }
  if (start < bytes.length) out.push({ start, end: bytes.length });
  return out;
}

/** core/v1 rowHash of the line whose UTF-8 bytes are `bytes[start, end)`. */
export function rowHashAt(bytes: Uint8Array, start: number, end: number): string {
  return rowHashValue(bytes, start, end).toString(16).padStart(4, '0');
}

/** The same 16-bit row hash as a number (hread writes its hex digits itself). */
export function rowHashValue(bytes: Uint8Array, start: number, end: number): number {
  const h = xxHash32Range(bytes, start, end);
  return (h ^ (h >>> 16)) & 0xffff;
}

// ignoreBOM: keep a leading U+FEFF in the text, as core/v1's utf8Decode does (it is line 1's content).
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of valid UTF-8 `bytes` (native), or null when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}
