// The canonical exec wrapper: turns a translator's ExecRequest into the exact carrier payload that
// goes on the call item (and is byte-compared on replay). It owns quoting, the template splice,
// parameter validation, serialization and the outer Code Mode program; translators own none of it.
import type { AvailableCarriers, Carrier, CarrierKind } from './carrier.ts';
import type { ExecRequest } from './exec-request.ts';
import { bashQuote, bashQuoteArgv } from './bash-quote.ts';
import { CarrierInputError, CarrierProtocolError } from './carrier-errors.ts';

/** Linux MAX_ARG_STRLEN is 131072 bytes including the terminating NUL; `cmd` reaches the executor as one argv string of `bash -lc`. */
export const EXEC_CMD_MAX_BYTES = 131071;

/** Longest diagnostic message kept (UTF-16 code units) before the truncation marker is appended. */
export const DIAGNOSTIC_MAX_CHARS = 4000;

const PLACEHOLDER = '{.}';
const TRUNCATION_MARKER = '… [diagnostic truncated]';
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;
// Keys JavaScript orders before all others; `{ cmd, ...params }` could then not keep `cmd` first.
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

export function renderExecCarrier(req: ExecRequest, carriers: AvailableCarriers): Carrier {
  if (req === null || typeof req !== 'object' || req.kind !== 'exec') {
    throw new CarrierProtocolError('carrier request is not an exec request');
  }
  const kind = selectCarrier(req.via ?? carriers.primary, carriers);
  const worker = renderWorker(req.command);
  const cmd = req.template === undefined ? worker : spliceTemplate(req.template, worker);
  const params = req.params === undefined ? {} : validateParams(req.params);

  const bytes = Buffer.byteLength(cmd, 'utf8');
  if (bytes > EXEC_CMD_MAX_BYTES) {
    throw new CarrierInputError(`command is ${bytes} bytes of UTF-8, over the ${EXEC_CMD_MAX_BYTES}-byte limit for a single command argument`);
  }
  const args = { cmd, ...params };
  return buildCarrier(kind, carriers, JSON.stringify(args));
}

export function renderDiagnosticCarrier(message: string, carriers: AvailableCarriers): Carrier {
  const msg = boundDiagnostic(String(message));
  const kind = selectCarrier(carriers.primary, carriers);
  const namespace = carriers[kind]?.namespace;
  if (kind === 'exec_command') {
    // Exit 2 with the message on stderr: the model sees it as a failed command, never as success.
    const cmd = `printf '%s\\n' ${bashQuote(msg)} >&2; exit 2`;
    return withNamespace({ kind, arguments: JSON.stringify({ cmd }) }, namespace);
  }
  return withNamespace({ kind, input: `throw new Error(${JSON.stringify(msg)});\n` }, namespace);
}

function selectCarrier(kind: unknown, carriers: AvailableCarriers): CarrierKind {
  if ((kind === 'exec_command' || kind === 'code_mode_exec') && carriers[kind] !== undefined) return kind;
  throw new CarrierProtocolError(`carrier ${String(kind)} is not available in this request`);
}

function renderWorker(command: unknown): string {
  if (command === null || typeof command !== 'object') {
    throw new CarrierProtocolError('exec command must be { argv } or { line }');
  }
  const hasArgv = Object.hasOwn(command, 'argv');
  const hasLine = Object.hasOwn(command, 'line');
  if (hasArgv === hasLine) throw new CarrierProtocolError('exec command must have exactly one of argv or line');
  if (hasArgv) {
    const argv: unknown = (command as { argv: unknown }).argv;
    if (!Array.isArray(argv) || argv.length === 0) throw new CarrierProtocolError('exec argv must be a non-empty array');
    for (let i = 0; i < argv.length; i++) {
      if (typeof argv[i] !== 'string') throw new CarrierProtocolError(`exec argv[${i}] is not a string`);
    }
    return bashQuoteArgv(argv as string[]);
  }
  const line: unknown = (command as { line: unknown }).line;
  if (typeof line !== 'string') throw new CarrierProtocolError('exec line must be a string');
  // The line is passed verbatim, so the one-physical-line guarantee is the translator's to keep.
  if (/[\r\n\0]/.test(line)) throw new CarrierProtocolError('exec line must not contain CR, LF or NUL');
  // Unlike CR/LF the translator cannot fix this by re-quoting: it is unencodable model input.
  if (LONE_SURROGATE.test(line)) throw new CarrierInputError('command line contains a lone surrogate; it is not valid Unicode');
  return line;
}

function spliceTemplate(template: unknown, worker: string): string {
  if (typeof template !== 'string') throw new CarrierProtocolError('exec template must be a string');
  if (template.includes('\0')) throw new CarrierProtocolError('exec template must not contain NUL');
  if (LONE_SURROGATE.test(template)) throw new CarrierProtocolError('exec template contains a lone surrogate');
  const count = template.split(PLACEHOLDER).length - 1;
  if (count !== 1) throw new CarrierProtocolError(`exec template must contain exactly one {.} placeholder, found ${count}`);
  // Slice, never String.replace: a replacement string treats `$'`, `$&`, `$$` specially, and
  // ANSI-C quoted words begin with `$'`.
  const at = template.indexOf(PLACEHOLDER);
  return template.slice(0, at) + worker + template.slice(at + PLACEHOLDER.length);
}

function validateParams(params: unknown): Record<string, unknown> {
  if (!isPlainObject(params)) throw new CarrierProtocolError('exec params must be a plain JSON object');
  if (Object.hasOwn(params, 'cmd')) throw new CarrierProtocolError('exec params must not contain cmd; the router supplies it');
  if (Object.hasOwn(params, 'login') && params.login !== false) {
    throw new CarrierProtocolError('exec params login may only be false');
  }
  for (const key of Object.keys(params)) {
    if (ARRAY_INDEX.test(key)) throw new CarrierProtocolError(`exec params key ${JSON.stringify(key)} is an integer key and cannot follow cmd`);
  }
  assertJson(params, 'params', new Set());
  return params;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// JSON.stringify silently drops or rewrites what JSON cannot hold (undefined, functions, NaN,
// holes, toJSON objects, symbol keys, getters); those would be approximations, so reject them.
function assertJson(value: unknown, path: string, stack: Set<object>): void {
  switch (typeof value) {
    case 'boolean':
      return;
    case 'string':
      if (LONE_SURROGATE.test(value)) throw new CarrierProtocolError(`exec ${path} contains a lone surrogate`);
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new CarrierProtocolError(`exec ${path} is not a finite number`);
      return;
    case 'object':
      break;
    default:
      throw new CarrierProtocolError(`exec ${path} is not JSON-serializable (${typeof value})`);
  }
  if (value === null) return;
  if (stack.has(value)) throw new CarrierProtocolError(`exec ${path} is a cycle`);
  const isArray = Array.isArray(value);
  if (!isArray && !isPlainObject(value)) throw new CarrierProtocolError(`exec ${path} is not a plain object or array`);
  stack.add(value);
  const descriptors = Object.getOwnPropertyDescriptors(value) as Record<PropertyKey, PropertyDescriptor>;
  for (const key of Reflect.ownKeys(descriptors)) {
    if (typeof key === 'symbol') throw new CarrierProtocolError(`exec ${path} has a symbol key`);
    if (isArray && key === 'length') continue;
    const d = descriptors[key]!;
    if (!('value' in d) || d.enumerable !== true) throw new CarrierProtocolError(`exec ${path}.${key} is not a plain data property`);
    assertJson(d.value, isArray ? `${path}[${key}]` : `${path}.${key}`, stack);
  }
  if (isArray) {
    const arr = value as unknown[];
    for (let i = 0; i < arr.length; i++) {
      if (!Object.hasOwn(arr, i)) throw new CarrierProtocolError(`exec ${path}[${i}] is a hole`);
    }
  }
  stack.delete(value);
}

function buildCarrier(kind: CarrierKind, carriers: AvailableCarriers, argsJson: string): Carrier {
  const namespace = carriers[kind]?.namespace;
  if (kind === 'exec_command') return withNamespace({ kind, arguments: argsJson }, namespace);
  // `text(obj)` appends JSON.stringify(obj): the model gets the complete native result (exit_code
  // or session_id, output, wall time), and a yielded command stays yielded for the model to poll.
  const input = `const result = await tools.exec_command(${argsJson});\ntext(result);\n`;
  return withNamespace({ kind, input }, namespace);
}

type CarrierBody =
  | { kind: 'exec_command'; arguments: string }
  | { kind: 'code_mode_exec'; input: string };

function withNamespace(body: CarrierBody, namespace: string | undefined): Carrier {
  if (namespace === undefined) return body;
  // Keep `kind, namespace, payload` key order so serialized carriers are stable.
  return body.kind === 'exec_command'
    ? { kind: body.kind, namespace, arguments: body.arguments }
    : { kind: body.kind, namespace, input: body.input };
}

function boundDiagnostic(message: string): string {
  let msg = message.replaceAll('\0', '\uFFFD').replace(LONE_SURROGATES, '\uFFFD');
  if (msg.length > DIAGNOSTIC_MAX_CHARS) {
    let end = DIAGNOSTIC_MAX_CHARS;
    // After sanitizing, a high surrogate here is always the first half of a pair: do not split it.
    const last = msg.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end -= 1;
    msg = msg.slice(0, end) + TRUNCATION_MARKER;
  }
  return msg;
}
