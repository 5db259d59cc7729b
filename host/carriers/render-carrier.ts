// A translator's carrier request → the exact carrier payload, by request kind.
import { renderApplyPatchCarrier } from './apply-patch-carrier.ts';
import type { AvailableCarriers, Carrier } from './carrier.ts';
import type { CarrierRequest } from './exec-request.ts';
import { renderExecCarrier } from './exec-wrapper.ts';

export function renderCarrier(req: CarrierRequest, carriers: AvailableCarriers): Carrier {
  return req.kind === 'apply_patch' ? renderApplyPatchCarrier(req, carriers) : renderExecCarrier(req, carriers);
}
