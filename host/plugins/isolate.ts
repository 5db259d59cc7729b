// The host side of a plugin declaration: one isolated-vm isolate and context per declaration file,
// talking to the in-isolate bootstrap (isolates/bootstrap.ts) over a JSON control channel. Nothing but
// JSON strings crosses into the isolate, except the readStdin capability for the duration of one
// execute call. Every failure inside the isolate comes back as a PluginLoadError or PluginCallError;
// nothing a plugin does may take the router down.
//
// Memory-limit decision: an isolate that exhausts its memory limit is disposed by isolated-vm. That
// call fails with kind 'memory' and the NEXT call transparently reloads a fresh isolate from the same
// in-memory source (the declaration is immutable for the process lifetime, so the reload must describe
// exactly the same declaration, or the whole plugin is disabled). Three consecutive memory failures or
// failed reloads on one tool's calls disable that tool; three consecutive failed reloads disable the
// whole plugin. Only the call that was running when the limit hit is blamed; calls queued behind it
// fail with kind 'memory' too but are not counted. A disabled tool fails fast with kind 'disabled'
// until the router restarts. Any answer from the isolate resets the tool's count. Timeouts do not
// count: the isolate survives a CPU timeout (a call that never settles gets the isolate replaced).
import ivm from 'isolated-vm';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ControlAnswer, ControlRequest } from '../../isolates/bootstrap.ts';
import { bootstrapModuleSource, coreModuleSource } from './core-artifact.ts';
import { PluginCallError, PluginLoadError, type PluginCallFailure } from './plugin-errors.ts';
import { isJsonObject } from '../json/json-object.ts';

export interface IsolateLimits {
  /** isolated-vm memoryLimit of the isolate (MB; minimum 8). */
  readonly memoryMb: number;
  /** Budget for compiling, evaluating and describing the declaration. */
  readonly loadTimeoutMs: number;
  /** Budget of one parse + translate call. */
  readonly translateTimeoutMs: number;
  /** Budget of one execute call, including an async execute's settlement. */
  readonly executeTimeoutMs: number;
}

export const DEFAULT_LIMITS: IsolateLimits = Object.freeze({
  memoryMb: 64,
  loadTimeoutMs: 2000,
  translateTimeoutMs: 250,
  executeTimeoutMs: 30_000,
});

export type TranslateAnswer =
  | { readonly kind: 'exec'; readonly argv: readonly string[]; readonly template?: string; readonly params?: Readonly<Record<string, unknown>>; readonly carrier?: 'exec_command' | 'code_mode_exec' }
  | { readonly kind: 'reject'; readonly message: string };

export interface ExecuteResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number;
}

/** The one module a plugin may import. */
export const CORE_SPECIFIER = 'hpatch:core/v1';
/** Consecutive memory failures or failed reloads that disable a tool (and failed reloads a plugin). */
export const MAX_CONSECUTIVE_FAILURES = 3;
/** Bound of a rejection diagnostic (the bootstrap bounds it too; the host does not trust that). */
export const MAX_DIAGNOSTIC_CHARS = 2000;

const BOOTSTRAP_FILENAME = 'hpatch:bootstrap';
const TIMED_OUT = 'Script execution timed out.';

interface Live {
  readonly isolate: ivm.Isolate;
  readonly dispatch: ivm.Reference<(requestJson: string, readStdin?: () => unknown) => string | Promise<string>>;
  /** Set when the host disposed the isolate itself (a hung call, or dispose()). */
  killedByHost: boolean;
}

interface Loaded {
  readonly live: Live;
  readonly descriptionJson: string;
}

export class PluginIsolate {
  readonly file: string;
  readonly description: unknown;
  readonly limits: IsolateLimits;

  readonly #source: string;
  readonly #descriptionJson: string;
  #live: Live | undefined;
  #reloading: Promise<Live> | undefined;
  #closed = false;
  /** Why the whole plugin is disabled, once it is. */
  #disabled: string | undefined;
  readonly #disabledTools = new Map<string, string>();
  readonly #toolFailures = new Map<string, number>();
  #reloadFailures = 0;

  private constructor(file: string, source: string, limits: IsolateLimits, loaded: Loaded) {
    this.file = file;
    this.limits = limits;
    this.#source = source;
    this.#live = loaded.live;
    this.#descriptionJson = loaded.descriptionJson;
    this.description = deepFreeze(JSON.parse(loaded.descriptionJson));
  }

  /** Compiles and evaluates the plugin in a fresh isolate and returns it with its describe() answer. Throws PluginLoadError. */
  static async load(opts: { file: string; source: string; limits?: Partial<IsolateLimits> }): Promise<PluginIsolate> {
    const limits: IsolateLimits = Object.freeze({ ...DEFAULT_LIMITS, ...opts.limits });
    const loaded = await loadDeclaration(opts.file, opts.source, limits);
    return new PluginIsolate(opts.file, opts.source, limits, loaded);
  }

  /** parse + translate inside the isolate. Throws PluginCallError. */
  async translate(req: { tool: string; input: string; carriers: readonly string[]; threadId: string }): Promise<TranslateAnswer> {
    const request: ControlRequest = { op: 'translate', tool: req.tool, input: req.input, carriers: [...req.carriers], threadId: req.threadId };
    const result = await this.#call(req.tool, request, this.limits.translateTimeoutMs);
    const answer = translateAnswer(result);
    if (typeof answer === 'string') throw this.#error('protocol', req.tool, `the plugin host received a malformed translate answer: ${answer}`);
    return answer;
  }

  /** execute inside the isolate; `readStdin` backs ExecutorContext.readStdin (called synchronously from the isolate). */
  async execute(req: { tool: string; argv: readonly string[]; cwd: string; readStdin: () => string }): Promise<ExecuteResult> {
    const request: ControlRequest = { op: 'execute', tool: req.tool, argv: [...req.argv], cwd: req.cwd };
    const result = await this.#call(req.tool, request, this.limits.executeTimeoutMs, req.readStdin);
    const answer = executeAnswer(result);
    if (typeof answer === 'string') throw this.#error('protocol', req.tool, `the plugin host received a malformed execute answer: ${answer}`);
    return answer;
  }

  /** Disposes the isolate; every later call fails with kind 'disabled'. */
  dispose(): void {
    this.#closed = true;
    const live = this.#live;
    this.#live = undefined;
    if (live !== undefined) killIsolate(live);
  }

  async #call(tool: string, request: ControlRequest, timeoutMs: number, readStdin?: () => string): Promise<unknown> {
    if (this.#closed) throw this.#error('disabled', tool, 'the plugin host was disposed');
    if (this.#disabled !== undefined) throw this.#error('disabled', tool, `the plugin is disabled: ${this.#disabled}`);
    const toolDisabled = this.#disabledTools.get(tool);
    if (toolDisabled !== undefined) throw this.#error('disabled', tool, `the tool is disabled: ${toolDisabled}`);

    let live: Live;
    try {
      live = await this.#ensureLive();
    } catch (e) {
      if (!(e instanceof ReloadFailure)) throw this.#error('protocol', tool, `reloading the plugin failed: ${errorMessage(e)}`);
      const err = this.#error(e.kind, tool, e.message);
      throw e.kind === 'disabled' ? err : this.#countFailure(tool, err);
    }

    // The stdin capability: live only for this call, read at most once.
    let stdinLive = true;
    let stdinText: string | undefined;
    const args: unknown[] = [JSON.stringify(request)];
    if (readStdin !== undefined) {
      args.push(new ivm.Callback(() => {
        if (!stdinLive) throw new Error('readStdin() is only available while execute() runs');
        stdinText ??= readStdin();
        return stdinText;
      }));
    }

    let answerJson: unknown;
    try {
      answerJson = await withWallGuard(
        live.dispatch.apply(undefined, args as [string], { arguments: { copy: true }, result: { promise: true, copy: true }, timeout: timeoutMs }),
        wallBudget(timeoutMs),
      );
    } catch (e) {
      throw this.#callFailure(tool, live, e, timeoutMs);
    } finally {
      stdinLive = false;
    }

    // The isolate answered: whatever the answer, this tool is not in a run of memory failures.
    this.#toolFailures.delete(tool);
    const answer = parseAnswer(answerJson);
    if (typeof answer === 'string') throw this.#error('protocol', tool, `the plugin broke the control channel: ${answer}`);
    if (!answer.ok) {
      const kind: PluginCallFailure = answer.kind === 'threw' ? 'threw' : 'protocol';
      throw this.#error(kind, tool, answer.message);
    }
    return answer.result;
  }

  /** Classifies an error thrown by the isolate call itself (not a plugin error the bootstrap reported). */
  #callFailure(tool: string, live: Live, e: unknown, timeoutMs: number): PluginCallError {
    if (e instanceof WallTimeout) {
      // The call neither finished nor was stopped by isolated-vm (e.g. an execute promise that never
      // settles): this isolate cannot be trusted to be idle, so it is replaced on the next call.
      this.#retire(live);
      return this.#error('timeout', tool, `the call did not settle within ${timeoutMs} ms; the isolate was replaced`);
    }
    if (this.#closed) return this.#error('disabled', tool, 'the plugin host was disposed during the call');
    if (live.killedByHost) return this.#error('timeout', tool, 'the isolate was replaced during the call after another call hung');
    const message = errorMessage(e);
    if (live.isolate.isDisposed) {
      // isolated-vm disposed it: the memory limit (the only other disposer is this class).
      if (this.#live === live) this.#live = undefined;
      // Only the call that was running is blamed; calls queued behind it merely fail with it.
      if (!/memory limit/.test(message)) {
        return this.#error('memory', tool, 'the isolate was disposed by its memory limit during another call; it will be reloaded on the next call');
      }
      return this.#countFailure(tool, this.#error('memory', tool, `the plugin exceeded its memory limit of ${this.limits.memoryMb} MB; the isolate was disposed and will be reloaded on the next call`));
    }
    if (message === TIMED_OUT) return this.#error('timeout', tool, `the call exceeded its time limit of ${timeoutMs} ms`);
    return this.#error('protocol', tool, `the plugin broke the control channel: ${message}`);
  }

  #countFailure(tool: string, err: PluginCallError): PluginCallError {
    const n = (this.#toolFailures.get(tool) ?? 0) + 1;
    this.#toolFailures.set(tool, n);
    if (n < MAX_CONSECUTIVE_FAILURES) return err;
    const reason = `${n} consecutive memory or reload failures (last: ${err.kind})`;
    this.#disabledTools.set(tool, reason);
    return new PluginCallError(`${err.message}; the tool is now disabled after ${reason}`, err.kind, this.file, tool);
  }

  #retire(live: Live): void {
    if (this.#live === live) this.#live = undefined;
    killIsolate(live);
  }

  #ensureLive(): Promise<Live> {
    if (this.#live !== undefined && !this.#live.isolate.isDisposed) return Promise.resolve(this.#live);
    this.#live = undefined;
    this.#reloading ??= this.#reload().finally(() => { this.#reloading = undefined; });
    return this.#reloading;
  }

  async #reload(): Promise<Live> {
    let loaded: Loaded;
    try {
      loaded = await loadDeclaration(this.file, this.#source, this.limits);
    } catch (e) {
      this.#reloadFailures++;
      const detail = errorMessage(e);
      const kind: PluginCallFailure = /memory limit/.test(detail) ? 'memory' : /timed out/.test(detail) ? 'timeout' : 'threw';
      if (this.#reloadFailures >= MAX_CONSECUTIVE_FAILURES) {
        this.#disabled = `${this.#reloadFailures} consecutive reloads failed`;
        throw new ReloadFailure(kind, `reloading the plugin failed: ${detail}; the plugin is now disabled after ${this.#disabled}`);
      }
      throw new ReloadFailure(kind, `reloading the plugin failed: ${detail}`);
    }
    if (this.#closed) {
      killIsolate(loaded.live);
      throw new ReloadFailure('disabled', 'the plugin host was disposed');
    }
    // The registry was validated against the first description; a plugin that describes itself
    // differently on reload cannot be trusted with it.
    if (loaded.descriptionJson !== this.#descriptionJson) {
      killIsolate(loaded.live);
      this.#disabled = 'its declaration changed when it was reloaded';
      throw new ReloadFailure('disabled', `the plugin is disabled: ${this.#disabled}`);
    }
    this.#reloadFailures = 0;
    this.#live = loaded.live;
    return loaded.live;
  }

  #error(kind: PluginCallFailure, tool: string | undefined, detail: string): PluginCallError {
    const where = tool === undefined ? this.file : `${this.file}: tool "${tool}"`;
    return new PluginCallError(`${where}: ${detail}`, kind, this.file, tool);
  }
}

// ---- Loading -----------------------------------------------------------------------------------------

async function loadDeclaration(file: string, source: string, limits: IsolateLimits): Promise<Loaded> {
  let coreText: string;
  let bootText: string;
  try {
    [coreText, bootText] = await Promise.all([coreModuleSource(), bootstrapModuleSource()]);
  } catch (e) {
    throw new PluginLoadError(`the plugin runtime (hpatch:core/v1 and the bootstrap) is unavailable: ${errorMessage(e)}`, file);
  }
  const url = pluginUrl(file);
  const isolate = new ivm.Isolate({ memoryLimit: limits.memoryMb });
  const deadline = Date.now() + limits.loadTimeoutMs;
  const remaining = (): number => Math.max(1, deadline - Date.now());
  try {
    const context = await isolate.createContext();
    // The bootstrap first: it hardens the global and captures intrinsics before plugin code runs.
    const boot = await isolate.compileModule(bootText, { filename: BOOTSTRAP_FILENAME });
    await boot.instantiate(context, refuseImport);
    await boot.evaluate({ timeout: remaining() });

    let plugin: ivm.Module;
    try {
      plugin = await isolate.compileModule(source, { filename: url });
    } catch (e) {
      throw locatedLoadError(file, url, e, '');
    }
    // Static imports are checked before instantiation so that the error names the import.
    const specifiers = plugin.dependencySpecifiers;
    for (const specifier of specifiers) {
      if (specifier === CORE_SPECIFIER) continue;
      const { line, column } = locateSpecifier(source, specifier);
      const message = specifier.startsWith('hpatch:')
        ? `unknown hpatch: module ${JSON.stringify(specifier)}; this router provides ${CORE_SPECIFIER}`
        : `import of ${JSON.stringify(specifier)} is not allowed; a plugin can import only ${CORE_SPECIFIER}`;
      throw new PluginLoadError(message, file, line, column);
    }
    let core: ivm.Module | undefined;
    if (specifiers.includes(CORE_SPECIFIER)) {
      core = await isolate.compileModule(coreText, { filename: CORE_SPECIFIER });
      await core.instantiate(context, refuseImport);
    }
    await plugin.instantiate(context, (specifier) => {
      if (specifier === CORE_SPECIFIER && core !== undefined) return core;
      throw new Error(`import of ${JSON.stringify(specifier)} is not allowed`);
    });
    try {
      await plugin.evaluate({ timeout: remaining() });
    } catch (e) {
      throw locatedLoadError(file, url, e, 'evaluating the module failed: ', isolate, limits);
    }

    const attach = await boot.namespace.get('attach', { reference: true });
    let describedJson: unknown;
    try {
      describedJson = await attach.apply(undefined, [plugin.namespace.derefInto()], { result: { copy: true }, timeout: remaining() });
    } catch (e) {
      throw locatedLoadError(file, url, e, 'describing the declaration failed: ', isolate, limits);
    }
    const described = parseAnswer(describedJson);
    if (typeof described === 'string') throw new PluginLoadError(`describing the declaration failed: ${described}`, file);
    if (!described.ok) {
      const { line, column } = locate(described.message, url);
      throw new PluginLoadError(described.message, file, line, column);
    }
    const dispatch = await boot.namespace.get('dispatch', { reference: true });
    return { live: { isolate, dispatch, killedByHost: false }, descriptionJson: JSON.stringify(described.result) };
  } catch (e) {
    if (!isolate.isDisposed) isolate.dispose();
    if (e instanceof PluginLoadError) throw e;
    throw locatedLoadError(file, url, e, 'loading failed: ', isolate, limits);
  }
}

function refuseImport(specifier: string): never {
  throw new Error(`import of ${JSON.stringify(specifier)} is not allowed`);
}

function pluginUrl(file: string): string {
  return pathToFileURL(resolve(file)).href;
}

function locatedLoadError(file: string, url: string, e: unknown, prefix: string, isolate?: ivm.Isolate, limits?: IsolateLimits): PluginLoadError {
  if (isolate?.isDisposed === true && limits !== undefined) {
    return new PluginLoadError(`${prefix}the plugin exceeded its memory limit of ${limits.memoryMb} MB while loading`, file);
  }
  const message = errorMessage(e);
  if (message === TIMED_OUT && limits !== undefined) {
    return new PluginLoadError(`${prefix}timed out after ${limits.loadTimeoutMs} ms`, file);
  }
  const text = e instanceof Error ? `${e.name}: ${message}` : message;
  const { line, column } = locate(e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : message, url);
  // Syntax errors carry " [url:line:col]"; the position is reported separately.
  return new PluginLoadError(`${prefix}${text.replace(/ \[[^\]]*:\d+:\d+\]$/, '')}`, file, line, column);
}

/** The first `url:line:col` in a message or stack. */
function locate(text: string, url: string): { line?: number; column?: number } {
  const escaped = url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`${escaped}:(\\d+):(\\d+)`).exec(text);
  return m === null ? {} : { line: Number(m[1]), column: Number(m[2]) };
}

/** Where a disallowed specifier first appears in quotes (best effort; 1-based). */
function locateSpecifier(source: string, specifier: string): { line?: number; column?: number } {
  let at = -1;
  for (const q of ['"', "'"]) {
    const i = source.indexOf(`${q}${specifier}${q}`);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  if (at < 0) return {};
  const before = source.slice(0, at);
  const line = before.split('\n').length;
  return { line, column: at - before.lastIndexOf('\n') };
}

// ---- The control channel -----------------------------------------------------------------------------

class WallTimeout extends Error {}

class ReloadFailure extends Error {
  constructor(readonly kind: PluginCallFailure, message: string) {
    super(message);
  }
}

/** Extra wall time beyond the isolate's own CPU timeout before the host gives up on a call. */
function wallBudget(timeoutMs: number): number {
  return timeoutMs + Math.max(250, Math.min(timeoutMs, 5000));
}

function withWallGuard<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    // Not unref'd: a pending isolate promise does not keep the event loop alive, the guard must.
    timer = setTimeout(() => reject(new WallTimeout()), ms);
  });
  // The losing promise must never become an unhandled rejection.
  p.catch(() => undefined);
  return Promise.race([p, guard]).finally(() => clearTimeout(timer));
}

function killIsolate(live: Live): void {
  live.killedByHost = true;
  try {
    if (!live.isolate.isDisposed) live.isolate.dispose();
  } catch {
    // Already gone.
  }
}

/** The answer as data, or a string saying what is wrong with it. */
function parseAnswer(json: unknown): ControlAnswer | string {
  if (typeof json !== 'string') return `expected a JSON string, got ${typeof json}`;
  let a: unknown;
  try {
    a = JSON.parse(json);
  } catch {
    return 'the answer is not JSON';
  }
  if (!isRecord(a)) return 'the answer is not an object';
  if (a['ok'] === true && 'result' in a) return { ok: true, result: a['result'] };
  if (a['ok'] === false && typeof a['message'] === 'string' && (a['kind'] === 'threw' || a['kind'] === 'protocol' || a['kind'] === 'load')) {
    return { ok: false, kind: a['kind'], message: truncate(a['message'], MAX_DIAGNOSTIC_CHARS) };
  }
  return 'the answer has an unknown shape';
}

/** Host-side check of a translate result: the plugin shares the bootstrap's realm, so trust nothing. */
function translateAnswer(r: unknown): TranslateAnswer | string {
  if (!isRecord(r)) return 'not an object';
  if (r['kind'] === 'reject') {
    if (typeof r['message'] !== 'string' || Object.keys(r).length !== 2) return 'bad reject';
    return { kind: 'reject', message: truncate(r['message'], MAX_DIAGNOSTIC_CHARS) };
  }
  if (r['kind'] !== 'exec') return 'unknown kind';
  for (const k of Object.keys(r)) if (k !== 'kind' && k !== 'argv' && k !== 'template' && k !== 'params' && k !== 'carrier') return `unknown field ${k}`;
  const { argv, template, params, carrier } = r;
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return 'argv is not an array of strings';
  if (template !== undefined && typeof template !== 'string') return 'template is not a string';
  if (params !== undefined && !isRecord(params)) return 'params is not an object';
  if (carrier !== undefined && carrier !== 'exec_command' && carrier !== 'code_mode_exec') return 'carrier is not a carrier kind';
  return {
    kind: 'exec',
    argv: Object.freeze([...(argv as string[])]),
    ...(template !== undefined ? { template } : {}),
    ...(params !== undefined ? { params: deepFreeze(params) } : {}),
    ...(carrier !== undefined ? { carrier: carrier as 'exec_command' | 'code_mode_exec' } : {}),
  };
}

function executeAnswer(r: unknown): ExecuteResult | string {
  if (!isRecord(r)) return 'not an object';
  const { stdout, stderr, status } = r;
  if (typeof stdout !== 'string' || typeof stderr !== 'string') return 'stdout or stderr is not a string';
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 0 || status > 255) return 'status is not an integer 0..255';
  return { stdout, stderr, status };
}

const isRecord = isJsonObject;

function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
