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
//  * more of bash's syntax mvdan-sh lacks, each fix… function below saying how (`[k]+=v`,
//    `${x~}`, `${x@k}`, `${###}`, `@()`, `<<$x`, `EOF)`, `let x=( 1 )`, `a[]=v`, `$x() {…}`…);
//  * POSIX mode: `[[ … ]]` is Bash mode's TestClause (posixConds).
// Anything else: the longest prefix of whole lines that parses runs, then the error is reported
// (`error`), like bash; a `[[ … ]]` error exits with the last status instead of 2.
import type { ArrayElem, CallExpr, ExtGlob, File, Lit, ParamExp, Redirect, TestClause, Word } from './ast.ts';
import { parse, ParseError } from './parser.ts';
import { recordBadSubstWords } from './bad-subst-words.ts';

/** Placeholder name (`__hpA<n>`) → original arithmetic text. */
export const rawArith = new Map<string, string>();
/** Placeholder name (`__hpB<n>`) → original `${…}` text bash rejects when it expands it. */
export const badSubst = new Map<string, string>();

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

const toUtf8 = (s: string): string => Buffer.from(s, 'latin1').toString('utf8');

function offsetOf(src: string, line: number, col: number): number {
  let off = 0;
  for (let l = 1; l < line; l++) {
    const n = src.indexOf('\n', off);
    if (n < 0) return src.length;
    off = n + 1;
  }
  return Math.min(src.length, off + col - 1);
}

/**
 * One parse of the (patched) source and the steps after it, for the whole script and for the
 * prefix that runs before a syntax error alike: `[[` in POSIX mode, the patches' markers undone,
 * `$'…'` in POSIX mode, `{a[i]}>` fd variables. Throws ParseError.
 */
function parsePatched(src: string, posix: boolean): File {
  const conds = posix ? posixConds(src) : undefined;
  const file = parse(toUtf8(conds?.src ?? src), posix);
  if (conds) graftConds(file, conds.tests);
  if ((appendMarks.size && src.includes('__hpP')) || (numParams.size && src.includes('__hpS')) || paramOps.size || emptyGlobs.size) markAppends(file);
  if (posix && /\$['"]/.test(src)) dollarQuotes(file, false);
  if (ARRAY_FD_VAR.test(src)) arrayFdVars(file);
  if (src.includes(NO_CMD)) dropNoCmd(file);
  recordBadSubstWords(file, conds?.src ?? src, { place: newBadSubst, textOf: (n) => badSubst.get(n), raw: (t) => placeholder(t).trim() });
  return file;
}

/** fixBang's placeholder statements lose their command. */
function dropNoCmd(node: unknown): void {
  if (Array.isArray(node)) { for (const x of node) dropNoCmd(x); return; }
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (o['type'] === 'Stmt') {
    const c = o['Cmd'] as CallExpr | null;
    const p = c?.type === 'CallExpr' && c.Assigns.length === 0 && c.Args.length === 1 && c.Args[0]!.Parts.length === 1 ? c.Args[0]!.Parts[0] : undefined;
    if (p?.type === 'Lit' && p.Value === NO_CMD) { o['Cmd'] = null; return; }
  }
  for (const k in o) if (k !== 'type') { const v = o[k]; if (v && typeof v === 'object') dropNoCmd(v); }
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

const ARRAY_FD_VAR = /\{[A-Za-z_][A-Za-z0-9_]*\[[^\]\n]*\]\}[<>]/;

/**
 * `{a[1]}>&-`: bash takes an array element too as the variable of a `{var}` redirection; mvdan-sh
 * only a name, the rest is a word: the word written just before a redirection without a number
 * becomes its variable.
 */
function arrayFdVars(node: unknown): void {
  if (Array.isArray(node)) { for (const x of node) arrayFdVars(x); return; }
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (o['type'] === 'Stmt' && (o['Cmd'] as { type?: string } | null)?.type === 'CallExpr') {
    const call = o['Cmd'] as CallExpr, redirs = o['Redirs'] as Redirect[];
    for (const r of redirs) {
      if (r.N) continue;
      const i = call.Args.findIndex((w) => w.Parts.every((p) => p.type === 'Lit') && (w.Parts[w.Parts.length - 1] as Lit).ValueEnd === r.OpPos);
      if (i <= 0) continue;
      const w = call.Args[i]!, text = w.Parts.map((p) => (p as Lit).Value).join('');
      if (!/^\{[A-Za-z_][A-Za-z0-9_]*\[[^\]]*\]\}$/.test(text)) continue;
      const first = w.Parts[0] as Lit;
      r.N = { type: 'Lit', ValuePos: first.ValuePos, ValueEnd: r.OpPos, Value: text };
      call.Args.splice(i, 1);
    }
  }
  for (const k in o) if (k !== 'type') { const v = o[k]; if (v && typeof v === 'object') arrayFdVars(v); }
}

/**
 * `bash --posix` parses `[[ … ]]`; mvdan-sh's POSIX mode takes `[[` for a command name. When the
 * script parses in Bash mode, each outermost `[[ … ]]` is blanked out to a `:` command of the same
 * length (newlines kept, continued) for the POSIX parse, and Bash mode's TestClause put back in
 * its place (`graftConds`): every position stays the same.
 */
function posixConds(src: string): { src: string; tests: Map<number, TestClause> } | undefined {
  if (!/(^|[\s;&|(!{`])\[\[\s/.test(src)) return undefined;
  let bash: File;
  try { bash = parse(toUtf8(src), false); } catch { return undefined; }
  const tests = new Map<number, TestClause>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) { for (const x of node) walk(x); return; }
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o['type'] === 'TestClause') { tests.set((o as unknown as TestClause).Left, o as unknown as TestClause); return; }
    for (const k in o) if (k !== 'type') { const v = o[k]; if (v && typeof v === 'object') walk(v); }
  };
  walk(bash.Stmts);
  if (tests.size === 0) return undefined;
  // (positions are offsets in the UTF-8 bytes: `src` is their latin1 view)
  const out = src.split('');
  for (const t of tests.values()) {
    const end = t.Right + 2;
    if (src.slice(t.Left, t.Left + 2) !== '[[' || src.slice(t.Right, end) !== ']]' || src.slice(t.Left, end).includes('<<')) return undefined;
    for (let i = t.Left; i < end; i++) if (src[i] !== '\n') out[i] = ' ';
    out[t.Left] = ':';
    for (let i = t.Left + 1; i < end; i++) if (src[i] === '\n') out[i - 1] = '\\';
  }
  return { src: out.join(''), tests };
}

function graftConds(node: unknown, tests: Map<number, TestClause>): void {
  if (Array.isArray(node)) { for (const x of node) graftConds(x, tests); return; }
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (o['type'] === 'Stmt') {
    const c = o['Cmd'] as CallExpr | null;
    const w = c?.type === 'CallExpr' && c.Assigns.length === 0 && c.Args.length === 1 ? c.Args[0]!.Parts : undefined;
    const lit = w?.length === 1 && w[0]!.type === 'Lit' ? w[0] : undefined;
    const t = lit && lit.Value === ':' ? tests.get(lit.ValuePos) : undefined;
    if (t) { o['Cmd'] = t; return; }
  }
  for (const k in o) if (k !== 'type') { const v = o[k]; if (v && typeof v === 'object') graftConds(v, tests); }
}

/** Parses like parseScript and throws the ParseError when the script has one (for callers that report it themselves). */
export function parseOrThrow(latin1: string, posix: boolean): { file: File; src: string } {
  const r = parseScript(latin1, posix);
  if (r.error) throw r.error.err;
  return r;
}

/**
 * mvdan-sh's POSIX mode reads `$'…'` and `$"…"` as a `$` and a quoted string; `bash --posix`
 * decodes them as in Bash mode: the quote is marked `Dollar` and the `$` dropped (outside double quotes).
 */
function dollarQuotes(node: unknown, inDq: boolean): void {
  if (Array.isArray(node)) { for (const x of node) dollarQuotes(x, inDq); return; }
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (o['type'] === 'Word' && !inDq && Array.isArray(o['Parts'])) {
    const parts = o['Parts'] as Array<Record<string, unknown>>;
    for (let i = 0; i + 1 < parts.length; i++) {
      const a = parts[i]!, b = parts[i + 1]!;
      if (a['type'] === 'Lit' && a['Value'] === '$' && (b['type'] === 'SglQuoted' || b['type'] === 'DblQuoted') && b['Left'] === a['ValueEnd'] && !b['Dollar']) {
        b['Dollar'] = true;
        b['Left'] = a['ValuePos'];
        parts.splice(i, 1);
      }
    }
  }
  const dq = inDq || o['type'] === 'DblQuoted';
  for (const k in o) { const v = o[k]; if (v !== null && typeof v === 'object') dollarQuotes(v, dq); }
}

// ---- deferred errors ------------------------------------------------------------------------

function withPrefix(src: string, e: ParseError, off: number, posix: boolean, orig = src): ParsedScript {
  const cond = inCond(src, off, e.text);
  const error: DeferredParseError = { line: e.line, message: bashMessage(src, e, off, cond), cond, err: e };
  // (a `$((` left open that fixDparen read as `$( (`: bash's arithmetic matched pair, at its line)
  const openArith = src.startsWith('$( (', off) && orig.startsWith('$((', off);
  // (an operator error inside a `((`/`$((` that never closes: bash reads to the end of file for its `)`)
  // (a `reached ;` error: only a `((` on the error's own line, so not one in an earlier string)
  const reached = /^reached \S+ without matching \(\(? with \)/.test(e.text);
  const arithAt = /^not a valid arithmetic operator/.test(e.text) || reached ? src.lastIndexOf('((', off + 1) : -1;
  if (arithAt >= 0 && !(reached && src.slice(arithAt, off).includes('\n')) && firstUnbalanced(src, arithAt + 1) < 0) {
    Object.assign(error, { message: "unexpected EOF while looking for matching `)'", line: src.slice(0, arithAt).split('\n').length });
  }
  // bash counts the end of file as one more line (a missing final newline is added)
  if (error.message.endsWith('unexpected end of file') || (error.message.endsWith("matching `)'") && /^(?:\$\((?!\()|[<>]\()/.test(src.slice(off)) && !openArith)) error.line = (src.endsWith('\n') ? src : src + '\n').split('\n').length;
  // `[[ -z ]]`: the operator took `]]` as its operand; bash reports it on that line
  const atEof = /^reached EOF without matching \[\[/.test(e.text);
  if (cond && (atEof || (/^\s*$/.test(src.slice(src.lastIndexOf('\n', off - 1) + 1, off)) && /^not a valid test operator|must be followed by a word/.test(e.text)))) {
    const upto = (atEof ? src : src.slice(0, src.lastIndexOf('\n', off - 1))).replace(/\s+$/, '');
    if (/(?:^|[^!\s])\s+(?:==?|!=|=~|<|>|-(?:eq|ne|lt|le|gt|ge|nt|ot|ef))\s+\]\]$/.test(upto)) {
      // (`[[ a == ]]`: the same for a binary operator)
      error.line = upto.split('\n').length;
      error.message = "unexpected argument `]]' to conditional binary operator";
    } else if (/(^|\s)-[a-zA-Z]+\s+\]\]$/.test(upto)) {
      error.line = upto.split('\n').length;
      error.message = "unexpected argument `]]' to conditional unary operator";
    }
  }
  // (a word on a later line than the term before it: bash stops at that newline)
  if (cond && /^not a valid test operator/.test(e.text)) {
    const term = condTerm(src, off);
    if (term.newline) error.line = src.slice(0, term.end).split('\n').length;
  }
  // `for x in a b; echo …`: bash stops at the first word after the list that is not `do`
  const notDo = /^"for foo \[in words\]" must be followed by "do"/.test(e.text) ? forWithoutDo(src, off) : undefined;
  if (notDo) {
    error.line = src.slice(0, notDo.at).split('\n').length;
    error.message = `syntax error near unexpected token \`${notDo.tok}'`;
  }
  // (`a |` NEWLINE … `| b`: bash skips the newlines after the operator, the bad token's line counts)
  const afterOp = /^(?:\|\|?|&&|\|&) must be followed by a statement/.test(e.text) && error.message.startsWith('syntax error near') ? /^\S+(?:\s|#[^\n]*)*/.exec(src.slice(off)) : null;
  if (afterOp) {
    error.line = src.slice(0, off + afterOp[0].length).split('\n').length;
    const tok = /^[^\s;&|]*[;&|]*/.exec(src.slice(off + afterOp[0].length))?.[0];
    if (tok) error.message = `syntax error near unexpected token \`${tok}'`;
  }
  // (`case WORD` NEWLINE `TOKEN`: bash reports the token's line)
  const caseIn = /^"case .*" must be followed by "in"$/.test(e.text) ? /^case[ \t]+\S+[ \t]*\n\s*/.exec(src.slice(off)) : null;
  if (caseIn && error.message.startsWith('syntax error near')) error.line = src.slice(0, off + caseIn[0].length).split('\n').length;
  // (an unclosed `$((`: bash reports the line it starts on)
  const dp = cond ? -1 : unclosedDparen(src, off);
  if (dp >= 0) { error.message = "unexpected EOF while looking for matching `)'"; error.line = src.slice(0, dp).split('\n').length; }
  // (`x=(1 2` left open: bash's compound assignment reader reports its first line, and the status is 1)
  if (error.message === "unexpected EOF while looking for matching `)'" && src[off] === '(' && /[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]\n]*\])?\+?=$/.test(src.slice(Math.max(0, off - 200), off))) error.status = 1;
  if (!cond && error.message.startsWith('syntax error near')) error.context = lineText(src, error.line);
  // (an unclosed quote or expansion running to the end is bash's parse_matched_pair error: status 2)
  if (inCommandSubst(src, off) && !error.message.startsWith('unexpected EOF while looking for matching')) error.inCommandSubst = true;
  if (error.message.startsWith('unexpected EOF while looking for matching') && !/^(?:\$\((?!\()|[<>]\()/.test(src.slice(off))) error.matchedPair = true;
  // Bash-only syntax in POSIX mode is a syntax error at that command, worded as sh (dash) words
  // it: `NAME: LINE: Syntax error: "(" unexpected`, the token where the Bash syntax starts.
  if (posix && /\bbash(\/mksh)? feature$/.test(e.text)) {
    // (inside `${…}` sh has no syntax error: it fails the expansion when it runs, "Bad substitution")
    const before = src.slice(src.lastIndexOf('\n', off - 1) + 1, off);
    const inParam = before.lastIndexOf('${') > before.lastIndexOf('}');
    const tok = /^(?:;;&?|;&|\|&|&>>?|<<<|[(){}<>|&;]|[^\s(){}<>|&;]+)/.exec(src.slice(off))?.[0] ?? 'newline';
    const message = inParam ? `${e.line}: Bad substitution` : `${e.line}: Syntax error: "${tok}" unexpected`;
    Object.assign(error, { message, context: undefined, raw: true });
  }
  const lines = src.split('\n');
  // the longest prefix of whole lines (before the error's line) that parses is what bash ran
  let budget = 400;
  for (let k = Math.min(e.line - 1, lines.length); k > 0 && budget > 0; k--, budget--) {
    const last = lines[k - 1]!;
    if (/(^|[^\\])(\\\\)*\\$/.test(last)) continue; // a continuation line
    const pre = lines.slice(0, k).join('\n') + '\n';
    try {
      const file = parsePatched(pre, posix);
      error.prefixEnd = pre.length;
      return { file, src, error };
    } catch (x) {
      if (!(x instanceof ParseError)) throw x;
    }
  }
  error.prefixEnd = 0;
  return { file: { type: 'File', Stmts: [] } as unknown as File, src, error };
}

/** The token after `for NAME [in WORDS]` and its `;` or newline (at `off`, the `for`), when it is not `do`. */
function forWithoutDo(src: string, off: number): { tok: string; at: number } | undefined {
  const m = /^for[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*/.exec(src.slice(off));
  if (!m) return undefined;
  let i = off + m[0].length;
  const word = (): string => { const k = wordEnd(src, i); return k > i ? src.slice(i, k) : ''; };
  if (word() === 'in') {
    // the words, up to an unquoted `;` or newline
    for (;;) {
      while (src[i] === ' ' || src[i] === '\t') i++;
      if (i >= src.length || src[i] === ';' || src[i] === '\n') break;
      const k = wordEnd(src, i);
      if (k <= i) return undefined;
      i = k;
    }
  }
  if (src[i] !== ';' && src[i] !== '\n') return undefined;
  i++;
  while (i < src.length && /\s/.test(src[i]!)) i++;
  const tok = /^(;;|[;&|()<>]+|[^\s;&|()<>]+)/.exec(src.slice(i))?.[1];
  return tok && tok !== 'do' ? { tok, at: i } : undefined;
}

function lineText(src: string, line: number): string {
  return src.split('\n')[line - 1] ?? '';
}

/**
 * Whether the error at `off` is inside a `[[ … ]]`: an opening `[[` word before it on its line,
 * not closed; or (`[[ -z ]]`, a missing operand) the line before ends such a `[[ … ]]`.
 */
function inCond(src: string, off: number, text: string): boolean {
  let end = off, ls = src.lastIndexOf('\n', off - 1) + 1;
  const prevLine = ls > 0 && /^\s*$/.test(src.slice(ls, off)) && /^(not a valid test operator|\S+ must be followed by a word)/.test(text);
  if (prevLine) { end = ls - 1; ls = src.lastIndexOf('\n', end - 1) + 1; }
  const seg = src.slice(ls, Math.min(src.length, end + 3));
  const re = /(^|[\s;&|(!{])\[\[(?=\s)/g;
  let m: RegExpExecArray | null, at = -1;
  while ((m = re.exec(seg))) at = m.index + m[1]!.length;
  if (at < 0 || ls + at > end) return prevLine && /^not a valid test operator/.test(text) && condOpen(src, off);
  const between = src.slice(ls + at + 2, end);
  if (prevLine) return /\s\]\]\s*$/.test(between) || (/^not a valid test operator/.test(text) && condOpen(src, off));
  return !/(^|\s)\]\](?=$|[\s;&|)])/.test(between);
}

/** Whether a `[[` before `off` (on an earlier line too) is still open there: `[[ a == b` NEWLINE `c ]]`. */
function condOpen(src: string, off: number): boolean {
  const from = Math.max(0, off - 2000);
  const re = /(^|[\s;&|(!{])\[\[(?=\s)/g;
  let m: RegExpExecArray | null, at = -1;
  const seg = src.slice(from, off);
  while ((m = re.exec(seg))) at = from + m.index + m[1]!.length + 2;
  return at >= 0 && !/(^|\s)\]\](?=$|[\s;&|)])/.test(src.slice(at, off));
}

const COND_BINARY = /^(?:==?|!=|=~|<|>|-(?:eq|ne|lt|le|gt|ge|nt|ot|ef))$/;

/**
 * The `[[ … ]]` term that the word at `off` follows: whether it is whole (`x OP y`, `-n x`,
 * `( … )`), and whether a newline comes between it and the word (`end`: where its last word ends).
 */
function condTerm(src: string, off: number): { complete: boolean; newline: boolean; end: number } {
  const re = /(^|[\s;&|(!{])\[\[(?=\s)/g;
  const from = Math.max(0, off - 2000);
  const seg = src.slice(from, off);
  let m: RegExpExecArray | null, at = -1;
  while ((m = re.exec(seg))) at = from + m.index + m[1]!.length + 2;
  if (at < 0) return { complete: false, newline: false, end: off };
  let words: string[] = [], end = at;
  for (let i = at; i < off;) {
    const c = src[i]!;
    if (/\s/.test(c)) { i++; continue; }
    let tok: string;
    const op = /^(?:&&|\|\||[()!]|[<>]+)/.exec(src.slice(i, i + 2));
    if (op) tok = op[0];
    else { const k = wordEnd(src, i); tok = src.slice(i, k > i ? k : i + 1); }
    i += tok.length;
    end = i;
    if (tok === '&&' || tok === '||' || tok === '(' || (tok === '!' && words.length === 0)) { words = []; continue; }
    words.push(tok);
  }
  const n = words.length;
  const complete = (n > 0 && words[n - 1] === ')') || (n >= 2 && /^-[a-zA-Z]$/.test(words[n - 2]!)) || (n >= 3 && COND_BINARY.test(words[n - 2]!));
  return { complete, newline: src.slice(end, off).includes('\n'), end };
}

/**
 * Offset of a `$((` before `off` whose parentheses stay open to the end of the input (bash's
 * parse_matched_pair reads to the end for it), or -1.
 */
function unclosedDparen(src: string, off: number): number {
  for (let d = src.lastIndexOf('$((', off), tries = 0; d >= 0 && tries < 8; d = d > 0 ? src.lastIndexOf('$((', d - 1) : -1, tries++) {
    const c1 = firstUnbalanced(src, d + 3);
    if (c1 < 0 || firstUnbalanced(src, c1) < 0) return d;
  }
  return -1;
}

function bashMessage(src: string, e: ParseError, off: number, cond: boolean): string {
  const t = e.text;
  if (cond) {
    let m: RegExpExecArray | null;
    if (/^test clause requires at least one expression/.test(t)) return '';
    if ((m = /^(-[a-zA-Z]+) must be followed by a word/.exec(t))) {
      const rest = src.slice(off).replace(/^\S+\s*/, '');
      const arg = /^\S+/.exec(rest)?.[0] ?? ']]';
      return `unexpected argument \`${arg}' to conditional unary operator`;
    }
    if (/^not a valid test operator/.test(t)) {
      // a word after a whole term (`x OP y`, `-n x`, `( … )`) vs after a lone word
      const term = condTerm(src, off);
      if (term.complete) return 'syntax error in conditional expression';
      return term.newline ? "unexpected token `newline', conditional binary operator expected" : 'conditional binary operator expected';
    }
    if (/^=~ must be followed by a word/.test(t)) {
      const tok = /^=~\s*([;&|<>]+)/.exec(src.slice(off))?.[1];
      return tok ? `syntax error in conditional expression: unexpected token \`${tok}'` : 'syntax error in conditional expression';
    }
    if ((m = /^reached (\S+) without matching/.exec(t)) && m[1] !== 'EOF') {
      const tok = /^(\S+)/.exec(src.slice(off))?.[1] ?? m[1]!;
      return `syntax error in conditional expression: unexpected token \`${tok.replace(/\]\]$/, '')}'`;
    }
    if (/^\[\[ must be followed by an expression/.test(t)) {
      const tok = /^\[\[\s*(\S+)/.exec(src.slice(off))?.[1];
      if (tok && tok !== ']]') return `unexpected token \`${tok}' in conditional command`;
    }
    return 'syntax error in conditional expression';
  }
  let m: RegExpExecArray | null;
  // (a `!` before an operator: bash stops at the operator, fixBang took the rest)
  if (t === '"!" cannot form a statement alone' && (m = /^![ \t]*(&&|\|\||;;|\|&|[|&)])/.exec(src.slice(off)))) return `syntax error near unexpected token \`${m[1]}'`;
  if ((m = /^"(\S+)" can only be used/.exec(t)) || (m = /^(\S+) can only be used/.exec(t))) return `syntax error near unexpected token \`${m[1]}'`;
  // `for`, `select`, `case` need their word on the same line: a newline there is the bad token
  if (/^"(?:for|select|case)" must be followed by a (?:literal|word)$/.test(t) && /^\S+[ \t]*(?:\n|$)/.test(src.slice(off))) return "syntax error near unexpected token `newline'";
  // `case WORD` then a line without `in`: bash reads on to that line's first word
  if (/^"case .*" must be followed by "in"$/.test(t)) {
    const next = /^case[ \t]+\S+[ \t]*\n\s*(;;|[;&|()<>]+|[^\s;&|()<>]+)?/.exec(src.slice(off));
    if (next) return next[1] ? `syntax error near unexpected token \`${next[1]}'` : 'syntax error: unexpected end of file';
  }
  // (a reserved word where a command starts, followed at once by `;` or `&`: that is the token)
  const ls = src.lastIndexOf('\n', off - 1) + 1, le = src.indexOf('\n', off);
  const rw = /(?:^|[;&|(]|\b(?:then|do|else)[ \t])[ \t]*(?:if|then|else|elif|do|while|until|select|for|case)[ \t]*(;;|;|&)/.exec(src.slice(ls, le < 0 ? undefined : le));
  if (rw) return `syntax error near unexpected token \`${rw[1]}'`;
  if ((m = /^"(\S+)" must be followed by/.exec(t)) || (m = /^(\S+) must be followed by/.exec(t))) {
    // (a redirection operator at the end of its line, its word missing: bash's next token is the newline)
    if (/^[0-9]*(?:[<>]|>>|<<<?|<<-|[<>]&|&>>?|>\||<>)$/.test(m[1]!) && /^\S+[ \t]*(?:\n|$)/.test(src.slice(off))) return "syntax error near unexpected token `newline'";
    // (`$(if)`: the `)` right after the reserved word is the token bash stops at)
    if (/^(?:if|then|else|elif|while|until|do)\)/.test(src.slice(off))) return "syntax error near unexpected token `)'";
    const tok = /^[^\s;&|]*[;&|]*|^\S+/.exec(src.slice(off).replace(/^\S+\s*/, ''))?.[0];
    if (tok) return `syntax error near unexpected token \`${tok}'`;
    // (a reserved word or function head at the end of the input: bash reads on, to the end of file)
    if (/statement list$|^"\S+\(\)" must be followed by a statement$/.test(t) && /^\S+\s*$/.test(src.slice(off))) return 'syntax error: unexpected end of file';
    // (an arithmetic operator at the end of the input, inside `$((`: bash looks for the `)`)
    if (/must be followed by an expression$/.test(t) && /^\S+\s*$/.test(src.slice(off)) && /\(\([^)]*$/.test(src.slice(0, off))) return "unexpected EOF while looking for matching `)'";
    if (!/^(?:\|\|?|&&|\|&|\(\()$/.test(m[1]!) && /^\S+[ \t]*(?:\n|$)/.test(src.slice(off))) return "syntax error near unexpected token `newline'";
  }
  // what bash's parse_matched_pair reports at the end of input (`$(` is read by its command parser, to the end)
  if ((m = /^reached EOF without closing quote (\S)$/.exec(t))) return `unexpected EOF while looking for matching \`${m[1]}'`;
  if (/^reached EOF without matching (?:<|>)?\( with \)$/.test(t) && (/^(?:\$\(\(|\$\(|[<>]\(|\(\(|[a-zA-Z_][a-zA-Z0-9_]*(?:\[[^\]]*\])?\+?=\()/.test(src.slice(off)) || (src[off] === '(' && /[a-zA-Z_][a-zA-Z0-9_]*(?:\[[^\]\n]*\])?\+?=$/.test(src.slice(Math.max(0, off - 200), off))))) return "unexpected EOF while looking for matching `)'";
  if (/^\(\( must be followed by an expression$/.test(t) && /^\(\(\s*$/.test(src.slice(off))) return "unexpected EOF while looking for matching `)'";
  if (/^"\$\{ stmts;\}" is a mksh feature$|^not a valid parameter expansion operator: Newl|^parameter expansion requires a literal|^reached EOF without matching \$\{ with \}$/.test(t) && !src.slice(off).includes('}') && /\$\{[^}]*$/.test(src.slice(Math.max(0, off - 100), off + 2))) return "unexpected EOF while looking for matching `}'";
  if (/^reached EOF without/.test(t) || e.incomplete) return 'syntax error: unexpected end of file';
  // (one of bash's tokens: its operators, else a word)
  const tok = /^(;;&|;;|;&|&&|\|\||\|&|&>>|&>|<<<|<<-|<<|>>|<&|>&|<>|>\||[;&|()<>]|[^\s;&|()<>]+)/.exec(src.slice(off))?.[1];
  return tok ? `syntax error near unexpected token \`${tok}'` : 'syntax error';
}

// ---- fixes ----------------------------------------------------------------------------------

let counter = 0;

function fixOnce(src: string, off: number, e: ParseError): string | undefined {
  return fixBang(src, off, e) ?? fixHeredocWord(src, off, e) ?? fixFuncName(src, off, e) ?? fixCompoundArg(src, off) ?? fixEmptySubscript(src, off, e) ?? fixBlankSubscriptWord(src, off, e) ?? fixElemAppend(src, off, e) ?? fixNumParams(src, off, e) ?? fixParamOps(src, off, e) ?? fixEmptyExtglob(src, off) ?? fixDparen(src, off) ?? fixLet(src, off) ?? fixEmptySlice(src, off, e) ?? fixSliceArith(src, off) ?? fixRawSubscript(src, off) ?? fixBadSubst(src, off, e) ?? fixDeclName(src, off, e) ?? fixArrayAssign(src, off, e) ?? fixSubscript(src, off);
}

/** The placeholder command of a bare `!` (fixBang): a statement without a command. */
const NO_CMD = '__hpN';

/**
 * `!` before `;`, a newline or the end: bash's grammar makes it an empty command, negated
 * (status 1, no errexit, no trace, no DEBUG trap); mvdan-sh refuses it, and `! !` too, which
 * bash reads as two toggles of the same flag. A run of `!`s keeps its parity: before a command,
 * one `!` or none (blanks keep the positions); alone, an empty command, `NO_CMD`, negated or not.
 */
function fixBang(src: string, off: number, e: ParseError): string | undefined {
  if (src[off] !== '!' || !/^("!" cannot form a statement alone|cannot negate a command multiple times)$/.test(e.text)) return undefined;
  const run = /^!(?:[ \t]+!)*(?=[ \t\n;]|$)/.exec(src.slice(off))?.[0];
  if (run === undefined) return undefined;
  const n = run.split('!').length - 1, after = src.slice(off + run.length);
  const head = n % 2 ? '!' : '';
  if (/^[ \t]*(?:$|\n|;(?!;)|#)/.test(after)) return src.slice(0, off) + (head ? '! ' : '') + NO_CMD + src.slice(off + run.length);
  if (n < 2) return undefined;
  return src.slice(0, off) + head.padEnd(run.length) + after;
}

/**
 * `h[new key]=1`, `A=([/path]=x)`: bash reads the subscript of an assignment as a string (the
 * key of an associative array), mvdan-sh as arithmetic, which fails: the subscript is quoted.
 */
function fixSubscript(src: string, off: number): string | undefined {
  const ls = src.lastIndexOf('\n', off - 1) + 1;
  const open = src.lastIndexOf('[', off);
  if (open < ls || src.slice(open, off).includes(']')) return undefined;
  const close = src.indexOf(']', off);
  const le = src.indexOf('\n', off);
  if (close < 0 || (le >= 0 && close > le)) return undefined;
  const inner = src.slice(open + 1, close);
  if (inner === '' || /["'`\\]/.test(inner)) return undefined;
  // `name[` starting a word, `[` starting an element of an array literal (both before `]=`), or `${name[`
  let k = open;
  while (k > ls && /[A-Za-z0-9_]/.test(src[k - 1]!)) k--;
  const pre = /[#!]/.test(src[k - 1] ?? '') ? 1 : 0; // (`${#a[`, `${!a[`)
  const param = k < open && /^[A-Za-z_]/.test(src[k]!) && src.slice(k - 2 - pre, k - pre) === '${';
  if (!param) {
    if (!/^\]\+?=/.test(src.slice(close, close + 3))) return undefined;
    if (k === open ? !/[\s(]/.test(src[open - 1] ?? '') : !/^[A-Za-z_]/.test(src[k]!) || (k > ls && !/[\s;&|({]/.test(src[k - 1]!))) return undefined;
  } else {
    // The `}` bash's parser matched is inside the brackets (`"${x[1}]"`): bash reads the
    // subscript on past it when it expands the word, which works only if a `}` follows in the
    // same word (`${x[1}]}`); otherwise that `${…}` is a run-time bad substitution.
    const d = k - 2 - pre;
    const bc = paramClose(src, d, off);
    if (typeof bc === 'number' && bc < close && !SUBSCRIPT_GOES_ON.test(src.slice(close + 1))) return badSubstAt(src, d + 1);
    // (the subscript is read when the word is expanded, as for fixRawSubscript)
    return src.slice(0, open + 1) + placeholder(inner) + src.slice(close);
  }
  return src.slice(0, open + 1) + '"' + inner + '"' + src.slice(close);
}

/**
 * `<<$x`, `<<${a}`, `<<$(b)`: bash takes the delimiter's text as it is (quotes removed), with no
 * expansion; mvdan-sh refuses it. The word and its terminating line become a placeholder name.
 */
function fixHeredocWord(src: string, off: number, e: ParseError): string | undefined {
  if (!/^expansions not allowed in heredoc words/.test(e.text)) return undefined;
  const ls0 = src.lastIndexOf('\n', off - 1) + 1;
  const at = src.lastIndexOf('<<', off);
  const op = at < ls0 ? null : /^<<(-?)[ \t]*/.exec(src.slice(at, off + 1));
  if (!op) return undefined;
  off = at + op[0].length;
  const end = wordEnd(src, off);
  if (end <= off) return undefined;
  const word = src.slice(off, end);
  let delim = '';
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (c === '\\') { delim += word[++i] ?? ''; continue; }
    if (c === "'") { const j = word.indexOf("'", i + 1); delim += word.slice(i + 1, j); i = j; continue; }
    if (c === '"') {
      for (i++; i < word.length && word[i] !== '"'; i++) delim += word[i] === '\\' && /[$`"\\\n]/.test(word[i + 1] ?? '') ? word[++i] : word[i];
      continue;
    }
    delim += c;
  }
  if (delim.includes('\n')) return undefined;
  const quoted = /['"\\]/.test(word);
  // the terminating line: the first line after the `<<` line equal to it (leading tabs dropped for `<<-`)
  let ls = src.indexOf('\n', end);
  while (ls >= 0) {
    const le = src.indexOf('\n', ls + 1);
    const line = src.slice(ls + 1, le < 0 ? src.length : le);
    const tabs = op[1] ? /^\t*/.exec(line)![0].length : 0;
    if (line.slice(tabs) === delim) {
      const name = `__hpH${++counter}`;
      return src.slice(0, off) + (quoted ? `'${name}'` : name) + src.slice(end, ls + 1 + tabs) + name + src.slice(ls + 1 + line.length);
    }
    ls = le;
  }
  return undefined;
}

/**
 * `let x=( 1 + 2 )`, `eval a=( x y )`: bash reads a compound assignment in the arguments of these
 * builtins as one word (the text with its blanks); mvdan-sh refuses it. The word gets double quotes.
 */
function fixCompoundArg(src: string, off: number): string | undefined {
  if (src[off] !== '(') return undefined;
  const ls = src.lastIndexOf('\n', off - 1) + 1;
  let ws = off;
  while (ws > ls && !/[\s;&|()]/.test(src[ws - 1]!)) ws--;
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=$/.test(src.slice(ws, off))) return undefined;
  const m = /(?:^|[;&|({!]|\bthen|\bdo|\belse)\s*\\?(let|eval)(?:\s+(?:"[^"]*"|'[^']*'|[^\s;&|()<>"'])+)*\s+$/.exec(src.slice(ls, ws));
  if (!m) return undefined;
  const close = firstUnbalanced(src, off + 1);
  if (close < 0 || src.slice(off, close).includes('\n')) return undefined;
  // the unquoted runs get double quotes: the blanks stay, quotes are removed as usual
  const text = src.slice(ws, close);
  if (/[`\\]|\$\(/.test(text)) return undefined;
  let out = '';
  for (let i = 0; i < text.length;) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      const j = text.indexOf(c, i + 1);
      if (j < 0) return undefined;
      out += text.slice(i, j + 1); i = j + 1; continue;
    }
    const j = text.slice(i).search(/["']/);
    const k = j < 0 ? text.length : i + j;
    out += '"' + text.slice(i, k) + '"'; i = k;
  }
  return src.slice(0, ws) + out + src.slice(close);
}

/** Placeholder function name (`__hpF<n>`) → the word bash rejects when it defines the function ("not a valid identifier"). */
export const badFuncNames = new Map<string, string>();

/** `$x-y() { …; }`, `"a"() …`, `function $x { …; }`: a name with quotes or expansions, rejected at run time. */
function fixFuncName(src: string, off: number, e: ParseError): string | undefined {
  let at = off;
  if (/^"function" must be followed by a name/.test(e.text)) {
    const m = /^function[ \t]+/.exec(src.slice(off));
    if (!m) return undefined;
    at += m[0].length;
  } else if (!/^invalid func name/.test(e.text)) return undefined;
  const end = wordEnd(src, at);
  const word = src.slice(at, end);
  if (end <= at || !/["'$`\\]/.test(word) || word.includes('\n')) return undefined;
  const name = `__hpF${++counter}`;
  badFuncNames.set(name, word);
  return src.slice(0, at) + name + src.slice(end);
}

/** `${s: }`, `${s::}`, `${s:1:}`: an empty offset or length is 0 for bash (`${s:}` is a bad substitution). */
function fixEmptySlice(src: string, off: number, e: ParseError): string | undefined {
  if (!/^: must be followed by an expression/.test(e.text) || src[off] !== ':' || !/^:[ \t]*[:}]/.test(src.slice(off, off + 200))) return undefined;
  const offset = /\$\{[^${}:]*$/.test(src.slice(Math.max(0, off - 200), off));
  if (offset && src[off + 1] === '}') return badSubstAt(src, off);
  return src.slice(0, off + 1) + '0' + src.slice(off + 1);
}

/**
 * `${s:1:2:3}`, `${s:(1:2)}`, `${s:1:2?3}`: bash splits a substring's offset from its length at the
 * first `:` that is no `?:` partner, outside parentheses, and evaluates both as arithmetic when it
 * expands the word, so what mvdan-sh rejects in them is a run-time arithmetic error
 * (`s: 2:3: syntax error in expression`): each part becomes raw arithmetic text.
 */
function fixSliceArith(src: string, off: number): string | undefined {
  const d = src.lastIndexOf('${', off);
  if (d < 0) return undefined;
  const m = /^\$\{(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])(?:\[[^\]\n]*\])?:(?![-=?+])/.exec(src.slice(d, d + 200));
  if (!m) return undefined;
  const from = d + m[0].length;
  const close = paramClose(src, d, off);
  if (typeof close !== 'number' || off < from || off > close) return undefined;
  const text = src.slice(from, close);
  if (text.includes('\n') || /[`'"\\]|\$\(|\$\{/.test(text)) return undefined;
  let depth = 0, cond = 0, cut = -1;
  for (let i = 0; i < text.length && cut < 0; i++) {
    const c = text[i]!;
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && c === '?') cond++;
    else if (depth === 0 && c === ':') { if (cond > 0) cond--; else cut = i; }
  }
  const part = (t: string): string => (t.trim() === '' ? t : placeholder(t));
  const repl = cut < 0 ? part(text) : part(text.slice(0, cut)) + ':' + part(text.slice(cut + 1));
  return src.slice(0, from) + repl + src.slice(close);
}

/**
 * Index just past the first `)` that closes nothing, scanning from `i` (bash's
 * parse_matched_pair: quotes, `\x` and nested parens are skipped), or -1.
 */
function firstUnbalanced(src: string, i: number): number {
  let depth = 0;
  for (; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') { i++; continue; }
    if (c === "'") { const j = src.indexOf("'", i + 1); if (j < 0) return -1; i = j; continue; }
    if (c === '"') {
      for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === '\\') i++;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') { if (depth === 0) return i + 1; depth--; }
  }
  return -1;
}

/** `((`, `$((` and `for ((` around `off`: subshell vs arithmetic as bash decides. */
function fixDparen(src: string, off: number): string | undefined {
  const lo = Math.max(0, off - 20000);
  for (let j = Math.min(off + 1, src.length - 2); j >= lo; j--) {
    if (src[j] !== '(' || src[j + 1] !== '(') continue;
    // bash's lexer pairs a run of `(` from its start: `(((` is `((` + `(`
    let r = j;
    while (r > 0 && src[r - 1] === '(') r--;
    const dollar = r > 0 && src[r - 1] === '$';
    if ((j - r) % 2 !== 0) continue;
    const close = firstUnbalanced(src, j + 2);
    if (close < 0 || close < off) continue;
    // (a `$((` whose second `)` never comes is arithmetic left open for bash, not a subshell)
    if (src[close] !== ')' && dollar && firstUnbalanced(src, close) < 0) return undefined;
    if (src[close] !== ')') return src.slice(0, j + 1) + ' ' + src.slice(j + 1); // ( ( … ) …)
    // arithmetic for bash
    const inner = src.slice(j + 2, close - 1);
    let repl: string;
    if (!dollar && /(^|[\s;&|(])for\s*$/.test(src.slice(Math.max(0, j - 10), j))) {
      const parts = splitTop(inner);
      if (parts.length !== 3) return undefined;
      repl = parts.map((p) => (p.trim() === '' ? p : placeholder(p))).join(';');
    } else repl = placeholder(inner);
    return src.slice(0, j + 2) + repl + src.slice(close - 1);
  }
  return undefined;
}

function placeholder(text: string): string {
  const name = `__hpA${++counter}`;
  rawArith.set(name, text);
  return ` ${name} ` + '\n'.repeat(text.split('\n').length - 1);
}

/** Splits arithmetic text at `;` outside parentheses and quotes. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0, start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '"' || c === "'") { const j = s.indexOf(c, i + 1); if (j > 0) i = j; }
    else if (c === ';' && depth === 0) { out.push(s.slice(start, i)); start = i + 1; }
  }
  out.push(s.slice(start));
  return out;
}

/** A `let` command on the error's line becomes `\let` (its arguments are then plain words). */
function fixLet(src: string, off: number): string | undefined {
  const ls = src.lastIndexOf('\n', off - 1) + 1;
  const seg = src.slice(ls, Math.min(src.length, off + 3));
  const re = /(^|[;&|({!]|\bthen|\bdo|\belse)(\s*)let(?=\s|$)/g;
  let m: RegExpExecArray | null, at = -1;
  while ((m = re.exec(seg))) at = m.index + m[1]!.length + m[2]!.length;
  if (at < 0) return undefined;
  const p = ls + at;
  return src.slice(0, p) + '\\' + src.slice(p);
}

/** After a subscript's `]`: a `}` in the same word (bash's run-time scan then closes the `${` there). */
const SUBSCRIPT_GOES_ON = /^[^\s;&|<>()"'`\\]*?\}/;

/**
 * `${a[#+1]}`, `${x[)1]}`, `${a[ ]}`, `${h[new key]}`: a subscript mvdan-sh cannot parse. bash
 * reads it when it expands the word (an arithmetic error then, or an associative array's key),
 * so its text becomes a placeholder (`__hpA<n>`) evaluated at run time. Not an empty one
 * (`${a[]}`: a bad substitution), nor one the `}` bash matched is inside (fixSubscript).
 */
function fixRawSubscript(src: string, off: number): string | undefined {
  for (let d = src.lastIndexOf('${', off), tries = 0; d >= 0 && tries < 4; d = src.lastIndexOf('${', d - 1), tries++) {
    const m = /^\$\{[!#]?[A-Za-z_][A-Za-z0-9_]*\[/.exec(src.slice(d, d + 200));
    if (!m) continue;
    const open = d + m[0].length - 1;
    if (open > off) continue;
    let close = -1;
    for (let i = open, depth = 0; i < src.length && src[i] !== '\n'; i++) {
      const c = src[i]!;
      if (c === '\\') { i++; continue; }
      if (c === '[') depth++;
      else if (c === ']' && --depth === 0) { close = i; break; }
    }
    if (close < off) return undefined;
    const bc = paramClose(src, d, off);
    // (a `}` bash matched inside the brackets: only when a `}` follows in the word, `${x[}]}`)
    if (typeof bc !== 'number' || (bc < close && !SUBSCRIPT_GOES_ON.test(src.slice(close + 1)))) return undefined;
    const inner = src.slice(open + 1, close);
    if (inner === '' || /["'`]/.test(inner)) return undefined;
    return src.slice(0, open + 1) + placeholder(inner) + src.slice(close);
  }
  return undefined;
}

/** `${ cmd;}`, `${|cmd;}`, `${%}`: bash fails only when it expands them ("bad substitution"). */
function fixBadSubst(src: string, off: number, e: ParseError): string | undefined {
  if (!/^"\$\{/.test(e.text) && !/bad substitution|invalid parameter name|not a valid parameter|cannot combine multiple parameter expansion operators/.test(e.text)) {
    // (`${a b}`, `${=x}`, `${#x[}`: bash's "bad substitution" when the word is expanded)
    if (/^(?:LitWord cannot be followed by a word|parameter expansion requires a literal|\[ must be followed by an expression)$/.test(e.text)) return badSubstAt(src, off, true);
    return undefined;
  }
  return badSubstAt(src, off);
}

/** A placeholder name for `text`, a `${…}` bash rejects when it expands it. */
function newBadSubst(text: string): string {
  const name = `__hpB${++counter}`;
  badSubst.set(name, text);
  return name;
}

function badSubstAt(src: string, off: number, enclosing = false): string | undefined {
  const d = src.lastIndexOf('${', off + 1);
  if (d < 0) return undefined;
  const i = paramClose(src, d, off);
  if (typeof i !== 'number' || (enclosing && (i < off || src.slice(d, i + 1).includes('\n')))) return undefined;
  const text = src.slice(d, i + 1);
  const name = newBadSubst(text.replace(/__hpS\d+/g, '#').replace(/ ?(__hpA\d+) \n*/g, (m, n: string) => rawArith.get(n) ?? m));
  return src.slice(0, d) + '${' + name + '}' + '\n'.repeat(text.split('\n').length - 1) + src.slice(i + 1);
}

/**
 * Any other error inside `${…}`: bash's parser only matches the braces (quotes and nesting
 * respected) and looks inside when the word is expanded, so what it finds there is a run-time
 * "bad substitution" (the command fails, the script goes on), never a syntax error. Not when the
 * error is inside a `$(…)` or backquotes within it: bash parses those when it reads the line.
 */
function enclosingBadSubst(src: string, off: number): string | undefined {
  for (let d = src.lastIndexOf('${', off), tries = 0; d >= 0 && tries < 8; d = src.lastIndexOf('${', d - 1), tries++) {
    const close = paramClose(src, d, off);
    if (close === 'inside-command') return undefined;
    if (close !== null && close >= off) return badSubstAt(src, d + 1);
  }
  return undefined;
}

/** Index of the `}` closing the `${` at `d`, as bash matches it; 'inside-command' when `off` is in a nested `$(…)`/backquotes. */
function paramClose(src: string, d: number, off: number): number | null | 'inside-command' {
  let depth = 0;
  for (let i = d + 2; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') { i++; continue; }
    if (c === "'" || c === '"' || c === '`') {
      const j = quoteEnd(src, i);
      if (j < 0) return null;
      if (c === '`' && i < off && off <= j) return 'inside-command';
      i = j;
      continue;
    }
    if (c === '$' && src[i + 1] === '(') {
      let k = i + 2;
      for (let par = 1; k < src.length && par > 0; k++) {
        if (src[k] === '\\') k++;
        else if (src[k] === '(') par++;
        else if (src[k] === ')') par--;
      }
      if (i < off && off < k) return 'inside-command';
      i = k - 1;
      continue;
    }
    // (bash's first-close rule: a bare `{` opens nothing; only a nested `${` does)
    if (c === '$' && src[i + 1] === '{') { depth++; i++; }
    else if (c === '}') { if (depth === 0) return i; depth--; }
  }
  return null;
}

/** Index of the quote closing the one at `i` (backslash escapes in `"…"` and backquotes), or -1. */
function quoteEnd(src: string, i: number): number {
  const q = src[i]!;
  for (let j = i + 1; j < src.length; j++) {
    if (src[j] === '\\' && q !== "'") { j++; continue; }
    if (src[j] === q) return j;
  }
  return -1;
}

/** Whether `off` is inside an unclosed-before-it `$(` on its line (a command substitution bash parses). */
function inCommandSubst(src: string, off: number): boolean {
  const from = src.lastIndexOf('\n', off - 1) + 1;
  let depth = 0;
  for (let i = from; i < off; i++) {
    const c = src[i]!;
    if (c === '\\') { i++; continue; }
    if (c === "'") { const j = src.indexOf("'", i + 1); if (j < 0 || j >= off) return false; i = j; continue; }
    if (c === '$' && src[i + 1] === '(' && src[i + 2] !== '(') { depth++; i++; }
    else if (c === ')' && depth > 0) depth--;
  }
  return depth > 0;
}

/**
 * `$[EXPR]`, the old arithmetic form, that mvdan-sh cannot read: bash matches the brackets when
 * it parses and evaluates the text when it expands it, so it becomes `$((EXPR))` and takes the
 * raw-arithmetic path (a malformed expression is a run-time error there, as in bash).
 */
function fixOldArith(src: string, off: number): string | undefined {
  const d = src.lastIndexOf('$[', off);
  if (d < 0) return undefined;
  let depth = 0;
  for (let i = d + 2; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\n') return undefined;
    if (c === '\\') { i++; continue; } // (bash's parse_matched_pair skips `\]`)
    if (c === '[') depth++;
    else if (c === ']') {
      if (depth > 0) { depth--; continue; }
      if (i < off) return undefined;
      // (as a placeholder: a `)` in the text must not make a `$( (` of it)
      return `${src.slice(0, d)}$((${placeholder(src.slice(d + 2, i))}))${src.slice(i + 1)}`;
    }
  }
  return undefined;
}

/** `export a-b=c`: bash's builtin reports the invalid name at run time. */
function fixDeclName(src: string, off: number, e: ParseError): string | undefined {
  if (!/^invalid var name/.test(e.text) || src[off] === '\\' || src.startsWith('""', off)) return undefined;
  const end = wordEnd(src, off);
  const text = src.slice(off, end);
  if (end > off && /[$`]/.test(text) && !text.includes('\n')) {
    // `local a=1 $name`: mvdan-sh takes no expansion after an assignment; the word becomes a
    // placeholder name (`__hpD<n>`) that the builtin expands at run time
    const name = `__hpD${++counter}`;
    declWords.set(name, text);
    return src.slice(0, off) + name + src.slice(end);
  }
  return src.slice(0, off) + '""' + src.slice(off); // `""a-b=c`: an ordinary word
}

/**
 * Placeholder name (`__hpE<n>`) of an assignment bash rejects only when it runs → its message:
 * `a[0]=(1 2)` ("cannot assign list to array member", the rest of the line is abandoned) and
 * `a[0]=1 cmd` ("not a valid identifier", the command still runs).
 */
export const badAssigns = new Map<string, { message: string; discard: boolean; prefix?: string }>();

/** `@()`, `!()` (extglob, empty pattern list): mvdan-sh wants a pattern; `@(|)` is the same one. */
function fixEmptyExtglob(src: string, off: number): string | undefined {
  if (src.slice(off, off + 2) !== '()' || !/[@!?*+]/.test(src[off - 1] ?? '')) return undefined;
  emptyGlobs.add(off - 1);
  return src.slice(0, off + 1) + '|' + src.slice(off + 1);
}
/** Offsets (in the current parseScript) of the `@()` that fixEmptyExtglob wrote `@(|)`: their pattern is made empty again. */
const emptyGlobs = new Set<number>();

/** Op codes (not mvdan-sh's) of bash's case toggles `${x~pat}` and `${x~~pat}`. */
export const TOGGLE_FIRST = 1080, TOGGLE_ALL = 1081;
/** `${…}` (by the offset of its `$`, in the current parseScript) whose operator fixParamOps replaced: `~`, `~~`, or `k` (for `@k`). */
const paramOps = new Map<number, string>();

/**
 * bash's `${x~}`/`${x~~}` (toggle case) and `${x@k}`: mvdan-sh knows neither. They are parsed
 * as `^`/`^^`/`@K` (same length: positions stay) and given their own operator back afterwards.
 */
function fixParamOps(src: string, off: number, e: ParseError): string | undefined {
  let rep: string, len: number;
  if (/^invalid @ expansion operator/.test(e.text) && src.slice(off - 1, off + 2) === '@k}') { rep = '@K'; len = 2; off -= 2; }
  else if (/^LitWord cannot be followed by a word|^not a valid parameter expansion operator: LitWord|^[@*] cannot be followed by a word/.test(e.text) && src[off] === '~') { len = src[off + 1] === '~' ? 2 : 1; rep = '^'.repeat(len); off--; }
  else return undefined;
  const d = paramStart(src, off);
  if (d < 0) return undefined;
  paramOps.set(d, rep === '@K' ? 'k' : src.slice(off + 1, off + 1 + len));
  return src.slice(0, off + 1) + rep + src.slice(off + 1 + len);
}

/** Offset of the `${` whose name (and subscript) ends at `end` (inclusive), or -1. */
function paramStart(src: string, end: number): number {
  let i = end;
  if (src[i] === ']') { i = src.lastIndexOf('[', i); if (i < 0) return -1; i--; }
  if (/[@*#?$!0-9-]/.test(src[i] ?? '') && src.slice(i - 2, i) === '${') return i - 2;
  while (i >= 0 && /[A-Za-z0-9_]/.test(src[i]!)) i--;
  return src.slice(i - 1, i + 1) === '${' ? i - 1 : -1;
}

const numParams = new Set<string>();

/**
 * `${###}`, `${##2}`, `${#@Q}`: `$#` with a `#`/`##` removal or an `@` operator, which mvdan-sh
 * reads as a length. `$#` is renamed `__hpS<n>` for the parse and named `#` again afterwards
 * (`markAppends`).
 */
function fixNumParams(src: string, off: number, e: ParseError): string | undefined {
  if (!/^parameter expansion requires a literal|^[#@] cannot be followed by a word|^cannot combine multiple parameter expansion operators|^cannot index a special parameter name/.test(e.text)) return undefined;
  const d = src.lastIndexOf('${#', off);
  if (d < 0 || d < off - 6 || !/^\$\{#[#@]/.test(src.slice(d, d + 4))) return undefined;
  const name = `__hpS${++counter}`;
  numParams.add(name);
  return src.slice(0, d + 2) + name + src.slice(d + 3);
}

/** Whether `((`, `$((` or `$[` before `at` on its line is still open there (arithmetic, left to fixDparen). */
function inArith(src: string, at: number): boolean {
  const seg = src.slice(src.lastIndexOf('\n', at - 1) + 1, at);
  return seg.split('((').length - seg.split('))').length > 0 || /\$\[[^\]]*$/.test(seg);
}

/** Elements of array literals written `[k]+=v` (bash appends to the element); see fixElemAppend. */
export const appendElems = new WeakSet<ArrayElem>();
const appendMarks = new Set<string>();

/**
 * `a=([k]+=v)`: mvdan-sh wants `=` after `[k]`. The value gets a marker prefix (`__hpP<n>_`),
 * which `markAppends` takes off again once the script parses, putting the element in appendElems.
 */
function fixElemAppend(src: string, off: number, e: ParseError): string | undefined {
  if (!/^"\[.*\]" must be followed by =/.test(e.text) || src[off] !== '[') return undefined;
  const le = src.indexOf('\n', off);
  const close = src.slice(off, le < 0 ? src.length : le).search(/\]\+=/);
  if (close < 0) return undefined;
  const mark = `__hpP${++counter}_`;
  appendMarks.add(mark);
  return src.slice(0, off + close) + ']=' + mark + src.slice(off + close + 3);
}

function markAppends(node: unknown): void {
  if (Array.isArray(node)) { for (const x of node) markAppends(x); return; }
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (o['type'] === 'ParamExp' && numParams.size) {
    const p = (o as unknown as ParamExp).Param;
    if (numParams.has(p.Value)) { p.Value = '#'; p.ValueEnd = p.ValuePos + 1; }
  }
  if (o['type'] === 'ExtGlob' && emptyGlobs.has((o as unknown as ExtGlob).OpPos)) {
    const p = (o as unknown as ExtGlob).Pattern;
    if (p.Value === '|') { p.Value = ''; p.ValueEnd = p.ValuePos; }
  }
  if (o['type'] === 'ParamExp' && paramOps.size) {
    const pe = o as unknown as ParamExp, op = paramOps.get(pe.Dollar), x = pe.Exp;
    if (op && x) {
      if (op === 'k' && x.Word?.Parts[0]?.type === 'Lit') (x.Word.Parts[0] as Lit).Value = 'k';
      else if (op !== 'k') x.Op = op === '~' ? TOGGLE_FIRST : TOGGLE_ALL;
    }
  }
  if (o['type'] === 'ArrayElem') {
    const el = o as unknown as ArrayElem, first = el.Value?.Parts[0];
    const m = first?.type === 'Lit' ? /^__hpP\d+_/.exec(first.Value) : null;
    if (m && appendMarks.has(m[0])) {
      const lit = first as Lit;
      appendElems.add(el);
      lit.Value = lit.Value.slice(m[0].length);
      lit.ValuePos += m[0].length;
      if (lit.Value === '') el.Value!.Parts.shift();
      if (el.Value!.Parts.length === 0) el.Value = null;
    }
  }
  for (const k in o) if (k !== 'type') { const v = o[k]; if (v && typeof v === 'object') markAppends(v); }
}

/**
 * `a[1 + 2]` where an assignment could start, but without `=`: bash reads one word (a command
 * name, globbed); mvdan-sh wants an assignment. The blanks are escaped and `""` put in front.
 */
function fixBlankSubscriptWord(src: string, off: number, e: ParseError): string | undefined {
  if (!/^"[A-Za-z_][A-Za-z0-9_]*\[b\]\+?" must be followed by =/.test(e.text)) {
    // (`a[1 2]`: an arithmetic error inside the brackets)
    const ls = src.lastIndexOf('\n', off - 1) + 1, open = src.lastIndexOf('[', off);
    if (open < ls || src.slice(open, off).includes(']')) return undefined;
    let k = open;
    while (k > ls && /[A-Za-z0-9_]/.test(src[k - 1]!)) k--;
    if (k === open || !/[A-Za-z_]/.test(src[k]!) || (k > ls && !/[\s;&|({]/.test(src[k - 1]!)) || src.slice(k - 2, k) === '${' || inArith(src, k)) return undefined;
    const close = src.indexOf(']', off);
    if (close < 0 || /^\+?=/.test(src.slice(close + 1, close + 3))) return undefined;
    off = k;
  }
  const m = /^[A-Za-z_][A-Za-z0-9_]*\[([^\]\n'"`\\]*)\]/.exec(src.slice(off, off + 400));
  if (!m || !/\s/.test(m[1]!)) return undefined;
  return src.slice(0, off) + '""' + m[0].replace(/[ \t]/g, '\\$&') + src.slice(off + m[0].length);
}

/**
 * `a[]=v`, `a[]+=v`: bash's run-time "bad array subscript" (before a command: "not a valid
 * identifier", the command runs); `declare a[]=v` reports it from the builtin; `${a[]}` is a bad
 * substitution.
 */
function fixEmptySubscript(src: string, off: number, e: ParseError): string | undefined {
  if (!/^\[ must be followed by an expression/.test(e.text)) return undefined;
  // (mvdan-sh's column is not always the `[`'s: `arr[]` is reported at its `r`)
  while (/[A-Za-z0-9_]/.test(src[off] ?? '')) off++;
  if (src.slice(off, off + 2) !== '[]') return undefined;
  const ls = src.lastIndexOf('\n', off - 1) + 1;
  let k = off;
  while (k > ls && /[A-Za-z0-9_]/.test(src[k - 1]!)) k--;
  if (k === off || !/[A-Za-z_]/.test(src[k]!)) return undefined;
  if (src.slice(k - 2, k) === '${') return badSubstAt(src, off);
  if ((k > ls && !/[\s;&|({]/.test(src[k - 1]!)) || inArith(src, k)) return undefined;
  const op = /^\]\+?=/.exec(src.slice(off + 1, off + 4))?.[0];
  if (!op) return undefined;
  const lhs = src.slice(k, off + 2);
  if (/(^|[;&|({!]|\bthen|\bdo|\belse)\s*(declare|typeset|local|export|readonly)(\s+[^\s;&|()<>]+)*\s+$/.test(src.slice(ls, k))) {
    const end = wordEnd(src, k);
    if (end <= k || src.slice(k, end).includes('\n')) return undefined;
    const name = `__hpD${++counter}`;
    declWords.set(name, src.slice(k, end));
    return src.slice(0, k) + name + src.slice(end);
  }
  const name = `__hpE${++counter}`;
  badAssigns.set(name, { message: `${lhs}: bad array subscript`, discard: true, prefix: `\`${lhs}': not a valid identifier` });
  return src.slice(0, k) + name + src.slice(off + 2);
}

/**
 * Assignments mvdan-sh rejects: `a[i]=(…)` and `a[i]+=(…)` ("arrays cannot be nested"), and
 * in front of a command `a[i]=v` ("inline variables cannot be arrays": a placeholder, see
 * badAssigns) or `A=(x y)` (bash passes the text `(x y)` as a plain string: the parentheses
 * and blanks get escaped).
 */
function fixArrayAssign(src: string, off: number, e: ParseError): string | undefined {
  const nested = /^arrays cannot be nested/.test(e.text);
  if (!nested && !/^inline variables cannot be arrays/.test(e.text)) return undefined;
  let start = off;
  if (nested) {
    // off is at `(`: back over `=`/`+=`, `[…]` and the name
    let j = off - 1;
    if (src[j] !== '=') return undefined;
    j--;
    if (src[j] === '+') j--;
    if (src[j] !== ']') return undefined;
    const ls = src.lastIndexOf('\n', j) + 1;
    const open = src.lastIndexOf('[', j);
    if (open < ls) return undefined;
    start = open;
    while (start > ls && /[A-Za-z0-9_]/.test(src[start - 1]!)) start--;
  }
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]\n]*\])?(\+?=)/.exec(src.slice(start, start + 400));
  if (!m) return undefined;
  const vstart = start + m[0].length;
  let vend: number;
  if (src[vstart] === '(') {
    vend = firstUnbalanced(src, vstart + 1);
    if (vend < 0 || src.slice(vstart, vend).includes('\n')) return undefined;
  } else vend = wordEnd(src, vstart);
  const name = `__hpE${++counter}`;
  if (m[2]) {
    const message = src[vstart] === '(' ? `${m[1]}${m[2]}: cannot assign list to array member` : `\`${m[1]}${m[2]}': not a valid identifier`;
    badAssigns.set(name, { message, discard: src[vstart] === '(' });
    return src.slice(0, start) + name + '=' + src.slice(vend);
  }
  if (src[vstart] !== '(') return undefined;
  // `A=(x y) cmd`: the value is the text itself
  let esc = '';
  const inner = src.slice(vstart, vend);
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c === '\\') { esc += c + (inner[i + 1] ?? ''); i++; continue; }
    if (c === "'" || c === '"' || c === '`' || (c === '$' && (inner[i + 1] === '(' || inner[i + 1] === '{'))) {
      const k = wordEnd(inner, i);
      if (k <= i) return undefined;
      // copy the quoted/expansion run up to the next unquoted blank or operator
      esc += inner.slice(i, k);
      i = k - 1;
      continue;
    }
    esc += /[\s;&|<>()]/.test(c) ? '\\' + c : c;
  }
  return src.slice(0, vstart) + esc + src.slice(vend);
}

/** Placeholder name (`__hpD<n>`) → original text of a declaration builtin's argument word. */
export const declWords = new Map<string, string>();

/** End of the shell word starting at `i` (quotes, `$(…)`, `${…}` and backquotes skipped), or `i` if unsure. */
function wordEnd(src: string, i: number): number {
  const start = i;
  let depth = 0;
  for (; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') { i++; continue; }
    if (c === "'") { const j = src.indexOf("'", i + 1); if (j < 0) return start; i = j; continue; }
    if (c === '"') {
      for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === '\\') i++;
      if (i >= src.length) return start;
      continue;
    }
    if (c === '`') { const j = src.indexOf('`', i + 1); if (j < 0) return start; i = j; continue; }
    if (c === '$' && (src[i + 1] === '(' || src[i + 1] === '{')) { depth++; i++; continue; }
    if (depth > 0) { if (c === '(' || c === '{') depth++; else if (c === ')' || c === '}') depth--; continue; }
    if (/[\s;&|<>()]/.test(c)) break;
  }
  return depth === 0 ? i : start;
}

// ---- run time -------------------------------------------------------------------------------

const textWords = new Map<string, Word | null>();

/**
 * Arithmetic text as a word to expand like a here-document body (`$…`, `` `…` `` and `\` are
 * special), with the double quotes removed as bash does; null when it needs no expansion or
 * does not parse.
 */
export function arithTextWord(text: string): Word | null {
  let w = textWords.get(text);
  if (w !== undefined) return w;
  w = null;
  if (/[$`"\\]/.test(text)) {
    const d = '__HPATCH_ARITH_TEXT__';
    try {
      const f = parse(toUtf8(`: <<${d}\n${text}\n${d}\n`), false);
      const h = f.Stmts[0]?.Redirs[0]?.Hdoc;
      if (h) w = { ...h, Parts: h.Parts.map((p) => (p.type === 'Lit' ? { ...p, Value: p.Value.replace(/"/g, '') } : p)) };
    } catch { /* evaluated as it is: a syntax error */ }
  }
  if (textWords.size > 500) textWords.clear();
  textWords.set(text, w);
  return w;
}

const promptWords = new Map<string, { word: Word; src: string } | null>();

/** A prompt string (PS4) as a word to expand like a here-document body, and the text its positions are in; null when it does not parse. */
export function promptTextWord(text: string): { word: Word; src: string } | null {
  let w = promptWords.get(text);
  if (w !== undefined) return w;
  w = null;
  const d = '__HPATCH_PROMPT_TEXT__';
  const src = `: <<${d}\n${text}\n${d}\n`;
  try { const word = parse(toUtf8(src), false).Stmts[0]?.Redirs[0]?.Hdoc; if (word) w = { word, src }; } catch { /* used as it is */ }
  if (promptWords.size > 100) promptWords.clear();
  promptWords.set(text, w);
  return w;
}
