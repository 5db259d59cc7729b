// What a translator asks for: a command to run through whichever exec carrier the request offers.
// The exec wrapper (exec-wrapper.ts) owns quoting, the outer Code Mode program and serialization.
import type { CarrierKind } from './carrier.ts';

/** The worker command: independently quoted argv, or (built-in shell only) one physical command line. */
export type ExecCommand =
  | { readonly argv: readonly string[] }
  | { readonly line: string };

export interface ExecRequest {
  readonly kind: 'exec';
  /** A specific carrier; defaults to the request's primary carrier. Must be available in the request. */
  readonly via?: CarrierKind;
  readonly command: ExecCommand;
  /** Shell command template with exactly one `{.}`, replaced by the quoted worker command. */
  readonly template?: string;
  /** exec_command parameters besides `cmd` (which the router supplies); `login` may only be false. */
  readonly params?: Readonly<Record<string, unknown>>;
}

/**
 * An `apply_patch` text for Codex's own applier (built-in hpatch only): Codex intercepts it from
 * `exec_command` and applies it under its approval and sandbox; Code Mode calls `tools.apply_patch`.
 */
export interface ApplyPatchRequest {
  readonly kind: 'apply_patch';
  readonly patch: string;
}

/** Everything a translator may return as a carrier request. */
export type CarrierRequest = ExecRequest | ApplyPatchRequest;
