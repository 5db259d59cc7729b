// bash's printf reads floating-point arguments with strtold and prints them with the C library's
// printf as x86 `long double`s (a 64-bit significand): `printf '%.1f' 0.15` is 0.2 there, where
// a double would give 0.1. These emulate both steps exactly with BigInts: a decimal (or hex)
// argument is rounded once to a 64-bit significand, and %f/%e/%g round its exact binary value
// half to even, like glibc.

/** A finite long double: (-1)^neg × m × 2^e, or a special value. */
export type LongDouble = { neg: boolean; m: bigint; e: number } | { neg: boolean; special: 'inf' | 'nan' };

const MANT_BITS = 64;
const MIN_EXP = -16382 - 63; // (the smallest subnormal's exponent of its units)

/** Rounds num/den (both > 0) to a 64-bit significand: m × 2^e, ties to even. */
function roundToLd(num: bigint, den: bigint): { m: bigint; e: number } {
  // e so that 2^63 <= num/den × 2^-e < 2^64
  let e = num.toString(2).length - den.toString(2).length - (MANT_BITS - 1);
  const scaled = (): [bigint, bigint] => (e >= 0 ? [num, den << BigInt(e)] : [num << BigInt(-e), den]);
  let [n, d] = scaled();
  if (n / d >= 1n << BigInt(MANT_BITS)) { e++; [n, d] = scaled(); }
  else if (n / d < 1n << BigInt(MANT_BITS - 1)) { e--; [n, d] = scaled(); }
  if (e < MIN_EXP) { e = MIN_EXP; [n, d] = scaled(); }
  let q = n / d;
  const r2 = (n % d) * 2n;
  if (r2 > d || (r2 === d && (q & 1n) === 1n)) q++;
  if (q === 1n << BigInt(MANT_BITS)) { q >>= 1n; e++; }
  return { m: q, e };
}

/**
 * strtold over the whole argument: decimal, hex (`0x1.8p3`), inf/infinity/nan; leading blanks
 * and a sign allowed. Undefined when the text is not entirely a number.
 */
export function parseLongDouble(s: string): LongDouble | undefined {
  const t = s.replace(/^[ \t\n\v\f\r]+/, '');
  let m = /^([+-]?)(inf(?:inity)?|nan(?:\([0-9a-zA-Z_]*\))?)$/i.exec(t);
  if (m) return { neg: m[1] === '-', special: m[2]![0]!.toLowerCase() === 'i' ? 'inf' : 'nan' };
  m = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?\d+))?$/.exec(t);
  if (m && (m[2] || m[3])) {
    const digits = (m[2] ?? '') + (m[3] ?? '');
    const num = BigInt('0x' + digits);
    const exp = Number(m[4] ?? 0) - 4 * (m[3]?.length ?? 0);
    return finite(m[1] === '-', num, exp, 2);
  }
  m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(t);
  if (!m || !(m[2] || m[3])) return undefined;
  const num = BigInt((m[2] || '') + (m[3] || '') || '0');
  const exp = Number(m[4] ?? 0) - (m[3]?.length ?? 0);
  return finite(m[1] === '-', num, exp, 10);
}

function finite(neg: boolean, num: bigint, exp: number, base: 2 | 10): LongDouble {
  if (num === 0n) return { neg, m: 0n, e: 0 };
  // (far outside the range: infinity or zero, without building huge numbers)
  const mag = num.toString().length + (base === 10 ? exp : exp * 0.30103);
  if (mag > 4940) return { neg, special: 'inf' };
  if (mag < -4960) return { neg, m: 0n, e: 0 };
  const B = BigInt(base);
  const r = exp >= 0 ? roundToLd(num * B ** BigInt(exp), 1n) : roundToLd(num, B ** BigInt(-exp));
  if (r.e + MANT_BITS > 16384) return { neg, special: 'inf' };
  return { neg, ...r };
}

/** A long double from a JS number (exact). */
export function fromNumber(v: number): LongDouble {
  if (Number.isNaN(v)) return { neg: false, special: 'nan' };
  if (!Number.isFinite(v)) return { neg: v < 0, special: 'inf' };
  if (v === 0) return { neg: Object.is(v, -0), m: 0n, e: 0 };
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, Math.abs(v));
  const bits = dv.getBigUint64(0);
  const be = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  const m = be === 0 ? frac : frac | (1n << 52n);
  return { neg: v < 0, m, e: (be === 0 ? 1 : be) - 1075 };
}

/** round(|x| × 10^p), ties to even (p may be negative). */
function scaledInt(x: { m: bigint; e: number }, p: number): bigint {
  let num = x.m, den = 1n;
  if (x.e >= 0) num <<= BigInt(x.e); else den <<= BigInt(-x.e);
  if (p >= 0) num *= 10n ** BigInt(p); else den *= 10n ** BigInt(-p);
  let q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && (q & 1n) === 1n)) q++;
  return q;
}

function fixed(x: { m: bigint; e: number }, p: number): string {
  const n = scaledInt(x, p).toString().padStart(p + 1, '0');
  return p ? n.slice(0, -p) + '.' + n.slice(-p) : n;
}

/** Digits and decimal exponent of |x| rounded to p+1 significant digits. */
function sci(x: { m: bigint; e: number }, p: number): [string, number] {
  if (x.m === 0n) return ['0'.repeat(p + 1), 0];
  // estimate the exponent from the bit length, then correct it
  let d = Math.floor((x.m.toString(2).length - 1 + x.e) * 0.30102999566398120);
  for (let k = 0; k < 4; k++) {
    const n = scaledInt(x, p - d);
    const s = n.toString();
    if (s.length > p + 1) { d++; continue; }
    if (s.length < p + 1) { d--; continue; }
    return [s, d];
  }
  const s = scaledInt(x, p - d).toString();
  return [s.slice(0, p + 1), d];
}

function expText(d: number): string {
  return (d < 0 ? '-' : '+') + String(Math.abs(d)).padStart(2, '0');
}

/**
 * A precision past every digit a long double has: its exact value has at most 16,508 digits after
 * the point (m / 2^16508 at the least exponent) and 11,600 significant ones, so at this
 * precision the %f, %e and %g digits are exact and any more are zeros.
 */
const EXACT_PREC = 40000;

/** printf's %f %F %e %E %g %G of `v` (sign flags and width are left to the caller). */
export function formatLongDouble(v: LongDouble, conv: string, prec: number | undefined, alt: boolean): string {
  const lc = conv.toLowerCase();
  if (prec !== undefined && prec > EXACT_PREC && !('special' in v)) {
    // (the digits past EXACT_PREC are zeros: made by repeat, not by a BigInt of 10^prec)
    const s = formatLongDouble(v, conv, EXACT_PREC, alt);
    if (lc === 'g' && !alt) return s; // (%g drops trailing zeros)
    const zeros = '0'.repeat(prec - EXACT_PREC), e = s.search(/[eE]/);
    return e < 0 ? s + zeros : s.slice(0, e) + zeros + s.slice(e);
  }
  const p = prec ?? 6;
  let s: string;
  if ('special' in v) s = v.special;
  else if (lc === 'f') s = fixed(v, p);
  else if (lc === 'e') {
    const [dg, d] = sci(v, p);
    s = dg[0]! + (p || alt ? '.' : '') + dg.slice(1) + 'e' + expText(d);
  } else {
    const P = p === 0 ? 1 : p;
    const [dg, X] = sci(v, P - 1);
    if (X < P && X >= -4) s = fixed(v, P - 1 - X);
    else s = dg[0]! + (P - 1 || alt ? '.' : '') + dg.slice(1) + 'e' + expText(X);
    if (!alt) s = s.replace(/\.(\d*?)0+(e|$)/, (m0, keep: string, end: string) => (keep ? '.' + keep : '') + end);
    else if (!s.includes('.')) s = s.replace(/(e|$)/, '.$1');
  }
  if (lc === 'f' && alt && !s.includes('.') && !('special' in v)) s += '.';
  if (conv !== lc) s = s.toUpperCase();
  return (v.neg ? '-' : '') + s;
}
