// fast-parser.ts vs mvdan-sh: on every script fastParse accepts it must return exactly the JSON
// AST mvdanParse gives; it must decline (undefined) every script mvdan-sh rejects, and never throw.
// Corpus: every fixtures/interp/*.cases script (bash cases in both modes), every snippet of
// fixtures/interp/parse-corpus.txt (as is and with a final newline; bash snippets in POSIX mode
// too), and deterministic mutations of both (deleted/duplicated bytes, inserted tokens).
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mvdanParse } from '../../../host/interp/syntax/parser.ts';
import { fastParse } from '../../../host/interp/syntax/fast-parser.ts';
import { loadCases } from '../harness.ts';
import { seededRandom } from '../../support/prng.ts';

/** Least share of the scripts mvdan-sh parses (fixtures + parse-corpus.txt) that fastParse must accept. */
const MIN_ACCEPT_RATIO = 0.92; // 0.936 when set; raise it as the fast parser grows
/** Failing scripts reported per test (each with its first difference). */
const MAX_REPORTED = 20;
const VARIANTS_PER_SCRIPT = 5;
const SEED = 0x5eed2024;

const fixtureDir = path.resolve('fixtures/interp');
const corpusFile = path.join(fixtureDir, 'parse-corpus.txt');

interface Script {
  label: string;
  /** the JS string mvdanParse gets */
  src: string;
  /** its UTF-8 bytes as a latin1 string: what fastParse gets */
  bytes: string;
  posix: boolean;
  /** parse-corpus.txt flags (designated mode only) */
  common?: boolean;
  error?: boolean;
}

interface Outcome {
  /** mvdan-sh's AST through a JSON round trip, or undefined when it threw */
  want: unknown;
  wantErr?: string;
  /** fastParse's result through a JSON round trip (undefined: declined) */
  got: unknown;
  gotThrew?: string;
}

const toBytes = (src: string): string => Buffer.from(src, 'utf8').toString('latin1');
const fromBytes = (bytes: string): string => Buffer.from(bytes, 'latin1').toString('utf8');
const json = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

function script(label: string, src: string, posix: boolean, flags?: Set<string>): Script {
  return { label, src, bytes: toBytes(src), posix, common: flags?.has('common'), error: flags?.has('error') };
}

// ---- corpus -------------------------------------------------------------------------------

function fixtureScripts(): Script[] {
  const out: Script[] = [];
  for (const f of fs.readdirSync(fixtureDir).filter((n) => n.endsWith('.cases')).sort()) {
    for (const c of loadCases(path.join(fixtureDir, f))) {
      out.push(script(`${f}: ${c.name} [${c.posix ? 'posix' : 'bash'}]`, c.script, !!c.posix));
      if (!c.posix) out.push(script(`${f}: ${c.name} [bash case, posix mode]`, c.script, true));
    }
  }
  return out;
}

interface Snippet { line: number; src: string; flags: Set<string> }

/** parse-corpus.txt: snippets after separator lines `#---` (flags: posix, common, error). */
function corpusSnippets(): Snippet[] {
  const lines = fs.readFileSync(corpusFile, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const out: Snippet[] = [];
  let cur: Snippet | undefined;
  let body: string[] = [];
  const flush = (): void => { if (cur) { cur.src = body.join('\n'); out.push(cur); } body = []; };
  lines.forEach((l, i) => {
    const m = /^#---((?: [a-z]+)*)$/.exec(l);
    if (m) {
      flush();
      const flags = new Set(m[1]!.trim().split(' ').filter(Boolean));
      for (const f of flags) if (!['posix', 'common', 'error'].includes(f)) throw new Error(`parse-corpus.txt:${i + 1}: unknown flag ${f}`);
      cur = { line: i + 2, src: '', flags };
    } else if (cur) body.push(l);
  });
  flush();
  return out;
}

function corpusScripts(snippets: Snippet[]): Script[] {
  const out: Script[] = [];
  for (const s of snippets) {
    const posix = s.flags.has('posix');
    const mode = posix ? 'posix' : 'bash';
    out.push(script(`parse-corpus.txt:${s.line} [${mode}]`, s.src, posix, s.flags));
    out.push(script(`parse-corpus.txt:${s.line} + newline [${mode}]`, s.src + '\n', posix));
    if (!posix) out.push(script(`parse-corpus.txt:${s.line} [posix mode]`, s.src, true));
  }
  return out;
}

// ---- deterministic mutations ----------------------------------------------------------------


function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Inserted tokens, as byte strings ('\xc3\xa9' is é in UTF-8; '\xff' is an invalid byte). */
const TOKENS = [';', '&', '|', '(', ')', '{', '}', "'", '"', '`', '$', '\\', '\n', ' ', '#', '<<', '>', '[[', ']]', '((', '))',
  'if', 'fi', 'do', 'done', 'case', 'esac', 'in', ';;', '$(', '${', '}', '=', '\r', '\t', '\x00', '\xc3\xa9', '\xff',
  '<<-', '<<<', '&&', '||', '!', '[', ']', '*', '@(', '~', '\\\n', '$((', '`\\`', '<(', '>&', '2>', '{a,b}', '%', '/', ':', '-', '+', '0', 'x'];

function mutate(bytes: string, rnd: () => number): { bytes: string; what: string } {
  const pick = (n: number): number => Math.floor(rnd() * n);
  const op = bytes.length === 0 ? 2 : pick(4);
  if (op === 0) {
    const i = pick(bytes.length);
    return { bytes: bytes.slice(0, i) + bytes.slice(i + 1), what: `delete ${JSON.stringify(bytes[i])} at ${i}` };
  }
  if (op === 1) {
    const i = pick(bytes.length);
    return { bytes: bytes.slice(0, i + 1) + bytes.slice(i), what: `duplicate ${JSON.stringify(bytes[i])} at ${i}` };
  }
  const i = pick(bytes.length + 1);
  const tok = TOKENS[pick(TOKENS.length)]!;
  return { bytes: bytes.slice(0, i) + tok + bytes.slice(i), what: `insert ${JSON.stringify(tok)} at ${i}` };
}

function variantScripts(bases: Script[]): Script[] {
  const out: Script[] = [];
  const seen = new Set<string>();
  for (const b of bases) {
    const rnd = seededRandom(SEED ^ fnv1a(b.bytes));
    for (let k = 0; k < VARIANTS_PER_SCRIPT; k++) {
      let bytes = b.bytes;
      const what: string[] = [];
      for (let n = k === VARIANTS_PER_SCRIPT - 1 ? 3 : 1; n > 0; n--) {
        const m = mutate(bytes, rnd);
        bytes = m.bytes;
        what.push(m.what);
      }
      // invalid UTF-8 becomes U+FFFD: both parsers see the bytes of the JS string mvdanParse gets
      const src = fromBytes(bytes);
      const key = `${b.posix}\0${src}`;
      if (src === b.src || seen.has(key)) continue;
      seen.add(key);
      out.push(script(`${b.label}, ${what.join(', ')}`, src, b.posix));
    }
  }
  return out;
}

// ---- running both parsers -----------------------------------------------------------------

const outcomes = new Map<string, Outcome>();

function run(s: Script): Outcome {
  const key = `${s.posix ? 'p' : 'b'}\0${s.src}`;
  let o = outcomes.get(key);
  if (o) return o;
  o = { want: undefined, got: undefined };
  try { o.want = json(mvdanParse(s.src, s.posix)); } catch (e) { o.wantErr = e instanceof Error ? e.message : String(e); }
  try { o.got = json(fastParse(s.bytes, s.posix, true)); } catch (e) { o.gotThrew = e instanceof Error ? (e.stack ?? e.message) : String(e); }
  outcomes.set(key, o);
  return o;
}

interface Diff { path: string; got: unknown; want: unknown }

const MISSING = Symbol('missing');

/** The first place where two JSON values differ (object key order ignored), or undefined. */
function firstDiff(got: unknown, want: unknown, at = ''): Diff | undefined {
  if (got === want) return undefined;
  if (typeof got !== 'object' || typeof want !== 'object' || got === null || want === null || Array.isArray(got) !== Array.isArray(want)) {
    return { path: at || '(root)', got, want };
  }
  if (Array.isArray(got)) {
    const w = want as unknown[];
    for (let i = 0; i < Math.min(got.length, w.length); i++) {
      const d = firstDiff(got[i], w[i], `${at}[${i}]`);
      if (d) return d;
    }
    if (got.length !== w.length) {
      const i = Math.min(got.length, w.length);
      return { path: `${at}[${i}] (length ${got.length} vs ${w.length})`, got: i < got.length ? got[i] : MISSING, want: i < w.length ? w[i] : MISSING };
    }
    return undefined;
  }
  const g = got as Record<string, unknown>;
  const w = want as Record<string, unknown>;
  for (const k of new Set([...Object.keys(w), ...Object.keys(g)])) {
    const gv = k in g ? g[k] : MISSING;
    const wv = k in w ? w[k] : MISSING;
    if (gv === MISSING || wv === MISSING) return { path: `${at}.${k}`, got: gv, want: wv };
    const t = wv && typeof wv === 'object' && !Array.isArray(wv) && typeof (wv as { type?: unknown }).type === 'string' ? `<${(wv as { type: string }).type}>` : '';
    const d = firstDiff(gv, wv, `${at}.${k}${t}`);
    if (d) return d;
  }
  return undefined;
}

const POS_KEYS = ['Position', 'ValuePos', 'OpPos', 'Left', 'Lbrace', 'Lparen', 'Dollar', 'Case', 'ForPos', 'WhilePos', 'Let', 'Time', 'Coproc'];

/** A JSON value, shortened; a node also gets its offset and the source text there. */
function show(v: unknown, bytes?: string, max = 160): string {
  if (v === MISSING) return '(missing)';
  const s = v === undefined ? 'undefined' : JSON.stringify(v);
  const short = s.length > max ? `${s.slice(0, max)}…` : s;
  if (bytes === undefined || !v || typeof v !== 'object' || Array.isArray(v)) return short;
  const o = v as Record<string, unknown>;
  const k = POS_KEYS.find((p) => typeof o[p] === 'number');
  if (!k) return short;
  const at = o[k] as number;
  return `${String(o['type'])} at byte ${at} ${JSON.stringify(bytes.slice(at, at + 40))} ${short}`;
}

function showScript(s: Script): string {
  const t = JSON.stringify(s.src);
  return t.length > 240 ? `${t.slice(0, 240)}… (${s.bytes.length} bytes)` : t;
}

/** The problem with fastParse's outcome on `s`, or undefined when it agrees with mvdan-sh. */
function problem(s: Script): string | undefined {
  const o = run(s);
  if (o.gotThrew !== undefined) return `fastParse threw: ${o.gotThrew.split('\n').slice(0, 4).join(' | ')}`;
  if (o.got === undefined) return undefined;
  if (o.wantErr !== undefined) return `mvdan-sh rejects it (${o.wantErr}) but fastParse returned ${show(o.got, undefined, 120)}`;
  const d = firstDiff(o.got, o.want);
  if (!d) return undefined;
  return `first difference at ${d.path}: fastParse ${show(d.got, s.bytes)}, mvdan-sh ${show(d.want, s.bytes)}`;
}

/** Fails listing at most MAX_REPORTED of the failures, each with its script. */
function report(what: string, failures: { s: Script; msg: string }[], total: number): void {
  if (failures.length === 0) return;
  const lines = failures.slice(0, MAX_REPORTED).map(({ s, msg }) => `- ${s.label}\n    script: ${showScript(s)}\n    ${msg}`);
  if (failures.length > MAX_REPORTED) lines.push(`… and ${failures.length - MAX_REPORTED} more`);
  expect.fail(`${failures.length} of ${total} ${what}:\n${lines.join('\n')}`);
}

function agree(scripts: Script[], what: string): void {
  const failures: { s: Script; msg: string }[] = [];
  for (const s of scripts) {
    const msg = problem(s);
    if (msg) failures.push({ s, msg });
  }
  report(what, failures, scripts.length);
}

// ---- tests --------------------------------------------------------------------------------

describe('interp fast parser vs mvdan-sh', function () {
  this.timeout(120000);

  const snippets = corpusSnippets();
  const fixtures = fixtureScripts();
  const corpus = corpusScripts(snippets);
  const designated = corpus.filter((s) => !/\+ newline|\[posix mode\]$/.test(s.label));
  const variantBases = [...fixtures.filter((s) => !s.label.endsWith('[bash case, posix mode]')), ...designated];
  let variants: Script[] | undefined;
  const getVariants = (): Script[] => (variants ??= variantScripts(variantBases));

  it('agrees on every fixtures/interp/*.cases script (bash cases in both modes)', () => {
    agree(fixtures, 'fixture scripts: fastParse disagrees with mvdan-sh');
  });

  it('agrees on every parse-corpus.txt snippet', () => {
    agree(corpus, 'parse-corpus.txt scripts: fastParse disagrees with mvdan-sh');
  });

  it('agrees on mutated variants of the fixtures and the corpus', () => {
    const vs = getVariants();
    expect(vs.length).to.be.greaterThan(VARIANTS_PER_SCRIPT * variantBases.length * 0.8);
    agree(vs, 'mutated scripts: fastParse disagrees with mvdan-sh');
  });

  it('parse-corpus.txt flags `error` exactly the snippets mvdan-sh rejects', () => {
    const failures: { s: Script; msg: string }[] = [];
    for (const s of designated) {
      const o = run(s);
      if (s.error && o.wantErr === undefined) failures.push({ s, msg: 'flagged `error` but mvdan-sh parses it' });
      if (!s.error && o.wantErr !== undefined) failures.push({ s, msg: `mvdan-sh rejects it: ${o.wantErr} (flag it \`error\` or fix it)` });
      if (s.error && s.common) failures.push({ s, msg: '`common` and `error` together' });
    }
    report('parse-corpus.txt snippets have wrong flags', failures, designated.length);
  });

  it('accepts every `common` snippet of parse-corpus.txt', () => {
    const common = designated.filter((s) => s.common);
    expect(common.length).to.be.greaterThan(50);
    const failures: { s: Script; msg: string }[] = [];
    for (const s of common) {
      const o = run(s);
      if (o.got === undefined && o.gotThrew === undefined) failures.push({ s, msg: 'fastParse declined it' });
      else {
        const msg = problem(s);
        if (msg) failures.push({ s, msg });
      }
    }
    report('`common` snippets not accepted (or wrong)', failures, common.length);
  });

  it(`accepts at least ${MIN_ACCEPT_RATIO * 100}% of the fixtures and corpus scripts mvdan-sh parses`, () => {
    const count = (scripts: Script[]): { ok: number; accepted: number } => {
      let ok = 0;
      let accepted = 0;
      for (const s of scripts) {
        const o = run(s);
        if (o.wantErr !== undefined) continue;
        ok++;
        if (o.got !== undefined) accepted++;
      }
      return { ok, accepted };
    };
    const fx = count(fixtures);
    const co = count(corpus);
    const va = count(getVariants());
    console.log(`      fastParse accepts (of the scripts mvdan-sh parses): fixtures ${fx.accepted}/${fx.ok}, ` +
      `corpus ${co.accepted}/${co.ok}, variants ${va.accepted}/${va.ok} (${getVariants().length - va.ok} variants rejected by mvdan-sh)`);
    const ratio = (fx.accepted + co.accepted) / (fx.ok + co.ok);
    expect(ratio, `acceptance ratio ${ratio.toFixed(3)} over fixtures + corpus`).to.be.at.least(MIN_ACCEPT_RATIO);
  });

  it('declines, never throws, on nesting deep enough to overflow its stack (mvdan-sh then reports it)', () => {
    const deep = '('.repeat(200_000) + ')'.repeat(200_000);
    expect(() => fastParse(deep, false, true)).to.throw(RangeError);
    expect(fastParse(deep, false)).to.equal(undefined);
    expect(fastParse(`echo "${'$('.repeat(100_000)}"`, false)).to.equal(undefined);
  });

  it('returns a fresh object on every call (mutating a result does not affect the next parse)', function () {
    const failures: { s: Script; msg: string }[] = [];
    let tried = 0;
    for (const s of designated.filter((x) => !x.error)) {
      let first: unknown;
      try { first = fastParse(s.bytes, s.posix, true); } catch { continue; } // reported by the agreement tests
      if (first === undefined) continue;
      tried++;
      const snapshot = json(first);
      try { scribble(first); } catch (e) {
        failures.push({ s, msg: `cannot mutate the result: ${e instanceof Error ? e.message : String(e)}` });
        continue;
      }
      let second: unknown;
      try { second = fastParse(s.bytes, s.posix, true); } catch (e) { failures.push({ s, msg: `second call threw: ${String(e)}` }); continue; }
      if (second === first) { failures.push({ s, msg: 'second call returned the same object' }); continue; }
      const d = firstDiff(json(second), snapshot);
      if (d) failures.push({ s, msg: `after mutating the first result, the second differs from it at ${d.path}: now ${show(d.got)}, was ${show(d.want)}` });
    }
    if (tried === 0) this.skip(); // fastParse accepts nothing yet
    report('scripts: results share state between calls', failures, tried);
  });
});

/** Alters every object and array reachable from `v` (values, positions, array contents). */
function scribble(v: unknown, seen = new Set<unknown>()): void {
  if (v === null || typeof v !== 'object' || seen.has(v)) return;
  seen.add(v);
  if (Array.isArray(v)) {
    for (const x of v) scribble(x, seen);
    v.push({ type: 'Scribbled' });
    return;
  }
  const o = v as Record<string, unknown>;
  for (const [k, x] of Object.entries(o)) {
    if (typeof x === 'number') o[k] = x + 1000;
    else if (typeof x === 'string' && k !== 'type') o[k] = `${x}#`;
    else if (typeof x === 'boolean') o[k] = !x;
    else scribble(x, seen);
  }
  o['scribbled'] = true;
}
