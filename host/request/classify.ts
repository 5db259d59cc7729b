// Classifies a Responses request by where Codex put its executor tools (brief §6):
//   native     top-level `tools` holds the function `exec_command`;
//   code_mode  exactly one custom `exec` owner inside an `additional_tools` input item, directly
//              in its tool list (app-server form) or under its `functions` namespace (CLI form);
//   neither    e.g. compaction requests (`tools: []`): history is still restored.
// Shapes the router cannot serve faithfully are refused before anything is forwarded.
import { isJsonObject } from '../json/json-object.ts';


export interface ToolIndex {
  /** Index of the tool in its containing array. */
  readonly index: number;
}

/** Where the Code Mode owner sits: `input[inputIndex].tools[...]`. */
export type OwnerLocation =
  | { readonly form: 'direct'; readonly inputIndex: number; readonly toolIndex: number }
  | { readonly form: 'namespace'; readonly inputIndex: number; readonly namespaceIndex: number; readonly toolIndex: number; readonly namespace: string };

export type RequestShape =
  | { readonly kind: 'native'; readonly execCommand: ToolIndex; readonly applyPatch?: ToolIndex }
  | { readonly kind: 'code_mode'; readonly owner: OwnerLocation; readonly nativeExecCommand?: ToolIndex; readonly applyPatch?: ToolIndex }
  | { readonly kind: 'neither' };

/** A request shape the router refuses; `message` is shown to the operator by Codex. */
export class UnsupportedShapeError extends Error {
  override readonly name = 'UnsupportedShapeError';
}

const isObject = isJsonObject;

function toolsOf(v: unknown, where: string): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new UnsupportedShapeError(`${where} must be an array`);
  return v;
}

export function classifyRequest(body: unknown): RequestShape {
  if (!isObject(body)) throw new UnsupportedShapeError('the request body must be a JSON object');
  const topTools = toolsOf(body['tools'], '`tools`');
  const problems: string[] = [];
  let execCommand: ToolIndex | undefined;
  let applyPatch: ToolIndex | undefined;

  topTools.forEach((tool, index) => {
    if (!isObject(tool)) return;
    const name = tool['name'];
    if (name === 'exec' || name === 'functions.exec') {
      problems.push(`top-level tool "${String(name)}" (Code Mode outside an additional_tools item) is not supported`);
    } else if (tool['type'] === 'namespace' && name === 'functions' &&
      toolsOf(tool['tools'], 'namespace tools').some((t) => isObject(t) && t['name'] === 'exec')) {
      problems.push('top-level namespace "functions" containing "exec" is not supported');
    } else if (tool['type'] === 'function' && name === 'exec_command') {
      execCommand ??= { index };
    } else if (tool['type'] === 'custom' && name === 'apply_patch') {
      applyPatch ??= { index };
    }
  });

  const owners: OwnerLocation[] = [];
  const input = body['input'];
  if (Array.isArray(input)) {
    input.forEach((item, inputIndex) => {
      if (!isObject(item) || item['type'] !== 'additional_tools') return;
      toolsOf(item['tools'], `input[${inputIndex}].tools`).forEach((tool, toolIndex) => {
        if (!isObject(tool)) return;
        const name = tool['name'];
        if (name === 'functions.exec') {
          problems.push(`additional_tools entry "functions.exec" (input[${inputIndex}]) is not supported`);
        } else if (name === 'exec') {
          if (tool['type'] === 'custom') owners.push({ form: 'direct', inputIndex, toolIndex });
          else problems.push(`additional_tools "exec" must be a custom tool, found type "${String(tool['type'])}"`);
        } else if (tool['type'] === 'namespace' && name === 'functions') {
          toolsOf(tool['tools'], 'namespace tools').forEach((nested, nestedIndex) => {
            if (!isObject(nested) || nested['name'] !== 'exec') return;
            if (nested['type'] === 'custom') {
              owners.push({ form: 'namespace', inputIndex, namespaceIndex: toolIndex, toolIndex: nestedIndex, namespace: 'functions' });
            } else {
              problems.push(`namespace "functions" tool "exec" must be a custom tool, found type "${String(nested['type'])}"`);
            }
          });
        }
      });
    });
  }
  if (owners.length > 1) problems.push(`${owners.length} Code Mode "exec" owners found; exactly one is supported`);
  if (problems.length > 0) throw new UnsupportedShapeError(problems.join('; '));

  const owner = owners[0];
  if (owner) {
    return { kind: 'code_mode', owner, ...(execCommand ? { nativeExecCommand: execCommand } : {}), ...(applyPatch ? { applyPatch } : {}) };
  }
  if (execCommand) return applyPatch ? { kind: 'native', execCommand, applyPatch } : { kind: 'native', execCommand };
  return { kind: 'neither' };
}
