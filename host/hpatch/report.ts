// What the model reads back from hpatch: the success report (fresh rows around every changed
// region and each file's new tag, so the next edit needs no re-read), the rows shown when Codex
// did not apply the patch, and refusals (stale anchors with the current rows around each). Pure.
import type { LogicalLine } from '../../isolates/core-v1/lines.ts';
import { formatRow } from '../../isolates/core-v1/rows.ts';
import type { Region } from './apply-edits.ts';
import type { StaleAnchor } from './verify-anchors.ts';

/** Rows shown on each side of a changed region or a stale anchor. */
export const AROUND = 2;
/** Rows of one region shown in full; a longer one shows its head and tail. */
const REGION_ROWS = 60;
/** Rows in a whole report; past it the report says how to read on. */
export const REPORT_MAX_ROWS = 400;
export const REPORT_MAX_CHARS = 48 * 1024;

/** Rows [a, b] (1-based, inclusive) of `lines`, as one block. */
function rows(lines: readonly LogicalLine[], a: number, b: number): string[] {
  const out: string[] = [];
  for (let l = Math.max(1, a); l <= Math.min(lines.length, b); l++) out.push(formatRow(l, lines[l - 1]!.text));
  return out;
}

/** Line ranges around `regions`, merged where they touch. */
function windows(regions: readonly Region[], n: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const r of regions) {
    const a = Math.max(1, r.start - AROUND);
    const b = Math.min(n, r.start + Math.max(r.count, 1) - 1 + AROUND);
    if (a > b) continue;
    const prev = out[out.length - 1];
    if (prev && a <= prev[1] + 1) prev[1] = Math.max(prev[1], b);
    else out.push([a, b]);
  }
  return out;
}

export class RowBudget {
  rows = 0;
  chars = 0;
  cut = false;

  /** Adds the block if it fits; otherwise records that the report was cut. */
  take(out: string[], block: readonly string[]): boolean {
    const size = block.reduce((s, l) => s + l.length + 1, 0);
    if (this.rows + block.length > REPORT_MAX_ROWS || this.chars + size > REPORT_MAX_CHARS) {
      this.cut = true;
      return false;
    }
    this.rows += block.length;
    this.chars += size;
    out.push(...block);
    return true;
  }
}

/** The rows around each region of the new file, with a pointer to hread when a part is left out. */
export function regionRows(displayPath: string, lines: readonly LogicalLine[], regions: readonly Region[], budget: RowBudget): string[] {
  const out: string[] = [];
  for (const [a, b] of windows(regions, lines.length)) {
    const block = b - a + 1 > REGION_ROWS
      ? [...rows(lines, a, a + REGION_ROWS / 2 - 1), `… ${b - a + 1 - REGION_ROWS} rows not shown: hread ${displayPath} ${a + REGION_ROWS / 2}-${b - REGION_ROWS / 2}`, ...rows(lines, b - REGION_ROWS / 2 + 1, b)]
      : rows(lines, a, b);
    if (!budget.take(out, block)) {
      out.push(`… more changed rows not shown: hread ${displayPath} ${a}-${b}`);
      break;
    }
  }
  return out;
}

/** Rows around each stale anchor of one file (and around `alsoAround` lines), as they are now. */
export function staleRows(displayPath: string, lines: readonly LogicalLine[], stale: readonly StaleAnchor[], budget: RowBudget, alsoAround: readonly number[] = []): string[] {
  const out: string[] = [];
  for (const s of stale) {
    const l = s.anchor.line;
    const now = l <= lines.length ? `line ${l} is now ${formatRow(l, lines[l - 1]!.text)}` : `the file has only ${lines.length} line${lines.length === 1 ? '' : 's'}`;
    out.push(`${displayPath}: anchor ${l}:${s.anchor.hash} of "@@ ${s.edit}" does not hold: ${now}`);
  }
  const regions = [...stale.map((s) => s.anchor.line), ...alsoAround].map((l) => ({ start: Math.min(l, Math.max(lines.length, 1)), count: 1 }))
    .sort((a, b) => a.start - b.start);
  if (lines.length > 0) {
    out.push(`current rows of ${displayPath}:`);
    out.push(...regionRows(displayPath, lines, regions, budget));
  }
  return out;
}
