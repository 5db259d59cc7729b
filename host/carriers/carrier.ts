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
