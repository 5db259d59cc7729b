// The plugin bootstrap: runs INSIDE every plugin isolate and is the isolate's end of the JSON control
// channel (host/plugins/isolate.ts is the other end). The host evaluates this module BEFORE the plugin
// module, so its top level hardens the global and captures every intrinsic it relies on while they are
// still pristine; the host then hands it the plugin's namespace (`attach`) and calls `dispatch`.
//
// Nothing here is a security boundary against the plugin: the plugin shares this realm and can only
// corrupt its own answers, which the host validates again. These checks exist to give plugin authors
// precise, attributed errors and to keep the API's discipline (carriers only from ctx.exec).
//
// Plain ECMAScript, no imports: scripts/build.mjs bundles it to dist/bootstrap.mjs.

/** A request on the control channel (JSON). */
export type ControlRequest =
  | { readonly op: 'translate'; readonly tool: string; readonly input: string; readonly carriers: readonly string[]; readonly threadId: string }
  | { readonly op: 'execute'; readonly tool: string; readonly argv: readonly string[]; readonly cwd: string };

/** What the bootstrap reports; `result` depends on the request (see the host). */
export type ControlAnswer =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly kind: ControlFailure; readonly message: string };

/** `load`: only from attach (the declaration cannot be described). */
export type ControlFailure = 'load' | 'threw' | 'protocol';

/** Bound of every diagnostic and error message the bootstrap reports. */
export const MAX_MESSAGE_CHARS = 2000;
/** Nesting bound of declaration data and exec params (also stops cycles). */
const MAX_DEPTH = 64;

// ---- Intrinsics, captured before any plugin code runs. ----------------------------------------------
const { freeze, keys: ownKeys, create, defineProperty } = Object;
const hasOwn = Object.hasOwn;
const isArray = Array.isArray;
const apply = Reflect.apply;
const jsonParse = JSON.parse;
const jsonStringify = JSON.stringify;
const toStr = String;
const isFinite = Number.isFinite;
const isInteger = Number.isInteger;
const stringSlice = String.prototype.slice;
const regexpExec = RegExp.prototype.exec;
const WeakMapCtor = WeakMap;
const WeakSetCtor = WeakSet;
const weakMapGet = WeakMap.prototype.get;
const weakMapSet = WeakMap.prototype.set;
const weakSetHas = WeakSet.prototype.has;
const weakSetAdd = WeakSet.prototype.add;
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;

// ---- Hardening. --------------------------------------------------------------------------------------
// isolated-vm's fresh context has no require, process, timers, fetch or Buffer; what remains is plain
// ECMAScript. Removed as well: WebAssembly (no loading of compiled code), SharedArrayBuffer and Atomics
// (no shared memory, no Atomics.wait), WeakRef and FinalizationRegistry (GC-observable, nondeterministic
// callbacks outside any call). eval and Function stay: they are pure within this realm. Freezing the
// global keeps the plugin from adding or replacing globals (the plugin's own module scope is its own).
{
  const g = globalThis as unknown as Record<string, unknown>;
  for (const name of ['WebAssembly', 'SharedArrayBuffer', 'Atomics', 'FinalizationRegistry', 'WeakRef']) delete g[name];
  freeze(globalThis);
}

// ---- Small helpers that do not go through patchable prototypes. -------------------------------------
type Rec = Record<string, unknown>;

/** A fresh null-prototype record: assignments cannot hit setters a plugin put on Object.prototype. */
function rec(): Rec {
  return create(null) as Rec;
}

function put(o: object, key: string | number, value: unknown): void {
  defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

function truncate(s: string, max = MAX_MESSAGE_CHARS): string {
  return s.length <= max ? s : `${apply(stringSlice, s, [0, max - 1]) as string}…`;
}

function isObjectLike(v: unknown): v is object {
  return (typeof v === 'object' && v !== null) || typeof v === 'function';
}

function isThenable(v: unknown): boolean {
  return isObjectLike(v) && typeof (v as { then?: unknown }).then === 'function';
}

/** "a string", "null", "an array", "a Promise", … for messages. Never throws. */
function kindOf(v: unknown): string {
  try {
    if (v === null) return 'null';
    if (v === undefined) return 'undefined';
    if (isArray(v)) return 'an array';
    if (isThenable(v)) return 'a Promise';
    const t = typeof v;
    return t === 'object' || t === 'undefined' ? `an ${t}` : `a ${t}`;
  } catch {
    return 'an unreadable value';
  }
}

/** A bounded, never-throwing description of a thrown value, with its first stack frame. */
function errorText(e: unknown): string {
  try {
    if (isObjectLike(e)) {
      const message = (e as { message?: unknown }).message;
      if (typeof message === 'string') {
        const name = (e as { name?: unknown }).name;
        let text = typeof name === 'string' && name !== '' ? `${name}: ${message}` : message;
        const stack = (e as { stack?: unknown }).stack;
        if (typeof stack === 'string') {
          const frame = apply(regexpExec, /\n\s*at ([^\n]+)/, [stack]) as RegExpExecArray | null;
          if (frame !== null && frame[1] !== undefined) text += ` (at ${frame[1]})`;
        }
        return truncate(text);
      }
    }
    return truncate(`${toStr(e)}`);
  } catch {
    return '(an unprintable value was thrown)';
  }
}

/** Violations of the plugin API raised by the bootstrap's own helpers (e.g. ctx.exec). */
const violations = new WeakSetCtor<object>();

function violation(message: string): Error {
  const e = new TypeErrorCtor(message);
  apply(weakSetAdd, violations, [e]);
  return e;
}

function isViolation(e: unknown): e is Error {
  return isObjectLike(e) && (apply(weakSetHas, violations, [e]) as boolean);
}

/**
 * Copies plugin data into fresh null-prototype JSON data. `strict` (exec params) rejects what JSON
 * cannot carry; otherwise (describe) functions become the marker "[function]" so that validation can
 * still name the field, and other non-JSON values are dropped or nulled as JSON.stringify would.
 */
function toData(v: unknown, strict: boolean, where: string, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw violation(`${where} is nested deeper than ${MAX_DEPTH} levels (is it cyclic?)`);
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      if (isFinite(v)) return v;
      if (strict) throw violation(`${where} is ${toStr(v)}, which JSON cannot carry`);
      return null;
    case 'undefined':
      return undefined;
    case 'function':
      if (strict) throw violation(`${where} is a function; only JSON data is allowed`);
      return '[function]';
    case 'bigint':
    case 'symbol':
      if (strict) throw violation(`${where} is a ${typeof v}; only JSON data is allowed`);
      return typeof v === 'bigint' ? toStr(v) : undefined;
    default:
      break;
  }
  if (v === null) return null;
  if (isArray(v)) {
    const out: unknown[] = [];
    const n = v.length;
    for (let i = 0; i < n; i++) {
      const item = toData(v[i], strict, `${where}[${i}]`, depth + 1);
      if (item === undefined && strict) throw violation(`${where}[${i}] is not JSON data`);
      put(out, i, item === undefined ? null : item);
    }
    return out;
  }
  const out = rec();
  const ks = ownKeys(v as object);
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i] as string;
    const item = toData((v as Rec)[k], strict, `${where}.${k}`, depth + 1);
    if (item !== undefined) put(out, k, item);
  }
  return out;
}

/** JSON text of data built by this module (null-prototype records, arrays, primitives). Arrays and
 *  records are walked by hand so that a `toJSON` a plugin put on a prototype is never consulted. */
function serialize(v: unknown): string {
  if (v === null || typeof v !== 'object') return jsonStringify(v) ?? 'null';
  if (isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i === 0 ? '' : ',') + serialize(v[i]);
    return `${s}]`;
  }
  let s = '{';
  let first = true;
  const ks = ownKeys(v);
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i] as string;
    const item = (v as Rec)[k];
    if (item === undefined) continue;
    s += `${first ? '' : ','}${jsonStringify(k)}:${serialize(item)}`;
    first = false;
  }
  return `${s}}`;
}

function ok(result: unknown): string {
  const a = rec();
  put(a, 'ok', true);
  put(a, 'result', result);
  return serialize(a);
}

function fail(kind: ControlFailure, message: string): string {
  const a = rec();
  put(a, 'ok', false);
  put(a, 'kind', kind);
  put(a, 'message', truncate(message));
  return serialize(a);
}

function copyStrings(v: unknown, where: string): string[] {
  if (!isArray(v)) throw violation(`${where} must be an array of strings, got ${kindOf(v)}`);
  const out: string[] = [];
  const n = v.length;
  for (let i = 0; i < n; i++) {
    const s: unknown = v[i];
    if (typeof s !== 'string') throw violation(`${where}[${i}] must be a string, got ${kindOf(s)}`);
    put(out, i, s);
  }
  return out;
}

// ---- The attached plugin. ----------------------------------------------------------------------------
interface Tool {
  readonly self: object;
  readonly parse: unknown;
  readonly translate: unknown;
  readonly execute: unknown;
}

/** Tools by model-visible name, captured once at attach: later mutation of the declaration is ignored. */
let tools: Record<string, Tool> | undefined;

/**
 * Called once by the host with the plugin module's namespace. Answers the declaration as data:
 * `{ apiVersion, id, version, tools: [{ spec, inputLimit, hasParse, hasTranslate, hasExecute }] }` plus
 * any extra fields as exported (so that validation can reject them). Not validated here.
 */
export function attach(namespace: unknown): string {
  if (tools !== undefined) return fail('protocol', 'the bootstrap is already attached');
  try {
    const decl = isObjectLike(namespace) ? (namespace as { default?: unknown }).default : undefined;
    if (decl === undefined) return fail('load', 'the module has no default export; it must `export default` a plugin declaration');
    if (typeof decl !== 'object' || decl === null || isArray(decl)) {
      return fail('load', `the default export must be a plugin declaration object, got ${kindOf(decl)}`);
    }
    const captured = rec() as Record<string, Tool>;
    const description = rec();
    const declKeys = ownKeys(decl);
    for (let i = 0; i < declKeys.length; i++) {
      const k = declKeys[i] as string;
      if (k !== 'tools') {
        const value = toData((decl as Rec)[k], false, k);
        if (value !== undefined) put(description, k, value);
        continue;
      }
      const declared = (decl as Rec)['tools'];
      if (!isArray(declared)) {
        put(description, 'tools', toData(declared, false, 'tools'));
        continue;
      }
      const list: unknown[] = [];
      for (let t = 0; t < declared.length; t++) {
        const tool: unknown = declared[t];
        if (typeof tool !== 'object' || tool === null || isArray(tool)) {
          const data = toData(tool, false, `tools[${t}]`);
          put(list, t, data === undefined ? null : data);
          continue;
        }
        const entry = rec();
        const toolKeys = ownKeys(tool);
        for (let j = 0; j < toolKeys.length; j++) {
          const k2 = toolKeys[j] as string;
          if (k2 === 'parse' || k2 === 'translate' || k2 === 'execute') continue;
          const value = toData((tool as Rec)[k2], false, `tools[${t}].${k2}`);
          if (value !== undefined) put(entry, k2, value);
        }
        // Read once: prototype methods (class-based declarations) count as present.
        const parse = (tool as Rec)['parse'];
        const translateFn = (tool as Rec)['translate'];
        const executeFn = (tool as Rec)['execute'];
        put(entry, 'hasParse', typeof parse === 'function');
        put(entry, 'hasTranslate', typeof translateFn === 'function');
        put(entry, 'hasExecute', typeof executeFn === 'function');
        put(list, t, entry);
        const spec = entry['spec'];
        const name = isObjectLike(spec) ? (spec as Rec)['name'] : undefined;
        // A duplicate name within one declaration is a validation error; the first one answers meanwhile.
        if (typeof name === 'string' && !hasOwn(captured, name)) {
          put(captured, name, freeze({ self: tool, parse, translate: translateFn, execute: executeFn }));
        }
      }
      put(description, 'tools', list);
    }
    tools = captured;
    return ok(description);
  } catch (e) {
    return fail('load', `describing the declaration failed: ${errorText(e)}`);
  }
}

/** The control channel: one JSON request in, one JSON answer out (a Promise only for async execute). */
export function dispatch(requestJson: string, readStdin?: () => unknown): string | Promise<string> {
  let req: ControlRequest;
  try {
    req = jsonParse(requestJson) as ControlRequest;
  } catch (e) {
    return fail('protocol', `malformed control request: ${errorText(e)}`);
  }
  if (tools === undefined) return fail('protocol', 'no plugin is attached');
  const name = req.tool;
  if (typeof name !== 'string' || !hasOwn(tools, name)) return fail('protocol', `the plugin declares no tool named ${jsonStringify(toStr(name))}`);
  const tool = tools[name] as Tool;
  switch (req.op) {
    case 'translate':
      return translate(tool, req);
    case 'execute':
      return execute(tool, req, readStdin);
    default:
      return fail('protocol', `unknown control operation ${jsonStringify(toStr((req as { op?: unknown }).op))}`);
  }
}

// ---- translate ---------------------------------------------------------------------------------------

interface Branded {
  readonly call: object;
  readonly data: Rec;
}

/** Carrier requests made by ctx.exec, with the call that made them: only those are accepted. */
const brands = new WeakMapCtor<object, Branded>();

function makeExec(call: object) {
  return function exec(argv: unknown, options?: unknown): object {
    const args = copyStrings(argv, 'ctx.exec: argv');
    const data = rec();
    put(data, 'kind', 'exec');
    put(data, 'argv', args);
    if (options !== undefined) {
      if (typeof options !== 'object' || options === null || isArray(options)) {
        throw violation(`ctx.exec: options must be an object, got ${kindOf(options)}`);
      }
      const optionKeys = ownKeys(options);
      for (let i = 0; i < optionKeys.length; i++) {
        const k = optionKeys[i] as string;
        if (k !== 'template' && k !== 'params' && k !== 'carrier') throw violation(`ctx.exec: unknown option ${jsonStringify(k)} (allowed: template, params, carrier)`);
      }
      const template = (options as Rec)['template'];
      if (template !== undefined) {
        if (typeof template !== 'string') throw violation(`ctx.exec: options.template must be a string, got ${kindOf(template)}`);
        put(data, 'template', template);
      }
      const carrierKind = (options as Rec)['carrier'];
      if (carrierKind !== undefined) {
        if (carrierKind !== 'exec_command' && carrierKind !== 'code_mode_exec') {
          throw violation(`ctx.exec: options.carrier must be "exec_command" or "code_mode_exec", got ${kindOf(carrierKind)}`);
        }
        put(data, 'carrier', carrierKind);
      }
      const params = (options as Rec)['params'];
      if (params !== undefined) {
        if (typeof params !== 'object' || params === null || isArray(params)) {
          throw violation(`ctx.exec: options.params must be an object, got ${kindOf(params)}`);
        }
        put(data, 'params', toData(params, true, 'ctx.exec: options.params'));
      }
    }
    // What the plugin holds: frozen, opaque to it; the host reads `data`, never this object.
    const carrier = freeze({
      kind: 'exec' as const,
      argv: freeze(copyStrings(args, 'argv')),
      ...(data['template'] !== undefined ? { template: data['template'] } : {}),
      ...(data['params'] !== undefined ? { params: deepFreeze(toData(data['params'], true, 'params')) } : {}),
      ...(data['carrier'] !== undefined ? { carrier: data['carrier'] } : {}),
    });
    apply(weakMapSet, brands, [carrier, freeze({ call, data })]);
    return carrier;
  };
}

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    const ks = ownKeys(v);
    for (let i = 0; i < ks.length; i++) deepFreeze((v as Rec)[ks[i] as string]);
    freeze(v);
  }
  return v;
}

function translate(tool: Tool, req: Extract<ControlRequest, { op: 'translate' }>): string {
  if (typeof tool.parse !== 'function') return fail('protocol', 'the tool has no parse function');
  if (typeof tool.translate !== 'function') return fail('protocol', 'the tool has no translate function');
  let parsed: unknown;
  try {
    parsed = apply(tool.parse, tool.self, [req.input]);
  } catch (e) {
    return fail('threw', `parse threw: ${errorText(e)}`);
  }
  let value: unknown;
  try {
    const shape = 'parse must return { ok: true, value } or { ok: false, error: string }';
    if (typeof parsed !== 'object' || parsed === null) return fail('protocol', `${shape}, got ${kindOf(parsed)}`);
    if (isThenable(parsed)) return fail('protocol', `${shape}, got a Promise: parsers are synchronous`);
    const okFlag = (parsed as Rec)['ok'];
    if (okFlag === false) {
      const error = (parsed as Rec)['error'];
      if (typeof error !== 'string') return fail('protocol', `${shape}; error is ${kindOf(error)}`);
      const answer = rec();
      put(answer, 'kind', 'reject');
      put(answer, 'message', truncate(error));
      return ok(answer);
    }
    if (okFlag !== true) return fail('protocol', `${shape}; ok is ${kindOf(okFlag)}`);
    value = (parsed as Rec)['value'];
  } catch (e) {
    return fail('threw', `reading the result of parse threw: ${errorText(e)}`);
  }

  const call = freeze(rec());
  const ctx = freeze({
    exec: makeExec(call),
    carriers: freeze(copyStrings(req.carriers, 'carriers')),
    threadId: req.threadId,
  });
  let result: unknown;
  try {
    result = apply(tool.translate, tool.self, [value, ctx]);
  } catch (e) {
    if (isViolation(e)) return fail('protocol', e.message);
    return fail('threw', `translate threw: ${errorText(e)}`);
  }

  const branded = isObjectLike(result) ? (apply(weakMapGet, brands, [result]) as Branded | undefined) : undefined;
  if (branded !== undefined) {
    if (branded.call !== call) return fail('protocol', 'translate returned a carrier request that ctx.exec made in an earlier call');
    return ok(branded.data);
  }
  try {
    if (typeof result === 'object' && result !== null && !isArray(result)) {
      if (isThenable(result)) return fail('protocol', 'translate returned a Promise: translators are synchronous');
      const reject = (result as Rec)['reject'];
      if (typeof reject === 'string') {
        const answer = rec();
        put(answer, 'kind', 'reject');
        put(answer, 'message', truncate(reject));
        return ok(answer);
      }
      if (reject !== undefined) return fail('protocol', `translate returned { reject } with ${kindOf(reject)}; it must be a string`);
      return fail('protocol', 'translate returned an object that ctx.exec did not make: carrier requests come only from ctx.exec(argv, options), never as plain objects or raw Responses items');
    }
    return fail('protocol', `translate must return ctx.exec(argv, options) or { reject: string }, got ${kindOf(result)}`);
  } catch (e) {
    return fail('threw', `reading the result of translate threw: ${errorText(e)}`);
  }
}

// ---- execute -----------------------------------------------------------------------------------------

function execute(tool: Tool, req: Extract<ControlRequest, { op: 'execute' }>, readStdin: (() => unknown) | undefined): string | Promise<string> {
  if (typeof tool.execute !== 'function') return fail('protocol', 'the tool has no execute function');
  // The capability is live only while this call runs: a kept reference fails afterwards.
  let live = true;
  const ctx = freeze({
    argv: freeze(copyStrings(req.argv, 'argv')),
    cwd: req.cwd,
    readStdin(): string {
      if (!live) throw new ErrorCtor('readStdin() is only available while execute() runs');
      if (typeof readStdin !== 'function') throw new ErrorCtor('no standard input is available to this call');
      const text = readStdin();
      if (typeof text !== 'string') throw new TypeErrorCtor('the host returned no text for standard input');
      return text;
    },
  });
  let result: unknown;
  try {
    result = apply(tool.execute, tool.self, [ctx]);
    if (isThenable(result)) return settle(result, () => { live = false; });
  } catch (e) {
    live = false;
    return fail(isViolation(e) ? 'protocol' : 'threw', `execute threw: ${errorText(e)}`);
  }
  live = false;
  return executeAnswer(result);
}

async function settle(pending: unknown, done: () => void): Promise<string> {
  try {
    return executeAnswer(await pending);
  } catch (e) {
    return fail('threw', `execute rejected: ${errorText(e)}`);
  } finally {
    done();
  }
}

function executeAnswer(r: unknown): string {
  const shape = 'execute must return { stdout?: string, stderr?: string, status: integer 0..255 }';
  try {
    if (typeof r !== 'object' || r === null || isArray(r)) return fail('protocol', `${shape}, got ${kindOf(r)}`);
    const status = (r as Rec)['status'];
    const stdout = (r as Rec)['stdout'];
    const stderr = (r as Rec)['stderr'];
    if (typeof status !== 'number' || !isInteger(status) || status < 0 || status > 255) {
      return fail('protocol', `${shape}; status is ${typeof status === 'number' ? toStr(status) : kindOf(status)}`);
    }
    if (stdout !== undefined && typeof stdout !== 'string') return fail('protocol', `${shape}; stdout is ${kindOf(stdout)}`);
    if (stderr !== undefined && typeof stderr !== 'string') return fail('protocol', `${shape}; stderr is ${kindOf(stderr)}`);
    const answer = rec();
    put(answer, 'stdout', stdout ?? '');
    put(answer, 'stderr', stderr ?? '');
    put(answer, 'status', status);
    return ok(answer);
  } catch (e) {
    return fail('threw', `reading the result of execute threw: ${errorText(e)}`);
  }
}
