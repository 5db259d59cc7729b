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

/** An edit whose anchors hold in more than one version, naming different current lines. */
export interface AmbiguousEdit {
  readonly edit: string;
  /** The current lines each reading names (first anchor's line), with the version it is read in. */
  readonly readings: ReadonlyArray<{ readonly line: number; readonly tag: string }>;
}

export interface Rebased {
  readonly edit: string;
  /** The version the anchors were read from. */
  readonly from: string;
}

export type Verification =
  | { readonly ok: true; readonly edits: Edit[]; readonly rebased: Rebased[] }
  | { readonly ok: false; readonly stale: StaleAnchor[]; readonly ambiguous: AmbiguousEdit[] };

/**
 * Each edit's anchors are read in every version they may come from: the current file (`tag`) and
 * each earlier version of this thread's own edits (`ancestors`), or only in the version `readTag`
 * names when the patch says (`*** Tag:`). The edit goes where the readings agree. No reading is
 * stale; readings that name different current lines are ambiguous (a blank line or a `}` can hold
 * at one number in two versions): both refuse, never pick.
 */
export function verifyEdits(lines: readonly LogicalLine[], edits: readonly Edit[], tag: string, ancestors: readonly Ancestor[], readTag: string | null = null): Verification {
  const hashes = new Map<number, string>();
  const hashAt = (line: number): string | null => {
    if (line < 1 || line > lines.length) return null;
    let h = hashes.get(line);
    if (h === undefined) hashes.set(line, (h = rowHash(lines[line - 1]!.text)));
    return h;
  };
  const holds = (a: Anchor, line: number | null): boolean => line !== null && hashAt(line) === a.hash;
  const versions: Ancestor[] = [{ tag, maps: [] }, ...ancestors].filter((v) => readTag === null || v.tag === readTag);

  const out: Edit[] = [];
  const rebased: Rebased[] = [];
  const stale: StaleAnchor[] = [];
  const ambiguous: AmbiguousEdit[] = [];
  for (const e of edits) {
    const anchors = anchorsOf(e);
    if (anchors.length === 0) { out.push(e); continue; }
    const readings = new Map<string, { now: number[]; tag: string }>();
    for (const v of versions) {
      const lineOf = (l: number): number | null => mapThrough(v.maps, l);
      const now = anchors.map((a) => lineOf(a.line));
      if (!anchors.every((a, k) => holds(a, now[k]!))) continue;
      if (anchors.length === 2 && !contiguous(anchors[0]!.line, anchors[1]!.line, now[0]!, lineOf)) continue;
      const key = now.join(',');
      if (!readings.has(key)) readings.set(key, { now: now as number[], tag: v.tag });
    }
    if (readings.size === 0) {
      for (const a of anchors) if (readTag !== null || !holds(a, a.line)) stale.push({ anchor: a, edit: describeEdit(e) });
      continue;
    }
    if (readings.size > 1) {
      ambiguous.push({ edit: describeEdit(e), readings: [...readings.values()].map((r) => ({ line: r.now[0]!, tag: r.tag })) });
      continue;
    }
    const [only] = readings.values();
    out.push(withLines(e, only!.now));
    if (only!.tag !== tag) rebased.push({ edit: describeEdit(e), from: only!.tag });
  }
  return stale.length > 0 || ambiguous.length > 0 ? { ok: false, stale, ambiguous } : { ok: true, edits: out, rebased };
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
