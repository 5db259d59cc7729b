// Rust-regex validation for OpenAI custom-tool grammars: compile with rregex (the real regex-syntax
// crate in WASM, so dialect and error texts are exact), then reject what OpenAI documents as
// unsupported but Rust accepts: lazy quantifiers and the U (swap greed) flag. Look-arounds and
// back-references are already compile errors in Rust; their messages are kept.
import { RRegex } from 'rregex';

/** One problem in a pattern; `offset` is a UTF-16 index into the checked pattern text. */
export interface RegexIssue {
  readonly message: string;
  readonly offset: number;
}

// Startup validates many plugins and Lark grammars repeat regexes; a compile costs ~1.5 ms.
const CACHE_LIMIT = 2048;
const cache = new Map<string, readonly RegexIssue[]>();

/** All problems of one Rust regex, in offset order; [] when OpenAI would accept it. Cached by text. */
export function checkRustRegex(pattern: string): readonly RegexIssue[] {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  const issues = Object.freeze(computeIssues(pattern).map((i) => Object.freeze(i)));
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  cache.set(pattern, issues);
  return issues;
}

/** For tests: forget cached results. */
export function clearRegexCache(): void {
  cache.clear();
}

function computeIssues(pattern: string): RegexIssue[] {
  const scan = scanGreediness(pattern);
  const issues: RegexIssue[] = [...scan];
  let nonGreedyInHir = false;
  let re: RRegex | undefined;
  try {
    re = new RRegex(pattern);
    nonGreedyInHir = hasNonGreedy(re.syntax());
  } catch (e) {
    issues.push(compileIssue(pattern, e));
  } finally {
    re?.free();
  }
  // The HIR sees laziness after flag handling; if it finds some the scanner missed, still reject.
  if (nonGreedyInHir && scan.length === 0) {
    issues.push({ message: 'lazy (non-greedy) repetition is not supported', offset: 0 });
  }
  return issues.sort((a, b) => a.offset - b.offset);
}

// ---------------------------------------------------------------------------------------------
// rregex errors

function compileIssue(pattern: string, e: unknown): RegexIssue {
  const text = e instanceof Error ? e.message : String(e);
  if (text.startsWith('Compiled regex exceeds size limit')) {
    return {
      message: 'regex exceeds the local compiled-size limit (10 MiB) used for startup validation',
      offset: 0,
    };
  }
  const lines = text.split('\n');
  const last = lines.findLast((l) => l.startsWith('error: '));
  if (!text.startsWith('regex parse error:') || last === undefined) {
    return { message: `invalid regex: ${lines[0] ?? text}`, offset: 0 };
  }
  return { message: `invalid regex: ${last.slice('error: '.length)}`, offset: caretOffset(pattern, lines) };
}

// regex-syntax prints the pattern and a caret line under the first span: with a 4-space indent for a
// one-line pattern, or as `N: text` lines for a multi-line one. Columns count code points.
function caretOffset(pattern: string, lines: readonly string[]): number {
  const caretAt = lines.findIndex((l) => /^ *\^+ *$/.test(l));
  if (caretAt < 1) return 0;
  const caretCol = (lines[caretAt] ?? '').indexOf('^');
  const above = lines[caretAt - 1] ?? '';
  const numbered = /^( *)(\d+): /.exec(above);
  const line = numbered ? Number(numbered[2]) : 1;
  const indent = numbered ? (numbered[0] ?? '').length : 4;
  return offsetOfLineColumn(pattern, line, Math.max(0, caretCol - indent));
}

function offsetOfLineColumn(text: string, line: number, codePoints: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return offset;
    offset = nl + 1;
  }
  for (let n = 0; n < codePoints && offset < text.length && text[offset] !== '\n'; n++) {
    offset += (text.codePointAt(offset) ?? 0) > 0xffff ? 2 : 1;
  }
  return offset;
}

/** Whether a compiled regex-syntax HIR (from `RRegex#syntax()`) has a non-greedy repetition. */
export function hasNonGreedy(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasNonGreedy);
  if (node === null || typeof node !== 'object') return false;
  const rec = node as Record<string, unknown>;
  if (rec['@name'] === 'regex_syntax::hir::Repetition' && rec['greedy'] === false) return true;
  // Class ranges and literal bytes cannot contain repetitions; skip them (they can be large).
  if (rec['@name'] === 'regex_syntax::hir::Class' || rec['@name'] === 'regex_syntax::hir::Literal') return false;
  return Object.values(rec).some(hasNonGreedy);
}

// ---------------------------------------------------------------------------------------------
// Syntactic greediness scanner: finds `*? +? ?? {n,m}?` and an enabled U flag, skipping escapes,
// (nested) character classes, group names and, in x mode, whitespace and # comments. It follows
// regex-syntax: after `*`/`+`/`?` only an adjacent `?` is lazy, after `}` the x mode may put
// whitespace or comments in between.

const LAZY_HINT = 'OpenAI grammars support greedy quantifiers only';

export function scanGreediness(p: string): RegexIssue[] {
  const issues: RegexIssue[] = [];
  const saved: boolean[] = []; // x flag of the enclosing scope per open group
  let x = false;
  let quant: { start: number; end: number; counted: boolean } | null = null;
  let i = 0;
  while (i < p.length) {
    const c = p[i] ?? '';
    if (x && /\s/.test(c)) {
      if (quant && !quant.counted) quant = null;
      i++;
      continue;
    }
    if (x && c === '#') {
      if (quant && !quant.counted) quant = null;
      const nl = p.indexOf('\n', i);
      i = nl < 0 ? p.length : nl + 1;
      continue;
    }
    switch (c) {
      case '\\':
        i = skipEscape(p, i);
        quant = null;
        break;
      case '[':
        i = skipClass(p, i, x);
        quant = null;
        break;
      case '(': {
        const g = openGroup(p, i, x, issues);
        if (g.opens) saved.push(x);
        x = g.x;
        i = g.next;
        quant = null;
        break;
      }
      case ')':
        x = saved.pop() ?? x;
        i++;
        quant = null;
        break;
      case '*':
      case '+':
      case '?':
        if (c === '?' && quant && (quant.counted || quant.end === i)) {
          const q = p.slice(quant.start, quant.end);
          issues.push({ message: `lazy quantifier \`${q}?\` is not supported (${LAZY_HINT})`, offset: quant.start });
          quant = null;
        } else {
          quant = { start: i, end: i + 1, counted: false };
        }
        i++;
        break;
      case '{': {
        const close = p.indexOf('}', i);
        const end = close < 0 ? p.length : close + 1;
        quant = { start: i, end, counted: true };
        i = end;
        break;
      }
      default:
        quant = null;
        i++;
    }
  }
  return issues;
}

// `\x{..}`, `\u{..}`, `\U{..}`, `\p{..}` and `\P{..}` carry braces that are not repetitions.
function skipEscape(p: string, i: number): number {
  const kind = p[i + 1];
  if (kind === undefined) return p.length;
  if ('xuUpP'.includes(kind) && p[i + 2] === '{') {
    const close = p.indexOf('}', i + 3);
    return close < 0 ? p.length : close + 1;
  }
  return i + 2;
}

// Rust classes nest (`[a-z&&[^aeiou]]`), a leading `]` is literal, `[:alpha:]` is an ASCII class.
function skipClass(p: string, start: number, x: boolean): number {
  let i = skipClassOpen(p, start);
  let depth = 1;
  while (i < p.length && depth > 0) {
    const c = p[i];
    if (c === '\\') {
      i = skipEscape(p, i);
    } else if (c === '[') {
      const ascii = /^\[:\^?[A-Za-z]+:\]/.exec(p.slice(i, i + 16));
      if (ascii) {
        i += ascii[0].length;
      } else {
        depth++;
        i = skipClassOpen(p, i);
      }
    } else if (c === ']') {
      depth--;
      i++;
    } else if (x && c === '#') {
      const nl = p.indexOf('\n', i);
      i = nl < 0 ? p.length : nl + 1;
    } else {
      i++;
    }
  }
  return i;
}

function skipClassOpen(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === '^') j++;
  if (p[j] === ']') j++;
  return j;
}

// Handles `(`, `(?:`, `(?P<n>`, `(?<n>`, `(?flags)` and `(?flags:`; returns the x flag that holds
// after the opening; a bare `(?flags)` opens no group and sets flags for the enclosing one.
function openGroup(p: string, i: number, x: boolean, issues: RegexIssue[]): { x: boolean; next: number; opens: boolean } {
  if (p[i + 1] !== '?') return { x, next: i + 1, opens: true };
  let j = i + 2;
  if (p.startsWith('P<', j) || (p[j] === '<' && /[A-Za-z_]/.test(p[j + 1] ?? ''))) {
    const close = p.indexOf('>', j);
    return { x, next: close < 0 ? p.length : close + 1, opens: true };
  }
  let negated = false;
  let nx = x;
  for (; j < p.length; j++) {
    const f = p[j] ?? '';
    if (f === '-') {
      negated = true;
    } else if (f === 'x') {
      nx = !negated;
    } else if (f === 'U' && !negated) {
      issues.push({
        message: `the \`U\` (swap greed) flag is not supported: it makes quantifiers lazy (${LAZY_HINT})`,
        offset: j,
      });
    } else if (!/[A-Za-z]/.test(f)) {
      break;
    }
  }
  if (p[j] === ')') return { x: nx, next: j + 1, opens: false };
  // `(?flags:` scopes the flags to the new group; look-arounds fail to compile anyway.
  return { x: nx, next: p[j] === ':' ? j + 1 : j, opens: true };
}
