// Thread ids arrive in request headers and become file and directory names (the ledger file, the
// thread runtime directory), so they are confined to one plain path component before any use.

/** 1..128 of [A-Za-z0-9._-], not starting with '.' (which also excludes '.' and '..'). */
const SAFE_THREAD_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** Whether `id` can be used as a single path component. Codex sends UUIDv7 strings. */
export function isSafeThreadId(id: string): boolean {
  // Header values may be anything at runtime; only a string can be safe.
  return typeof id === 'string' && SAFE_THREAD_ID.test(id);
}

export class UnsafeThreadIdError extends Error {
  override readonly name = 'UnsafeThreadIdError';
  constructor(readonly threadId: unknown) {
    super(`unsafe thread id ${describe(threadId)}: expected 1..128 characters of [A-Za-z0-9._-] not starting with '.'`);
  }
}

export function assertSafeThreadId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !isSafeThreadId(id)) throw new UnsafeThreadIdError(id);
}

// Bounded, escaped rendering: the id is attacker-controlled and ends up in logs.
function describe(id: unknown): string {
  if (typeof id !== 'string') return `(${typeof id})`;
  const shown = id.length > 64 ? `${id.slice(0, 64)}…` : id;
  return `${JSON.stringify(shown)} (${id.length} chars)`;
}
