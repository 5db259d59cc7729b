// The fast parser's lexer (the grammar is in the fast-parser*.ts layers; fast-parser.ts has the
// why): mvdan-sh v3.5.1's tokens and token boundaries, in the lexer states (`Mode`) the fast parser
// supports, over the script's UTF-8 bytes as a latin1 string. It declines — throws DECLINE — where
// mvdan-sh's lexer would do something it does not reproduce (a line continuation inside an
// operator, `$[`, `${ cmd;}`…).
import { Tok, type Redirect } from './ast.ts';
import { isName } from './names.ts';

// Token codes are mvdan/sh v3.5.1's (syntax/tokens.go), so operators go into the AST as they are:
// the lexer's own ones here, the rest named after ast.ts's `Tok`, which has every code that ends
// up in an AST. Typed `number`, not literal types: the parser compares `this.tok` with them again
// after calls that move to the next token, which TypeScript's narrowing would not see.
export const
  EOF: number = 1, NEWL: number = 2, LIT: number = 3, LITWORD: number = 4, LITREDIR: number = 5,
  SGLQUOTE: number = 6, DBLQUOTE: number = 7, BCKQUOTE: number = 8, DOLLAR: number = 14,
  DOLLSGLQUOTE: number = 15, DOLLDBLQUOTE: number = 16, DOLLBRACE: number = 17,
  DOLLPAREN: number = 19, DOLLDBLPAREN: number = 20, LEFTBRACK: number = 21, LEFTPAREN: number = 23,
  DBLLEFTPAREN: number = 24, RIGHTBRACE: number = 25, RIGHTBRACK: number = 26,
  RIGHTPAREN: number = 27, SEMICOLON: number = 29;
export const
  AND: number = Tok.and, ANDAND: number = Tok.andAnd, OROR: number = Tok.orOr, OR: number = Tok.or,
  ORAND: number = Tok.orAnd, DBLSEMICOLON: number = Tok.dblSemicolon, SEMIAND: number = Tok.semiAnd,
  DBLSEMIAND: number = Tok.dblSemiAnd, EXCLMARK: number = Tok.exclMark, TILDE: number = Tok.tilde,
  ADDADD: number = Tok.addAdd, SUBSUB: number = Tok.subSub, STAR: number = Tok.star,
  POWER: number = Tok.power, EQUAL: number = Tok.equal, NEQUAL: number = Tok.nequal,
  LEQUAL: number = Tok.lequal, GEQUAL: number = Tok.gequal, ADDASSGN: number = Tok.addAssgn,
  SUBASSGN: number = Tok.subAssgn, MULASSGN: number = Tok.mulAssgn, QUOASSGN: number = Tok.quoAssgn,
  REMASSGN: number = Tok.remAssgn, ANDASSGN: number = Tok.andAssgn, ORASSGN: number = Tok.orAssgn,
  XORASSGN: number = Tok.xorAssgn, SHLASSGN: number = Tok.shlAssgn, SHRASSGN: number = Tok.shrAssgn,
  RDROUT: number = Tok.rdrOut, APPOUT: number = Tok.appOut, RDRIN: number = Tok.rdrIn,
  RDRINOUT: number = Tok.rdrInOut, DPLIN: number = Tok.dplIn, DPLOUT: number = Tok.dplOut,
  CLBOUT: number = Tok.clbOut, HDOC: number = Tok.hdoc, DASHHDOC: number = Tok.dashHdoc,
  WORDHDOC: number = Tok.wordHdoc, RDRALL: number = Tok.rdrAll, APPALL: number = Tok.appAll,
  CMDIN: number = Tok.cmdIn, CMDOUT: number = Tok.cmdOut, PLUS: number = Tok.plus,
  COLPLUS: number = Tok.colPlus, MINUS: number = Tok.minus, COLMINUS: number = Tok.colMinus,
  QUEST: number = Tok.quest, COLQUEST: number = Tok.colQuest, ASSGN: number = Tok.assgn,
  COLASSGN: number = Tok.colAssgn, PERC: number = Tok.perc, DBLPERC: number = Tok.dblPerc,
  HASH: number = Tok.hash, DBLHASH: number = Tok.dblHash, CARET: number = Tok.caret,
  DBLCARET: number = Tok.dblCaret, COMMA: number = Tok.comma, DBLCOMMA: number = Tok.dblComma,
  AT: number = Tok.at, SLASH: number = Tok.slash, DBLSLASH: number = Tok.dblSlash,
  COLON: number = Tok.colon, TSREMATCH: number = Tok.tsReMatch, GLOBQUEST: number = Tok.globQuest,
  GLOBSTAR: number = Tok.globStar, GLOBPLUS: number = Tok.globPlus, GLOBAT: number = Tok.globAt,
  GLOBEXCL: number = Tok.globExcl;
export const GLOB_TOKENS: Record<string, number> = {
  '?': GLOBQUEST, '*': GLOBSTAR, '+': GLOBPLUS, '@': GLOBAT, '!': GLOBEXCL,
};

/** The lexer states (mvdan's quote states) the fast parser supports. */
export enum Mode {
  Reg, Test, DblQuotes, ParamName, ParamExp, ParamRepl, Arith, Let, Slice, Index, HdocWord, ArrayElems, Regexp,
}

export const DECLINE = new Error('fast parser declines');
export const decline = (): never => { throw DECLINE; };

export interface PendingHdoc { r: Redirect; dash: boolean; quoted: boolean; stop: string }

export abstract class Lexer {
  protected i = 0;            // index of the current (unread) byte
  protected tok = EOF;
  protected val = '';
  protected pos = 0;          // start offset of the current token
  protected spaced = false;   // blanks before the current token
  protected eqlOffs = -1;     // index of the first `=` in a plain literal token
  protected mode = Mode.Reg;
  protected hdocs: PendingHdoc[] = [];
  // Backquotes are taken only without backslashes or nesting inside (mvdan unescapes one level of
  // `\$`, `\``, `\\` in them while it reads bytes): the closing one is then the next backquote.
  protected bqEnd = -1;       // index of the closing backquote of the substitution being read
  protected bqNext = -1;      // … of the one the current (opening) BCKQUOTE token would start
  protected bqList = false;   // directly in a backquote's statement list (mvdan's subCmdBckquo state)
  protected rxOpenParens = 0; // in a `=~` regex: open parentheses (blanks inside them are part of it)
  protected rxFirstPart = false;

  constructor(protected readonly s: string, protected readonly posix: boolean) {}

  /** Reads the bodies of the pending here-documents at a newline (the parser's part). */
  protected abstract readHdocs(): void;

  // ---- characters ----------------------------------------------------------------------------

  protected c(i = this.i): string { return this.s[i] ?? ''; }
  /** A backslash-newline: a line continuation wherever the lexer meets it. */
  protected cont(i = this.i): boolean { return this.s.charCodeAt(i) === 92 && this.s.charCodeAt(i + 1) === 10; }
  /** mvdan's position of the byte at `i`: a line continuation is at its newline. */
  protected at(i = this.i): number { return this.cont(i) ? i + 1 : i; }

  // ---- tokens --------------------------------------------------------------------------------

  /** Modes whose tokens are the statement level's (mvdan's allRegTokens): comments, newlines. */
  protected regMode(): boolean {
    const m = this.mode;
    return m === Mode.Reg || m === Mode.Test || m === Mode.HdocWord || m === Mode.ArrayElems;
  }

  protected next(): void {
    this.spaced = false;
    if (this.mode === Mode.DblQuotes || this.mode === Mode.ParamExp || this.mode === Mode.ParamRepl) return this.nextKeepSpaces();
    for (;;) {
      if (this.i >= this.s.length) { this.tok = EOF; this.pos = this.s.length; return; }
      if (this.cont()) { this.i += 2; continue; }
      const ch = this.c();
      if (ch === ' ' || ch === '\t') { this.spaced = true; this.i++; continue; }
      if (ch === '\n') {
        this.i++;
        if (this.tok === NEWL) continue;
        if (!this.regMode() && this.mode !== Mode.Let) decline(); // in ${ } or arithmetic
        this.spaced = true;
        this.tok = NEWL;
        if (this.hdocs.length && this.mode !== Mode.HdocWord) this.readHdocs();
        return;
      }
      if (ch === '#' && this.regMode()) {
        const nl = this.s.indexOf('\n', this.i);
        let end = nl < 0 ? this.s.length : nl;
        if (this.bqEnd > this.i && this.bqEnd < end) end = this.bqEnd;
        if (this.s.charCodeAt(end - 1) === 92) decline(); // the comment would end at the continuation
        this.i = end;
        continue;
      }
      break;
    }
    this.pos = this.i;
    const ch = this.c();
    switch (this.mode) {
      case Mode.Regexp:
        if (!this.rxFirstPart && this.spaced) { this.mode = Mode.Reg; this.next(); this.spaced = true; return; }
        this.rxFirstPart = false;
        if (';"\'$&><'.includes(ch)) this.tok = this.regToken(ch);
        else if (ch === ')' && this.rxOpenParens <= 0) { this.i++; this.tok = RIGHTPAREN; this.mode = Mode.Reg; }
        else this.litRegexp();
        return;
      case Mode.Reg: case Mode.Test: case Mode.HdocWord: case Mode.ArrayElems:
        if (ch === '`') this.tok = this.backquote();
        else if (';"\'()$|&><'.includes(ch)) this.tok = this.regToken(ch);
        else if (this.extGlobAt(this.i)) { this.tok = GLOB_TOKENS[ch]!; this.i += 2; }
        else if (this.mode === Mode.ArrayElems && (ch === '[' || ch === '=')) this.tok = this.paramToken(ch);
        else this.litNone();
        return;
      case Mode.Arith: case Mode.Let: case Mode.Slice: case Mode.Index:
        if ('+-!~*/%()^<>:=,?|&[]#'.includes(ch)) { this.tok = this.arithToken(ch); return; }
        if ((this.mode === Mode.Slice || this.mode === Mode.Index) && '}@'.includes(ch)) { this.tok = this.paramToken(ch); return; }
        if (';"\'$'.includes(ch)) { this.tok = this.regToken(ch); return; }
        this.litOther();
        return;
      case Mode.ParamName:
        if ('}#!:-+=?%[]/^,@*'.includes(ch)) { this.tok = this.paramToken(ch); return; }
        if (ch === '$') { this.tok = this.regToken(ch); return; }
        if (';"\'()|&><'.includes(ch)) decline();
        this.litOther();
        return;
    }
  }

  protected nextKeepSpaces(): void {
    while (this.cont()) this.i += 2;
    this.pos = this.i;
    if (this.i >= this.s.length) { this.tok = EOF; return; }
    const ch = this.c();
    if (this.mode === Mode.DblQuotes) {
      if (ch === '"') { this.i++; this.tok = DBLQUOTE; return; }
      if (ch === '$') { this.tok = this.dollarToken(true); return; }
      if (ch === '`') { this.tok = this.backquote(); return; }
      this.litDquote();
      return;
    }
    if (ch === '}' || (ch === '/' && this.mode === Mode.ParamRepl)) { this.tok = this.paramToken(ch); return; }
    if ('"\'$'.includes(ch)) { this.tok = this.regToken(ch); return; }
    this.litOther();
  }

  /** A backquote, not consumed (as mvdan): the closing one of the substitution being read, or an opening one. */
  protected backquote(): number {
    if (this.i === this.bqEnd) return BCKQUOTE;
    if (this.bqEnd >= 0 || this.mode === Mode.HdocWord) decline();
    const j = this.s.indexOf('`', this.i + 1);
    if (j < 0 || this.s.slice(this.i + 1, j).includes('\\')) decline();
    this.bqNext = j;
    return BCKQUOTE;
  }
  protected bqClose(): boolean { return this.tok === BCKQUOTE && this.i === this.bqEnd; }

  /** `?(`, `*(`, `+(`, `@(`, `!(` start an extglob (not `@()`, nor after `function`: mvdan's rule). */
  protected extGlobAt(i: number): boolean {
    return this.s[i + 1] === '(' && this.s[i + 2] !== ')' && this.val !== 'function';
  }

  protected regToken(ch: string): number {
    const n1 = this.c(this.i + 1), n2 = this.c(this.i + 2);
    switch (ch) {
      case '\'': this.i++; return SGLQUOTE;
      case '"': this.i++; return DBLQUOTE;
      case '$': return this.dollarToken(false);
      case '&':
        if (n1 === '&') { this.i += 2; return ANDAND; }
        if (n1 === '>' && !this.posix) { if (n2 === '>') { this.i += 3; return APPALL; } this.i += 2; return RDRALL; }
        this.i++; return AND;
      case '|':
        if (n1 === '|') { this.i += 2; return OROR; }
        if (n1 === '&' && !this.posix) { this.i += 2; return ORAND; }
        this.i++; return OR;
      case '(':
        if (n1 === '(' && !this.posix && this.mode !== Mode.Test) { this.i += 2; return DBLLEFTPAREN; }
        this.i++; return LEFTPAREN;
      case ')': this.i++; return RIGHTPAREN;
      case ';':
        if (n1 === ';') { if (n2 === '&' && !this.posix) { this.i += 3; return DBLSEMIAND; } this.i += 2; return DBLSEMICOLON; }
        if (n1 === '&' && !this.posix) { this.i += 2; return SEMIAND; }
        if (n1 === '|') decline();
        this.i++; return SEMICOLON;
      case '<':
        if (this.cont(this.i + 1)) decline();
        if (n1 === '<') {
          if (this.cont(this.i + 2)) decline();
          if (n2 === '-') { this.i += 3; return DASHHDOC; }
          if (n2 === '<' && !this.posix) { this.i += 3; return WORDHDOC; }
          this.i += 2; return HDOC;
        }
        if (n1 === '>') { this.i += 2; return RDRINOUT; }
        if (n1 === '&') { this.i += 2; return DPLIN; }
        if (n1 === '(' && !this.posix) { this.i += 2; return CMDIN; }
        this.i++; return RDRIN;
      default: // '>'
        if (this.cont(this.i + 1)) decline();
        if (n1 === '>') { this.i += 2; return APPOUT; }
        if (n1 === '&') { this.i += 2; return DPLOUT; }
        if (n1 === '|') { this.i += 2; return CLBOUT; }
        if (n1 === '(' && !this.posix) { this.i += 2; return CMDOUT; }
        this.i++; return RDROUT;
    }
  }

  /** `$` and what it opens. In double quotes `$'`/`$"` are a plain `$`. */
  protected dollarToken(dq: boolean): number {
    const n1 = this.c(this.i + 1);
    if (this.cont(this.i + 1)) decline();
    if (!dq && n1 === '\'' && !this.posix) { this.i += 2; return DOLLSGLQUOTE; }
    if (!dq && n1 === '"' && !this.posix) { this.i += 2; return DOLLDBLQUOTE; }
    if (n1 === '{') { this.i += 2; return DOLLBRACE; }
    if (n1 === '[' && !this.posix && this.mode !== Mode.ParamName) decline(); // $[…]
    if (n1 === '(') {
      if (this.cont(this.i + 2)) decline();
      if (this.c(this.i + 2) === '(') { this.i += 3; return DOLLDBLPAREN; }
      this.i += 2; return DOLLPAREN;
    }
    this.i++;
    return DOLLAR;
  }

  protected paramToken(ch: string): number {
    const n1 = this.c(this.i + 1);
    if (this.cont(this.i + 1)) decline();
    const two = (t: number): number => { this.i += 2; return t; };
    const one = (t: number): number => { this.i += 1; return t; };
    switch (ch) {
      case '}': return one(RIGHTBRACE);
      case ':':
        if (n1 === '+') return two(COLPLUS);
        if (n1 === '-') return two(COLMINUS);
        if (n1 === '?') return two(COLQUEST);
        if (n1 === '=') return two(COLASSGN);
        return one(COLON);
      case '+': return one(PLUS);
      case '-': return one(MINUS);
      case '?': return one(QUEST);
      case '=': return one(ASSGN);
      case '%': return n1 === '%' ? two(DBLPERC) : one(PERC);
      case '#': return n1 === '#' ? two(DBLHASH) : one(HASH);
      case '!': return one(EXCLMARK);
      case '[': return one(LEFTBRACK);
      case ']': return one(RIGHTBRACK);
      case '/': return n1 === '/' && this.mode !== Mode.ParamRepl ? two(DBLSLASH) : one(SLASH);
      case '^': return n1 === '^' ? two(DBLCARET) : one(CARET);
      case ',': return n1 === ',' ? two(DBLCOMMA) : one(COMMA);
      case '@': return one(AT);
      default: return one(STAR);
    }
  }

  protected arithToken(ch: string): number {
    const n1 = this.c(this.i + 1), n2 = this.c(this.i + 2);
    if (this.cont(this.i + 1)) decline();
    const k = (len: number, t: number): number => { this.i += len; return t; };
    switch (ch) {
      case '!': return n1 === '=' ? k(2, NEQUAL) : k(1, EXCLMARK);
      case '=': return n1 === '=' ? k(2, EQUAL) : k(1, ASSGN);
      case '~': return k(1, TILDE);
      case '(': return k(1, LEFTPAREN);
      case ')': return k(1, RIGHTPAREN);
      case '&': return n1 === '&' ? k(2, ANDAND) : n1 === '=' ? k(2, ANDASSGN) : k(1, AND);
      case '|': return n1 === '|' ? k(2, OROR) : n1 === '=' ? k(2, ORASSGN) : k(1, OR);
      case '<':
        if (n1 === '<') { if (this.cont(this.i + 2)) decline(); return n2 === '=' ? k(3, SHLASSGN) : k(2, HDOC); }
        return n1 === '=' ? k(2, LEQUAL) : k(1, RDRIN);
      case '>':
        if (n1 === '>') { if (this.cont(this.i + 2)) decline(); return n2 === '=' ? k(3, SHRASSGN) : k(2, APPOUT); }
        return n1 === '=' ? k(2, GEQUAL) : k(1, RDROUT);
      case '+': return n1 === '+' ? k(2, ADDADD) : n1 === '=' ? k(2, ADDASSGN) : k(1, PLUS);
      case '-': return n1 === '-' ? k(2, SUBSUB) : n1 === '=' ? k(2, SUBASSGN) : k(1, MINUS);
      case '%': return n1 === '=' ? k(2, REMASSGN) : k(1, PERC);
      case '*': return n1 === '*' ? k(2, POWER) : n1 === '=' ? k(2, MULASSGN) : k(1, STAR);
      case '/': return n1 === '=' ? k(2, QUOASSGN) : k(1, SLASH);
      case '^': return n1 === '=' ? k(2, XORASSGN) : k(1, CARET);
      case '[': return k(1, LEFTBRACK);
      case ']': return k(1, RIGHTBRACK);
      case ',': return k(1, COMMA);
      case '?': return k(1, QUEST);
      case ':': return k(1, COLON);
      default: return k(1, HASH);
    }
  }

  /** A literal at statement level (mvdan's advanceLitNone): sets LITWORD, LIT or LITREDIR. */
  protected litNone(): void {
    const s = this.s, start = this.i;
    let v = '', from = start, i = start, tok = LITWORD;
    this.eqlOffs = -1;
    const flush = (to: number): void => { v += s.slice(from, to); };
    loop: for (; i < s.length; i++) {
      const ch = s[i]!;
      switch (ch) {
        case ' ': case '\t': case '\n': case '&': case '|': case ';': case '(': case ')':
          break loop;
        case '\\':
          if (s.charCodeAt(i + 1) === 10) { flush(i); from = i + 2; i++; continue; }
          i++; // the escaped byte
          continue;
        case '>': case '<': {
          flush(i); from = i;
          if (s[i + 1] === '(') tok = LIT; // a process substitution goes on the word
          else if (/^[0-9]+$/.test(v)) tok = LITREDIR;
          else if (v[0] === '{' && v.endsWith('}') && isName(v.slice(1, -1))) tok = LITREDIR; // {fd}>
          break loop;
        }
        case '"': case '\'': case '$':
          tok = LIT;
          break loop;
        case '`': // mvdan: a plain word end only directly in a backquote's statement list
          if (!(this.bqList && this.mode === Mode.Reg)) tok = LIT;
          break loop;
        case '?': case '*': case '+': case '@': case '!':
          if (this.extGlobAt(i)) { tok = LIT; break loop; }
          break;
        case '=':
          if (this.eqlOffs < 0) { flush(i); from = i; this.eqlOffs = v.length; }
          break;
        case '[':
          if (!this.posix && (i - start > 0) && s[start] !== '[') { tok = LIT; break loop; }
          break;
      }
    }
    if (i > s.length) i = s.length; // a backslash ending the script
    if (from < i) flush(i);
    this.i = i;
    this.tok = tok;
    this.val = v;
  }

  /** A literal in `${ }` and arithmetic (mvdan's advanceLitOther), for our modes. */
  protected litOther(): void {
    const s = this.s, m = this.mode;
    let v = '', from = this.i, i = this.i, tok = LITWORD;
    const arith = m === Mode.Arith || m === Mode.Let || m === Mode.Slice || m === Mode.Index;
    const keep = m === Mode.ParamExp || m === Mode.ParamRepl;
    loop: for (; i < s.length; i++) {
      const ch = s[i]!;
      switch (ch) {
        case '\\':
          if (s.charCodeAt(i + 1) === 10) { v += s.slice(from, i); from = i + 2; i++; continue; }
          if (arith) decline();
          i++;
          continue;
        case '\'': case '"': case '$': tok = LIT; break loop;
        case '`': decline(); break;
        case '}': if (m !== Mode.Arith && m !== Mode.Let) break loop; break;
        case '/': if (m !== Mode.ParamExp) break loop; break;
        case ':': case '=': case '%': case '^': case ',': case '?': case '!': case '~': case '*':
          if (arith || m === Mode.ParamName) break loop;
          break;
        case '[': case ']':
          if (arith && !this.posix) break loop;
          if (m === Mode.ParamName || m === Mode.Slice) break loop;
          break;
        case '#': case '@':
          if (m === Mode.ParamName || m === Mode.Slice) break loop;
          break;
        case '+': case '-': case ' ': case '\t': case ';': case '&': case '>': case '<': case '|': case '(': case ')': case '\n':
          if (!keep) break loop;
          break;
      }
    }
    if (i > s.length) i = s.length;
    v += s.slice(from, i);
    this.i = i;
    this.tok = tok;
    this.val = v;
  }

  /** A piece of a `=~` regex: blanks inside parentheses are part of it (mvdan's advanceLitRe). */
  protected litRegexp(): void {
    const s = this.s;
    let i = this.i, tok = LITWORD;
    loop: for (;; i++) {
      if (i >= s.length) { i = s.length; this.mode = Mode.Reg; break; }
      const ch = s[i]!;
      switch (ch) {
        case '\\':
          if (s.charCodeAt(i + 1) === 10) decline();
          i++;
          break;
        case '(': this.rxOpenParens++; break;
        case ')':
          if (--this.rxOpenParens < 0) { this.mode = Mode.Reg; break loop; }
          break;
        case ' ': case '\t': case '\n': case ';': case '&': case '>': case '<':
          if (this.rxOpenParens <= 0) { this.mode = Mode.Reg; break loop; }
          break;
        case '"': case '\'': case '$': tok = LIT; break loop;
        case '`': decline();
      }
    }
    this.val = s.slice(this.i, i);
    this.i = i;
    this.tok = tok;
  }

  /** A literal inside double quotes: up to `"`, `$` or a line continuation. */
  protected litDquote(): void {
    const s = this.s;
    let i = this.i, tok = LITWORD;
    for (; i < s.length; i++) {
      const ch = s[i]!;
      if (ch === '"') break;
      if (ch === '\\') {
        if (s.charCodeAt(i + 1) === 10) { tok = LIT; break; }
        i++;
        continue;
      }
      if (ch === '$' || ch === '`') { tok = LIT; break; }
    }
    this.val = s.slice(this.i, i);
    this.i = Math.min(i, s.length);
    this.tok = tok;
  }

  protected isLit(): boolean { return this.tok === LIT || this.tok === LITWORD; }
  protected got(tok: number): boolean {
    if (this.tok !== tok) return false;
    this.next();
    return true;
  }
  protected rsrv(val: string): boolean { return this.tok === LITWORD && this.val === val; }
  protected gotRsrv(val: string): number | undefined {
    if (!this.rsrv(val)) return undefined;
    const p = this.pos;
    this.next();
    return p;
  }
  protected needRsrv(val: string): number { return this.gotRsrv(val) ?? decline(); }
  protected stopToken(): boolean {
    switch (this.tok) {
      case EOF: case NEWL: case SEMICOLON: case AND: case OR: case ANDAND: case OROR: case ORAND:
      case DBLSEMICOLON: case SEMIAND: case DBLSEMIAND: case RIGHTPAREN:
        return true;
    }
    return this.bqClose();
  }
}
