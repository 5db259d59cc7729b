// Interpreter identity and shebang selector normalization (REQ-SHELL-001, second paragraph).
import { utf8ByteLength, utf8TruncateToBytes } from './utf8.ts';

/** Quotes model input inside a diagnostic, cut to 40 bytes so diagnostics stay bounded. Internal. */
export function excerpt(s: string): string {
  const cut = utf8TruncateToBytes(s, 40);
  return JSON.stringify(cut) + (cut.length < s.length ? '…' : '');
}

/** 'bash' → mvdan/sh LangBash, 'posix' → mvdan/sh LangPOSIX, 'external' → a real interpreter via PATH or path. */
export type InterpreterIdentity = 'bash' | 'posix' | 'external';

/** The last path component, splitting at `/` and `\` (so Windows paths work too). */
function basename(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return path.slice(cut + 1);
}

/**
 * Identity of one executable field by its case-insensitive basename: `bash`/`bash.exe` → 'bash',
 * `sh`/`sh.exe` → 'posix', anything else → 'external'. Works for bare names and direct paths
 * (`/usr/bin/bash`, `/bin/sh`, `C:\Git\bin\bash.exe`). Pass the executable, not a whole selector line.
 */
export function interpreterIdentity(executable: string): InterpreterIdentity {
  const base = basename(executable).replace(/[A-Z]+/g, (m) => m.toLowerCase());
  if (base === 'bash' || base === 'bash.exe') return 'bash';
  if (base === 'sh' || base === 'sh.exe') return 'posix';
  return 'external';
}

/** Bounds on the translated argv: the interpreter fields plus the body as the final value. */
export interface ArgvLimits {
  /** Maximum number of argv values including the body (default 64). */
  readonly maxArgvValues?: number;
  /** Maximum UTF-8 bytes of any single argv value, body included (default 131071 = Linux MAX_ARG_STRLEN − 1). */
  readonly maxArgvValueBytes?: number;
}

export const DEFAULT_MAX_ARGV_VALUES = 64;
export const DEFAULT_MAX_ARGV_VALUE_BYTES = 131071;

export type SelectorResult =
  | { readonly ok: true; readonly fields: string[]; readonly identity: InterpreterIdentity }
  | { readonly ok: false; readonly error: string };

/** Separates at runs of ASCII spaces and tabs only (a shebang line has no quoting). */
function splitFields(s: string): string[] {
  return s.split(/[ \t]+/).filter((f) => f !== '');
}

/**
 * Normalizes a shebang selector (the text after `#!`): trims ASCII spaces/tabs, splits at them,
 * removes a leading `env` or `/usr/bin/env` and an optional following `-S`. The remaining fields are
 * the executable (bare name or direct path, unchanged) and its arguments.
 * Rejects: an empty selector; env without an executable; env followed by another option or by a
 * NAME=value assignment (neither is supported, and running them as an executable would only fail later);
 * a NUL; more than maxArgvValues − 1 fields (the body takes one value); a field over maxArgvValueBytes.
 */
export function parseShebangSelector(selector: string, limits: ArgvLimits = {}): SelectorResult {
  if (selector.includes('\0')) return { ok: false, error: 'shebang: NUL byte in interpreter selector' };
  const fields = splitFields(selector);
  if (fields.length === 0) return { ok: false, error: 'shebang: empty interpreter selector' };
  const lead = fields[0];
  if (lead === 'env' || lead === '/usr/bin/env') {
    fields.shift();
    if (fields[0] === '-S') fields.shift();
    const exe = fields[0];
    if (exe === undefined) return { ok: false, error: 'shebang: env without an executable' };
    if (exe.startsWith('-')) return { ok: false, error: `shebang: unsupported env option ${excerpt(exe)} (only -S is accepted)` };
    if (exe.includes('=')) return { ok: false, error: `shebang: env assignment ${excerpt(exe)} is not supported; name the executable directly` };
  }
  const maxValues = limits.maxArgvValues ?? DEFAULT_MAX_ARGV_VALUES;
  const maxBytes = limits.maxArgvValueBytes ?? DEFAULT_MAX_ARGV_VALUE_BYTES;
  if (fields.length + 1 > maxValues) return { ok: false, error: `shebang: too many interpreter fields (${fields.length}; at most ${maxValues - 1})` };
  for (const f of fields) {
    if (utf8ByteLength(f) > maxBytes) return { ok: false, error: `shebang: interpreter field exceeds ${maxBytes} bytes` };
  }
  return { ok: true, fields, identity: interpreterIdentity(fields[0]!) };
}
