// `hgrep [-i] [-F] [-C N] PATTERN [PATH...]` (doc/hashline.md): matching lines as rows with their
// paths — `path:LINE:HASH|text` for a match, `path-LINE:HASH|text` for context, `--` between
// separate groups — so every anchor it prints is one `hpatch` can name. Directories are searched
// recursively in byte order of names, skipping `.git`, symlinks, what `.gitignore`/`.ignore` files
// exclude, and files that are not UTF-8 text; output is bounded. The regex is Rust's (linear time).
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readFileSync, readSync, statSync, constants as C } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatRow } from '../../isolates/core-v1/rows.ts';
import { splitLines } from '../../isolates/core-v1/lines.ts';
import { parsePositiveInt } from '../../isolates/core-v1/operands.ts';
import { isValidUtf8, utf8Decode } from '../../isolates/core-v1/utf8.ts';
import { ignoredBy, parseIgnoreFile, type IgnoreRule } from './ignore-rules.ts';
import { compileRegex, fixedString, type LineMatcher } from './linear-regex.ts';

export const HGREP_MAX_ROWS = 1000;
export const HGREP_MAX_BYTES = 64 * 1024;
/** Files larger than this are skipped (a search should not read a 1 GB log whole). */
export const HGREP_MAX_FILE_BYTES = 16 * 1024 * 1024;
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
    const problems: string[] = [];
    for (const p of opts.paths) {
      const abs = resolve(cwd, p);
      let isDir: boolean;
      try {
        isDir = statSync(abs).isDirectory();
      } catch (e) {
        problems.push(`${p}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'No such file or directory' : (e as NodeJS.ErrnoException).code}`);
        continue;
      }
      if (isDir) walk(abs, p === '.' ? '' : p.replace(/\/+$/, ''), [], opts, matcher, out, problems);
      else searchFile(abs, p, opts, matcher, out);
      if (out.full) break;
    }
    return { text: out.render(), matches: out.matches, problems };
  } finally {
    matcher.free();
  }
}

class Output {
  readonly lines: string[] = [];
  bytes = 0;
  matches = 0;
  files = 0;
  full = false;
  push(line: string): boolean {
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (this.lines.length >= HGREP_MAX_ROWS || this.bytes + size > HGREP_MAX_BYTES) { this.full = true; return false; }
    this.lines.push(line);
    this.bytes += size;
    return true;
  }
  render(): string {
    const lines = [...this.lines];
    if (this.full) lines.push(`# … output stopped after ${this.matches} matching line${this.matches === 1 ? '' : 's'} in ${this.files} file${this.files === 1 ? '' : 's'}: narrow the pattern or the paths`);
    return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  }
}

interface Layer {
  /** The rules of one directory's ignore files, and that directory relative to the search root. */
  readonly rules: readonly IgnoreRule[];
  readonly dir: string;
}

function walk(abs: string, shown: string, layers: readonly Layer[], opts: HgrepOptions, m: LineMatcher, out: Output, problems: string[]): void {
  let names: string[];
  try {
    names = readdirSync(abs);
  } catch (e) {
    problems.push(`${shown || '.'}: ${(e as NodeJS.ErrnoException).code}`);
    return;
  }
  const rules = [...parseIgnoreText(join(abs, '.gitignore')), ...parseIgnoreText(join(abs, '.ignore'))];
  const here = rules.length > 0 ? [...layers, { rules, dir: shown }] : layers;
  // Byte order of names: the same tree gives the same output everywhere.
  names.sort((a, b) => (Buffer.compare(Buffer.from(a), Buffer.from(b))));
  for (const name of names) {
    if (out.full) return;
    if (name === '.git') continue;
    const childAbs = join(abs, name);
    const childShown = shown === '' ? name : `${shown}/${name}`;
    let st;
    try {
      // Symlinks found in the walk are not followed (as ripgrep does): no loops, no escapes.
      st = lstatSync(childAbs);
    } catch {
      continue; // gone meanwhile
    }
    if (st.isSymbolicLink()) continue;
    const isDir = st.isDirectory();
    if (isIgnored(here, childShown, isDir)) continue;
    if (isDir) walk(childAbs, childShown, here, opts, m, out, problems);
    else if (st.isFile()) searchFile(childAbs, childShown, opts, m, out);
  }
}

function isIgnored(layers: readonly Layer[], shown: string, isDir: boolean): boolean {
  // The deepest directory's rules come last and win, as in git.
  let verdict = false;
  for (const l of layers) {
    const rel = l.dir === '' ? shown : shown.slice(l.dir.length + 1);
    const v = ignoredBy(l.rules, rel, isDir);
    if (v !== null) verdict = v;
  }
  return verdict;
}

function parseIgnoreText(path: string): IgnoreRule[] {
  try {
    return parseIgnoreFile(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
}

/** Searches one regular file (binary and non-UTF-8 files, named or found, are skipped). */
function searchFile(abs: string, shown: string, opts: HgrepOptions, m: LineMatcher, out: Output): void {
  const bytes = readRegular(abs);
  if (bytes === null || bytes.includes(0) || !isValidUtf8(bytes)) return;
  const lines = splitLines(utf8Decode(bytes));
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

/** The bytes of a regular file under the size bound, else null (FIFOs and devices are never opened for reading). */
function readRegular(abs: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(abs, C.O_RDONLY | C.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > HGREP_MAX_FILE_BYTES) return null;
    const buf = Buffer.alloc(st.size);
    let n = 0;
    for (let r; n < buf.length && (r = readSync(fd, buf, n, buf.length - n, null)) > 0; ) n += r;
    return buf.subarray(0, n);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
