// Carriers: the executor tool calls Codex already runs. A contributed call always leaves the
// router as one of these, never as anything a plugin invented.

/** The carrier kinds a request can offer. */
export type CarrierKind = 'exec_command' | 'code_mode_exec';

/** Where a carrier lives in the request; `namespace` is echoed on the emitted call item. */
export interface CarrierPlacement {
  readonly namespace?: string;
}

/** The carriers one request offers, and which one contributed tools are placed beside. */
export interface AvailableCarriers {
  readonly exec_command?: CarrierPlacement;
  readonly code_mode_exec?: CarrierPlacement;
  readonly primary: CarrierKind;
  /** The Code Mode owner declares `tools.apply_patch` (its description has the apply_patch section). */
  readonly codeModeApplyPatch?: boolean;
}

/** A rendered carrier: exactly the payload that goes on the call item and is verified on replay. */
export type Carrier =
  | { readonly kind: 'exec_command'; readonly namespace?: string; readonly arguments: string }
  | { readonly kind: 'code_mode_exec'; readonly namespace?: string; readonly input: string };

/** Tool name and item type Codex knows each carrier kind by. */
export const CARRIER_ITEM = {
  exec_command: { type: 'function_call', name: 'exec_command' },
  code_mode_exec: { type: 'custom_tool_call', name: 'exec' },
} as const satisfies Record<CarrierKind, { type: string; name: string }>;

/** Reads the carrier payload of a call item as Codex echoes it back, or null if it is no carrier. */
export function carrierOfItem(item: Readonly<Record<string, unknown>>): Carrier | null {
  const ns = typeof item['namespace'] === 'string' ? { namespace: item['namespace'] } : {};
  if (item['type'] === 'function_call' && item['name'] === 'exec_command' && typeof item['arguments'] === 'string') {
    return { kind: 'exec_command', ...ns, arguments: item['arguments'] };
  }
  if (item['type'] === 'custom_tool_call' && item['name'] === 'exec' && typeof item['input'] === 'string') {
    return { kind: 'code_mode_exec', ...ns, input: item['input'] };
  }
  return null;
}

/** Byte-identical payloads: replay accepts nothing less. */
export function sameCarrier(a: Carrier, b: Carrier): boolean {
  if (a.kind !== b.kind || a.namespace !== b.namespace) return false;
  return a.kind === 'exec_command' ? a.arguments === (b as typeof a).arguments : a.input === (b as typeof a).input;
}
