// The edit-safety corpus: thousands of seeded edits of real files from node_modules, each planned by
// hpatch (planPatch, as the router does) and applied by Codex's own applier (the real codex binary),
// the result compared byte for byte with an independent oracle: plain array splicing of the intended
// edit on the file as it is when the patch arrives. Valid edits must land exactly; an anchor made stale
// by a change after the model's read must be refused with the current rows; an anchor made stale only
// by this conversation's own earlier edits must be rebased; a patch must never be written partly.
// Side by side, the same logical edits as standard apply_patch text with 3 lines of context (what a
// model writes after reading the file) go through the same applier on the same files.
//
// `npx tsx test/bench/edit-safety.ts [--quick] [--seed=N] [--jobs=N]`, or through `make bench`.
//
// The oracle models Codex's applier as measured: it splits on LF (a CR before LF belongs to the line
// end), new lines take the line end of the file's first line (LF when it has none), every file it
// writes ends with a line end (of that kind); the lines it keeps keep their bytes.
import { mkdirSync, readdirSync, readFileSync, lstatSync, utimesSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { EditedFile } from '../../host/history/call-reply.ts';
import { planPatch, type Plan } from '../../host/hpatch/plan-patch.ts';
import { readWorkspaceFile } from '../../host/hpatch/workspace-files.ts';
import { contentTag, rowHash } from '../../isolates/core-v1/rows.ts';
import { codexApply } from '../support/codex-applier.ts';
import { PROJECT_ROOT } from '../support/codex-cli.ts';
import { seededRandom } from '../support/prng.ts';
import { tempDir } from '../support/temp-dir.ts';

export const DEFAULT_SEED = 0x5eed2026;
const MAX_FILE_BYTES = 256 * 1024;
const CORPUS_FILES = 320;
/** Longer lines mark minified bundles: one such line as patch context overflows the applier's argv (128 KiB per argument). */
const MAX_LINE_CHARS = 4000;
const MIN_LINES = 8;
const CONTEXT = 3;

// ---------------------------------------------------------------------------------------------
// Lines, as Codex's applier sees them (written here, independently of host/ and isolates/).

type Term = '' | '\n' | '\r\n';
interface Line { readonly text: string; readonly term: Term }
/** A line of a later version: `origin` is its index in the version the model read (null: new), `changed` when edited since. */
interface TLine extends Line { readonly origin: number | null; readonly changed: boolean }

function splitL(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    if (nl > start && text.charCodeAt(nl - 1) === 13) out.push({ text: text.slice(start, nl - 1), term: '\r\n' });
    else out.push({ text: text.slice(start, nl), term: '\n' });
    start = nl + 1;
  }
  if (start < text.length) out.push({ text: text.slice(start), term: '' });
  return out;
}

const joinL = (ls: readonly Line[]): string => ls.map((l) => l.text + l.term).join('');
/** The line end Codex gives new lines: the first line's (LF when it has none). */
const lineEnd = (ls: readonly Line[]): Term => (ls[0]?.term || '\n');
const track = (ls: readonly Line[]): TLine[] => ls.map((l, i) => ({ ...l, origin: i, changed: false }));

/** Old lines [s, e) of the current version (0-based) replaced by `lines`. */
interface Span { readonly s: number; readonly e: number; readonly lines: readonly string[] }

/** The file as Codex writes it after replacing the spans: new lines and a missing final line end take the first line's end. */
function spliceT(cur: readonly TLine[], spans: readonly Span[]): TLine[] {
  const term = lineEnd(cur);
  const out: TLine[] = [];
  let at = 0;
  for (const sp of [...spans].sort((a, b) => a.s - b.s)) {
    out.push(...cur.slice(at, sp.s));
    for (const text of sp.lines) out.push({ text, term, origin: null, changed: false });
    at = sp.e;
  }
  out.push(...cur.slice(at));
  return out.map((l) => (l.term === '' ? { ...l, term } : l));
}

// ---------------------------------------------------------------------------------------------
// Edits, in the line numbers of the version they were read from (1-based).

type Op = 'replace' | 'delete' | 'insert_before' | 'insert_after';
/** For inserts from = to = the anchor line. */
interface Hunk { readonly op: Op; readonly from: number; readonly to: number; readonly lines: readonly string[] }

function spanOf(h: Hunk): Span {
  switch (h.op) {
    case 'replace': return { s: h.from - 1, e: h.to, lines: h.lines };
    case 'delete': return { s: h.from - 1, e: h.to, lines: [] };
    case 'insert_before': return { s: h.from - 1, e: h.from - 1, lines: h.lines };
    case 'insert_after': return { s: h.from, e: h.from, lines: h.lines };
  }
}

const anchorLines = (h: Hunk): number[] => (h.op === 'replace' || h.op === 'delete') && h.to !== h.from ? [h.from, h.to] : [h.from];

/**
 * The intended edit carried to the current version by line identity: a replaced or deleted line
 * must still be there, unchanged and contiguous (otherwise the edit would overwrite a change the
 * model never saw: no intended result); an insert goes next to its anchor line even if that changed.
 */
function spansOn(cur: readonly TLine[], hunks: readonly Hunk[]): Span[] | null {
  const pos = new Map<number, number>();
  cur.forEach((l, i) => { if (l.origin !== null) pos.set(l.origin, i); });
  const out: Span[] = [];
  for (const h of hunks) {
    if (h.op === 'replace' || h.op === 'delete') {
      let prev = -1;
      for (let o = h.from - 1; o < h.to; o++) {
        const p = pos.get(o);
        if (p === undefined || cur[p]!.changed || (prev >= 0 && p !== prev + 1)) return null;
        prev = p;
      }
      out.push({ s: pos.get(h.from - 1)!, e: prev + 1, lines: h.op === 'replace' ? h.lines : [] });
    } else {
      const p = pos.get(h.from - 1);
      if (p === undefined) return null;
      out.push({ s: h.op === 'insert_before' ? p : p + 1, e: h.op === 'insert_before' ? p : p + 1, lines: h.lines });
    }
  }
  return out;
}

function intendedOn(cur: readonly TLine[], hunks: readonly Hunk[]): string | null {
  const spans = spansOn(cur, hunks);
  return spans === null ? null : joinL(spliceT(cur, spans));
}

function describe(h: Hunk, lines: readonly Line[]): string {
  const a = (l: number): string => `${l}:${rowHash(lines[l - 1]!.text)}`;
  switch (h.op) {
    case 'replace':
    case 'delete': return `@@ ${h.op} ${a(h.from)}${h.to !== h.from ? `-${a(h.to)}` : ''}`;
    case 'insert_before': return `@@ insert before ${a(h.from)}`;
    case 'insert_after': return `@@ insert after ${a(h.from)}`;
  }
}

interface FileEdit { readonly rel: string; readonly lines: readonly Line[]; readonly hunks: readonly Hunk[] }

/** The hpatch a model writes from rows it read (`lines`: that version). */
function hpatchText(files: readonly FileEdit[], rng: () => number): string {
  const out = ['*** Begin Patch'];
  for (const f of files) {
    out.push(`*** Update File: ${f.rel}`);
    // Hunks mostly in file order, sometimes not: the order is the model's, the meaning is the anchors'.
    const hunks = rng() < 0.2 ? shuffle([...f.hunks], rng) : [...f.hunks].sort((a, b) => a.from - b.from);
    for (const h of hunks) {
      out.push(describe(h, f.lines));
      for (const l of h.lines) out.push(`+${l}`);
    }
  }
  out.push('*** End Patch');
  return `${out.join('\n')}\n`;
}

/** The same edits as standard apply_patch text: 3 lines of context from the version the model read, windows that touch merged. */
function codexText(files: readonly FileEdit[]): string {
  const out = ['*** Begin Patch'];
  for (const f of files) {
    out.push(`*** Update File: ${f.rel}`);
    const spans = f.hunks.map(spanOf).sort((a, b) => a.s - b.s);
    const n = f.lines.length;
    let k = 0;
    while (k < spans.length) {
      let end = k;
      let b = Math.min(n, spans[k]!.e + CONTEXT);
      while (end + 1 < spans.length && Math.max(0, spans[end + 1]!.s - CONTEXT) <= b) b = Math.min(n, Math.max(b, spans[++end]!.e + CONTEXT));
      out.push('@@');
      let o = Math.max(0, spans[k]!.s - CONTEXT);
      for (let j = k; j <= end; j++) {
        const sp = spans[j]!;
        for (; o < sp.s; o++) out.push(` ${f.lines[o]!.text}`);
        for (; o < sp.e; o++) out.push(`-${f.lines[o]!.text}`);
        for (const l of sp.lines) out.push(`+${l}`);
      }
      for (; o < b; o++) out.push(` ${f.lines[o]!.text}`);
      k = end + 1;
    }
  }
  out.push('*** End Patch');
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// The corpus.

interface CorpusFile {
  readonly rel: string;
  readonly kind: string;
  readonly text: string;
  readonly transforms: readonly string[];
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function kindOf(path: string): string {
  const ext = extname(path);
  return ext !== '' && ext !== basename(path) ? ext.toLowerCase() : basename(path).toLowerCase();
}

/** Every eligible text file under node_modules, sorted by path. */
function candidates(): Array<{ path: string; kind: string; text: string }> {
  const root = join(PROJECT_ROOT, 'node_modules');
  const paths: string[] = [];
  const walk = (d: string): void => {
    let names: string[];
    try { names = readdirSync(d).sort(); } catch { return; }
    for (const name of names) {
      const p = join(d, name);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && st.size > 0 && st.size <= MAX_FILE_BYTES) paths.push(p);
    }
  };
  walk(root);
  const out: Array<{ path: string; kind: string; text: string }> = [];
  for (const p of paths.sort()) {
    if (p.endsWith('.map')) continue; // source maps: one JSON line
    const bytes = readFileSync(p);
    if (bytes.includes(0)) continue;
    let text: string;
    try { text = decoder.decode(bytes); } catch { continue; }
    if (/\r(?!\n)/.test(text)) continue; // a lone CR: not a line end for either side (none in the pinned tree)
    const lines = splitL(text);
    if (lines.length < MIN_LINES || lines.some((l) => l.text.length > MAX_LINE_CHARS)) continue;
    out.push({ path: relative(root, p), kind: kindOf(p), text });
  }
  return out;
}

/**
 * `count` files: kinds get a share by the square root of their size (every kind at least one file,
 * so the rare ones are in), files of a kind a seeded sample; then some are turned into CRLF, lose
 * their final newline or gain a BOM.
 */
function buildCorpus(rng: () => number, count: number): { files: CorpusFile[]; eligible: number } {
  const all = candidates();
  const byKind = new Map<string, typeof all>();
  for (const c of all) (byKind.get(c.kind) ?? byKind.set(c.kind, []).get(c.kind)!).push(c);
  const kinds = [...byKind.keys()].sort();
  const weight = kinds.reduce((s, k) => s + Math.sqrt(byKind.get(k)!.length), 0);
  const quota = new Map(kinds.map((k) => [k, Math.min(byKind.get(k)!.length, Math.max(1, Math.floor((count * Math.sqrt(byKind.get(k)!.length)) / weight)))]));
  let total = [...quota.values()].reduce((s, n) => s + n, 0);
  for (let i = 0; total < count && total < all.length; i++) {
    const k = kinds[i % kinds.length]!;
    if (quota.get(k)! < byKind.get(k)!.length) { quota.set(k, quota.get(k)! + 1); total++; }
  }
  const picked: typeof all = [];
  for (const k of kinds) picked.push(...shuffle([...byKind.get(k)!], rng).slice(0, quota.get(k)!));
  picked.sort((a, b) => (a.path < b.path ? -1 : 1));
  const files = picked.map((c) => {
    let text = c.text;
    const transforms: string[] = [];
    const [r1, r2, r3] = [rng(), rng(), rng()];
    if (r1 < 0.12 && !text.includes('\r\n')) { text = text.replace(/\n/g, '\r\n'); transforms.push('crlf'); }
    if (r2 < 0.12 && text.endsWith('\n')) { text = text.replace(/\r?\n$/, ''); transforms.push('no-final-newline'); }
    if (r3 < 0.08 && !text.startsWith('\ufeff')) { text = `\ufeff${text}`; transforms.push('bom'); }
    return { rel: c.path.replace(/[^A-Za-z0-9._/-]/g, '_'), kind: c.kind, text, transforms };
  });
  return { files, eligible: all.length };
}

// ---------------------------------------------------------------------------------------------
// Cases.

const VALID_KINDS = ['replace-1', 'replace-range', 'insert-before', 'insert-after', 'delete', 'multi-hunk', 'multi-file', 'same-text'] as const;
const STALE_KINDS = ['stale-insert-above', 'stale-changed', 'stale-whitespace', 'stale-duplicate', 'multi-file-stale'] as const;
const ANCESTRY_KINDS = ['ancestry-1', 'ancestry-2', 'ancestry-3', 'ancestry-4', 'ancestry-5'] as const;
/** Drawn cases whose anchors still hold (by text) in a version other than the one the model read: kept out of the figures. */
type Aside = 'coincident-stale' | 'coincident-ancestry';
type Kind = (typeof VALID_KINDS)[number] | (typeof STALE_KINDS)[number] | (typeof ANCESTRY_KINDS)[number] | Aside;

const PLAN: ReadonlyArray<readonly [Kind, number]> = [
  ['replace-1', 350], ['replace-range', 300], ['insert-before', 250], ['insert-after', 250], ['delete', 250],
  ['multi-hunk', 300], ['multi-file', 200], ['same-text', 100],
  ['stale-insert-above', 250], ['stale-changed', 250], ['stale-whitespace', 250], ['stale-duplicate', 250], ['multi-file-stale', 200],
  ['ancestry-1', 60], ['ancestry-2', 60], ['ancestry-3', 60], ['ancestry-4', 60], ['ancestry-5', 60],
];

const group = (k: Kind): 'valid' | 'stale' | 'ancestry' | 'coincident' =>
  (VALID_KINDS as readonly string[]).includes(k) ? 'valid' : (STALE_KINDS as readonly string[]).includes(k) ? 'stale' : k.startsWith('coincident') ? 'coincident' : 'ancestry';

interface CaseFile {
  readonly rel: string;
  /** Written into the fresh workspace (for ancestry: the version the model read, before the own edits). */
  readonly start: string;
  /** The file when the final patch arrives. */
  readonly current: string;
  /** The oracle's result of the intended edit on `current`; null: no write is right (it would overwrite a change the model never saw). */
  readonly intended: string | null;
  /** Rows a refusal must show: `N:HASH|text` of each anchor that no longer holds, as the line is now. */
  readonly rows: readonly string[];
}

interface CaseSpec {
  readonly id: number;
  readonly kind: Kind;
  readonly note: string;
  readonly files: readonly CaseFile[];
  /** Own earlier hpatch edits (fresh anchors each), applied before the final patch; `expect` is the file after each. */
  readonly steps: ReadonlyArray<{ readonly hpatch: string; readonly expect: string }>;
  readonly hpatch: string;
  readonly codex: string;
  readonly rewriteSameText: boolean;
}

const WORDS = ['value', 'result', 'config', 'naïve', 'count', '“quoted”', 'handler', '→ next', 'options', 'état', 'buffer', 'résumé'];
const int = (rng: () => number, a: number, b: number): number => a + Math.floor(rng() * (b - a + 1));
const pick = <T>(rng: () => number, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

function shuffle<T>(xs: T[], rng: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

const indentOf = (s: string): string => /^[ \t]*/.exec(s)![0];
const ROW_PREFIX = /^[0-9]+:[0-9a-fA-F]{4}\|/;

/** New text for an edit: unique to the case (so no replace is a no-op and no insert repeats its anchor). */
function newText(rng: () => number, n: number, near: string, tag: string, modifyFirst: boolean): string[] {
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    if (k === 0 && modifyFirst && !ROW_PREFIX.test(near)) out.push(`${near.replace(/[ \t]+$/, '')} /* ${tag} */`);
    else if (k > 0 && k < n - 1 && rng() < 0.1) out.push('');
    else out.push(`${indentOf(near)}${pick(rng, WORDS)}_${tag}_${k} = ${pick(rng, WORDS)};`);
  }
  return out;
}

type HunkOp = 'replace-1' | 'replace-range' | 'insert-before' | 'insert-after' | 'delete';
const HUNK_OPS: readonly HunkOp[] = ['replace-1', 'replace-range', 'insert-before', 'insert-after', 'delete'];

/** One hunk of kind `op` on `lines`, its first line in [lo, hi]. */
function makeHunk(rng: () => number, lines: readonly Line[], op: HunkOp, tag: string, lo = 1, hi = lines.length): Hunk {
  const n = lines.length;
  const L = int(rng, lo, Math.max(lo, Math.min(hi, op === 'replace-range' ? n - 1 : n)));
  const text = (l: number): string => lines[l - 1]!.text;
  switch (op) {
    case 'replace-1': return { op: 'replace', from: L, to: L, lines: newText(rng, rng() < 0.7 ? 1 : int(rng, 2, 3), text(L), tag, rng() < 0.4) };
    case 'replace-range': return { op: 'replace', from: L, to: Math.min(n, L + int(rng, 1, 5)), lines: newText(rng, int(rng, 1, 6), text(L), tag, rng() < 0.3) };
    case 'insert-before': return { op: 'insert_before', from: L, to: L, lines: newText(rng, int(rng, 1, 3), text(L), tag, false) };
    case 'insert-after': return { op: 'insert_after', from: L, to: L, lines: newText(rng, int(rng, 1, 3), text(L), tag, false) };
    case 'delete': return { op: 'delete', from: L, to: Math.min(n, L + int(rng, 0, 3)), lines: [] };
  }
}

/** 1..4 hunks on one file whose spans keep at least one untouched line between them. */
function makeHunks(rng: () => number, lines: readonly Line[], count: number, tag: string): Hunk[] {
  const hunks: Hunk[] = [];
  for (let tries = 0; hunks.length < count && tries < 200; tries++) {
    const h = makeHunk(rng, lines, pick(rng, HUNK_OPS), `${tag}${hunks.length}`);
    const a = spanOf(h);
    if (hunks.every((o) => { const b = spanOf(o); return a.e + 1 <= b.s || b.e + 1 <= a.s; })) hunks.push(h);
  }
  return hunks;
}

const rowOf = (l: number, text: string): string => `${l}:${rowHash(text)}|${text}`;

/** The anchors of `h` that no longer hold by text in `cur`, as the rows a refusal must show. */
function staleRowsOf(read: readonly Line[], cur: readonly Line[], h: Hunk): string[] {
  return anchorLines(h).filter((l) => cur[l - 1]?.text !== read[l - 1]!.text).map((l) => rowOf(l, cur[l - 1]!.text));
}

type External = 'insert-above' | 'changed' | 'whitespace' | 'duplicate';

/** A change made to the file after the model read it, against hunk `h`; null when not possible here. */
function externalChange(rng: () => number, read: readonly Line[], h: Hunk, how: External, tag: string): { cur: TLine[]; what: string } | null {
  const t = track(read);
  const n = read.length;
  const term = lineEnd(read);
  const anchors = anchorLines(h);
  const first = Math.min(...anchors) - 1;
  const extLine = (): string => (rng() < 0.5 ? pick(rng, read).text : `${indentOf(read[first]!.text)}external_${tag}_${int(rng, 0, 99)}();`);
  const ins = (lines: TLine[], at: number, texts: readonly Line[]): TLine[] =>
    [...lines.slice(0, at), ...texts.map((l) => ({ text: l.text, term: l.term || term, origin: null, changed: false })), ...lines.slice(at)];
  switch (how) {
    case 'insert-above': {
      const at = int(rng, 0, first);
      const k = int(rng, 1, 3);
      return { cur: ins(t, at, Array.from({ length: k }, () => ({ text: extLine(), term }))), what: `${k} line(s) inserted before line ${at + 1}` };
    }
    case 'changed':
    case 'whitespace': {
      const l = pick(rng, anchors) - 1;
      const old = read[l]!.text;
      let text: string;
      if (how === 'changed') {
        const other = pick(rng, read).text;
        text = rng() < 0.5 && other.trim() !== old.trim() ? other : `${old.replace(/[ \t]+$/, '')} changed_${tag}`;
      } else {
        const v = int(rng, 0, 3);
        if (v === 0 || old === '') text = `${old}${pick(rng, [' ', '  ', '\t'])}`;
        else if (v === 1) text = `  ${old}`;
        else if (v === 2 && /^( {2,}|\t)/.test(old)) text = old.startsWith('\t') ? old.replace(/^\t/, '    ') : old.replace(/^ {2}( {2})?/, '\t');
        else if (/[ \t]$/.test(old)) text = old.replace(/[ \t]+$/, '');
        else text = old.startsWith(' ') ? old.slice(1) : `\t${old}`;
      }
      if (text === old) return null;
      const cur = t.map((x, i) => (i === l ? { ...x, text, changed: true } : x));
      return { cur, what: `line ${l + 1} ${how === 'changed' ? 'changed' : 'whitespace changed'} to ${JSON.stringify(text.slice(0, 60))}` };
    }
    case 'duplicate': {
      // The block a context patch quotes (the hunk's lines and 3 either side) occurs a second time.
      const sp = spanOf(h);
      const ws = Math.max(0, sp.s - CONTEXT);
      const we = Math.min(n, sp.e + CONTEXT);
      const block = read.slice(ws, we);
      if (ws >= 1 && (we > n - 1 || rng() < 0.5)) {
        const at = int(rng, 0, ws - 1);
        return { cur: ins(t, at, block), what: `a copy of lines ${ws + 1}-${we} inserted before line ${at + 1}` };
      }
      if (we > n - 1) return null;
      const below = ins(t, int(rng, we, n - 1), block);
      const at = int(rng, 0, ws);
      const k = int(rng, 1, 3);
      return { cur: ins(below, at, Array.from({ length: k }, () => ({ text: extLine(), term }))), what: `a copy of lines ${ws + 1}-${we} inserted below them, ${k} line(s) before line ${at + 1}` };
    }
  }
}

interface GenContext {
  readonly corpus: readonly CorpusFile[];
  readonly lines: ReadonlyArray<readonly Line[]>;
  readonly coincidences: Record<Aside, number>;
  readonly coincident: CaseSpec[];
  readonly coincidentCap: number;
}

function setAside(ctx: GenContext, spec: CaseSpec & { kind: Aside }): void {
  ctx.coincidences[spec.kind]++;
  if (ctx.coincident.filter((c) => c.kind === spec.kind).length < ctx.coincidentCap) ctx.coincident.push(spec);
}

/** Builds case `id` of kind `kind` on corpus file `fi` (others drawn for multi-file cases); null when this file cannot host it. */
function makeCase(ctx: GenContext, id: number, kind: Kind, fi: number, rng: () => number): CaseSpec | null {
  const tag = `e${id}`;
  const corpus = ctx.corpus;
  const others = (k: number): number[] => {
    const out = [fi];
    while (out.length < k) { const j = int(rng, 0, corpus.length - 1); if (!out.includes(j)) out.push(j); }
    return out;
  };
  const valid = (idx: readonly number[], hunks: readonly Hunk[][], note: string, rewrite = false): CaseSpec => {
    const fes = idx.map((j, k) => ({ rel: corpus[j]!.rel, lines: ctx.lines[j]!, hunks: hunks[k]! }));
    return {
      id, kind, note, steps: [], rewriteSameText: rewrite,
      files: fes.map((f, k) => ({ rel: f.rel, start: corpus[idx[k]!]!.text, current: corpus[idx[k]!]!.text, intended: intendedOn(track(f.lines), f.hunks), rows: [] })),
      hpatch: hpatchText(fes, rng), codex: codexText(fes),
    };
  };
  const read = ctx.lines[fi]!;
  switch (kind) {
    case 'replace-1': case 'replace-range': case 'insert-before': case 'insert-after': case 'delete':
      return valid([fi], [[makeHunk(rng, read, kind, tag)]], kind);
    case 'same-text':
      return valid([fi], [[makeHunk(rng, read, pick(rng, HUNK_OPS), tag)]], 'file rewritten with the same bytes after the read', true);
    case 'multi-hunk': {
      const hunks = makeHunks(rng, read, int(rng, 2, 4), tag);
      return hunks.length < 2 ? null : valid([fi], [hunks], `${hunks.length} hunks`);
    }
    case 'multi-file': {
      const idx = others(int(rng, 2, 3));
      return valid(idx, idx.map((j, k) => makeHunks(rng, ctx.lines[j]!, int(rng, 1, 2), `${tag}f${k}`)), `${idx.length} files`);
    }
    case 'stale-insert-above': case 'stale-changed': case 'stale-whitespace': case 'stale-duplicate': case 'multi-file-stale': {
      const idx = kind === 'multi-file-stale' ? others(int(rng, 2, 3)) : [fi];
      const staleAt = int(rng, 0, idx.length - 1);
      const how: External = kind === 'multi-file-stale' ? pick(rng, ['insert-above', 'changed', 'whitespace'] as const) : (kind.slice('stale-'.length) as External);
      const hunks = idx.map((j, k) => [makeHunk(rng, ctx.lines[j]!, pick(rng, HUNK_OPS), `${tag}f${k}`)]);
      const j = idx[staleAt]!;
      const ext = externalChange(rng, ctx.lines[j]!, hunks[staleAt]![0]!, how, tag);
      if (ext === null) return null;
      const rows = staleRowsOf(ctx.lines[j]!, ext.cur, hunks[staleAt]![0]!);
      const fes = idx.map((x, k) => ({ rel: corpus[x]!.rel, lines: ctx.lines[x]!, hunks: hunks[k]! }));
      const files: CaseFile[] = idx.map((x, k) => {
        const cur = k === staleAt ? ext.cur : track(ctx.lines[x]!);
        return { rel: corpus[x]!.rel, start: joinL(cur), current: joinL(cur), intended: intendedOn(cur, hunks[k]!), rows: k === staleAt ? rows : [] };
      });
      const spec: CaseSpec = {
        id, kind, note: `${corpus[j]!.rel}: ${ext.what} (${describe(hunks[staleAt]![0]!, ctx.lines[j]!)})`,
        files, steps: [], rewriteSameText: false, hpatch: hpatchText(fes, rng), codex: codexText(fes),
      };
      if (rows.length > 0) return spec;
      // Every anchor's line still has the text the model read: not a stale anchor. Kept aside (see the report).
      setAside(ctx, { ...spec, kind: 'coincident-stale', note: `${kind}: ${spec.note}` });
      return null;
    }
    default:
      return ancestryCase(ctx, id, kind, fi, rng, Number(kind.slice('ancestry-'.length)));
  }
}

/**
 * `depth` own hpatch edits (each with fresh anchors from the previous report), then an edit whose
 * anchors were read before all of them. The own edits never touch the final edit's lines (or land
 * inside its range), and the first one changes the line count above it, so its anchors moved.
 */
function ancestryCase(ctx: GenContext, id: number, kind: Kind, fi: number, rng: () => number, depth: number): CaseSpec | null {
  const read = ctx.lines[fi]!;
  const rel = ctx.corpus[fi]!.rel;
  const final = makeHunk(rng, read, pick(rng, HUNK_OPS), `e${id}`, 4);
  const fs = spanOf(final);
  const guarded = final.op === 'replace' || final.op === 'delete' ? [fs.s, fs.e - 1] : [final.from - 1, final.from - 1];
  for (let attempt = 0; attempt < 20; attempt++) {
    let cur = track(read);
    const versions: TLine[][] = [];
    const steps: Array<{ hpatch: string; expect: string }> = [];
    let ok = true;
    for (let i = 0; i < depth && ok; i++) {
      const pos = (o: number): number => cur.findIndex((l) => l.origin === o);
      const [gs, ge] = [pos(guarded[0]!), pos(guarded[1]!)];
      const curLines: Line[] = cur;
      let h: Hunk | null = null;
      for (let tries = 0; tries < 50 && h === null; tries++) {
        const op = i === 0 ? pick(rng, ['insert-before', 'insert-after', 'delete', 'replace-range'] as const) : pick(rng, HUNK_OPS);
        const c = i === 0 ? makeHunk(rng, curLines, op, `e${id}s${i}`, 1, Math.max(1, gs - 1)) : makeHunk(rng, curLines, op, `e${id}s${i}`);
        const sp = spanOf(c);
        if (sp.e > sp.s && sp.s <= ge && sp.e - 1 >= gs) continue; // removes a line the final edit names
        if (sp.e === sp.s && sp.s > gs && sp.s <= ge) continue; // lands inside the final edit's range
        if (i === 0 && (sp.e > gs || sp.lines.length === sp.e - sp.s)) continue; // the first moves the lines below it
        h = c;
      }
      if (h === null) { ok = false; break; }
      steps.push({ hpatch: hpatchText([{ rel, lines: curLines, hunks: [h] }], rng), expect: '' });
      cur = spliceT(cur, [spanOf(h)]);
      versions.push(cur);
      steps[steps.length - 1] = { ...steps[steps.length - 1]!, expect: joinL(cur) };
    }
    if (!ok) continue;
    const now = cur.findIndex((l) => l.origin === final.from - 1);
    if (now === final.from - 1) continue; // the own edits cancelled out: nothing to rebase
    const fe = [{ rel, lines: read, hunks: [final] }];
    const spec: CaseSpec = {
      id, kind, note: `${rel}: ${depth} own edit(s), then ${describe(final, read)} read before them (its line is now ${now + 1})`,
      files: [{ rel, start: ctx.corpus[fi]!.text, current: joinL(cur), intended: intendedOn(cur, [final]), rows: [] }],
      steps, rewriteSameText: false, hpatch: hpatchText(fe, rng), codex: codexText(fe),
    };
    // The anchors also hold (by text, at their line numbers) in a version after the read — the
    // current one or one an own edit left: LINE:HASH alone cannot say which version it was read from.
    const alsoIn = versions.findIndex((v) => anchorLines(final).every((l) => v[l - 1]?.text === read[l - 1]!.text));
    if (alsoIn < 0) return spec;
    setAside(ctx, { ...spec, kind: 'coincident-ancestry', note: `${kind}: ${spec.note}; the anchor text is also on that line after own edit ${alsoIn + 1}` });
  }
  return null;
}

function buildCases(seed: number, corpus: readonly CorpusFile[], scale: number): { cases: CaseSpec[]; coincident: CaseSpec[]; coincidences: Record<Aside, number> } {
  const ctx: GenContext = { corpus, lines: corpus.map((f) => splitL(f.text)), coincidences: { 'coincident-stale': 0, 'coincident-ancestry': 0 }, coincident: [], coincidentCap: Math.ceil(100 * scale) };
  const order = shuffle(corpus.map((_, i) => i), seededRandom(seed ^ 0x0c0ffee));
  const cases: CaseSpec[] = [];
  let id = 0;
  for (const [kind, n] of PLAN) {
    for (let k = 0; k < Math.ceil(n * scale); k++, id++) {
      const rng = seededRandom((seed ^ Math.imul(id + 1, 0x9e3779b1)) >>> 0);
      for (let attempt = 0; ; attempt++) {
        if (attempt > 200) throw new Error(`cannot build case ${id} (${kind})`);
        const spec = makeCase(ctx, id, kind, order[(id + attempt * 7919) % order.length]!, rng);
        if (spec !== null) { cases.push(spec); break; }
      }
    }
  }
  return { cases, coincident: ctx.coincident.map((c, i) => ({ ...c, id: 1_000_000 + i })), coincidences: ctx.coincidences };
}

// ---------------------------------------------------------------------------------------------
// Running a case (in a worker): fresh workspace, plan, apply, compare.

type FileState = 'intended' | 'unchanged' | 'other';
interface Outcome { readonly states: FileState[]; readonly status: number | null; readonly spawnError: boolean }

interface CaseResult {
  readonly id: number;
  readonly kind: Kind;
  readonly spawns: number;
  readonly hpatch: {
    readonly planned: boolean;
    readonly refusedWithRows: boolean;
    readonly rebased: boolean;
    readonly tagsOk: boolean;
    readonly stepsOk: number;
    readonly stepsFailed: string | null;
    /** Ambiguity refusals the simulated model answered by naming the tag of its rows. */
    readonly tagRetries: number;
    readonly outcome: Outcome;
  };
  readonly codex: Outcome;
  readonly repro: Repro | null;
}

interface Repro {
  readonly kind: Kind;
  readonly note: string;
  readonly why: string;
  readonly hpatch: string;
  readonly planned: string | null;
  readonly codexOutput: string;
  readonly files: ReadonlyArray<{ rel: string; current: string; intended: string | null; actual: string | null }>;
}

function readOr(path: string): Buffer | null {
  try { return readFileSync(path); } catch { return null; }
}

function statesOf(dir: string, files: readonly CaseFile[]): FileState[] {
  return files.map((f) => {
    const now = readOr(join(dir, f.rel));
    if (now !== null && f.intended !== null && now.equals(Buffer.from(f.intended, 'utf8'))) return 'intended';
    if (now !== null && now.equals(Buffer.from(f.current, 'utf8'))) return 'unchanged';
    return 'other';
  });
}

function workspace(files: readonly CaseFile[], which: 'start' | 'current'): { dir: string; cleanup: () => void } {
  const t = tempDir('bench-edit-safety');
  for (const f of files) {
    const p = join(t.dir, f.rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, f[which]);
  }
  return t;
}

function apply(patch: string, cwd: string): { status: number | null; output: string; spawnError: boolean } {
  const r = codexApply(patch, cwd);
  return { ...r, spawnError: r.status === null };
}

/** The apply_patch text Codex is handed (workspace files always go through Codex's applier). */
function codexPatchOf(plan: Extract<Plan, { ok: true }>): string {
  if (!('patch' in plan)) throw new Error('hpatch planned a router write for a workspace file');
  return plan.patch;
}

/**
 * What the refusal of an ambiguous hunk asks the model to do, done as a model would: name the tag
 * of the version its rows came from (`*** Tag:` after each `*** Update File:`) and send it again.
 */
function planAsModel(text: string, readTag: string, input: Omit<Parameters<typeof planPatch>[0], 'text'>, retried: { n: number }): Plan {
  const plan = planPatch({ ...input, text });
  if (plan.ok || !plan.refusal.includes('is ambiguous')) return plan;
  retried.n++;
  return planPatch({ ...input, text: text.replace(/^(\*\*\* Update File: .*\n(?:\*\*\* Move to: .*\n)?)/gm, `$1*** Tag: ${readTag}\n`) });
}

function runCase(spec: CaseSpec): CaseResult {
  let spawns = 0;
  // hpatch: the router's plan, Codex's applier.
  const t = workspace(spec.files, 'start');
  let h: CaseResult['hpatch'];
  let repro: Repro | null = null;
  try {
    const ws = { cwd: t.dir, roots: [t.dir] };
    const read = (abs: string) => readWorkspaceFile(ws, abs);
    if (spec.rewriteSameText) {
      for (const f of spec.files) {
        const p = join(t.dir, f.rel);
        writeFileSync(p, f.current);
        utimesSync(p, new Date(Date.now() + 10_000), new Date(Date.now() + 10_000));
      }
    }
    const history: EditedFile[] = [];
    let stepsOk = 0;
    let stepsFailed: string | null = null;
    const retried = { n: 0 };
    for (const [i, step] of spec.steps.entries()) {
      // (each own edit's anchors are rows of the file as it is now: the previous report's)
      const before = readOr(join(t.dir, spec.files[0]!.rel)) ?? Buffer.alloc(0);
      const plan = planAsModel(step.hpatch, contentTag(before), { workspace: ws, history, read }, retried);
      if (!plan.ok) { stepsFailed = `own edit ${i + 1} refused: ${plan.refusal}`; break; }
      const planned = codexPatchOf(plan);
      const r = apply(planned, t.dir);
      spawns++;
      const now = readOr(join(t.dir, spec.files[0]!.rel));
      if (r.status !== 0 || now === null || !now.equals(Buffer.from(step.expect, 'utf8'))) {
        stepsFailed = `own edit ${i + 1}: applier exit ${r.status}, ${now !== null && now.equals(Buffer.from(step.expect, 'utf8')) ? 'bytes as intended' : 'bytes differ from the oracle'}: ${r.output.trim()}`;
        repro = { kind: spec.kind, note: `${spec.note} — own edit ${i + 1}`, why: stepsFailed, hpatch: step.hpatch, planned, codexOutput: r.output, files: [{ rel: spec.files[0]!.rel, current: '(after the previous own edits)', intended: step.expect, actual: now?.toString('utf8') ?? null }] };
        break;
      }
      history.push(...plan.files);
      stepsOk++;
    }
    if (stepsFailed !== null) {
      h = { planned: false, refusedWithRows: false, rebased: false, tagsOk: true, stepsOk, stepsFailed, tagRetries: retried.n, outcome: { states: statesOf(t.dir, spec.files), status: null, spawnError: false } };
    } else {
      // The final edit's rows were read from the files as they were at the start.
      const plan = planAsModel(spec.hpatch, contentTag(Buffer.from(spec.files[0]!.start, 'utf8')), { workspace: ws, history, read }, retried);
      if (!plan.ok) {
        const rowsShown = spec.files.every((f) => f.rows.every((r) => plan.refusal.includes(r)));
        const states = statesOf(t.dir, spec.files);
        h = { planned: false, refusedWithRows: rowsShown && plan.refusal.includes('nothing was written') && spec.files.some((f) => f.rows.length > 0), rebased: false, tagsOk: true, stepsOk, stepsFailed, tagRetries: retried.n, outcome: { states, status: null, spawnError: false } };
        if (group(spec.kind) !== 'stale' && group(spec.kind) !== 'coincident') {
          repro = { kind: spec.kind, note: spec.note, why: `valid edit refused: ${plan.refusal}`, hpatch: spec.hpatch, planned: null, codexOutput: '', files: spec.files.map((f) => ({ rel: f.rel, current: f.current, intended: f.intended, actual: null })) };
        }
      } else {
        const planned = codexPatchOf(plan);
        const r = apply(planned, t.dir);
        spawns++;
        const states = statesOf(t.dir, spec.files);
        const tagsOk = plan.files.every((f) => f.after === null || contentTag(readOr(f.path) ?? Buffer.alloc(0)) === f.after);
        h = { planned: true, refusedWithRows: false, rebased: plan.report.includes('\nrebased: '), tagsOk, stepsOk, stepsFailed, tagRetries: retried.n, outcome: { states, status: r.status, spawnError: r.spawnError } };
        if (!states.every((s) => s === 'intended') && (group(spec.kind) !== 'coincident' || states.includes('other'))) {
          const why = states.includes('other') ? (group(spec.kind) === 'stale' ? 'stale patch written' : group(spec.kind) === 'coincident' ? 'written at the line that now holds the anchor text, not the line the model read' : 'written, bytes differ from the oracle') : states.includes('intended') ? 'partial write' : `not applied (applier exit ${r.status})`;
          repro = {
            kind: spec.kind, note: spec.note, why, hpatch: spec.hpatch, planned, codexOutput: r.output,
            files: spec.files.map((f) => ({ rel: f.rel, current: f.current, intended: f.intended, actual: readOr(join(t.dir, f.rel))?.toString('utf8') ?? null })),
          };
        }
      }
    }
  } finally {
    t.cleanup();
  }
  // The same logical edits as a context patch, on the same current files.
  const c = workspace(spec.files, 'current');
  let codex: Outcome;
  try {
    const r = apply(spec.codex, c.dir);
    spawns++;
    codex = { states: statesOf(c.dir, spec.files), status: r.status, spawnError: r.spawnError };
  } finally {
    c.cleanup();
  }
  return { id: spec.id, kind: spec.kind, spawns, hpatch: h, codex, repro };
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === 'edit-safety') {
  const { cases } = workerData as { cases: CaseSpec[] };
  parentPort!.postMessage(cases.map(runCase));
}

function runShards(cases: readonly CaseSpec[], jobs: number): Promise<CaseResult[]> {
  const shards = Array.from({ length: jobs }, (_, k) => cases.filter((_, i) => i % jobs === k));
  return Promise.all(shards.map((shard) => new Promise<CaseResult[]>((res, rej) => {
    const w = new Worker(new URL('./ts-worker.mjs', import.meta.url), { workerData: { entry: import.meta.url, role: 'edit-safety', cases: shard } });
    w.once('message', (m: CaseResult[]) => { res(m); void w.terminate(); });
    w.once('error', rej);
    w.once('exit', (code) => { if (code !== 0 && code !== 1) rej(new Error(`edit-safety worker exited ${code}`)); });
  }))).then((parts) => parts.flat().sort((a, b) => a.id - b.id));
}

// ---------------------------------------------------------------------------------------------
// Figures.

const allIntended = (o: Outcome): boolean => o.states.every((s) => s === 'intended');
const wrong = (o: Outcome): boolean => o.states.includes('other');
const written = (o: Outcome): boolean => o.states.some((s) => s !== 'unchanged');
const partial = (o: Outcome): boolean => o.states.length > 1 && written(o) && o.states.includes('unchanged');
const codexRefused = (o: Outcome): boolean => !written(o) && o.status !== 0;

function pct(n: number, d: number): string {
  return d === 0 ? '—' : `${n}/${d} (${((100 * n) / d).toFixed(n === d || n === 0 ? 0 : 2)}%)`;
}

function reproText(r: Repro): string {
  const out = [`- ${r.kind}: ${r.why}`, `  ${r.note}`];
  for (const f of r.files) {
    const clip = (s: string | null): string => (s === null ? 'null' : s.length > 4000 ? `${JSON.stringify(s.slice(0, 4000))} (first 4000 of ${s.length} chars)` : JSON.stringify(s));
    out.push(`  ${f.rel} current: ${clip(f.current)}`, `  ${f.rel} intended: ${clip(f.intended)}`, `  ${f.rel} actual: ${clip(f.actual)}`);
  }
  out.push(`  hpatch: ${JSON.stringify(r.hpatch)}`, `  planned: ${JSON.stringify(r.planned)}`, `  applier: ${JSON.stringify(r.codexOutput.trim())}`);
  return out.join('\n');
}

export interface EditSafetyOptions { readonly quick?: boolean; readonly seed?: number; readonly jobs?: number }

export async function benchEditSafety(opts: EditSafetyOptions = {}): Promise<string> {
  const t0 = performance.now();
  const seed = (opts.seed ?? DEFAULT_SEED) >>> 0;
  const scale = opts.quick ? 0.2 : 1;
  const jobs = Math.max(1, opts.jobs ?? Math.min(2, availableParallelism()));
  const { files: corpus, eligible } = buildCorpus(seededRandom(seed), opts.quick ? 100 : CORPUS_FILES);
  const { cases, coincident, coincidences } = buildCases(seed, corpus, scale);
  const tGen = performance.now();
  const results = await runShards([...cases, ...coincident], jobs);
  const tRun = performance.now();
  const main = results.filter((r) => group(r.kind) !== 'coincident');
  const aside = results.filter((r) => group(r.kind) === 'coincident');

  const of = (g: ReturnType<typeof group>): CaseResult[] => main.filter((r) => group(r.kind) === g);
  const valid = of('valid');
  const stale = of('stale');
  const ancestry = of('ancestry');
  const multi = main.filter((r) => r.hpatch.outcome.states.length > 1);
  const steps = main.reduce((s, r) => s + r.hpatch.stepsOk + (r.hpatch.stepsFailed !== null ? 1 : 0), 0);
  const stepsOk = main.reduce((s, r) => s + r.hpatch.stepsOk, 0);
  const spawns = results.reduce((s, r) => s + r.spawns, 0);
  const spawnErrors = results.filter((r) => r.hpatch.outcome.spawnError || r.codex.spawnError).length;
  const count = (rs: readonly CaseResult[], f: (r: CaseResult) => boolean): number => rs.filter(f).length;

  const kinds = new Map<string, number>();
  for (const f of corpus) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
  const kindList = [...kinds].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, n]) => `${n} ${k}`).join(', ');
  const tf = (name: string): number => corpus.filter((f) => f.transforms.includes(name)).length;
  const natural = (p: (t: string) => boolean): number => corpus.filter((f) => p(f.text)).length;

  const hValid = count(valid, (r) => allIntended(r.hpatch.outcome));
  const cValid = count(valid, (r) => allIntended(r.codex));
  const hRefused = count(stale, (r) => r.hpatch.refusedWithRows && !written(r.hpatch.outcome));
  const hWrong = count(main, (r) => wrong(r.hpatch.outcome));
  const cWrong = count(main, (r) => wrong(r.codex));
  const hAnc = count(ancestry, (r) => allIntended(r.hpatch.outcome));
  const hAncRebased = count(ancestry, (r) => allIntended(r.hpatch.outcome) && r.hpatch.rebased);
  const cAnc = count(ancestry, (r) => allIntended(r.codex));
  const hPartial = count(multi, (r) => partial(r.hpatch.outcome));
  const cPartial = count(multi, (r) => partial(r.codex));
  const goal = (ok: boolean): string => (ok ? 'met' : '**not met**');

  const out: string[] = [];
  out.push(`Edit safety corpus (seed ${seed} = 0x${seed.toString(16)}; ${jobs} worker${jobs === 1 ? '' : 's'}; cases built in ${((tGen - t0) / 1000).toFixed(1)} s, run in ${((tRun - tGen) / 1000).toFixed(1)} s, ${spawns} applier runs)`);
  out.push(`files: ${corpus.length} of ${eligible} eligible under node_modules (UTF-8, ≤ 256 KiB, ≥ ${MIN_LINES} lines, no line over ${MAX_LINE_CHARS} chars): ${kindList}`);
  out.push(`line ends: ${natural((t) => t.includes('\r\n'))} CRLF (${tf('crlf')} converted), ${natural((t) => !t.endsWith('\n'))} without a final newline (${tf('no-final-newline')} cut), ${natural((t) => t.startsWith('\ufeff'))} with a BOM (${tf('bom')} added)`);
  out.push(`cases: ${main.length} hpatch cases (${valid.length} valid, ${stale.length} stale after the read, ${ancestry.length} own-ancestry chains with ${steps} own earlier edits), each also as a 3-line-context apply_patch`);
  out.push('');
  out.push('| figure | goal | hpatch | | Codex apply_patch, 3 lines of context |');
  out.push('|---|---|---|---|---|');
  out.push(`| valid edits applied byte-exactly | 100% | ${pct(hValid, valid.length)} | ${goal(hValid === valid.length)} | ${pct(cValid, valid.length)} |`);
  out.push(`| stale anchors refused with fresh rows | 100% | ${pct(hRefused, stale.length)} | ${goal(hRefused === stale.length)} | refused (no rows): ${pct(count(stale, (r) => codexRefused(r.codex)), stale.length)}; applied as intended on the shifted file: ${count(stale, (r) => allIntended(r.codex))} |`);
  out.push(`| wrong-line edits (written ≠ intended) | 0 | ${hWrong} of ${main.length} | ${goal(hWrong === 0)} | ${cWrong} of ${main.length} (wrong place or over the external change) |`);
  out.push(`| own-ancestry rebased and exact | 100% | ${pct(hAnc, ancestry.length)} (${hAncRebased} reported as rebased) | ${goal(hAnc === ancestry.length)} | applied as intended: ${pct(cAnc, ancestry.length)} |`);
  out.push(`| partial multi-file writes | 0 | ${hPartial} of ${multi.length} | ${goal(hPartial === 0)} | ${cPartial} of ${multi.length} |`);
  out.push(`| aside (not above): written ≠ intended where the anchor text also holds in a later version | — | ${count(aside, (r) => wrong(r.hpatch.outcome))} of ${aside.length} | | ${count(aside, (r) => wrong(r.codex))} of ${aside.length} |`);
  out.push('');
  out.push('| case kind | cases | hpatch exact | hpatch refused with rows | hpatch wrong | hpatch partial | Codex as intended | Codex wrong place / overwrite | Codex refused | Codex partial |');
  out.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const k of [...VALID_KINDS, ...STALE_KINDS, ...ANCESTRY_KINDS]) {
    const rs = main.filter((r) => r.kind === k);
    const cell = (f: (r: CaseResult) => boolean): number => count(rs, f);
    out.push(`| ${k} | ${rs.length} | ${cell((r) => allIntended(r.hpatch.outcome))} | ${cell((r) => r.hpatch.refusedWithRows)} | ${cell((r) => wrong(r.hpatch.outcome))} | ${cell((r) => partial(r.hpatch.outcome))} | ${cell((r) => allIntended(r.codex))} | ${cell((r) => wrong(r.codex))} | ${cell((r) => codexRefused(r.codex))} | ${cell((r) => partial(r.codex))} |`);
  }
  out.push('');
  out.push(`own earlier edits of the ancestry chains (fresh anchors) applied byte-exactly: ${pct(stepsOk, steps)}; new-tag checks failed: ${count(main, (r) => !r.hpatch.tagsOk)}; applier could not be started: ${spawnErrors}`);
  out.push(`ambiguous hunks refused (anchors holding in two versions at different lines), then sent again with "*** Tag:" as the refusal asks: ${[...main, ...aside].reduce((s, r) => s + r.hpatch.tagRetries, 0)} (in ${count([...main, ...aside], (r) => r.hpatch.tagRetries > 0)} cases)`);
  for (const k of ['coincident-stale', 'coincident-ancestry'] as const) {
    const rs = aside.filter((r) => r.kind === k);
    const what = k === 'coincident-stale'
      ? 'drawn stale changes left every anchored line with the text the model read (a blank line, a repeated "}"…), so the anchors hold in the current file'
      : 'drawn own-ancestry chains left the final edit\'s anchor text on the same line numbers in a later version (the current one or one an own edit left), so LINE:HASH also names a line of that version';
    out.push(`aside, not in the figures: ${coincidences[k]} ${what}; ${rs.length} of them run: hpatch wrote ≠ the oracle (the line by identity) in ${count(rs, (r) => wrong(r.hpatch.outcome))}, ` +
      `as intended in ${count(rs, (r) => allIntended(r.hpatch.outcome))}, refused ${count(rs, (r) => !r.hpatch.planned)}; Codex wrong ${count(rs, (r) => wrong(r.codex))}, as intended ${count(rs, (r) => allIntended(r.codex))}, refused ${count(rs, (r) => codexRefused(r.codex))}`);
  }
  const repros = main.filter((r) => r.repro !== null);
  if (repros.length > 0) {
    out.push('', `hpatch cases that did not end as they should (${repros.length}; the first 3):`);
    for (const r of repros.slice(0, 3)) out.push(reproText(r.repro!));
  }
  const asideWrong = aside.filter((r) => r.repro !== null);
  if (asideWrong.length > 0) {
    out.push('', `aside cases hpatch wrote at another line than the one read (${asideWrong.length}; the first 3):`);
    for (const r of asideWrong.slice(0, 3)) out.push(`- ${r.repro!.note}\n  hpatch: ${JSON.stringify(r.repro!.hpatch)}`);
  }
  return out.join('\n');
}

const entry = process.argv[1];
if (isMainThread && entry !== undefined && import.meta.url === pathToFileURL(resolve(entry)).href) {
  const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const seedArg = arg('seed');
  const jobsArg = arg('jobs');
  console.log(await benchEditSafety({
    quick: process.argv.includes('--quick'),
    ...(seedArg !== undefined ? { seed: Number(seedArg) } : {}),
    ...(jobsArg !== undefined ? { jobs: Number(jobsArg) } : {}),
  }));
}
