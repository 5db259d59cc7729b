// The hpatch-mode request rewrite (brief §6): classify, restore history, and offer the contributed
// tools beside the carrier they will use. It works by splicing the original JSON text, so every
// byte the rewrite does not own (sibling tools, namespaces, items, formatting) is left as it was.
import type { AvailableCarriers } from '../carriers/carrier.ts';
import { arrayElements, memberValue, objectMembers, rootStart, type Span } from '../json/json-scan.ts';
import { applyEdits, insertAfterElement, removeElement, replaceSpan, type Edit } from '../json/splice.ts';
import type { ThreadLedger } from '../history/ledger.ts';
import { restoreHistory, type RestoredCall } from '../history/replay.ts';
import type { Contribution, ToolSpecContext } from '../registry/contribution.ts';
import type { ToolRegistry } from '../registry/registry.ts';
import { classifyRequest, type RequestShape } from './classify.ts';
import { workspaceFromInput, type Workspace } from './environment-context.ts';
import { sanitizeOwnerDescription } from './code-mode-description.ts';
import { execParamsShapeFromDeclaration, execParamsShapeFromSchema, renderExecParamsShape } from './exec-params-shape.ts';

/** What the response translator needs to know about the request it answers. */
export interface RequestContext {
  readonly threadId: string | null;
  readonly shape: RequestShape['kind'];
  /** Carriers the request offers; null when it offers none (no contributed tool is exposed). */
  readonly carriers: AvailableCarriers | null;
  /** Contributed tools offered in this request, by name. */
  readonly exposed: ReadonlyMap<string, Contribution>;
  /** Namespace the exposed tools were placed in (Code Mode CLI form), if any. */
  readonly toolNamespace?: string;
  /** The request's cwd and readable workspace roots (hpatch reads files there only). */
  readonly workspace?: Workspace | null;
  /** The thread's ledger as of this request. */
  readonly thread?: ThreadLedger | null;
}

export interface PreparedRequest {
  readonly text: string;
  readonly context: RequestContext;
  readonly restored: readonly RestoredCall[];
}

export interface PrepareOptions {
  readonly registry: ToolRegistry;
  readonly threadId: string | null;
  readonly thread: ThreadLedger | null;
}

type Json = Record<string, unknown>;

/**
 * `text` is the request body and `body` its JSON.parse result (the caller parsed it, which also
 * validated the text). Throws UnsupportedShapeError or ReplayMismatchError before anything is sent.
 */
export function prepareRequest(text: string, body: Json, opts: PrepareOptions): PreparedRequest {
  const shape = classifyRequest(body);
  const root = rootStart(text);
  const members = objectMembers(text, root);
  const span = (key: string): Span | undefined => members.findLast((m) => m.key === key)?.value;
  const edits: Edit[] = [];

  const input = Array.isArray(body['input']) ? (body['input'] as unknown[]) : null;
  const inputSpan = span('input');
  const inputElements = input && inputSpan ? arrayElements(text, inputSpan.start) : [];

  let restored: RestoredCall[] = [];
  if (input && opts.thread) {
    const r = restoreHistory(input, inputElements, opts.thread);
    edits.push(...r.edits);
    restored = r.restored;
  }

  // Without a thread there is no ledger to restore history from: offer nothing to translate.
  const offer = opts.threadId !== null && opts.registry.size > 0;
  let context: RequestContext = {
    threadId: opts.threadId, shape: shape.kind, carriers: null, exposed: new Map(),
    workspace: workspaceFromInput(input), thread: opts.thread,
  };

  if (shape.kind === 'native') {
    const toolsSpan = span('tools')!;
    const elements = arrayElements(text, toolsSpan.start);
    const tools = body['tools'] as Json[];
    const execTool = tools[shape.execCommand.index]!;
    const carriers: AvailableCarriers = { exec_command: {}, primary: 'exec_command' };
    if (offer) {
      const specCtx: ToolSpecContext = { shape: 'native', execParamsShape: renderShape(execParamsShapeFromSchema(execTool['parameters'])) };
      const contributions = opts.registry.list();
      edits.push(insertAfterElement(toolsSpan.start, elements, shape.execCommand.index, specsJson(contributions, specCtx)));
      if (shape.applyPatch && opts.registry.supersedesApplyPatch) edits.push(removeElement(elements, shape.applyPatch.index));
      context = { ...context, carriers, exposed: opts.registry.byName };
    }
  } else if (shape.kind === 'code_mode') {
    const { owner } = shape;
    const atItem = input![owner.inputIndex] as Json;
    const itemSpan = inputElements[owner.inputIndex]!;
    const itemToolsSpan = memberValue(text, itemSpan.start, 'tools')!;
    let container: { start: number; elements: Span[]; tools: Json[] };
    if (owner.form === 'direct') {
      container = { start: itemToolsSpan.start, elements: arrayElements(text, itemToolsSpan.start), tools: atItem['tools'] as Json[] };
    } else {
      const nsSpan = arrayElements(text, itemToolsSpan.start)[owner.namespaceIndex]!;
      const nsToolsSpan = memberValue(text, nsSpan.start, 'tools')!;
      const ns = (atItem['tools'] as Json[])[owner.namespaceIndex]!;
      container = { start: nsToolsSpan.start, elements: arrayElements(text, nsToolsSpan.start), tools: ns['tools'] as Json[] };
    }
    const execTool = container.tools[owner.toolIndex]!;
    const namespace = owner.form === 'namespace' ? owner.namespace : undefined;
    const ownerDescription = typeof execTool['description'] === 'string' ? execTool['description'] : '';
    const carriers: AvailableCarriers = {
      code_mode_exec: namespace ? { namespace } : {},
      ...(shape.nativeExecCommand ? { exec_command: {} } : {}),
      primary: 'code_mode_exec',
      codeModeApplyPatch: ownerDescription.includes('apply_patch(input: string)'),
    };
    if (offer) {
      if (shape.applyPatch && opts.registry.supersedesApplyPatch) {
        edits.push(removeElement(arrayElements(text, span('tools')!.start), shape.applyPatch.index));
      }
      const description = typeof execTool['description'] === 'string' ? execTool['description'] : null;
      // The CLI documents exec_command as a TypeScript declaration in the owner description; an
      // app-style owner may instead sit beside an exec_command declaration object.
      const declared = description === null ? null : execParamsShapeFromDeclaration(description);
      const sibling = container.tools.find((t) => t['type'] === 'function' && t['name'] === 'exec_command');
      const specCtx: ToolSpecContext = {
        shape: 'code_mode',
        execParamsShape: renderShape(declared ?? (sibling ? execParamsShapeFromSchema(sibling['parameters']) : null)),
      };
      const contributions = opts.registry.list();
      if (description !== null && (opts.registry.supersedesExecCommand || opts.registry.supersedesApplyPatch)) {
        const sanitized = sanitizeOwnerDescription(description, {
          execCommand: opts.registry.supersedesExecCommand,
          applyPatch: opts.registry.supersedesApplyPatch,
        });
        if (sanitized.text !== description) {
          const descSpan = memberValue(text, container.elements[owner.toolIndex]!.start, 'description')!;
          edits.push(replaceSpan(descSpan, JSON.stringify(sanitized.text)));
        }
      }
      edits.push(insertAfterElement(container.start, container.elements, owner.toolIndex, specsJson(contributions, specCtx)));
      context = { ...context, carriers, exposed: opts.registry.byName, ...(namespace ? { toolNamespace: namespace } : {}) };
    }
  }
  return { text: applyEdits(text, edits), context, restored };
}

function renderShape(shape: ReturnType<typeof execParamsShapeFromSchema>): string | null {
  return shape ? renderExecParamsShape(shape) : null;
}

function specsJson(contributions: readonly Contribution[], ctx: ToolSpecContext): string {
  return contributions.map((c) => {
    const spec = c.toolSpec(ctx);
    if (spec.name !== c.name) throw new Error(`tool spec of "${c.name}" names "${spec.name}"`);
    return JSON.stringify(spec);
  }).join(',');
}
