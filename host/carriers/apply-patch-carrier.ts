// An apply_patch text → the carrier that has Codex apply it (../codex-protocol §0.8, §10):
// Code Mode calls `tools.apply_patch` when the owner declares it; otherwise `exec_command` runs
// `apply_patch <<'EOF'`, which Codex intercepts and applies itself (no shell runs). Every line of
// an apply_patch text starts with `*** `, `@@`, ` `, `+` or `-`, so a line `EOF` cannot occur in it.
import { APPLIED_MARKER } from '../history/call-reply.ts';
import type { AvailableCarriers, Carrier } from './carrier.ts';
import { CarrierInputError, CarrierProtocolError } from './carrier-errors.ts';
import type { ApplyPatchRequest } from './exec-request.ts';
import { EXEC_CMD_MAX_BYTES } from './exec-wrapper.ts';

export function renderApplyPatchCarrier(req: ApplyPatchRequest, carriers: AvailableCarriers): Carrier {
  const patch = req.patch;
  if (typeof patch !== 'string' || !patch.startsWith('*** Begin Patch\n') || !patch.endsWith('*** End Patch\n')) {
    throw new CarrierProtocolError('apply_patch text must start with "*** Begin Patch" and end with "*** End Patch"');
  }
  if (/^EOF$/m.test(patch) || patch.includes('\0')) throw new CarrierProtocolError('apply_patch text holds a line EOF or a NUL');
  const ns = (placement: { namespace?: string } | undefined): { namespace?: string } =>
    placement?.namespace !== undefined ? { namespace: placement.namespace } : {};
  if (carriers.primary === 'code_mode_exec' && carriers.code_mode_exec && carriers.codeModeApplyPatch) {
    const input = `await tools.apply_patch(${JSON.stringify(patch)});\ntext(${JSON.stringify(APPLIED_MARKER)});\n`;
    return { kind: 'code_mode_exec', ...ns(carriers.code_mode_exec), input };
  }
  const cmd = `apply_patch <<'EOF'\n${patch}EOF\n`;
  const bytes = Buffer.byteLength(cmd, 'utf8');
  if (bytes > EXEC_CMD_MAX_BYTES) throw new CarrierInputError(`the patch is ${bytes} bytes as a command, over the ${EXEC_CMD_MAX_BYTES}-byte limit of one command argument: split it into smaller patches`);
  if (carriers.exec_command) return { kind: 'exec_command', ...ns(carriers.exec_command), arguments: JSON.stringify({ cmd }) };
  if (carriers.code_mode_exec) {
    const input = `const r = await tools.exec_command(${JSON.stringify({ cmd })});\ntext(r.output);\n`;
    return { kind: 'code_mode_exec', ...ns(carriers.code_mode_exec), input };
  }
  throw new CarrierProtocolError('the request offers no carrier for apply_patch');
}
