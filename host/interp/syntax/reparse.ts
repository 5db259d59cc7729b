// Parsing with fallbacks for what mvdan-sh rejects but bash accepts, or rejects only when it
// gets there. bash reads a script one top-level line at a time, so a syntax error stops the
// script only after the lines before it ran, and arithmetic, `${…}` and `[[ =~ ]]` words are
// checked when they run. On a ParseError we patch the source (one construct per round) and
// parse again:
//  * `((`/`$((` whose first unbalanced `)` is not followed by `)` is a nested subshell / command
//    substitution for bash (`((a) || (b))`): a space is inserted, `( (`;
//  * other arithmetic (`$((…))`, `((…))`, `for ((…;…;…))`) is replaced by a placeholder name
//    (`__hpA<n>`) whose original text arith.ts expands and evaluates at run time;
//  * a `let` command becomes `\let` (a normal command: its arguments are ordinary words);
//  * a `${…}` bash only rejects at run time becomes `${__hpB<n>}` ("bad substitution");
//  * an invalid name in `export`/`local`/… assignments becomes an ordinary (escaped) word;
//  * more of bash's syntax mvdan-sh lacks, each fix… function saying how (`[k]+=v`,
//    `${x~}`, `${x@k}`, `${###}`, `@()`, `<<$x`, `EOF)`, `let x=( 1 )`, `a[]=v`, `$x() {…}`…);
//  * POSIX mode: `[[ … ]]` is Bash mode's TestClause (posixConds).
// Anything else: the longest prefix of whole lines that parses runs, then the error is reported
// (`error`), like bash; a `[[ … ]]` error exits with the last status instead of 2.
//
// Here: the rounds of parse and fix. The parts: reparse-fix-*.ts (the source fixes, by
// construct), reparse-placeholders.ts (the names they write and what each stands for),
// reparse-after-parse.ts (the parse and the steps after it), reparse-errors.ts (a syntax error as
// bash reports it), reparse-scan.ts (matching pairs as bash does).
import type { File } from './ast.ts';
import { ParseError } from './parser.ts';
import { parsePatched } from './reparse-after-parse.ts';
import { withPrefix } from './reparse-errors.ts';
import { fixDparen, fixLet, fixOldArith } from './reparse-fix-arith.ts';
import {
  fixArrayAssign, fixBlankSubscriptWord, fixCompoundArg, fixDeclName, fixElemAppend, fixEmptySubscript, fixSubscript,
} from './reparse-fix-assigns.ts';
import { fixBang, fixEmptyExtglob, fixFuncName, fixHeredocWord } from './reparse-fix-commands.ts';
import {
  enclosingBadSubst, fixBadSubst, fixEmptySlice, fixNumParams, fixParamOps, fixRawSubscript, fixSliceArith,
} from './reparse-fix-params.ts';
import { emptyGlobs, paramOps } from './reparse-placeholders.ts';

export interface DeferredParseError {
  line: number;
  /** bash's message, without the `NAME: line N: ` prefix; '' prints nothing. */
  message: string;
  /** Second line bash prints (the offending line), or undefined. */
  context?: string;
  /** `[[ … ]]` errors: bash stops with the last status instead of 2. */
  cond: boolean;
  /** The exit status instead of 2 (bash -c: 127 for an error inside `$( )`). */
  status?: number;
  /** Inside a command substitution: a `-c` string then exits 127, as bash does. */
  inCommandSubst?: boolean;
  /** The original mvdan-sh error. */
  err: ParseError;
  /** POSIX mode: `message` is mvdan-sh's `L:C: text`, printed after the script name only. */
  raw?: boolean;
  /** bash's parse_matched_pair found it (a quote, `${`, `$((` left open): `eval`/`.` do not exit POSIX mode for it. */
  matchedPair?: boolean;
  /** Offset in the (patched) source where the text not covered by `file` starts (whole lines). */
  prefixEnd?: number;
}

export interface ParsedScript {
  file: File;
  /** The source as latin1 bytes, with the patches applied (positions in `file` refer to it). */
  src: string;
  /** Set when the script has a syntax error: `file` is the prefix that runs first. */
  error?: DeferredParseError;
  /** bash's warning for a here-document that runs to the end of the script (`at`: the `<<`). */
  warning?: { line: number; at: number; message: string };
}

function offsetOf(src: string, line: number, col: number): number {
  let off = 0;
  for (let l = 1; l < line; l++) {
    const n = src.indexOf('\n', off);
    if (n < 0) return src.length;
    off = n + 1;
  }
  return Math.min(src.length, off + col - 1);
}

/** Parses `latin1` (the script's bytes); never throws ParseError. */
export function parseScript(latin1: string, posix: boolean): ParsedScript {
  let src = latin1;
  let first: ParseError | undefined;
  let warning: ParsedScript['warning'];
  paramOps.clear(); emptyGlobs.clear();
  for (let round = 0; ; round++) {
    try {
      const file = parsePatched(src, posix);
      return warning ? { file, src, warning } : { file, src };
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      first ??= e;
      const off = offsetOf(src, e.line, e.col);
      // a here-document without its delimiter line ends at the end of the script (bash warns)
      const h = /^unclosed here-document '(.*)'$/s.exec(e.text);
      // `$(cat <<EOF` … `EOF)`: bash ends the body at the `)` (with the same warning)
      const closed = h && round < 64 ? closeInSubst(src, off, h[1]!) : undefined;
      if (closed) {
        // (only the first such warning is kept)
        warning ??= { line: closed.line, at: off, message: `warning: here-document at line ${e.line} delimited by end-of-file (wanted \`${h![1]}')` };
        src = closed.src;
        continue;
      }
      if (h && !warning && round < 64) {
        const lines = src.split('\n').length - (src.endsWith('\n') ? 1 : 0);
        warning = { line: lines, at: off, message: `warning: here-document at line ${e.line} delimited by end-of-file (wanted \`${h[1]}')` };
        src = src + (src.endsWith('\n') ? '' : '\n') + h[1] + '\n';
        continue;
      }
      // (Bash-only syntax in POSIX mode stays a syntax error, worded as sh words it: withPrefix)
      const bashOnly = posix && /\bbash(\/mksh)? feature$/.test(e.text);
      const fixed = round < 64 ? fixOnce(src, off, e) ?? (bashOnly ? undefined : enclosingBadSubst(src, off) ?? fixOldArith(src, off)) : undefined;
      if (fixed === undefined || fixed === src) return withPrefix(src, e, off, posix, latin1);
      src = fixed;
    }
  }
}

/**
 * The first line after `off` that is the here-document delimiter followed by `)` (`EOF)`, `EOF )`):
 * written `EOF`, newline, `)` and the rest of that line, joined to the next line by `;` (or a
 * blank after an operator), so every later line keeps its number; undefined when unsure.
 */
function closeInSubst(src: string, off: number, delim: string): { src: string; line: number } | undefined {
  const pre = src.slice(src.lastIndexOf('\n', off - 1) + 1, off);
  if (pre.split('$(').length - 1 <= pre.split(')').length - 1) return undefined;
  const esc = delim.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`\n\\t*${esc}[ \\t]*\\)([^\\n]*)(\\n|$)`, 'g');
  re.lastIndex = src.indexOf('\n', off);
  if (re.lastIndex < 0) return undefined;
  const m = re.exec(src);
  if (!m) return undefined;
  const rest = m[1]!;
  if (/<<|#|\\|`/.test(rest) || (rest.split("'").length - 1) % 2 || (rest.split('"').length - 1) % 2) return undefined;
  const at = m.index + 1, close = at + m[0].slice(1).indexOf(')');
  const head = src.slice(at, close).replace(/[ \t]+$/, '');
  const after = src.slice(m.index + m[0].length);
  let glue = '';
  if (m[2]) {
    const next = /^[^\n]*/.exec(after)![0];
    glue = /(;|&|\|)\s*$/.test(rest) || /^\s*[;&|)]/.test(next) ? ' ' : ';';
  }
  const line = src.slice(0, at).split('\n').length;
  return { src: src.slice(0, at) + head + '\n)' + rest + glue + after, line };
}

/** Parses like parseScript and throws the ParseError when the script has one (for callers that report it themselves). */
export function parseOrThrow(latin1: string, posix: boolean): { file: File; src: string } {
  const r = parseScript(latin1, posix);
  if (r.error) throw r.error.err;
  return r;
}

function fixOnce(src: string, off: number, e: ParseError): string | undefined {
  return fixBang(src, off, e) ?? fixHeredocWord(src, off, e) ?? fixFuncName(src, off, e) ?? fixCompoundArg(src, off) ?? fixEmptySubscript(src, off, e) ?? fixBlankSubscriptWord(src, off, e) ?? fixElemAppend(src, off, e) ?? fixNumParams(src, off, e) ?? fixParamOps(src, off, e) ?? fixEmptyExtglob(src, off) ?? fixDparen(src, off) ?? fixLet(src, off) ?? fixEmptySlice(src, off, e) ?? fixSliceArith(src, off) ?? fixRawSubscript(src, off) ?? fixBadSubst(src, off, e) ?? fixDeclName(src, off, e) ?? fixArrayAssign(src, off, e) ?? fixSubscript(src, off);
}
