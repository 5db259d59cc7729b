// Verified edits → the `apply_patch` text Codex's own applier runs (the carrier payload). Codex
// finds each hunk by searching for its old lines, loosening the comparison step by step (exact,
// trailing space, surrounding space, Unicode punctuation), so every hunk here carries enough
// context that its old lines occur exactly once in the file even under the loosest comparison:
// the applier cannot land it anywhere else. Pure.
import type { LogicalLine } from '../../isolates/core-v1/lines.ts';
import type { Segment } from './apply-edits.ts';

const CONTEXT = 3;

/** Codex keeps a CR before LF as part of the line (it splits on LF only). */
function codexLine(l: LogicalLine): string {
  return l.terminator === '\r\n' ? `${l.text}\r` : l.text;
}

// Codex's loosest comparison: trimmed, with typographic dashes, quotes and spaces as ASCII.
function looseKey(s: string): string {
  const t = s.trim();
  // (most lines are ASCII: nothing to map)
  if (!/[^\x00-\x7f]/.test(t)) return t;
  return t
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, ' ');
}

/** A change: old lines [os, oe) became new lines [ns, ne) (0-based). */
interface Change {
  readonly os: number;
  readonly oe: number;
  readonly ns: number;
  readonly ne: number;
}

/** The changes between `old` and `next`: the gaps between unchanged segments, plus any unchanged line whose Codex form differs. */
function changesOf(old: readonly LogicalLine[], next: readonly LogicalLine[], map: readonly Segment[]): Change[] {
  const out: Change[] = [];
  let o = 0;
  let n = 0;
  const push = (oe: number, ne: number): void => {
    if (oe === o && ne === n) return;
    const prev = out[out.length - 1];
    if (prev !== undefined && prev.oe === o && prev.ne === n) out[out.length - 1] = { os: prev.os, oe, ns: prev.ns, ne };
    else out.push({ os: o, oe, ns: n, ne });
  };
  for (const [from, to, len] of map) {
    push(from - 1, to - 1);
    o = from - 1;
    n = to - 1;
    for (let k = 0; k < len; k++) {
      // An unterminated last line that gained a line end (CRLF in a CRLF file) changed for Codex.
      if (codexLine(old[o]!) !== codexLine(next[n]!)) push(o + 1, n + 1);
      o++;
      n++;
    }
  }
  push(old.length, next.length);
  return out;
}

class Uniqueness {
  /** Loose keys, computed on first use: most files are compared only near a few candidates. */
  private readonly keys: Array<string | undefined>;

  constructor(private readonly old: readonly LogicalLine[]) {
    this.keys = new Array<string | undefined>(old.length);
  }

  private key(i: number): string {
    return (this.keys[i] ??= looseKey(codexLine(this.old[i]!)));
  }

  /** Whether old lines [a, b) occur only at a (under the loose comparison). */
  unique(a: number, b: number): boolean {
    const n = this.old.length;
    if (b - a === n) return true;
    if (b === a) return false;
    const first = this.key(a);
    for (let p = 0; p + (b - a) <= n; p++) {
      if (p === a || this.key(p) !== first) continue;
      let same = true;
      for (let k = 1; k < b - a && same; k++) same = this.key(p + k) === this.key(a + k);
      if (same) return false;
    }
    return true;
  }
}

export type CodexFileOp =
  | { readonly kind: 'update'; readonly path: string; readonly moveTo: string | null; readonly old: readonly LogicalLine[]; readonly next: readonly LogicalLine[]; readonly map: readonly Segment[] }
  | { readonly kind: 'add'; readonly path: string; readonly next: readonly LogicalLine[] }
  | { readonly kind: 'delete'; readonly path: string };

export function renderApplyPatch(ops: readonly CodexFileOp[]): string {
  const out: string[] = ['*** Begin Patch'];
  for (const op of ops) {
    if (op.kind === 'delete') out.push(`*** Delete File: ${op.path}`);
    else if (op.kind === 'add') {
      out.push(`*** Add File: ${op.path}`);
      for (const l of op.next) out.push(`+${l.text}`);
    } else {
      out.push(`*** Update File: ${op.path}`);
      if (op.moveTo !== null) out.push(`*** Move to: ${op.moveTo}`);
      out.push(...updateHunks(op.old, op.next, op.map));
    }
  }
  out.push('*** End Patch');
  return `${out.join('\n')}\n`;
}

function updateHunks(old: readonly LogicalLine[], next: readonly LogicalLine[], map: readonly Segment[]): string[] {
  const changes = changesOf(old, next, map);
  // A move without a content change still needs one hunk for Codex: the first line as context.
  if (changes.length === 0) return old.length === 0 ? ['@@'] : ['@@', ` ${codexLine(old[0]!)}`];
  const u = new Uniqueness(old);
  // Each change's window of old lines [a, b), widened until its old lines are unique.
  const windows = changes.map((c) => {
    let ctx = CONTEXT;
    for (;;) {
      const a = Math.max(0, c.os - ctx);
      const b = Math.min(old.length, c.oe + ctx);
      if ((a === 0 && b === old.length) || u.unique(a, b)) return { a, b };
      ctx++;
    }
  });
  const lines: string[] = [];
  let k = 0;
  while (k < changes.length) {
    // Windows that overlap or touch become one hunk (a window containing a unique one is unique).
    let end = k;
    while (end + 1 < changes.length && windows[end + 1]!.a <= windows[end]!.b) end++;
    const a = windows[k]!.a;
    const b = Math.max(...windows.slice(k, end + 1).map((w) => w.b));
    lines.push('@@');
    let o = a;
    for (let j = k; j <= end; j++) {
      const c = changes[j]!;
      for (; o < c.os; o++) lines.push(` ${codexLine(old[o]!)}`);
      for (let x = c.os; x < c.oe; x++) lines.push(`-${codexLine(old[x]!)}`);
      // New lines go without their CR: Codex gives them the line end of the file's first line.
      for (let x = c.ns; x < c.ne; x++) lines.push(`+${next[x]!.text}`);
      o = c.oe;
    }
    for (; o < b; o++) lines.push(` ${codexLine(old[o]!)}`);
    k = end + 1;
  }
  return lines;
}
