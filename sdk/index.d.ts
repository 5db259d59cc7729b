/// <reference path="./core-v1.d.ts" />
// hpatch-router plugin SDK — apiVersion 1.
//
// A plugin is one ES module (.mjs or .js) in <user config dir>/hpatch/plugins/. Its default export
// is a PluginDeclaration. The module runs inside an isolated-vm isolate: no Node.js, no filesystem,
// no network, no timers, no process; the only importable module is the virtual `hpatch:core/v1`.
// Author it in TypeScript against these types and compile it to a single .mjs.

/** An OpenAI Responses custom tool, exactly as the model will see it. */
export interface CustomToolSpec {
  readonly type: 'custom';
  /** Globally unique model-visible name: [A-Za-z_][A-Za-z0-9_]{0,63}; not a shell keyword or builtin. */
  readonly name: string;
  readonly description: string;
  /** Omit for unconstrained text; otherwise a Lark or Rust-regex grammar. */
  readonly format?: GrammarFormat;
}

export interface GrammarFormat {
  readonly type: 'grammar';
  readonly syntax: 'lark' | 'regex';
  readonly definition: string;
}

/** What a bounded input parser answers. */
export type ParseResult<T> =
  | { readonly ok: true; readonly value: T }
  /** The model's input is rejected: `error` reaches the model as a bounded diagnostic. */
  | { readonly ok: false; readonly error: string };

/** The exec wrapper: renders the canonical carrier. The plugin never builds the outer call itself. */
export interface ExecWrapper {
  /**
   * Runs this tool's executor frontend with `argv` (each value quoted independently, on one line).
   * `template`: a shell command with exactly one `{.}`, replaced by the quoted frontend command.
   * `params`: exec_command parameters besides `cmd` (e.g. workdir, tty, yield_time_ms); `login` may only be false.
   * `carrier`: one of `ctx.carriers`; omitted = the request's primary carrier. One the request lacks is a routing failure.
   */
  (argv: readonly string[], options?: { readonly template?: string; readonly params?: Readonly<Record<string, unknown>>; readonly carrier?: 'exec_command' | 'code_mode_exec' }): ExecCarrierRequest;
}

/** Opaque to the plugin: a carrier request produced by the exec wrapper. */
export interface ExecCarrierRequest {
  readonly kind: 'exec';
  readonly argv: readonly string[];
  readonly template?: string;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly carrier?: 'exec_command' | 'code_mode_exec';
}

export interface TranslateContext {
  /** The exec wrapper for this tool. */
  readonly exec: ExecWrapper;
  /** Carriers the current request offers, its primary first: 'exec_command' (native) and/or 'code_mode_exec'. */
  readonly carriers: readonly ('exec_command' | 'code_mode_exec')[];
  /** The Codex thread id (opaque). */
  readonly threadId: string;
}

/** A translator's answer: a carrier request from the exec wrapper, or a rejection for the model. */
export type TranslateResult = ExecCarrierRequest | { readonly reject: string };

/** What the executor implementation receives when Codex runs the tool's frontend. */
export interface ExecutorContext {
  /** The argv the translator asked for (without the tool name). */
  readonly argv: readonly string[];
  /** Reads all of the frontend's standard input (UTF-8; invalid bytes become U+FFFD). */
  readStdin(): string;
  /** The working directory Codex ran the frontend in (informational; the plugin has no filesystem). */
  readonly cwd: string;
}

/** The one result an executor returns: current stdout, stderr and exit status. */
export interface ExecutorResult {
  readonly stdout?: string;
  readonly stderr?: string;
  /** 0–255. */
  readonly status: number;
}

export interface ToolDeclaration<T = unknown> {
  readonly spec: CustomToolSpec;
  /** Maximum UTF-8 bytes of model input accepted (1 … 131071); longer input is rejected before parsing. */
  readonly inputLimit: number;
  /** Bounded parser of the model's input. Pure: same input, same answer. */
  parse(input: string): ParseResult<T>;
  /** Turns parsed input into a carrier through `ctx.exec`. Pure and deterministic. */
  translate(value: T, ctx: TranslateContext): TranslateResult;
  /** Executor-side implementation, run by the tool's frontend inside Codex's sandbox. */
  execute(ctx: ExecutorContext): ExecutorResult | Promise<ExecutorResult>;
}

export interface PluginDeclaration {
  readonly apiVersion: 1;
  /** Stable identity: reverse-DNS-like, [a-z0-9][a-z0-9.-]{0,63}, e.g. "com.example.lint". */
  readonly id: string;
  /** The plugin's own version string (informational, recorded with translations). */
  readonly version: string;
  readonly tools: readonly ToolDeclaration<any>[];
}
