// A contributed tool: one the router adds to requests (built-in shell/hpatch, plugin tools, or a
// tool registered by the test suite). The registry owns these; the data path only reads them.
import type { AvailableCarriers } from '../carriers/carrier.ts';
import type { CarrierRequest } from '../carriers/exec-request.ts';
import type { CallReply } from '../history/call-reply.ts';
import type { ThreadLedger } from '../history/ledger.ts';
import type { Workspace } from '../request/environment-context.ts';

/** Who provides a tool; recorded in the ledger with every translation. */
export type ContributionSource =
  | { readonly kind: 'builtin' }
  | { readonly kind: 'plugin'; readonly pluginId: string; readonly file: string }
  | { readonly kind: 'test'; readonly suite: string };

/** An OpenAI Responses custom tool, exactly as it is added to the request. */
export interface CustomToolSpec {
  readonly type: 'custom';
  readonly name: string;
  readonly description?: string;
  readonly format?:
    | { readonly type: 'text' }
    | { readonly type: 'grammar'; readonly syntax: 'lark' | 'regex'; readonly definition: string };
}

/** What the request offers a tool's description: the shape, and the Code Mode exec params shape. */
export interface ToolSpecContext {
  readonly shape: 'native' | 'code_mode';
  /** Sanitized `exec_command` parameter shape (without `cmd`) from the Code Mode owner, if any. */
  readonly execParamsShape: string | null;
}

export interface TranslateContext {
  readonly threadId: string;
  readonly callId: string;
  readonly carriers: AvailableCarriers;
  /** The request's cwd and readable workspace roots (its environment context), if it carries one. */
  readonly workspace?: Workspace | null;
  /** This thread's ledger as of the request (built-in hpatch reads its own earlier edits there). */
  readonly thread?: ThreadLedger | null;
}

/** A translator's answer. A thrown error or any other value is a protocol violation. */
export type TranslateOutcome =
  | {
      readonly kind: 'carrier';
      readonly request: CarrierRequest;
      /** Lines the model reads before this call's output (recorded in the ledger; shell retention and warnings). */
      readonly notes?: readonly string[];
      /** Warnings about the input: read by the model first (before the notes) and logged for the operator. */
      readonly warnings?: readonly string[];
      /** Built-in tools only: the output the model reads instead of the carrier's (hpatch's report). */
      readonly reply?: CallReply;
    }
  /**
   * The model's input was rejected: the message reaches the model through a carrier. `verbatim`
   * (built-in tools only) makes the whole message the call's output, unbounded by the carrier.
   */
  | { readonly kind: 'diagnostic'; readonly message: string; readonly verbatim?: boolean };

/** Request surfaces a contribution takes over from Codex's own tools. */
export interface Supersedes {
  /** Replaces the `apply_patch` editing surface (top-level tool or Code Mode section). */
  readonly applyPatch?: boolean;
  /** Replaces `exec_command` as the model-visible way to run commands in Code Mode descriptions. */
  readonly execCommand?: boolean;
}

export interface Contribution {
  readonly name: string;
  readonly source: ContributionSource;
  readonly supersedes?: Supersedes;
  /** The exact custom tool object for this request. */
  toolSpec(ctx: ToolSpecContext): CustomToolSpec;
  translate(input: string, ctx: TranslateContext): Promise<TranslateOutcome>;
}

/** Stable identity string of a contribution, as stored in the ledger. */
export function contributionIdentity(c: Pick<Contribution, 'name' | 'source'>): string {
  switch (c.source.kind) {
    case 'builtin': return `builtin:${c.name}`;
    case 'plugin': return `plugin:${c.source.pluginId}:${c.name}`;
    case 'test': return `test:${c.source.suite}:${c.name}`;
  }
}
