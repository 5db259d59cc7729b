// A router-rendered reply: what the model reads as a contributed call's output instead of the
// carrier's own output (hpatch: its report, or its refusal). Recorded in the ledger with the call,
// so replay is deterministic; only the choice between report and failure depends on what Codex
// answered, and that answer is itself part of the history.

/** One file an edit changed, for recovery ancestry: its tags before and after, and the unchanged lines. */
export interface EditedFile {
  readonly path: string;
  /** core/v1 contentTag before the edit; null for a new file. */
  readonly before: string | null;
  /** Tag Codex's applier leaves; null for a deleted file. */
  readonly after: string | null;
  /** Unchanged lines as [oldLine, newLine, count] triples (1-based). */
  readonly map: ReadonlyArray<readonly [number, number, number]>;
}

export type CallReply =
  /** The call was refused before anything ran: the model reads `text`, whatever the carrier printed. */
  | { readonly kind: 'refused'; readonly text: string }
  /**
   * An edit: `report` when it was applied, else Codex's own output followed by `failure`. Codex
   * applies workspace edits (its output says whether it did); `by: 'router'` marks an edit the
   * router made itself (retained scripts), whose report is the output whatever the carrier printed.
   */
  | { readonly kind: 'edit'; readonly report: string; readonly failure: string; readonly files: readonly EditedFile[]; readonly by?: 'router' };

export const MAX_REPLY_CHARS = 64 * 1024;
const MAX_EDITED_FILES = 100;

/** The line Code Mode's apply_patch program prints once Codex applied the patch. */
export const APPLIED_MARKER = 'hpatch: applied';
const CODEX_APPLIED = 'Success. Updated the following files:';

/** The model-visible output for a carrier output, as a string. */
export function replyOutput(reply: CallReply, carrierOutput: unknown): string {
  if (reply.kind === 'refused') return reply.text;
  if (reply.by === 'router') return reply.report;
  const text = outputText(carrierOutput);
  if (applied(carrierOutput, text)) return reply.report;
  return `hpatch: Codex did not apply the patch; it answered:\n${text.trimEnd()}\n\n${reply.failure}`;
}

function applied(output: unknown, text: string): boolean {
  // exec_command intercepted by Codex: its applier's exit code and success line.
  const intercepted = /(^|\n)Exit code: 0\n/.test(text) && text.includes(CODEX_APPLIED);
  if (!Array.isArray(output)) return intercepted;
  // Code Mode: the program completed, and printed the marker after `await tools.apply_patch(…)`
  // (or the intercepted exec_command output).
  const marked = output.some((p) => (p as { text?: unknown } | null)?.text === APPLIED_MARKER);
  return text.startsWith('Script completed') && (marked || intercepted);
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    return output.map((p) => {
      const t = (p as { text?: unknown } | null)?.text;
      return typeof t === 'string' ? t : '';
    }).join('\n');
  }
  return JSON.stringify(output) ?? '';
}

/** A valid frozen copy, or why `v` is not a reply. */
export function checkReply(v: unknown): CallReply | string {
  if (typeof v !== 'object' || v === null) return 'reply is not an object';
  const o = v as Record<string, unknown>;
  const text = (k: string): string | null => (typeof o[k] === 'string' && (o[k] as string).length <= MAX_REPLY_CHARS ? (o[k] as string) : null);
  if (o['kind'] === 'refused') {
    const t = text('text');
    return t === null || Object.keys(o).length !== 2 ? 'reply is not a valid refusal' : Object.freeze({ kind: 'refused', text: t });
  }
  const byRouter = o['by'] === 'router';
  if (o['kind'] !== 'edit' || Object.keys(o).length !== (byRouter ? 5 : 4)) return 'reply kind is not refused or edit';
  const report = text('report');
  const failure = text('failure');
  if (report === null || failure === null) return `reply report and failure must be strings of at most ${MAX_REPLY_CHARS} characters`;
  const files = o['files'];
  if (!Array.isArray(files) || files.length > MAX_EDITED_FILES) return 'reply files must be an array';
  const checked: EditedFile[] = [];
  for (const f of files) {
    const c = checkFile(f);
    if (typeof c === 'string') return c;
    checked.push(c);
  }
  return Object.freeze({ kind: 'edit', report, failure, files: Object.freeze(checked), ...(byRouter ? { by: 'router' as const } : {}) });
}

const TAG = /^[0-9a-f]{8}$/;

function checkFile(v: unknown): EditedFile | string {
  if (typeof v !== 'object' || v === null) return 'reply file is not an object';
  const f = v as Record<string, unknown>;
  if (typeof f['path'] !== 'string' || !/^(?:\/|@shell\/)/.test(f['path'] as string)) return 'reply file path must be absolute or @shell/ID';
  for (const k of ['before', 'after']) {
    if (f[k] !== null && !(typeof f[k] === 'string' && TAG.test(f[k] as string))) return `reply file ${k} must be a tag or null`;
  }
  const map = f['map'];
  if (!Array.isArray(map) || !map.every((s) => Array.isArray(s) && s.length === 3 && s.every((n) => Number.isSafeInteger(n) && n >= 0))) {
    return 'reply file map must be [old, new, count] triples';
  }
  return Object.freeze({ path: f['path'] as string, before: f['before'] as string | null, after: f['after'] as string | null, map: map as EditedFile['map'] });
}
