// hpatch text → Patch. Strict and line-based: the grammar constrains sampling, but model input is
// untrusted, so everything the grammar says is checked again here, plus what a grammar cannot say
// (a range that runs backwards, a replace without new lines, pasted row prefixes, one path twice).
import { looksLikeRowPrefix, parseAnchor } from '../../isolates/core-v1/rows.ts';
import type { Anchor, Edit, FileOp, Patch } from './patch-model.ts';

export const MAX_PATCH_FILES = 100;
export const MAX_PATCH_EDITS = 2000;

export type ParseResult = { readonly ok: true; readonly patch: Patch } | { readonly ok: false; readonly error: string };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const TAG = '*** Tag: ';

class PatchSyntaxError extends Error {}

export function parsePatch(text: string): ParseResult {
  try {
    return { ok: true, patch: parse(text) };
  } catch (e) {
    if (e instanceof PatchSyntaxError) return { ok: false, error: e.message };
    throw e;
  }
}

function parse(text: string): Patch {
  // A CR before LF on a line is the patch's own line end, never file content (the file's
  // terminators are applied to new lines); lone CRs inside a line stay.
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  // Blank lines around the envelope are not part of it (a model may wrap the patch in them).
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const lead = Math.max(0, lines.findIndex((l) => l.trim() !== ''));
  lines.splice(0, lead);
  let i = 0;
  const fail = (msg: string, at = i): never => {
    throw new PatchSyntaxError(`line ${lead + at + 1}: ${msg}`);
  };
  if (lines[0] !== BEGIN) fail(`a patch starts with "${BEGIN}"`, 0);
  if (lines.length < 2 || lines[lines.length - 1] !== END) fail(`a patch ends with "${END}"`, Math.max(lines.length - 1, 0));
  const last = lines.length - 1;
  i = 1;
  const files: FileOp[] = [];
  const prefixed: number[] = [];
  let edits = 0;

  const addLines = (): string[] => {
    const out: string[] = [];
    while (i < last && lines[i]!.startsWith('+')) {
      const l = lines[i]!.slice(1);
      if (looksLikeRowPrefix(l)) prefixed.push(i + 1);
      out.push(l);
      i++;
    }
    return out;
  };
  const filename = (line: string, prefix: string): string => {
    const p = line.slice(prefix.length).trim();
    if (p === '') fail('the file name is empty');
    if (p.includes('\0')) fail('the file name contains NUL');
    return p;
  };

  while (i < last) {
    const line = lines[i]!;
    if (line.startsWith(ADD)) {
      const path = filename(line, ADD);
      i++;
      files.push({ kind: 'add', path, lines: addLines() });
    } else if (line.startsWith(DELETE)) {
      files.push({ kind: 'delete', path: filename(line, DELETE) });
      i++;
    } else if (line.startsWith(UPDATE)) {
      const path = filename(line, UPDATE);
      const at = i;
      i++;
      let moveTo: string | null = null;
      if (i < last && lines[i]!.startsWith(MOVE)) {
        moveTo = filename(lines[i]!, MOVE);
        i++;
      }
      let tag: string | null = null;
      if (i < last && lines[i]!.startsWith(TAG)) {
        tag = lines[i]!.slice(TAG.length).trim();
        if (!/^[0-9a-f]{8}$/.test(tag)) fail(`"${TAG}" takes a file tag: 8 lowercase hex digits, as hread and hpatch reports print it`);
        i++;
      }
      const list: Edit[] = [];
      while (i < last && lines[i]!.startsWith('@@')) {
        const header = lines[i]!;
        i++;
        list.push(editOf(header, addLines(), (m) => fail(m, i - 1)));
        if (++edits > MAX_PATCH_EDITS) fail(`more than ${MAX_PATCH_EDITS} hunks in one patch`);
      }
      if (list.length === 0 && moveTo === null) fail(`"${UPDATE}${path}" has no hunk ("@@ replace …", "@@ insert after …", …) and no "${MOVE}"`, at);
      files.push({ kind: 'update', path, moveTo, tag, edits: list });
    } else if (line.startsWith('@@')) {
      fail('a hunk belongs under "*** Update File: PATH"');
    } else if (line.startsWith('+')) {
      fail('a "+" line belongs under a hunk header or "*** Add File:"');
    } else if (line.startsWith('-') || line.startsWith(' ')) {
      fail('hpatch hunks have no context or "-" lines: address lines with anchors ("@@ replace 12:ab3f-14:09cd", "@@ delete 7:1c2d")');
    } else {
      fail(`unexpected line ${JSON.stringify(line.slice(0, 80))}`);
    }
    if (files.length > MAX_PATCH_FILES) fail(`more than ${MAX_PATCH_FILES} files in one patch`);
  }
  if (files.length === 0) fail('the patch has no file operation', 1);
  if (prefixed.length > 0) {
    for (let k = 0; k < prefixed.length; k++) prefixed[k] = prefixed[k]! + lead;
    const shown = prefixed.slice(0, 5).join(', ') + (prefixed.length > 5 ? ', …' : '');
    throw new PatchSyntaxError(
      `new text on line${prefixed.length > 1 ? 's' : ''} ${shown} starts with a pasted row prefix (LINE:HASH|): ` +
        'write only the line\'s text after "+", without the prefix hread prints');
  }
  return { files };
}

const OPS: ReadonlyArray<readonly [string, Edit['op']]> = [
  ['replace ', 'replace'],
  ['delete ', 'delete'],
  ['insert before ', 'insert_before'],
  ['insert after ', 'insert_after'],
];

function editOf(header: string, lines: string[], fail: (msg: string) => never): Edit {
  const body = header.startsWith('@@ ') ? header.slice(3).trim() : '';
  if (body === '') {
    fail('a hunk header names its operation and anchors, e.g. "@@ replace 12:ab3f-14:09cd" (hpatch hunks have no context or "-" lines)');
  }
  if (body === 'insert at start' || body === 'insert at end') {
    if (lines.length === 0) fail(`"@@ ${body}" needs at least one "+" line`);
    return { op: body === 'insert at start' ? 'insert_start' : 'insert_end', lines };
  }
  for (const [word, op] of OPS) {
    if (!body.startsWith(word)) continue;
    const arg = body.slice(word.length).trim();
    if (op === 'insert_before' || op === 'insert_after') {
      const at = anchor(arg, fail);
      if (lines.length === 0) fail(`"@@ ${body}" needs at least one "+" line`);
      return { op, at, lines };
    }
    const dash = arg.indexOf('-');
    const from = anchor(dash < 0 ? arg : arg.slice(0, dash), fail);
    const to = dash < 0 ? from : anchor(arg.slice(dash + 1), fail);
    if (to.line < from.line) fail(`the range ${arg} runs backwards`);
    if (to.line === from.line && to.hash !== from.hash) fail(`the range ${arg} names line ${from.line} with two different hashes`);
    if (op === 'delete') {
      if (lines.length > 0) fail(`"@@ ${body}" takes no "+" lines (use "@@ replace …" to put new lines there)`);
      return { op, from, to };
    }
    if (lines.length === 0) fail(`"@@ ${body}" needs at least one "+" line (use "@@ delete …" to remove lines)`);
    return { op: 'replace', from, to, lines };
  }
  return fail(`unknown hunk operation ${JSON.stringify(body.slice(0, 80))}: use replace A[-B], delete A[-B], insert before A, insert after A, insert at start or insert at end`);
}

function anchor(s: string, fail: (msg: string) => never): Anchor {
  const a = parseAnchor(s.trim());
  if (a !== null) return a;
  const looksRow = /^[0-9]+:[0-9a-fA-F]{4}\|/.test(s.trim());
  return fail(looksRow
    ? `the anchor ${JSON.stringify(s.slice(0, 40))} is a whole row: an anchor is only LINE:HASH`
    : `${JSON.stringify(s.slice(0, 40))} is not an anchor (LINE:HASH, e.g. 12:ab3f, as hread prints it)`);
}
