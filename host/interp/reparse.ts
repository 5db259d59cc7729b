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
//  * an invalid name in `export`/`local`/… assignments becomes an ordinary (escaped) word.
// Anything else: the longest prefix of whole lines that parses runs, then the error is reported
// (`error`), like bash; a `[[ … ]]` error exits with the last status instead of 2.
import type { CallExpr, File, Lit, Redirect, Word } from './ast.ts';
import { parse, ParseError } from './parser.ts';

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

/** Parses `latin1` (the script's bytes); never throws ParseError. */
export function parseScript(latin1: string, posix: boolean): ParsedScript {
  let src = latin1;
  let first: ParseError | undefined;
  let warning: ParsedScript['warning'];
  for (let round = 0; ; round++) {
    try {
      const file = parse(toUtf8(src), posix);
      if (posix) dollarQuotes(file, false);
      if (ARRAY_FD_VAR.test(src)) arrayFdVars(file);
      return warning ? { file, src, warning } : { file, src };
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      first ??= e;
      const off = offsetOf(src, e.line, e.col);
      // a here-document without its delimiter line ends at the end of the script (bash warns)
      const h = /^unclosed here-document '(.*)'$/s.exec(e.text);
      if (h && !warning && round < 64) {
        const lines = src.split('\n').length - (src.endsWith('\n') ? 1 : 0);
        warning = { line: lines, at: off, message: `warning: here-document at line ${e.line} delimited by end-of-file (wanted \`${h[1]}')` };
        src = src + (src.endsWith('\n') ? '' : '\n') + h[1] + '\n';
        continue;
      }
      const fixed = round < 64 ? fixOnce(src, off, e) : undefined;
      if (fixed === undefined || fixed === src) return withPrefix(src, e, off, posix);
      src = fixed;
    }
  }
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

function withPrefix(src: string, e: ParseError, off: number, posix: boolean): ParsedScript {
  const cond = inCond(src, off, e.text);
  const error: DeferredParseError = { line: e.line, message: bashMessage(src, e, off, cond), cond, err: e };
  // bash counts the end of file as one more line (a missing final newline is added)
  if (error.message.endsWith('unexpected end of file') || (error.message.endsWith("matching `)'") && /^\$\((?!\()/.test(src.slice(off)))) error.line = (src.endsWith('\n') ? src : src + '\n').split('\n').length;
  // `[[ -z ]]`: the operator took `]]` as its operand; bash reports it on that line
  const atEof = /^reached EOF without matching \[\[/.test(e.text);
  if (cond && (atEof || (/^\s*$/.test(src.slice(src.lastIndexOf('\n', off - 1) + 1, off)) && /^not a valid test operator|must be followed by a word/.test(e.text)))) {
    const upto = (atEof ? src : src.slice(0, src.lastIndexOf('\n', off - 1))).replace(/\s+$/, '');
    if (/(^|\s)-[a-zA-Z]+\s+\]\]$/.test(upto)) {
      error.line = upto.split('\n').length;
      error.message = "unexpected argument `]]' to conditional unary operator";
    }
  }
  if (!cond && error.message.startsWith('syntax error near')) error.context = lineText(src, e.line);
  if (error.message.startsWith('unexpected EOF while looking for matching') && !/^\$\((?!\()/.test(src.slice(off))) error.matchedPair = true;
  // (what mvdan-sh's POSIX mode rejects as Bash-only has no bash message: its own text then)
  if (posix && /\bbash(\/mksh)? feature$/.test(e.text)) Object.assign(error, { message: `${e.line}:${e.col}: ${e.text}`, context: undefined, raw: true });
  const lines = src.split('\n');
  // the longest prefix of whole lines (before the error's line) that parses is what bash ran
  let budget = 400;
  for (let k = Math.min(e.line - 1, lines.length); k > 0 && budget > 0; k--, budget--) {
    const last = lines[k - 1]!;
    if (/(^|[^\\])(\\\\)*\\$/.test(last)) continue; // a continuation line
    const pre = lines.slice(0, k).join('\n') + '\n';
    try {
      const file = parse(toUtf8(pre), posix);
      if (posix) dollarQuotes(file, false);
      error.prefixEnd = pre.length;
      return { file, src, error };
    } catch (x) {
      if (!(x instanceof ParseError)) throw x;
    }
  }
  error.prefixEnd = 0;
  return { file: { type: 'File', Stmts: [] } as unknown as File, src, error };
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
  if (at < 0 || ls + at > end) return false;
  const between = src.slice(ls + at + 2, end);
  if (prevLine) return /\s\]\]\s*$/.test(between);
  return !/(^|\s)\]\](?=$|[\s;&|)])/.test(between);
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
    if (/^not a valid test operator/.test(t)) return 'conditional binary operator expected';
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
  if ((m = /^"(\S+)" can only be used/.exec(t)) || (m = /^(\S+) can only be used/.exec(t))) return `syntax error near unexpected token \`${m[1]}'`;
  if ((m = /^"(\S+)" must be followed by/.exec(t)) || (m = /^(\S+) must be followed by/.exec(t))) {
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
  if (/^reached EOF without matching \( with \)$/.test(t) && /^(?:\$\(\(|\$\(|\(\(|[a-zA-Z_][a-zA-Z0-9_]*(?:\[[^\]]*\])?\+?=\()/.test(src.slice(off))) return "unexpected EOF while looking for matching `)'";
  if (/^\(\( must be followed by an expression$/.test(t) && /^\(\(\s*$/.test(src.slice(off))) return "unexpected EOF while looking for matching `)'";
  if (/^"\$\{ stmts;\}" is a mksh feature$|^not a valid parameter expansion operator: Newl|^parameter expansion requires a literal|^reached EOF without matching \$\{ with \}$/.test(t) && !src.slice(off).includes('}') && /\$\{[^}]*$/.test(src.slice(Math.max(0, off - 100), off + 2))) return "unexpected EOF while looking for matching `}'";
  if (/^reached EOF without/.test(t) || e.incomplete) return 'syntax error: unexpected end of file';
  const tok = /^(;;|[;&|()<>]+|[^\s;&|()<>]+)/.exec(src.slice(off))?.[1];
  return tok ? `syntax error near unexpected token \`${tok}'` : 'syntax error';
}

// ---- fixes ----------------------------------------------------------------------------------

let counter = 0;

function fixOnce(src: string, off: number, e: ParseError): string | undefined {
  return fixDparen(src, off) ?? fixLet(src, off) ?? fixEmptySlice(src, off, e) ?? fixBadSubst(src, off, e) ?? fixDeclName(src, off, e) ?? fixArrayAssign(src, off, e) ?? fixSubscript(src, off);
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
  const param = k < open && /^[A-Za-z_]/.test(src[k]!) && src.slice(k - 2, k) === '${';
  if (!param) {
    if (!/^\]\+?=/.test(src.slice(close, close + 3))) return undefined;
    if (k === open ? !/[\s(]/.test(src[open - 1] ?? '') : !/^[A-Za-z_]/.test(src[k]!) || (k > ls && !/[\s;&|({]/.test(src[k - 1]!))) return undefined;
  }
  return src.slice(0, open + 1) + '"' + inner + '"' + src.slice(close);
}

/** `${s: }`, `${s::}`, `${s:1:}`: an empty offset or length is 0 for bash (`${s:}` is a bad substitution). */
function fixEmptySlice(src: string, off: number, e: ParseError): string | undefined {
  if (!/^: must be followed by an expression/.test(e.text) || src[off] !== ':' || !/^:[ \t]*[:}]/.test(src.slice(off, off + 200))) return undefined;
  const offset = /\$\{[^${}:]*$/.test(src.slice(Math.max(0, off - 200), off));
  if (offset && src[off + 1] === '}') return badSubstAt(src, off);
  return src.slice(0, off + 1) + '0' + src.slice(off + 1);
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

/** `${ cmd;}`, `${|cmd;}`, `${%}`: bash fails only when it expands them ("bad substitution"). */
function fixBadSubst(src: string, off: number, e: ParseError): string | undefined {
  if (!/^"\$\{/.test(e.text) && !/bad substitution|invalid parameter name|not a valid parameter|cannot combine multiple parameter expansion operators/.test(e.text)) return undefined;
  return badSubstAt(src, off);
}

function badSubstAt(src: string, off: number): string | undefined {
  let d = src.lastIndexOf('${', off + 1);
  if (d < 0) return undefined;
  let depth = 0, i = d + 2;
  for (; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') { i++; continue; }
    if (c === "'" ) { const j = src.indexOf("'", i + 1); if (j < 0) return undefined; i = j; continue; }
    if (c === '{') depth++;
    else if (c === '}') { if (depth === 0) break; depth--; }
  }
  if (i >= src.length) return undefined;
  const text = src.slice(d, i + 1);
  const name = `__hpB${++counter}`;
  badSubst.set(name, text);
  return src.slice(0, d) + '${' + name + '}' + '\n'.repeat(text.split('\n').length - 1) + src.slice(i + 1);
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
export const badAssigns = new Map<string, { message: string; discard: boolean }>();

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
