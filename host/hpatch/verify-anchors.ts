// Anchor verification against the file's current bytes, and recovery ancestry (brief §10): an
// anchor that does not hold now but held in an earlier version this thread's own hpatch edits
// produced is carried to the current line through the recorded line mappings of those edits.
// Nothing is relocated by searching or guessing: a mapping only follows lines no edit touched.
import type { LogicalLine } from '../../isolates/core-v1/lines.ts';
import { rowHash } from '../../isolates/core-v1/rows.ts';
import type { Segment } from './apply-edits.ts';
import { anchorsOf, describeEdit, type Anchor, type Edit } from './patch-model.ts';

/** An earlier version of the file: `maps` carry its line numbers to the current file, oldest edit first. */
export interface Ancestor {
  readonly tag: string;
  readonly maps: readonly (readonly Segment[])[];
}

export interface StaleAnchor {
  readonly anchor: Anchor;
  readonly edit: string;
}

export interface Rebased {
  readonly edit: string;
  /** The version the anchors were read from. */
  readonly from: string;
}

export type Verification =
  | { readonly ok: true; readonly edits: Edit[]; readonly rebased: Rebased[] }
  | { readonly ok: false; readonly stale: StaleAnchor[] };

export function verifyEdits(lines: readonly LogicalLine[], edits: readonly Edit[], ancestors: readonly Ancestor[]): Verification {
  const hashes = new Map<number, string>();
  const hashAt = (line: number): string | null => {
    if (line < 1 || line > lines.length) return null;
    let h = hashes.get(line);
    if (h === undefined) hashes.set(line, (h = rowHash(lines[line - 1]!.text)));
    return h;
  };
  const holds = (a: Anchor, line: number | null): boolean => line !== null && hashAt(line) === a.hash;

  const out: Edit[] = [];
  const rebased: Rebased[] = [];
  const stale: StaleAnchor[] = [];
  for (const e of edits) {
    const anchors = anchorsOf(e);
    if (anchors.length === 0 || anchors.every((a) => holds(a, a.line))) {
      out.push(e);
      continue;
    }
    let moved: Edit | null = null;
    for (const v of ancestors) {
      const lineOf = (l: number): number | null => mapThrough(v.maps, l);
      const now = anchors.map((a) => lineOf(a.line));
      if (!anchors.every((a, k) => holds(a, now[k]!))) continue;
      if (anchors.length === 2 && !contiguous(anchors[0]!.line, anchors[1]!.line, now[0]!, lineOf)) continue;
      moved = withLines(e, now as number[]);
      rebased.push({ edit: describeEdit(e), from: v.tag });
      break;
    }
    if (moved !== null) out.push(moved);
    else for (const a of anchors) if (!holds(a, a.line)) stale.push({ anchor: a, edit: describeEdit(e) });
    // (an edit with one stale anchor of two lists only that one; its other anchor still holds)
  }
  return stale.length > 0 ? { ok: false, stale } : { ok: true, edits: out, rebased };
}

/** Line `line` of a version carried through `maps`, or null when an edit touched it. */
export function mapThrough(maps: readonly (readonly Segment[])[], line: number): number | null {
  let l = line;
  for (const segs of maps) {
    const next = mapLine(segs, l);
    if (next === null) return null;
    l = next;
  }
  return l;
}

function mapLine(segs: readonly Segment[], line: number): number | null {
  let lo = 0;
  let hi = segs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [from, to, len] = segs[mid]!;
    if (line < from) hi = mid - 1;
    else if (line >= from + len) lo = mid + 1;
    else return to + (line - from);
  }
  return null;
}

// A range read from an earlier version still names the same lines only if nothing was inserted or
// removed inside it since; otherwise the model never saw what it would replace.
function contiguous(from: number, to: number, nowFrom: number, lineOf: (l: number) => number | null): boolean {
  for (let l = from + 1; l <= to; l++) if (lineOf(l) !== nowFrom + (l - from)) return false;
  return true;
}

function withLines(e: Edit, now: number[]): Edit {
  switch (e.op) {
    case 'replace':
    case 'delete': {
      const from = { line: now[0]!, hash: e.from.hash };
      const to = now.length === 2 ? { line: now[1]!, hash: e.to.hash } : from;
      return e.op === 'replace' ? { op: 'replace', from, to, lines: e.lines } : { op: 'delete', from, to };
    }
    case 'insert_before':
    case 'insert_after':
      return { op: e.op, at: { line: now[0]!, hash: e.at.hash }, lines: e.lines };
    default:
      return e;
  }
}
