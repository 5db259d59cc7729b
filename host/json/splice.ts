// Applies non-overlapping text replacements to a JSON document: everything outside the edits
// is copied unchanged, which is what keeps untouched request and response parts byte-equivalent.
import type { Span } from './json-scan.ts';

export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export function applyEdits(text: string, edits: readonly Edit[]): string {
  if (edits.length === 0) return text;
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: string[] = [];
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) throw new Error(`overlapping edits at ${e.start}`);
    parts.push(text.slice(at, e.start), e.text);
    at = e.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** Replaces one value. */
export function replaceSpan(span: Span, text: string): Edit {
  return { start: span.start, end: span.end, text };
}

/** Inserts `json` as a new element right after element `index` of an array (or first, with index -1). */
export function insertAfterElement(arrayStart: number, elements: readonly Span[], index: number, json: string): Edit {
  if (index < 0) {
    const at = arrayStart + 1;
    return { start: at, end: at, text: elements.length > 0 ? `${json},` : json };
  }
  const el = elements[index]!;
  return { start: el.end, end: el.end, text: `,${json}` };
}

/** Removes element `index` together with one neighbouring comma. */
export function removeElement(elements: readonly Span[], index: number): Edit {
  const el = elements[index]!;
  if (index > 0) return { start: elements[index - 1]!.end, end: el.end, text: '' };
  const next = elements[index + 1];
  return { start: el.start, end: next ? next.start : el.end, text: '' };
}
