// One hpatch → everything it takes to have Codex apply it: verified against the files' current
// bytes (through this thread's own earlier edits where an anchor went stale because of them), applied
// in memory, rendered as Codex apply_patch text, with the report the model reads on success and the
// rows it reads if Codex does not apply it. Nothing here writes; file reads come through `read`.
import { splitLines, type LogicalLine } from '../../isolates/core-v1/lines.ts';
import { contentTag } from '../../isolates/core-v1/rows.ts';
import type { EditedFile } from '../history/call-reply.ts';
import type { Workspace } from '../request/environment-context.ts';
import { decodeUtf8 } from '../hashline/fast-rows.ts';
import { scanUtf8 } from '../../isolates/core-v1/utf8.ts';
import { applyEdits, newTerminator, type Region, type Segment } from './apply-edits.ts';
import { renderApplyPatch, type CodexFileOp } from './apply-patch-text.ts';
import type { FileOp } from './patch-model.ts';
import { parsePatch } from './patch-parser.ts';
import { RowBudget, regionRows, staleRows } from './report.ts';
import { verifyEdits, type Ancestor, type Rebased, type Verification } from './verify-anchors.ts';
import { locate, type FileState } from './workspace-files.ts';

/** A retained script's new content, written by the router itself if it still holds `expected`. */
export interface ScriptWrite {
  readonly id: string;
  readonly expected: Buffer;
  readonly content: string;
}

interface PlannedEdit {
  readonly ok: true;
  readonly report: string;
  readonly failure: string;
  readonly files: EditedFile[];
}

/** Workspace files: Codex applies `patch`. Retained scripts: the router itself makes `writes`. */
export type Plan =
  | (PlannedEdit & { readonly target: 'codex'; readonly patch: string })
  | (PlannedEdit & { readonly target: 'scripts'; readonly writes: ScriptWrite[] })
  | { readonly ok: false; readonly refusal: string };

export interface PlanInput {
  readonly text: string;
  readonly workspace: Workspace | null;
  /** This thread's recorded edits, oldest first (recovery ancestry). */
  readonly history: readonly EditedFile[];
  readonly read: (abs: string) => FileState;
  /** `@shell/<id>`: this thread's retained script (REQ-SHELL 17), when script storage is available. */
  readonly readScript?: (id: string) => { readonly ok: true; readonly content: string } | { readonly ok: false; readonly error: string };
}

const SCRIPT_REF = '@shell/';

/** Own edits followed back from a tag: at most this many steps. */
const MAX_ANCESTRY = 32;

const refuse = (why: string): Plan => ({ ok: false, refusal: `hpatch: patch refused, nothing was written: ${why}` });

interface Loaded {
  readonly op: Extract<FileOp, { kind: 'update' }>;
  readonly abs: string;
  readonly moveAbs: string | null;
  readonly lines: LogicalLine[];
  readonly tag: string;
  /** Set for a retained script: its id and exact bytes as verified. */
  readonly script: { readonly id: string; readonly bytes: Buffer } | null;
}

export function planPatch(input: PlanInput): Plan {
  const parsed = parsePatch(input.text);
  if (!parsed.ok) return refuse(`the patch does not parse: ${parsed.error}`);
  const ws = input.workspace;
  const onlyScripts = parsed.patch.files.every((op) => op.path.startsWith(SCRIPT_REF));
  if (ws === null && !onlyScripts) return refuse('the request carries no environment context (cwd and workspace roots), so hpatch cannot resolve paths');

  const seen = new Set<string>();
  const claim = (abs: string, path: string): string | null => {
    if (seen.has(abs)) return `${path} is named twice in one patch`;
    seen.add(abs);
    return null;
  };
  const updates: Loaded[] = [];
  const others: Array<{ readonly op: Exclude<FileOp, { kind: 'update' }>; readonly abs: string; readonly tag: string | null }> = [];
  const problems: string[] = [];
  const scripts = parsed.patch.files.filter((op) => op.path.startsWith(SCRIPT_REF));
  if (scripts.length > 0 && scripts.length < parsed.patch.files.length) {
    return refuse('a patch edits either retained scripts (@shell/ID) or workspace files, not both: send two patches');
  }
  for (const op of scripts) {
    if (op.kind !== 'update' || op.moveTo !== null) { problems.push(`${op.path}: a retained script can only be updated in place (no add, delete or move)`); continue; }
    const id = op.path.slice(SCRIPT_REF.length);
    const dup = claim(op.path, op.path);
    if (dup !== null) { problems.push(dup); continue; }
    const r = input.readScript?.(id) ?? { ok: false as const, error: 'script storage is not available' };
    if (!r.ok) { problems.push(`${op.path}: ${r.error}`); continue; }
    const bytes = Buffer.from(r.content, 'utf8');
    updates.push({ op, abs: op.path, moveAbs: null, lines: splitLines(r.content), tag: contentTag(bytes), script: { id, bytes } });
  }
  for (const op of scripts.length > 0 ? [] : parsed.patch.files) {
    const where = locate(ws!, op.path);
    if (!where.ok) { problems.push(where.error); continue; }
    const dup = claim(where.abs, op.path);
    if (dup !== null) { problems.push(dup); continue; }
    const state = input.read(where.abs);
    if (op.kind === 'add') {
      if (state.kind === 'file') problems.push(`${op.path} already exists: edit it with "*** Update File: ${op.path}"`);
      else if (state.kind === 'refused') problems.push(state.why);
      else others.push({ op, abs: where.abs, tag: null });
      continue;
    }
    if (state.kind !== 'file') {
      problems.push(state.kind === 'missing' ? `${op.path} does not exist` : state.why);
      continue;
    }
    const tag = contentTag(state.bytes);
    if (op.kind === 'delete') { others.push({ op, abs: where.abs, tag }); continue; }
    const text = textOf(state.bytes);
    if (typeof text !== 'string') {
      problems.push(`${op.path} is not UTF-8 text (${text.why}); hpatch edits text files only`);
      continue;
    }
    let moveAbs: string | null = null;
    if (op.moveTo !== null) {
      const to = locate(ws!, op.moveTo);
      if (!to.ok) { problems.push(to.error); continue; }
      const dupTo = claim(to.abs, op.moveTo);
      if (dupTo !== null) { problems.push(dupTo); continue; }
      const target = input.read(to.abs);
      if (target.kind !== 'missing') { problems.push(target.kind === 'file' ? `${op.moveTo} already exists; hpatch does not move over a file` : target.why); continue; }
      moveAbs = to.abs;
    }
    updates.push({ op, abs: where.abs, moveAbs, lines: splitLines(text), tag, script: null });
  }
  if (problems.length > 0) return refuse(problems.join('\n'));

  // Every anchor of every file first: one stale or ambiguous anchor fails the whole patch.
  const verified = updates.map((u) => {
    const ancestors = ancestorsOf(u.tag, input.history);
    const readTag = u.op.tag;
    const known = readTag === null || readTag === u.tag || ancestors.some((a) => a.tag === readTag);
    return { u, known, v: verifyEdits(u.lines, u.op.edits, u.tag, ancestors, readTag) };
  });
  const failed = verified.filter((x): x is typeof x & { v: Extract<Verification, { ok: false }> } => !x.v.ok);
  if (failed.length > 0) {
    const budget = new RowBudget();
    const n = failed.reduce((s, x) => s + x.v.stale.length, 0);
    const body: string[] = [];
    for (const x of failed) {
      const path = x.u.op.path;
      if (!x.known) body.push(`${path}: tag ${x.u.op.tag} is neither the file's current tag (${x.u.tag}) nor one this conversation's own hpatch edits left: the file changed since those rows were read`);
      for (const a of x.v.ambiguous) {
        const where = a.readings.map((r) => `line ${r.line} as read in tag ${r.tag}`).join(', ');
        body.push(`${path}: "@@ ${a.edit}" is ambiguous: its anchors hold in more than one version of the file this conversation saw, naming different lines now (${where}). Add "*** Tag: T" after "*** Update File: ${path}", T being the tag of the rows you read (hread's header or the hpatch report).`);
      }
      body.push(...staleRows(path, x.u.lines, x.v.stale, budget, x.v.ambiguous.flatMap((a) => a.readings.map((r) => r.line))));
    }
    const what = n > 0 ? `${n} anchor${n === 1 ? ' does' : 's do'} not hold in the current file${failed.length === 1 ? '' : 's'} ` +
      '(changed since you read it, and not by this conversation\'s own hpatch edits); nothing was relocated.' : 'an edit cannot be placed for sure; nothing was guessed.';
    return refuse(`${what}\n${body.join('\n')}\nUse the current rows above for the anchors and send the whole patch again.`);
  }

  const codexOps: CodexFileOp[] = [];
  const writes: ScriptWrite[] = [];
  const files: EditedFile[] = [];
  const report: string[] = [];
  const failure: string[] = [];
  const notes: string[] = [];
  const rebasedAll: Array<Rebased & { path: string }> = [];
  const budget = new RowBudget();
  const failureBudget = new RowBudget();
  for (const { u, v } of verified) {
    if (!v.ok) continue;
    const applied = applyEdits(u.lines, v.edits);
    if (!applied.ok) return refuse(`${u.op.path}: ${applied.error}`);
    const next = applied.lines;
    // The router writes retained scripts byte for byte; Codex's applier ends files with a line end.
    if (u.script === null && ensureFinalNewline(next, newTerminator(u.lines))) notes.push(`note: ${u.op.moveTo ?? u.op.path} had no final newline; Codex's apply_patch ends every file it writes with one`);
    const after = contentTag(Buffer.from(joinLines(next), 'utf8'));
    const shown = u.op.moveTo ?? u.op.path;
    if (u.script !== null) writes.push({ id: u.script.id, expected: u.script.bytes, content: joinLines(next) });
    else codexOps.push({ kind: 'update', path: u.abs, moveTo: u.moveAbs, old: u.lines, next, map: applied.map });
    files.push({ path: u.moveAbs ?? u.abs, before: u.tag, after, map: applied.map });
    rebasedAll.push(...v.rebased.map((r) => ({ ...r, path: u.op.path })));
    const move = u.op.moveTo !== null ? ` (moved from ${u.op.path})` : '';
    report.push(`*** ${shown}${move}: ${next.length} line${next.length === 1 ? '' : 's'}, tag ${after} (was ${u.tag})`);
    report.push(...regionRows(shown, next, applied.regions, budget));
    failure.push(`*** ${u.op.path}: tag ${u.tag} as verified`);
    failure.push(...regionRows(u.op.path, u.lines, oldRegions(applied.map, u.lines.length), failureBudget));
  }
  for (const o of others) {
    if (o.op.kind === 'delete') {
      codexOps.push({ kind: 'delete', path: o.abs });
      files.push({ path: o.abs, before: o.tag, after: null, map: [] });
      report.push(`*** ${o.op.path}: deleted`);
      failure.push(`*** ${o.op.path}: tag ${o.tag} as verified (to be deleted)`);
      continue;
    }
    const next: LogicalLine[] = o.op.lines.map((text) => ({ text, terminator: '\n' }));
    const after = contentTag(Buffer.from(joinLines(next), 'utf8'));
    codexOps.push({ kind: 'add', path: o.abs, next });
    files.push({ path: o.abs, before: null, after, map: [] });
    report.push(`*** ${o.op.path}: added, ${next.length} line${next.length === 1 ? '' : 's'}, tag ${after}`);
    report.push(...regionRows(o.op.path, next, next.length > 0 ? [{ start: 1, count: next.length }] : [], budget));
    failure.push(`*** ${o.op.path}: did not exist as verified (to be added)`);
  }
  const n = files.length;
  const head = `hpatch: applied to ${n} file${n === 1 ? '' : 's'}.`;
  const rebased = rebasedAll.map((r) => `rebased: "@@ ${r.edit}" in ${r.path} was read from tag ${r.from}, before this conversation's own later hpatch edit; its anchors were carried to the current lines`);
  const cut = budget.cut ? ['(the report was cut at its size limit: hread the files for the rest)'] : [];
  const edit: PlannedEdit = {
    ok: true,
    report: [head, ...report, ...rebased, ...notes, ...cut].join('\n') + '\n',
    failure: ['Rows as hpatch verified them before the patch (unchanged if Codex wrote nothing):', ...failure].join('\n') + '\n',
    files,
  };
  return writes.length > 0 ? { ...edit, target: 'scripts', writes } : { ...edit, target: 'codex', patch: renderApplyPatch(codexOps) };
}

/** Earlier versions of a file with tag `tag`, newest first, through this thread's own edits. */
export function ancestorsOf(tag: string, history: readonly EditedFile[]): Ancestor[] {
  const out: Ancestor[] = [];
  const maps: Array<readonly Segment[]> = [];
  const visited = new Set<string>([tag]);
  let at = tag;
  let end = history.length;
  while (out.length < MAX_ANCESTRY) {
    let k = end - 1;
    while (k >= 0 && !(history[k]!.after === at && history[k]!.before !== null)) k--;
    if (k < 0) break;
    const f = history[k]!;
    maps.unshift(f.map);
    at = f.before!;
    if (visited.has(at)) break;
    visited.add(at);
    out.push({ tag: at, maps: [...maps] });
    end = k;
  }
  return out;
}

/** The text of UTF-8 `bytes`, or why they are not text (the same words as inspect_file). */
function textOf(bytes: Uint8Array): string | { why: string } {
  const nul = bytes.indexOf(0);
  if (nul >= 0) return { why: `a NUL byte at offset ${nul}` };
  return decodeUtf8(bytes) ?? { why: `bytes that are not UTF-8 at offset ${scanUtf8(bytes).validPrefix}` };
}

/** Codex's applier leaves every non-empty file ending in a line end; true when that changes `lines`. */
function ensureFinalNewline(lines: LogicalLine[], term: LogicalLine['terminator']): boolean {
  const last = lines[lines.length - 1];
  if (last === undefined || last.terminator !== '') return false;
  lines[lines.length - 1] = { text: last.text, terminator: term };
  return true;
}

function joinLines(lines: readonly LogicalLine[]): string {
  let s = '';
  for (const l of lines) s += l.text + l.terminator;
  return s;
}

/** The old file's changed lines: the gaps between unchanged segments (a removal point shows its neighbours). */
function oldRegions(map: readonly Segment[], n: number): Region[] {
  const out: Region[] = [];
  let o = 1;
  for (const [from, , len] of map) {
    if (from > o) out.push({ start: o, count: from - o });
    else if (from === o && out.length === 0 && o > 1) out.push({ start: o, count: 0 });
    o = from + len;
  }
  if (o <= n) out.push({ start: o, count: n - o + 1 });
  if (out.length === 0) out.push({ start: Math.min(o, Math.max(n, 1)), count: 0 });
  return out;
}
