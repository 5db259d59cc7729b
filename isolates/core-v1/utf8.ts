// UTF-8 without TextEncoder/TextDecoder/Buffer: none of them exist inside an isolated-vm context,
// and the host must compute exactly what a plugin computes.

const REPLACEMENT = 0xfffd;

/** UTF-8 bytes of `s`. A lone surrogate encodes as U+FFFD (EF BF BD), exactly like TextEncoder. */
export function utf8Encode(s: string): Uint8Array {
  const out = new Uint8Array(utf8ByteLength(s));
  let j = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[j++] = c;
      continue;
    }
    if (c < 0x800) {
      out[j++] = 0xc0 | (c >> 6);
      out[j++] = 0x80 | (c & 0x3f);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        out[j++] = 0xf0 | (cp >> 18);
        out[j++] = 0x80 | ((cp >> 12) & 0x3f);
        out[j++] = 0x80 | ((cp >> 6) & 0x3f);
        out[j++] = 0x80 | (cp & 0x3f);
        i++;
        continue;
      }
      c = REPLACEMENT;
    }
    out[j++] = 0xe0 | (c >> 12);
    out[j++] = 0x80 | ((c >> 6) & 0x3f);
    out[j++] = 0x80 | (c & 0x3f);
  }
  return out;
}

/** Number of bytes `utf8Encode(s)` produces (a lone surrogate counts 3, as U+FFFD). */
export function utf8ByteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && isLow(s.charCodeAt(i + 1))) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * Decodes UTF-8 like the WHATWG decoder with replacement (`new TextDecoder('utf-8', { ignoreBOM: true })`):
 * each maximal invalid subpart becomes one U+FFFD, and a leading BOM is kept (it is content).
 */
export function utf8Decode(bytes: Uint8Array): string {
  const parts: string[] = [];
  const units: number[] = [];
  const flush = (): void => {
    parts.push(String.fromCharCode.apply(null, units));
    units.length = 0;
  };
  let needed = 0;
  let seen = 0;
  let cp = 0;
  let lower = 0x80;
  let upper = 0xbf;
  const emit = (c: number): void => {
    if (c >= 0x10000) {
      c -= 0x10000;
      units.push(0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff));
    } else units.push(c);
    if (units.length >= 8192) flush();
  };
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (needed === 0) {
      if (b < 0x80) emit(b);
      else if (b >= 0xc2 && b <= 0xdf) {
        needed = 1;
        cp = b & 0x1f;
      } else if (b >= 0xe0 && b <= 0xef) {
        if (b === 0xe0) lower = 0xa0;
        if (b === 0xed) upper = 0x9f;
        needed = 2;
        cp = b & 0x0f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        if (b === 0xf0) lower = 0x90;
        if (b === 0xf4) upper = 0x8f;
        needed = 3;
        cp = b & 0x07;
      } else emit(REPLACEMENT);
      continue;
    }
    if (b < lower || b > upper) {
      // The offending byte starts over: it may begin the next valid sequence.
      needed = seen = cp = 0;
      lower = 0x80;
      upper = 0xbf;
      emit(REPLACEMENT);
      i--;
      continue;
    }
    lower = 0x80;
    upper = 0xbf;
    cp = (cp << 6) | (b & 0x3f);
    if (++seen === needed) {
      emit(cp);
      needed = seen = cp = 0;
    }
  }
  if (needed !== 0) emit(REPLACEMENT);
  flush();
  return parts.length === 1 ? parts[0]! : parts.join('');
}

/**
 * Scans `bytes`: `validPrefix` is the length of the longest well-formed prefix; `incompleteTail` says
 * the rest is only the start of a valid sequence cut off by the end (as in a truncated sample).
 * Internal: shared by isValidUtf8 and classifySource.
 */
export function scanUtf8(bytes: Uint8Array): { validPrefix: number; incompleteTail: boolean } {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let needed: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) needed = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      needed = 2;
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      needed = 3;
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
    } else return { validPrefix: i, incompleteTail: false };
    for (let k = 1; k <= needed; k++) {
      if (i + k >= n) return { validPrefix: i, incompleteTail: true };
      const c = bytes[i + k]!;
      if (c < lower || c > upper) return { validPrefix: i, incompleteTail: false };
      lower = 0x80;
      upper = 0xbf;
    }
    i += needed + 1;
  }
  return { validPrefix: n, incompleteTail: false };
}

/** True when `bytes` is well-formed UTF-8 (no overlongs, surrogates, or code points above U+10FFFF). */
export function isValidUtf8(bytes: Uint8Array): boolean {
  return scanUtf8(bytes).validPrefix === bytes.length;
}

/** True when `s` has no lone surrogate, i.e. it encodes to UTF-8 and back unchanged. */
export function isWellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < s.length && isLow(s.charCodeAt(i + 1))) {
      i++;
      continue;
    }
    return false;
  }
  return true;
}

/**
 * The longest prefix of `s` whose UTF-8 encoding fits in `maxBytes` (a lone surrogate counts 3).
 * Never ends inside a surrogate pair, so the result is well-formed whenever `s` is.
 */
export function utf8TruncateToBytes(s: string, maxBytes: number): string {
  if (!(maxBytes > 0)) return '';
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let width: number;
    let units = 1;
    if (c < 0x80) width = 1;
    else if (c < 0x800) width = 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && isLow(s.charCodeAt(i + 1))) {
      width = 4;
      units = 2;
    } else width = 3;
    if (n + width > maxBytes) return s.slice(0, i);
    n += width;
    i += units - 1;
  }
  return s;
}
