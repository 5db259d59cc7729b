// `hgrep [-i] [-F] [-C N] PATTERN [PATH...]` (doc/hashline.md): matching lines as rows with their
// paths — `path:LINE:HASH|text` for a match, `path-LINE:HASH|text` for context, `--` between
// separate groups — so every anchor it prints is one `hpatch` can name. The files are tree-walk.ts's;
// output is bounded. The regex is Rust's (linear time).
import { formatRow } from '../../isolates/core-v1/rows.ts';
import { splitLines } from '../../isolates/core-v1/lines.ts';
import { parsePositiveInt } from '../../isolates/core-v1/operands.ts';
import { compileRegex, fixedString, type LineMatcher } from './linear-regex.ts';
import { BoundedLines } from './bounded-lines.ts';
import { requiredLiterals } from './required-literal.ts';
import { walkTextFiles } from './tree-walk.ts';

const MAX_CONTEXT = 20;

export interface HgrepOptions {
  readonly pattern: string;
  readonly paths: readonly string[];
  readonly caseInsensitive: boolean;
  readonly fixed: boolean;
  readonly context: number;
}

export type HgrepArgs = { ok: true; options: HgrepOptions } | { ok: false; error: string };

export function parseHgrepArgs(args: readonly string[]): HgrepArgs {
  let caseInsensitive = false, fixed = false, context = 0;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (a === '-i') caseInsensitive = true;
    else if (a === '-F') fixed = true;
    else if (a === '-C' || /^-C\d+$/.test(a)) {
      const v = a === '-C' ? args[++i] : a.slice(2);
      const n = v === '0' ? 0 : v === undefined ? null : parsePositiveInt(v);
      if (n === null || n > MAX_CONTEXT) return { ok: false, error: `-C needs a number of lines from 0 to ${MAX_CONTEXT}` };
      context = n;
    } else if (a.startsWith('-') && a !== '-') return { ok: false, error: `unknown option ${a} (options: -i, -F, -C N)` };
    else break;
  }
  const rest = args.slice(i);
  if (rest.length === 0) return { ok: false, error: 'usage: hgrep [-i] [-F] [-C N] PATTERN [PATH...]' };
  return { ok: true, options: { pattern: rest[0]!, paths: rest.length > 1 ? rest.slice(1) : ['.'], caseInsensitive, fixed, context } };
}

export interface HgrepResult {
  readonly text: string;
  readonly matches: number;
  /** Problems with operands (missing paths, unreadable directories), for stderr. */
  readonly problems: readonly string[];
}

/** Runs a search from `cwd`. Throws only if the regex engine itself cannot load. */
export function hgrep(opts: HgrepOptions, cwd: string): HgrepResult | { error: string } {
  const matcher: LineMatcher | { error: string } = opts.fixed ? fixedString(opts.pattern, opts.caseInsensitive) : compileRegex(opts.pattern, opts.caseInsensitive);
  if ('error' in matcher) return { error: `bad pattern: ${matcher.error}` };
  try {
    const out = new Output();
    // A file without the literal every match needs is skipped on its bytes (no decode, no regex).
    const literals = opts.caseInsensitive ? null : opts.fixed ? (opts.pattern === '' ? null : [opts.pattern]) : requiredLiterals(opts.pattern);
    const needles = literals?.map((l) => Buffer.from(l, 'utf8')) ?? null;
    const problems = walkTextFiles(opts.paths, cwd, (shown, text) => {
      searchText(shown, text, opts, matcher, out);
      return !out.full;
    }, needles === null ? undefined : (bytes) => needles.some((n) => bytes.includes(n)));
    return { text: out.render(), matches: out.matches, problems };
  } finally {
    matcher.free();
  }
}

/** The bounded rows, and the counts the cut note and the status need. */
class Output extends BoundedLines {
  matches = 0;
  files = 0;
  render(): string {
    const s = (n: number): string => (n === 1 ? '' : 's');
    return this.text(`# … output stopped after ${this.matches} matching line${s(this.matches)} in ${this.files} file${s(this.files)}: narrow the pattern or the paths`);
  }
}

/** The matching rows of one file, with context, into `out`. */
function searchText(shown: string, text: string, opts: HgrepOptions, m: LineMatcher, out: Output): void {
  if (!m.mayMatch(text)) return;
  const lines = splitLines(text);
  const hits: number[] = [];
  for (let i = 0; i < lines.length; i++) if (m.test(lines[i]!.text)) hits.push(i);
  if (hits.length === 0) return;
  const hitSet = new Set(hits);
  out.files++;
  let lastShown = -1;
  for (const h of hits) {
    const from = Math.max(h - opts.context, lastShown + 1);
    // (as grep: a `--` between groups only when context is asked for)
    if (opts.context > 0 && lastShown >= 0 && from > lastShown + 1 && !out.push('--')) return;
    for (let i = from; i <= Math.min(h + opts.context, lines.length - 1); i++) {
      if (i <= lastShown) continue;
      const isHit = hitSet.has(i);
      if (!out.push(`${shown}${isHit ? ':' : '-'}${formatRow(i + 1, lines[i]!.text)}`)) return;
      if (isHit) out.matches++;
      lastShown = i;
    }
  }
}
