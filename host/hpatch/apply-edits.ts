// The pure applier: one file's verified edits → its new lines, the mapping of unchanged lines and
// the changed regions. Anchors must already hold for `lines` (verify-anchors.ts); what is checked
// here is what only the set of edits can say: overlaps, no-ops, inserts that echo their anchor.
import type { LineTerminator, LogicalLine } from '../../isolates/core-v1/lines.ts';
import { describeEdit, type Edit } from './patch-model.ts';

/** `len` unchanged lines: old line `from` (1-based) is new line `to`. */
export type Segment = readonly [from: number, to: number, len: number];

/** A changed region of the new file, 1-based, `count` new lines from `start` (0: lines were removed before `start`). */
export interface Region {
  readonly start: number;
  readonly count: number;
}

export type ApplyResult =
  | { readonly ok: true; readonly lines: LogicalLine[]; readonly map: Segment[]; readonly regions: Region[] }
  | { readonly ok: false; readonly error: string };

/** An edit as a replacement of old lines [start, end) (0-based) by `lines`. */
interface Span {
  readonly start: number;
  readonly end: number;
  readonly lines: readonly string[];
  readonly edit: Edit;
  readonly order: number;
}

export function applyEdits(old: readonly LogicalLine[], edits: readonly Edit[]): ApplyResult {
  const spans = edits.map((e, order) => spanOf(e, order, old.length)).sort((a, b) => a.start - b.start || a.end - b.end || a.order - b.order);
  for (let k = 1; k < spans.length; k++) {
    const a = spans[k - 1]!;
    const b = spans[k]!;
    // Ranges may touch; an insert at the same place as another edit has no order, so it overlaps too.
    const overlap = b.start < a.end || (b.start === a.start && (a.start === a.end || b.start === b.end));
    if (overlap) return { ok: false, error: `hunks "@@ ${describeEdit(a.edit)}" and "@@ ${describeEdit(b.edit)}" overlap: merge them into one hunk` };
  }
  for (const s of spans) {
    const problem = echoProblem(s, old) ?? noOpProblem(s, old);
    if (problem !== null) return { ok: false, error: problem };
  }

  const term = newTerminator(old);
  const lines: LogicalLine[] = [];
  const map: Segment[] = [];
  const regions: Region[] = [];
  let at = 0;
  for (const s of spans) {
    if (s.start > at) {
      map.push([at + 1, lines.length + 1, s.start - at]);
      for (let k = at; k < s.start; k++) lines.push(old[k]!);
    }
    regions.push({ start: lines.length + 1, count: s.lines.length });
    for (const text of s.lines) lines.push({ text, terminator: term });
    at = s.end;
  }
  if (at < old.length) {
    map.push([at + 1, lines.length + 1, old.length - at]);
    for (let k = at; k < old.length; k++) lines.push(old[k]!);
  }
  fixTerminators(lines, old, term);
  return { ok: true, lines, map, regions };
}

function spanOf(e: Edit, order: number, n: number): Span {
  switch (e.op) {
    case 'replace': return { start: e.from.line - 1, end: e.to.line, lines: e.lines, edit: e, order };
    case 'delete': return { start: e.from.line - 1, end: e.to.line, lines: [], edit: e, order };
    case 'insert_before': return { start: e.at.line - 1, end: e.at.line - 1, lines: e.lines, edit: e, order };
    case 'insert_after': return { start: e.at.line, end: e.at.line, lines: e.lines, edit: e, order };
    case 'insert_start': return { start: 0, end: 0, lines: e.lines, edit: e, order };
    case 'insert_end': return { start: n, end: n, lines: e.lines, edit: e, order };
  }
}

// A known failure of line-anchored tools: the model repeats the anchor line in an insert, which
// duplicates it. Refused with the fix, never applied.
function echoProblem(s: Span, old: readonly LogicalLine[]): string | null {
  const e = s.edit;
  if (e.op === 'insert_after' && s.lines[0] === old[e.at.line - 1]!.text && s.lines[0]!.trim() !== '') {
    return `"@@ ${describeEdit(e)}" repeats line ${e.at.line} as its first new line; insert after adds lines below the anchor, so leave the anchor line out (or use "@@ replace")`;
  }
  if (e.op === 'insert_before' && s.lines[s.lines.length - 1] === old[e.at.line - 1]!.text && s.lines[s.lines.length - 1]!.trim() !== '') {
    return `"@@ ${describeEdit(e)}" repeats line ${e.at.line} as its last new line; insert before adds lines above the anchor, so leave the anchor line out (or use "@@ replace")`;
  }
  return null;
}

function noOpProblem(s: Span, old: readonly LogicalLine[]): string | null {
  if (s.edit.op !== 'replace' || s.end - s.start !== s.lines.length) return null;
  for (let k = 0; k < s.lines.length; k++) if (old[s.start + k]!.text !== s.lines[k]) return null;
  return `"@@ ${describeEdit(s.edit)}" changes nothing: its new lines are the lines it replaces (a no-op is refused, not reported as an edit)`;
}

/**
 * New lines take the line end of the file's first line (LF when it has none), exactly as Codex's
 * applier does; lines the edit keeps keep their own.
 */
export function newTerminator(old: readonly LogicalLine[]): LineTerminator {
  const first = old.find((l) => l.terminator !== '');
  return first?.terminator ?? '\n';
}

/** Every line but the last ends with a terminator; the last keeps the old file's final-newline state. */
function fixTerminators(lines: LogicalLine[], old: readonly LogicalLine[], term: LineTerminator): void {
  if (lines.length === 0) return;
  const oldLast = old.length > 0 ? old[old.length - 1]!.terminator : term;
  for (let k = 0; k < lines.length - 1; k++) {
    if (lines[k]!.terminator === '') lines[k] = { text: lines[k]!.text, terminator: term };
  }
  const last = lines[lines.length - 1]!;
  const want: LineTerminator = oldLast === '' ? '' : last.terminator === '' ? oldLast : last.terminator;
  if (last.terminator !== want) lines[lines.length - 1] = { text: last.text, terminator: want };
}
