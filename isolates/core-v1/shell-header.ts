// Shebang and leading-directive parsing for the built-in shell tool (REQ-SHELL-001, paragraphs 2–4
// and the #!script= rerun form). Pure: it decides the interpreter fields and the exact body; quoting,
// {.} replacement and execution belong to the router.
import {
  DEFAULT_MAX_ARGV_VALUE_BYTES,
  DEFAULT_MAX_ARGV_VALUES,
  excerpt,
  parseShebangSelector,
  type ArgvLimits,
  type InterpreterIdentity,
} from './interpreter.ts';
import { isWellFormed, utf8ByteLength } from './utf8.ts';

export interface Interpreter {
  /** Normalized selector fields: executable (bare name or unchanged path) then its arguments; ['bash'] when implicit. */
  readonly fields: string[];
  readonly identity: InterpreterIdentity;
  /** True when there was no shebang (implicit Bash). */
  readonly implicit: boolean;
}

export type ShellInput =
  | {
      readonly ok: true;
      readonly kind: 'script';
      readonly interpreter: Interpreter;
      /** The #!cmd= template (trimmed, non-empty, exactly one `{.}`). */
      readonly command?: string;
      /** The #!params= object (no `cmd`; `login`, when present, is false). */
      readonly params?: Record<string, unknown>;
      /** Every input character after the removed header lines, exactly. */
      readonly body: string;
    }
  | {
      readonly ok: true;
      readonly kind: 'scriptRef';
      /** `@shell/<artifactId>` exactly as written. */
      readonly scriptRef: string;
      readonly artifactId: string;
    }
  | { readonly ok: false; readonly error: string };

export type ShellHeaderLimits = ArgvLimits;

const trimST = (s: string): string => s.replace(/^[ \t]+|[ \t]+$/g, '');

/** One logical line at `pos`: its content (without LF/CRLF) and the index after its terminator. */
function lineAt(input: string, pos: number): { content: string; next: number } {
  const nl = input.indexOf('\n', pos);
  if (nl < 0) return { content: input.slice(pos), next: input.length };
  const end = nl > pos && input.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl;
  return { content: input.slice(pos, end), next: nl + 1 };
}

type Directive = { key: string; value: string } | { error: string };

const CANONICAL = /^#!([A-Za-z_][A-Za-z0-9_.-]*)=(.*)$/s;
// Tolerated spellings `#!params JSON` and `# !params JSON` (also with `=` or blanks around `!`).
const PARAMS_ALT = /^#[ \t]*![ \t]*params(?:[ \t]*=|[ \t]+|$)(.*)$/s;
// `#!cmd curl …` or `#! cmd=…` is a mistyped directive, not an interpreter named "cmd".
const MISSPELLED = /^#[ \t]*![ \t]*(cmd|script)(?:[ \t=]|$)/;

/** Classifies a trimmed line: a directive, a directive-shaped error, or null (not a directive). */
function directiveOf(trimmed: string): Directive | null {
  const c = CANONICAL.exec(trimmed);
  if (c !== null) return { key: c[1]!, value: c[2]! };
  const p = PARAMS_ALT.exec(trimmed);
  if (p !== null) return { key: 'params', value: p[1]! };
  const m = MISSPELLED.exec(trimmed);
  if (m !== null) return { error: `malformed directive: write #!${m[1]!}=… (no blanks, with "=")` };
  return null;
}

function countPlaceholders(template: string): number {
  let n = 0;
  for (let at = template.indexOf('{.}'); at >= 0; at = template.indexOf('{.}', at + 3)) n++;
  return n;
}

function parseParams(value: string): { params: Record<string, unknown> } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    // No engine message: diagnostics must be identical in every host and isolate.
    return { error: '#!params= is not valid JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { error: '#!params= must be a JSON object' };
  const params = parsed as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(params, 'cmd')) return { error: '#!params= cannot contain "cmd": the script body supplies it' };
  if (Object.prototype.hasOwnProperty.call(params, 'login') && params['login'] !== false) return { error: '#!params= "login" must be false' };
  return { params };
}

/** An artifact id is one safe filename component (REQ-SHELL-001 retention rules). */
export function isSafeArtifactId(id: string): boolean {
  return id !== '' && id !== '.' && id !== '..' && id !== '.runtime' && !/[/\\\0]/.test(id);
}

/**
 * Parses built-in shell input into interpreter, directives and exact body (REQ-SHELL-001):
 * - NUL anywhere, or a lone surrogate (not encodable as UTF-8), rejects.
 * - Line 1 (trimmed of ASCII spaces/tabs) starting with `#!` is the shebang, unless it is a directive;
 *   see parseShebangSelector for the selector rules. Without a shebang the interpreter is implicit bash.
 * - Then a leading directive block: consecutive lines that (trimmed) are `#!cmd=…`, `#!params=…` or the
 *   tolerated `#!params …` / `# !params …`; at most one of each, any order. Any other `#!` line there
 *   rejects as an unsupported directive. The first other line (a blank line too) starts the body;
 *   later directive-like lines are body.
 * - `#!script=@shell/<id>` is accepted only as the sole line of the input (optional final terminator).
 * - Removed lines take their complete LF or CRLF terminator with them; the body is the rest, exactly.
 * - Limits: interpreter fields + body ≤ maxArgvValues values, each ≤ maxArgvValueBytes UTF-8 bytes.
 */
export function parseShellInput(input: string, limits: ShellHeaderLimits = {}): ShellInput {
  if (input.includes('\0')) return { ok: false, error: 'shell input contains a NUL byte' };
  if (!isWellFormed(input)) return { ok: false, error: 'shell input is not valid Unicode (lone surrogate)' };
  const maxValues = limits.maxArgvValues ?? DEFAULT_MAX_ARGV_VALUES;
  const maxBytes = limits.maxArgvValueBytes ?? DEFAULT_MAX_ARGV_VALUE_BYTES;

  let interpreter: Interpreter = { fields: ['bash'], identity: 'bash', implicit: true };
  let command: string | undefined;
  let params: Record<string, unknown> | undefined;
  let pos = 0;
  let first = true;

  while (pos < input.length) {
    const { content, next } = lineAt(input, pos);
    const trimmed = trimST(content);
    const d = directiveOf(trimmed);
    if (d === null) {
      if (!trimmed.startsWith('#!')) break;
      if (!first) return { ok: false, error: `unsupported leading directive ${excerpt(trimmed)} (a shebang must be the first line)` };
      const sel = parseShebangSelector(trimmed.slice(2), { maxArgvValues: maxValues, maxArgvValueBytes: maxBytes });
      if (!sel.ok) return sel;
      interpreter = { fields: sel.fields, identity: sel.identity, implicit: false };
    } else if ('error' in d) {
      return { ok: false, error: d.error };
    } else if (d.key === 'cmd') {
      if (command !== undefined) return { ok: false, error: 'duplicate #!cmd= directive' };
      const template = trimST(d.value);
      if (template === '') return { ok: false, error: '#!cmd= is empty' };
      const n = countPlaceholders(template);
      if (n !== 1) return { ok: false, error: `#!cmd= must contain exactly one {.} placeholder (found ${n})` };
      command = template;
    } else if (d.key === 'params') {
      if (params !== undefined) return { ok: false, error: 'duplicate #!params= directive' };
      const r = parseParams(trimST(d.value));
      if ('error' in r) return { ok: false, error: r.error };
      params = r.params;
    } else if (d.key === 'script') {
      if (!(first && next === input.length)) return { ok: false, error: '#!script= must be the only line of the input' };
      const scriptRef = trimST(d.value);
      const m = /^@shell\/(.*)$/s.exec(scriptRef);
      if (m === null || !isSafeArtifactId(m[1]!)) return { ok: false, error: '#!script= expects @shell/<artifact-id>' };
      return { ok: true, kind: 'scriptRef', scriptRef, artifactId: m[1]! };
    } else {
      // Keys match [A-Za-z_][A-Za-z0-9_.-]*, so slicing cannot split a character.
      const key = d.key.length > 40 ? `${d.key.slice(0, 40)}…` : d.key;
      return { ok: false, error: `unsupported leading directive #!${key}=` };
    }
    pos = next;
    first = false;
  }

  const body = input.slice(pos);
  if (interpreter.fields.length + 1 > maxValues) return { ok: false, error: `too many argv values (at most ${maxValues})` };
  if (utf8ByteLength(body) > maxBytes) return { ok: false, error: `script body exceeds ${maxBytes} bytes` };
  return {
    ok: true,
    kind: 'script',
    interpreter,
    ...(command !== undefined ? { command } : {}),
    ...(params !== undefined ? { params } : {}),
    body,
  };
}
