// Lark grammar files as OpenAI custom tools accept them: a lexer and recursive-descent parser that
// follow Lark's own grammar of grammars (lark/grammars/lark.lark), producing an AST with source
// offsets; lark-checks.ts holds the checks for the subset OpenAI documents. No Lark package exists
// on npm, hence the hand-written parser. String escapes follow LLGuidance (OpenAI's Lark engine),
// which is stricter than Python Lark: JSON escapes plus \xHH.
import { checkGrammar, checkRegexLiteral, classifyName } from './lark-checks.ts';

export interface GrammarProblem {
  readonly message: string;
  /** 1-based, within the definition. */
  readonly line?: number;
  /** 1-based, in code points. */
  readonly column?: number;
}

/** Half-open UTF-16 offsets into the grammar text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

// ---------------------------------------------------------------------------------------------
// AST

export interface NameRef {
  readonly kind: 'name';
  readonly name: string;
  readonly span: Span;
  /** Template arguments of `name{a, b}` (unsupported, kept for the diagnostic). */
  readonly templateArgs?: readonly Atom[];
}
export interface StringLit {
  readonly kind: 'string';
  readonly value: string;
  readonly caseInsensitive: boolean;
  readonly span: Span;
}
export interface RegexLit {
  readonly kind: 'regex';
  /** The text between the slashes, verbatim (Rust regex syntax, `\/` included). */
  readonly pattern: string;
  readonly flags: string;
  readonly span: Span;
}
export interface RangeLit {
  readonly kind: 'range';
  /** Decoded ends. */
  readonly from: string;
  readonly to: string;
  /** Either end carried the `i` flag (not allowed). */
  readonly flagged: boolean;
  readonly span: Span;
}
export interface Group {
  readonly kind: 'group' | 'maybe';
  readonly body: Expansions;
  readonly span: Span;
}
/** An unparsable token already reported by the lexer; kept so parsing can go on silently. */
export interface BadAtom {
  readonly kind: 'bad';
  readonly span: Span;
}
export type Atom = NameRef | StringLit | RegexLit | RangeLit | Group | BadAtom;

export type Repeat =
  | { readonly kind: 'op'; readonly op: '?' | '*' | '+' }
  | { readonly kind: 'count'; readonly min: number; readonly max: number };

export interface Expr {
  readonly atom: Atom;
  readonly repeat?: Repeat;
  readonly span: Span;
}
export interface Alternative {
  readonly items: readonly Expr[];
  readonly alias?: { readonly name: string; readonly span: Span };
  readonly span: Span;
}
export type Expansions = readonly Alternative[];

export interface Definition {
  readonly kind: 'rule' | 'terminal';
  readonly name: string;
  readonly nameSpan: Span;
  readonly modifier?: string;
  readonly templateParams?: { readonly names: readonly string[]; readonly span: Span };
  readonly priority?: { readonly value: number; readonly span: Span };
  readonly body: Expansions;
  readonly span: Span;
}
export type Statement =
  | { readonly kind: 'ignore'; readonly body: Expansions; readonly span: Span }
  | {
      readonly kind: 'import';
      readonly relative: boolean;
      readonly path: readonly Word[];
      readonly alias?: Word;
      readonly names?: readonly Word[];
      readonly span: Span;
    }
  | { readonly kind: 'declare'; readonly names: readonly Word[]; readonly span: Span }
  | { readonly kind: 'override' | 'extend'; readonly definition?: Definition; readonly span: Span };
export interface Word {
  readonly text: string;
  readonly span: Span;
}
export type Item = Definition | Statement;

export interface LarkGrammar {
  readonly items: readonly Item[];
  /** Names of definitions whose body failed to parse: still defined, so uses are not reported again. */
  readonly recovered: readonly Word[];
  /** An `%import` failed to parse, so which terminals exist is unknown. */
  readonly brokenImport: boolean;
}

// ---------------------------------------------------------------------------------------------
// Lexer

export type TokKind =
  | 'nl' // one or more line ends (with following blank/comment lines)
  | 'rule' // lower-case name
  | 'term' // upper-case name
  | 'string'
  | 'regex'
  | 'number'
  | 'directive' // %name
  | 'modifier' // ! ?! !? or ? directly before a rule name
  | 'op' // + * ?
  | 'punct' // ( ) [ ] { } : , | . .. ~ ->
  | 'bad' // reported by the lexer already
  | 'eof';

export interface Token {
  readonly kind: TokKind;
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** Decoded value of a string token. */
  readonly value?: string;
  readonly flags?: string;
}

export interface Reporter {
  (message: string, offset?: number): void;
}

const NAME_CHAR = /[A-Za-z0-9_]/;

function lex(src: string, report: Reporter): Token[] {
  const toks: Token[] = [];
  let i = 0;
  const push = (kind: TokKind, start: number, end: number, extra?: Partial<Token>): void => {
    toks.push({ kind, text: src.slice(start, end), start, end, ...extra });
  };
  while (i < src.length) {
    const c = src[i] ?? '';
    const next = src[i + 1] ?? '';
    if (c === ' ' || c === '\t' || c === '\f') {
      i++;
    } else if (c === '\\' && /^\\[ \t]*\r?\n/.test(src.slice(i, i + 64))) {
      // Line continuation.
      i = src.indexOf('\n', i) + 1;
    } else if (c === '\n' || (c === '\r' && next === '\n')) {
      const start = i;
      while (i < src.length && ' \t\f\r\n'.includes(src[i] ?? '-')) i++;
      const last = toks.at(-1);
      if (last?.kind === 'nl') toks[toks.length - 1] = { ...last, end: i, text: src.slice(last.start, i) };
      else push('nl', start, i);
    } else if ((c === '/' && next === '/') || c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '"') {
      i = lexString(src, i, push, report);
    } else if (c === '/') {
      i = lexRegex(src, i, push, report);
    } else if (/[A-Za-z_]/.test(c)) {
      const start = i;
      while (i < src.length && NAME_CHAR.test(src[i] ?? '')) i++;
      const word = src.slice(start, i);
      const kind = classifyName(word);
      if (kind === null) {
        report(`invalid name \`${word}\`: rule names are lower-case and terminal names upper-case`, start);
        push('bad', start, i);
      } else {
        push(kind, start, i);
      }
    } else if (/[0-9]/.test(c) || (c === '-' && /[0-9]/.test(next))) {
      const start = i++;
      while (/[0-9]/.test(src[i] ?? '')) i++;
      push('number', start, i);
    } else if (c === '%') {
      const start = i++;
      while (/[a-z_]/.test(src[i] ?? '')) i++;
      push('directive', start, i);
    } else if ((c === '!' || c === '?') && modifierLength(src, i) > 0) {
      // Lark: RULE_MODIFIERS `(!|![?]?|[?]!?)(?=[_a-z])`; a `?` before a name is never an operator.
      const start = i;
      i += modifierLength(src, i);
      push('modifier', start, i);
    } else if (c === '+' || c === '*' || c === '?') {
      push('op', i, ++i);
    } else if (c === '-' && next === '>') {
      push('punct', i, (i += 2));
    } else if (c === '.' && next === '.') {
      push('punct', i, (i += 2));
    } else if ('()[]{}:,|.~'.includes(c)) {
      push('punct', i, ++i);
    } else {
      const cp = String.fromCodePoint(src.codePointAt(i) ?? 0);
      report(`unexpected character ${JSON.stringify(cp)}`, i);
      push('bad', i, (i += cp.length));
    }
  }
  push('eof', src.length, src.length);
  return toks;
}

function modifierLength(src: string, i: number): number {
  const c = src[i];
  const next = src[i + 1] ?? '';
  if (/[_a-z]/.test(next)) return 1;
  const other = c === '!' ? '?' : '!';
  return next === other && /[_a-z]/.test(src[i + 2] ?? '') ? 2 : 0;
}

type Push = (kind: TokKind, start: number, end: number, extra?: Partial<Token>) => void;

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

// `"..."` with an optional `i` flag. No raw line ends (Lark) and no raw control characters
// (LLGuidance); escapes: \" \\ \/ \b \f \n \r \t \uXXXX \xHH.
function lexString(src: string, start: number, push: Push, report: Reporter): number {
  let i = start + 1;
  let value = '';
  let ok = true;
  for (;;) {
    const c = src[i];
    if (c === undefined || c === '\n' || (c === '\r' && src[i + 1] === '\n')) {
      report('unterminated string literal', start);
      push('bad', start, i);
      return i;
    }
    if (c === '"') break;
    if (c === '\\') {
      const e = src[i + 1] ?? '';
      const simple = SIMPLE_ESCAPES[e];
      const hex = e === 'u' ? /^[0-9a-fA-F]{4}/.exec(src.slice(i + 2, i + 6)) : e === 'x' ? /^[0-9a-fA-F]{2}/.exec(src.slice(i + 2, i + 4)) : null;
      if (simple !== undefined) {
        value += simple;
        i += 2;
      } else if (hex) {
        value += String.fromCharCode(parseInt(hex[0], 16));
        i += 2 + hex[0].length;
      } else {
        if (ok) report(`unsupported escape \`\\${e}\` in string literal (use \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX or \\xHH)`, i);
        ok = false;
        i += e === '' || e === '\n' ? 1 : 2;
      }
      continue;
    }
    if (/[\x00-\x1f\x7f]/.test(c)) {
      if (ok) report(`control character ${JSON.stringify(c)} in string literal; write it as an escape`, i);
      ok = false;
    }
    value += c;
    i++;
  }
  i++; // closing quote
  let flags = '';
  if (src[i] === 'i') {
    flags = 'i';
    i++;
  }
  push(ok ? 'string' : 'bad', start, i, { value, flags });
  return i;
}

// `/body/flags` with Lark's flags `imslux`; a backslash escapes the next character. A line end in
// the body is allowed only with the `x` flag (as in Lark); otherwise the regex is unterminated.
function lexRegex(src: string, start: number, push: Push, report: Reporter): number {
  let i = start + 1;
  let sawNewline = false;
  while (i < src.length && src[i] !== '/') {
    const escaped = src[i] === '\\';
    if (src[escaped ? i + 1 : i] === '\n') sawNewline = true;
    i += escaped ? 2 : 1;
  }
  if (i >= src.length) return unterminatedRegex(src, start, push, report);
  let end = i + 1;
  while (end < src.length && 'imslux'.includes(src[end] ?? '-')) end++;
  const flags = src.slice(i + 1, end);
  if (sawNewline && !flags.includes('x')) return unterminatedRegex(src, start, push, report);
  // (An empty body cannot occur: `//` starts a comment.)
  push('regex', start, end, { value: src.slice(start + 1, i), flags });
  return end;
}

function unterminatedRegex(src: string, start: number, push: Push, report: Reporter): number {
  report('unterminated regular expression (a line end inside /…/ needs the x flag)', start);
  const nl = src.indexOf('\n', start);
  const end = nl < 0 ? src.length : nl;
  push('bad', start, end);
  return end;
}

// ---------------------------------------------------------------------------------------------
// Parser (lark.lark: items separated by line ends; `|` may continue on the next line)

class SyntaxProblem extends Error {
  constructor(
    message: string,
    readonly offset: number,
    /** Already reported (a lexer error): recover without a second message. */
    readonly silent = false,
  ) {
    super(message);
  }
}

class Parser {
  private pos = 0;
  private defining: Word | undefined;
  private readonly recovered: Word[] = [];
  private brokenImport = false;
  constructor(
    private readonly toks: readonly Token[],
    private readonly report: Reporter,
  ) {}

  parse(): LarkGrammar {
    const items: Item[] = [];
    for (;;) {
      while (this.peek().kind === 'nl') this.pos++;
      if (this.peek().kind === 'eof') break;
      this.defining = undefined;
      const first = this.peek();
      try {
        items.push(this.item());
        this.defining = undefined; // parsed: a trailing error must not define it twice
        const t = this.peek();
        if (t.kind === 'punct' && (t.text === ')' || t.text === ']')) throw new SyntaxProblem(`unmatched \`${t.text}\``, t.start);
        if (t.kind !== 'nl' && t.kind !== 'eof') throw this.unexpected(t, 'a line end after the definition');
      } catch (e) {
        if (!(e instanceof SyntaxProblem)) throw e;
        if (!e.silent) this.report(e.message, e.offset);
        if (this.defining) this.recovered.push(this.defining);
        if (first.kind === 'directive' && first.text === '%import') this.brokenImport = true;
        this.recover();
      }
    }
    return { items, recovered: this.recovered, brokenImport: this.brokenImport };
  }

  // Skip the rest of a broken item, including `|` continuation lines, up to the next item.
  private recover(): void {
    for (;;) {
      const t = this.peek();
      if (t.kind === 'eof') return;
      if (t.kind === 'nl' && !this.continuesWithBar()) return;
      this.pos++;
    }
  }

  private peek(k = 0): Token {
    return this.toks[Math.min(this.pos + k, this.toks.length - 1)] as Token;
  }
  private take(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.pos++;
    return t;
  }
  private isPunct(text: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'punct' && t.text === text;
  }
  private expectPunct(text: string, what: string): Token {
    if (!this.isPunct(text)) throw this.unexpected(this.peek(), what);
    return this.take();
  }
  private continuesWithBar(): boolean {
    return this.peek().kind === 'nl' && this.isPunct('|', 1);
  }

  private unexpected(t: Token, expected: string): SyntaxProblem {
    if (t.kind === 'bad') return new SyntaxProblem('', t.start, true);
    const got = t.kind === 'eof' ? 'end of grammar' : t.kind === 'nl' ? 'line end' : `\`${t.text}\``;
    return new SyntaxProblem(`expected ${expected}, found ${got}`, t.start);
  }

  private item(): Item {
    const t = this.peek();
    if (t.kind === 'directive') return this.statement();
    if (t.kind === 'modifier' || t.kind === 'rule' || t.kind === 'term') return this.definition();
    throw this.unexpected(t, 'a rule or terminal definition');
  }

  private definition(): Definition {
    const first = this.peek();
    const modifier = first.kind === 'modifier' ? this.take().text : undefined;
    const nameTok = this.take();
    if (nameTok.kind !== 'rule' && nameTok.kind !== 'term') {
      throw this.unexpected(nameTok, modifier !== undefined ? 'a rule name after the modifier' : 'a rule or terminal name');
    }
    const kind = nameTok.kind === 'rule' ? 'rule' : 'terminal';
    this.defining = { text: nameTok.text, span: { start: nameTok.start, end: nameTok.end } };
    let templateParams: Definition['templateParams'];
    if (this.isPunct('{')) {
      const open = this.take();
      const names = [this.nameWord('a template parameter').text];
      while (this.isPunct(',')) {
        this.take();
        names.push(this.nameWord('a template parameter').text);
      }
      const close = this.expectPunct('}', '`,` or `}` in the template parameters');
      templateParams = { names, span: { start: open.start, end: close.end } };
    }
    let priority: Definition['priority'];
    if (this.isPunct('.')) {
      const dot = this.take();
      const num = this.take();
      if (num.kind !== 'number') throw this.unexpected(num, 'a priority number after `.`');
      priority = { value: Number(num.text), span: { start: dot.start, end: num.end } };
    }
    if (!this.isPunct(':')) {
      throw this.unexpected(this.peek(), `\`:\` after \`${nameTok.text}\``);
    }
    this.take();
    const body = this.expansions();
    return {
      kind,
      name: nameTok.text,
      nameSpan: { start: nameTok.start, end: nameTok.end },
      ...(modifier !== undefined ? { modifier } : {}),
      ...(templateParams ? { templateParams } : {}),
      ...(priority ? { priority } : {}),
      body,
      span: { start: first.start, end: this.toks[this.pos - 1]?.end ?? nameTok.end },
    };
  }

  private nameWord(what: string): Word {
    const t = this.take();
    if (t.kind !== 'rule' && t.kind !== 'term') throw this.unexpected(t, what);
    return { text: t.text, span: { start: t.start, end: t.end } };
  }

  private statement(): Statement {
    const d = this.take();
    const span = (): Span => ({ start: d.start, end: this.toks[this.pos - 1]?.end ?? d.end });
    switch (d.text) {
      case '%ignore':
        return { kind: 'ignore', body: this.expansions(), span: span() };
      case '%import': {
        const relative = this.isPunct('.');
        if (relative) this.take();
        const path = [this.nameWord('a module name after `%import`')];
        while (this.isPunct('.')) {
          this.take();
          path.push(this.nameWord('a name after `.`'));
        }
        if (this.isPunct('->')) {
          this.take();
          const alias = this.nameWord('a name after `->`');
          return { kind: 'import', relative, path, alias, span: span() };
        }
        if (this.isPunct('(')) {
          this.take();
          const names = [this.nameWord('a name in the import list')];
          while (this.isPunct(',')) {
            this.take();
            names.push(this.nameWord('a name after `,`'));
          }
          this.expectPunct(')', '`,` or `)` in the import list');
          return { kind: 'import', relative, path, names, span: span() };
        }
        return { kind: 'import', relative, path, span: span() };
      }
      case '%declare': {
        const names = [this.nameWord('a name after `%declare`')];
        while (this.peek().kind === 'rule' || this.peek().kind === 'term') names.push(this.nameWord('a name'));
        return { kind: 'declare', names, span: span() };
      }
      case '%override':
      case '%extend': {
        const definition = this.definition();
        return { kind: d.text === '%override' ? 'override' : 'extend', definition, span: span() };
      }
      default:
        throw new SyntaxProblem(`unknown directive \`${d.text}\` (Lark has %ignore, %import, %declare, %override, %extend)`, d.start);
    }
  }

  // expansions: alias (("|" | line end then "|") alias)*
  private expansions(): Alternative[] {
    const alts = [this.alternative()];
    for (;;) {
      if (this.isPunct('|')) {
        this.take();
      } else if (this.continuesWithBar()) {
        this.pos += 2;
      } else {
        return alts;
      }
      alts.push(this.alternative());
    }
  }

  private alternative(): Alternative {
    const start = this.peek().start;
    const items: Expr[] = [];
    while (this.startsAtom()) items.push(this.expr());
    let alias: Alternative['alias'];
    if (this.isPunct('->')) {
      this.take();
      const t = this.take();
      if (t.kind === 'term') throw new SyntaxProblem(`an alias must be a lower-case rule name, not \`${t.text}\``, t.start);
      if (t.kind !== 'rule') throw this.unexpected(t, 'a lower-case alias name after `->`');
      alias = { name: t.text, span: { start: t.start, end: t.end } };
    }
    const t = this.peek();
    if (t.kind === 'op') throw new SyntaxProblem(`misplaced operator \`${t.text}\`: it must follow an item`, t.start);
    if (t.kind === 'modifier') {
      const hint = t.text === '?' ? ' (for an optional item, put a space between `?` and the next name)' : '';
      throw new SyntaxProblem(`rule modifier \`${t.text}\` is only allowed before a rule definition${hint}`, t.start);
    }
    const end = this.toks[this.pos - 1]?.end ?? start;
    return { items, ...(alias ? { alias } : {}), span: { start, end: Math.max(start, end) } };
  }

  private startsAtom(): boolean {
    const t = this.peek();
    if (t.kind === 'rule' || t.kind === 'term' || t.kind === 'string' || t.kind === 'regex' || t.kind === 'bad') return true;
    return t.kind === 'punct' && (t.text === '(' || t.text === '[');
  }

  private expr(): Expr {
    const atom = this.atom();
    const t = this.peek();
    if (t.kind === 'op') {
      this.take();
      return { atom, repeat: { kind: 'op', op: t.text as '?' | '*' | '+' }, span: { start: atom.span.start, end: t.end } };
    }
    if (this.isPunct('~')) {
      this.take();
      const min = this.count();
      let max = min;
      if (this.isPunct('..')) {
        this.take();
        max = this.count();
      }
      // Well-formed but meaningless: report and keep parsing, so the rest of the item is checked.
      if (max.value < min.value) this.report(`bad repetition range ~ ${min.value}..${max.value}: the maximum is below the minimum`, min.start);
      return { atom, repeat: { kind: 'count', min: min.value, max: max.value }, span: { start: atom.span.start, end: max.end } };
    }
    return { atom, span: atom.span };
  }

  private count(): { value: number; start: number; end: number } {
    const t = this.take();
    if (t.kind !== 'number') throw this.unexpected(t, 'a repetition count');
    const value = Number(t.text);
    if (value < 0) this.report(`repetition count ${t.text} must not be negative`, t.start);
    return { value, start: t.start, end: t.end };
  }

  private atom(): Atom {
    const t = this.take();
    const span = { start: t.start, end: t.end };
    switch (t.kind) {
      case 'bad':
        return { kind: 'bad', span };
      case 'regex':
        return { kind: 'regex', pattern: t.value ?? '', flags: t.flags ?? '', span };
      case 'string': {
        if (!this.isPunct('..')) return { kind: 'string', value: t.value ?? '', caseInsensitive: t.flags === 'i', span };
        this.take();
        const to = this.take();
        if (to.kind === 'bad') return { kind: 'bad', span: { start: t.start, end: to.end } };
        if (to.kind !== 'string') throw this.unexpected(to, 'a string after `..`');
        const flagged = t.flags === 'i' || to.flags === 'i';
        return { kind: 'range', from: t.value ?? '', to: to.value ?? '', flagged, span: { start: t.start, end: to.end } };
      }
      case 'rule':
      case 'term': {
        if (!this.isPunct('{')) return { kind: 'name', name: t.text, span };
        this.take();
        const args = [this.atom()];
        while (this.isPunct(',')) {
          this.take();
          args.push(this.atom());
        }
        const close = this.expectPunct('}', '`,` or `}` in the template arguments');
        return { kind: 'name', name: t.text, templateArgs: args, span: { start: t.start, end: close.end } };
      }
      case 'punct':
        if (t.text === '(' || t.text === '[') {
          const body = this.expansions();
          const closer = t.text === '(' ? ')' : ']';
          if (!this.isPunct(closer)) {
            const n = this.peek();
            if (n.kind === 'bad') throw this.unexpected(n, '');
            if (n.kind === 'punct' && (n.text === ')' || n.text === ']')) {
              throw new SyntaxProblem(`\`${n.text}\` cannot close \`${t.text}\``, n.start);
            }
            throw new SyntaxProblem(`unclosed \`${t.text}\``, t.start);
          }
          const close = this.take();
          return { kind: t.text === '(' ? 'group' : 'maybe', body, span: { start: t.start, end: close.end } };
        }
        break;
      default:
        break;
    }
    throw this.unexpected(t, 'an item');
  }
}

/** Offsets → 1-based line and code-point column. */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(private readonly src: string) {
    for (let i = 0; i < src.length; i++) if (src[i] === '\n') this.starts.push(i + 1);
  }
  at(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    const lineStart = this.starts[lo] ?? 0;
    let column = 1;
    for (let i = lineStart; i < offset; i += (this.src.codePointAt(i) ?? 0) > 0xffff ? 2 : 1) column++;
    return { line: lo + 1, column };
  }
}

/** Parses a Lark grammar; `problems` holds syntax problems only. */
export function parseLarkGrammar(src: string): { grammar: LarkGrammar; problems: GrammarProblem[] } {
  return analyze(src, false);
}

/** All problems of a Lark grammar, in source order; [] when OpenAI's stable subset accepts it. */
export function larkGrammarProblems(src: string): GrammarProblem[] {
  return analyze(src, true).problems;
}

function analyze(src: string, check: boolean): { grammar: LarkGrammar; problems: GrammarProblem[] } {
  const lines = new LineIndex(src);
  const found: Array<{ readonly message: string; readonly offset?: number }> = [];
  const report: Reporter = (message, offset) => found.push(offset === undefined ? { message } : { message, offset });
  const toks = lex(src, report);
  const grammar = new Parser(toks, report).parse();
  if (check) {
    checkGrammar(grammar, lines, report);
    // Every regex token, also those in items that failed to parse.
    for (const t of toks) if (t.kind === 'regex') checkRegexLiteral(t, report);
  }
  // Source order; problems without a position (a missing `start`) last.
  const problems = found
    .map((p, i) => ({ p, i }))
    .sort((a, b) => (a.p.offset ?? Infinity) - (b.p.offset ?? Infinity) || a.i - b.i)
    .map(({ p }): GrammarProblem => (p.offset === undefined ? { message: p.message } : { message: p.message, ...lines.at(p.offset) }));
  return { grammar, problems };
}
