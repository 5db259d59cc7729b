// bash keeps associative arrays and its command hash table in FNV-1 hashed buckets and lists them
// bucket by bucket, newest entry first within a bucket; listings must follow the same order.

export function fnv1(s: string): number {
  let x = 2166136261 >>> 0;
  // bash XORs in a (signed) char: a byte above 0x7f is sign-extended
  for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); x = Math.imul(x, 16777619) >>> 0; x = (x ^ (c >= 0x80 ? c | 0xffffff00 : c)) >>> 0; }
  return x;
}

/** Entries of `m` (insertion order = age) in bash's listing order for a table of `buckets` (a power of 2). */
export function bucketOrder<V>(m: Map<string, V>, buckets: number): [string, V][] {
  const ents = [...m.entries()].map((e, i) => ({ e, i, b: fnv1(e[0]) & (buckets - 1) }));
  ents.sort((p, q) => p.b - q.b || q.i - p.i);
  return ents.map((x) => x.e);
}
