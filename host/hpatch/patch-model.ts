// What an hpatch says, once parsed: file operations whose hunks address verified anchors
// (`LINE:HASH` rows from hread, hgrep, hsymbol or an earlier hpatch report). Pure data.
import type { Anchor } from '../../isolates/core-v1/rows.ts';

export type { Anchor };

/** One hunk of an update. `lines` are the new lines' contents, without terminators. */
export type Edit =
  | { readonly op: 'replace'; readonly from: Anchor; readonly to: Anchor; readonly lines: readonly string[] }
  | { readonly op: 'delete'; readonly from: Anchor; readonly to: Anchor }
  | { readonly op: 'insert_before' | 'insert_after'; readonly at: Anchor; readonly lines: readonly string[] }
  | { readonly op: 'insert_start' | 'insert_end'; readonly lines: readonly string[] };

export type FileOp =
  | {
      readonly kind: 'update';
      readonly path: string;
      readonly moveTo: string | null;
      /** `*** Tag: T`: the anchors are rows of the version with tag T (an hread header's or a report's). */
      readonly tag: string | null;
      readonly edits: readonly Edit[];
    }
  | { readonly kind: 'add'; readonly path: string; readonly lines: readonly string[] }
  | { readonly kind: 'delete'; readonly path: string };

export interface Patch {
  readonly files: readonly FileOp[];
}

/** The hunk header as the model wrote it, for messages. */
export function describeEdit(e: Edit): string {
  const a = (x: Anchor): string => `${x.line}:${x.hash}`;
  switch (e.op) {
    case 'replace':
    case 'delete':
      return `${e.op} ${a(e.from)}${e.to.line === e.from.line && e.to.hash === e.from.hash ? '' : `-${a(e.to)}`}`;
    case 'insert_before': return `insert before ${a(e.at)}`;
    case 'insert_after': return `insert after ${a(e.at)}`;
    case 'insert_start': return 'insert at start';
    case 'insert_end': return 'insert at end';
  }
}

/** The anchors an edit names, in order. */
export function anchorsOf(e: Edit): Anchor[] {
  switch (e.op) {
    case 'replace':
    case 'delete': return e.to.line === e.from.line ? [e.from] : [e.from, e.to];
    case 'insert_before':
    case 'insert_after': return [e.at];
    default: return [];
  }
}
