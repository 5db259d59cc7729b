// A syntax error parseScript could not fix, reported as bash reports it: bash's message, the line
// and token it names, the status, and the longest prefix of whole lines before it that parses
// (bash ran those lines before it read the bad one). Apart from reparse.ts because it is the
// whole of bash's wording and token rules for errors, none of which the fixes need.
import type { File } from './ast.ts';
import { ParseError } from './parser.ts';
import type { DeferredParseError, ParsedScript } from './reparse.ts';
import { parsePatched } from './reparse-after-parse.ts';
import { firstUnbalanced, wordEnd } from './reparse-scan.ts';

export function withPrefix(src: string, e: ParseError, off: number, posix: boolean, orig = src): ParsedScript {
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
