// A parser of our own for the scripts it understands completely, so that `echo hi` and most
// scripts a model writes never load mvdan-sh (whose GopherJS heap is most of the interpreter's
// start-up time: doc/interpreter.md, Cold start). It returns exactly the JSON AST that parser.ts
// gets from mvdan-sh v3.5.1 — same nodes, fields, byte offsets and mvdan's own quirks (a heredoc
// body ends at its last line's newline, `$10` is `$1` then `0`, `"x"2>f` ends the word before
// `2`) — and declines (returns undefined) anything else: every syntax error, and what it does
// not know: backquotes with backslashes or nested ones, `coproc`, line continuations in `<<-`
// here-documents, and `$[…]` (deprecated, and kept declined so that tests have a script that
// takes mvdan-sh's path). test/interp/syntax/fast-parser.test.ts holds it to mvdan-sh over every
// fixture script, a corpus of snippets and mutations of them.
//
// The grammar is here, the tokens in fast-lexer.ts. Input is the script's UTF-8 bytes as a latin1
// string; offsets are byte offsets.
import type {
  ArithmExpr, ArrayElem, ArrayExpr, Assign, CallExpr, CaseItem, CStyleLoop, DblQuoted, File, IfClause,
  Expansion, Lit, ParamExp, Redirect, Slice, Stmt, TestExpr, Word, WordIter, WordPart,
} from './ast.ts';
import { Tok } from './ast.ts';
import {
  ADDADD, ADDASSGN, AND, ANDAND, APPALL, APPOUT, ASSGN, AT, BCKQUOTE, CARET, CLBOUT, CMDIN,
  CMDOUT, COLASSGN, COLMINUS, COLON, COLPLUS, COLQUEST, COMMA, DASHHDOC, DBLCARET, DBLCOMMA,
  DBLHASH, DBLLEFTPAREN, DBLPERC, DBLQUOTE, DBLSEMIAND, DBLSEMICOLON, DBLSLASH, DECLINE, decline,
  DOLLAR, DOLLBRACE, DOLLDBLPAREN, DOLLDBLQUOTE, DOLLPAREN, DOLLSGLQUOTE, DPLIN, DPLOUT, EOF,
  EQUAL, EXCLMARK, GEQUAL, GLOBAT, GLOBEXCL, GLOBPLUS, GLOBQUEST, GLOBSTAR, HASH, HDOC, LEFTBRACK,
  LEFTPAREN, LEQUAL, Lexer, LIT, LITREDIR, LITWORD, MINUS, Mode, NEQUAL, NEWL, OR, ORAND, OROR,
  PERC, PLUS, POWER, QUEST, RDRALL, RDRIN, RDRINOUT, RDROUT, RIGHTBRACE, RIGHTBRACK, RIGHTPAREN,
  SEMIAND, SEMICOLON, SGLQUOTE, SHRASSGN, SLASH, STAR, SUBSUB, TILDE, TSREMATCH, WORDHDOC,
} from './fast-lexer.ts';
import { isName } from './names.ts';

/**
 * Parses `bytes`, or returns undefined when mvdan-sh must (see the header). Never throws: a bug
 * here (or a stack overflow on absurd nesting) declines too, unless `strict` (the tests) asks to
 * see it.
 */
export function fastParse(bytes: string, posix: boolean, strict = false): File | undefined {
  // NULs (mvdan skips them), carriage returns (parser.ts's stand-in byte), a line continuation
  // right after a backslash (mvdan and bash read it differently): all mvdan's.
  if (/[\0\r]|\\\\\n/.test(bytes)) return undefined;
  try {
    return new Parser(bytes, posix).file();
  } catch (e) {
    if (e === DECLINE || !strict) return undefined;
    throw e;
  }
}

class Parser extends Lexer {
  private subDepth = 0;     // inside `$( )`/`( )`: `)` ends a statement list
  private inCase = false;   // `;;` ends a statement list
  private compact = false;  // in `let`'s arguments: a blank ends an arithmetic expression

  // ---- AST helpers ---------------------------------------------------------------------------

  private lit(pos: number, val: string, end = this.at()): Lit {
    return { type: 'Lit', ValuePos: pos, ValueEnd: end, Value: val };
  }
  private word(parts: WordPart[]): Word { return { type: 'Word', Parts: parts }; }
  private stmt(pos: number): Stmt {
    return { type: 'Stmt', Comments: [], Cmd: null, Position: pos, Semicolon: 0, Negated: false, Background: false, Coprocess: false, Redirs: [] };
  }

  // ---- statements ----------------------------------------------------------------------------

  file(): File {
    this.next();
    const stmts = this.stmtList([]);
    if (this.tok !== EOF || this.hdocs.length) decline();
    return { type: 'File', Name: '', Stmts: stmts, Last: [] };
  }

  /** Statements up to EOF, one of the reserved words `stops`, `)` in a substitution, `;;` in a case. */
  private stmtList(stops: string[]): Stmt[] {
    const out: Stmt[] = [];
    let ended = true;
    while (this.tok !== EOF) {
      const newLine = this.got(NEWL);
      if (this.tok === LITWORD && stops.includes(this.val)) break;
      if ((this.tok === RIGHTPAREN && this.subDepth > 0) || this.bqClose()) break;
      if (this.tok === DBLSEMICOLON || this.tok === SEMIAND || this.tok === DBLSEMIAND) {
        if (this.inCase) break;
        decline();
      }
      if (!newLine && !ended) decline();
      if (this.tok === EOF) break;
      const s = this.getStmt(true, false) ?? decline();
      ended = s.Semicolon !== 0;
      out.push(s);
    }
    return out;
  }

  private getStmt(readEnd: boolean, binCmd: boolean): Stmt | undefined {
    const bangPos = this.pos;
    const negated = this.gotRsrv('!') !== undefined;
    let s = this.stmt(bangPos);
    if (negated) {
      s.Negated = true;
      if (this.stopToken() || this.rsrv('!')) decline();
    }
    const p = this.pipe(s, false);
    if (!p) return undefined;
    s = p;
    while (this.tok === ANDAND || this.tok === OROR) {
      if (binCmd) return s;
      const op = this.tok, opPos = this.pos;
      this.next();
      this.got(NEWL);
      const y = this.getStmt(false, true) ?? decline();
      const b = this.stmt(s.Position);
      b.Cmd = { type: 'BinaryCmd', OpPos: opPos, Op: op, X: s, Y: y };
      s = b;
    }
    if (readEnd) {
      if (this.tok === SEMICOLON) { s.Semicolon = this.pos; this.next(); }
      else if (this.tok === AND) { s.Semicolon = this.pos; this.next(); s.Background = true; }
      else if (this.tok === ORAND) decline();
    }
    return s;
  }

  private pipe(s: Stmt, binCmd: boolean): Stmt | undefined {
    if (this.tok === LITWORD) this.wordCommand(s);
    else if (this.isRedir()) {
      this.redirect(s);
      this.callExpr(s, undefined, false);
    } else if (this.startsWord()) this.wordStart(s);
    else if (this.tok === LEFTPAREN) this.subshell(s);
    else if (this.tok === DBLLEFTPAREN) this.arithCmd(s);
    else return undefined;
    while (this.isRedir()) this.redirect(s);
    while (this.tok === OR || this.tok === ORAND) {
      if (binCmd) return s;
      const op = this.tok, opPos = this.pos;
      this.next();
      this.got(NEWL);
      const y = this.pipe(this.stmt(this.pos), true) ?? decline();
      const b = this.stmt(s.Position);
      b.Cmd = { type: 'BinaryCmd', OpPos: opPos, Op: op, X: s, Y: y };
      b.Negated = s.Negated;
      s.Negated = false;
      s = b;
    }
    return s;
  }

  /** A simple command starting with a word part other than a plain literal. */
  private wordStart(s: Stmt): void {
    if (this.hasValidIdent()) return this.callExpr(s, undefined, true);
    const w = this.word(this.wordParts());
    if (this.tok === LEFTPAREN) decline();
    this.callExpr(s, w, false);
  }

  private wordCommand(s: Stmt): void {
    switch (this.val) {
      case '{': return this.block(s);
      case 'if': return this.ifClause(s);
      case 'while': case 'until': return this.whileClause(s, this.val === 'until');
      case 'for': return this.forClause(s);
      case 'case': return this.caseClause(s);
      case '}': case 'then': case 'elif': case 'fi': case 'do': case 'done': case 'esac': case '!':
        decline();
        break;
      case '[[': case ']]': case 'let': case 'function': case 'local': case 'export': case 'readonly':
      case 'typeset': case 'nameref': case 'time': case 'coproc': case 'select': case 'declare':
        if (!this.posix) return this.bashWord(s);
        break;
    }
    if (this.hasValidIdent()) return this.callExpr(s, undefined, true);
    const name = this.lit(this.pos, this.val);
    this.next();
    if (this.got(LEFTPAREN)) {
      if (!this.got(RIGHTPAREN)) decline();
      if (this.posix && !isName(name.Value)) decline();
      return this.funcDecl(s, name, name.ValuePos, true);
    }
    this.callExpr(s, this.word([name]), false);
  }

  private bashWord(s: Stmt): void {
    switch (this.val) {
      case '[[': return this.testClause(s);
      case 'function': {
        const fpos = this.pos;
        this.next();
        if (this.tok !== LITWORD) decline();
        const name = this.lit(this.pos, this.val);
        this.next();
        let parens = false;
        if (this.got(LEFTPAREN)) { parens = true; if (!this.got(RIGHTPAREN)) decline(); }
        return this.funcDecl(s, name, fpos, parens);
      }
      case 'local': case 'export': case 'readonly': case 'typeset': case 'declare': case 'nameref':
        return this.declClause(s);
      case 'time': {
        const time = this.pos;
        this.next();
        const posixFormat = this.gotRsrv('-p') !== undefined;
        const stmt = this.pipe(this.stmt(this.pos), false) ?? null;
        s.Cmd = { type: 'TimeClause', Time: time, PosixFormat: posixFormat, Stmt: stmt };
        return;
      }
      case 'let': {
        const letPos = this.pos, old = this.mode;
        this.mode = Mode.Let;
        this.next();
        const exprs: ArithmExpr[] = [];
        while (!this.stopToken() && !this.isRedir()) {
          const x = this.arithm(true);
          if (!x) break;
          exprs.push(x);
        }
        if (!exprs.length) decline();
        this.mode = old;
        s.Cmd = { type: 'LetClause', Let: letPos, Exprs: exprs };
        return;
      }
      case 'select': return this.forClause(s, true);
      default:
        decline(); // `]]` alone, coproc
    }
  }

  private funcDecl(s: Stmt, name: Lit, pos: number, parens: boolean): void {
    this.got(NEWL);
    const body = this.getStmt(false, false) ?? decline();
    s.Cmd = { type: 'FuncDecl', Position: pos, RsrvWord: pos !== name.ValuePos, Parens: parens, Name: name, Body: body };
  }

  private isRedir(): boolean {
    switch (this.tok) {
      case RDROUT: case APPOUT: case RDRIN: case DPLIN: case DPLOUT: case CLBOUT: case RDRINOUT:
      case HDOC: case DASHHDOC: case WORDHDOC: case RDRALL: case APPALL: case LITREDIR:
        return true;
    }
    return false;
  }

  /** A token that starts a word other than a plain literal (LITWORD). */
  private startsWord(): boolean {
    switch (this.tok) {
      case LIT: case DOLLBRACE: case DOLLDBLPAREN: case DOLLPAREN: case DOLLAR: case SGLQUOTE: case DOLLSGLQUOTE:
      case DBLQUOTE: case DOLLDBLQUOTE: case CMDIN: case CMDOUT:
      case GLOBQUEST: case GLOBSTAR: case GLOBPLUS: case GLOBAT: case GLOBEXCL:
        return true;
      case BCKQUOTE: return !this.bqClose();
    }
    return false;
  }

  private redirect(s: Stmt): void {
    let n: Lit | null = null;
    if (this.tok === LITREDIR) {
      n = this.lit(this.pos, this.val);
      if (this.posix && this.val[0] === '{') decline(); // {fd}> is bash's
      this.next();
    }
    const op = this.tok, opPos = this.pos;
    const r: Redirect = { type: 'Redirect', OpPos: opPos, Op: op, N: n, Word: null, Hdoc: null };
    s.Redirs.push(r);
    if (op === HDOC || op === DASHHDOC) {
      const old = this.mode;
      this.mode = Mode.HdocWord;
      this.next();
      const w = this.getWord() ?? decline();
      this.mode = old;
      r.Word = w;
      this.hdocs.push({ r, dash: op === DASHHDOC, ...hdocStop(w) });
      if (this.tok === NEWL) this.readHdocs();
      return;
    }
    this.next();
    r.Word = this.getWord() ?? decline();
  }

  /**
   * Reads the bodies of the pending here-documents, from `this.i` (just after a newline). mvdan's
   * shape: an unquoted body is a word whose last literal ends where the delimiter line does; a
   * quoted one is one literal; both include a `<<-` delimiter line's leading tabs.
   */
  protected readHdocs(): void {
    const pending = this.hdocs;
    this.hdocs = [];
    const s = this.s;
    for (const h of pending) {
      const start = this.i;
      let ls = start, stopAt = -1, lineEnd = -1, afterCont = false;
      while (ls < s.length) {
        let ws = ls;
        if (h.dash) while (s[ws] === '\t') ws++;
        const nl = s.indexOf('\n', ws);
        const le = nl < 0 ? s.length : nl;
        // in an unquoted body a line continued from the one before never ends it
        if (s.slice(ws, le) === h.stop && !(afterCont && !h.quoted)) { stopAt = ws; lineEnd = le; break; }
        afterCont = s[le - 1] === '\\' && le < s.length;
        // mvdan also ends the body at a line whose text after an expansion is the delimiter
        if (!h.quoted && s.slice(ls, le).endsWith(h.stop)) decline();
        ls = le + 1;
      }
      if (stopAt < 0) decline(); // unclosed: mvdan's error
      const body = s.slice(start, stopAt);
      if (body === '' || (h.dash && !h.quoted && body.includes('\\\n'))) decline();
      h.r.Hdoc = h.quoted ? this.word([this.lit(start, body, lineEnd)]) : this.hdocWord(start, body, lineEnd);
      // the newline after a delimiter is read (the last one merges with this NEWL token)
      this.i = Math.min(lineEnd + 1, s.length);
    }
  }

  /** An unquoted here-document body: literals and `$` expansions (mvdan's hdocBody state). */
  private hdocWord(start: number, body: string, end: number): Word {
    const parts: WordPart[] = [];
    const sub = new Parser(this.s.slice(0, start + body.length), this.posix);
    sub.i = start;
    sub.mode = Mode.DblQuotes;
    let from = start;
    for (let i = start; i < start + body.length; i++) {
      const ch = this.s[i];
      if (ch === '\\' && this.s[i + 1] === '\n') { // a continuation ends a literal; the next starts after it
        if (from < i) parts.push(this.lit(from, this.s.slice(from, i), i + 1));
        from = ++i + 1;
        continue;
      }
      if (ch === '\\') { i++; continue; }
      if (ch === '`') decline();
      if (ch !== '$') continue;
      if (from < i) parts.push(this.lit(from, this.s.slice(from, i), i));
      sub.i = i;
      sub.tok = sub.dollarToken(true);
      sub.pos = i;
      parts.push(sub.dollarPart());
      if (sub.tok !== LIT && sub.tok !== LITWORD && sub.tok !== EOF && sub.tok !== DBLQUOTE) decline();
      if (this.s[sub.pos - 1] === '\n' && this.s[sub.pos - 2] === '\\') decline(); // a continuation right after it
      // dollarPart read one token past the expansion: restart from its start
      i = sub.pos - 1;
      from = sub.pos;
    }
    // the body ends with a newline (and a `<<-` delimiter's tabs), so a literal comes last
    const tailEnd = start + body.length;
    parts.push(this.lit(from, this.s.slice(from, tailEnd), end));
    return this.word(parts);
  }

  // ---- words ---------------------------------------------------------------------------------

  private getWord(): Word | null {
    const parts = this.wordParts();
    return parts.length ? this.word(parts) : null;
  }

  private wordParts(): WordPart[] {
    const parts: WordPart[] = [];
    for (;;) {
      const p = this.wordPart();
      if (!p) return parts;
      parts.push(p);
      if (this.spaced) return parts;
    }
  }

  private wordPart(): WordPart | null {
    switch (this.tok) {
      case LIT: case LITWORD: {
        const l = this.lit(this.pos, this.val);
        this.next();
        return l;
      }
      case SGLQUOTE: case DOLLSGLQUOTE: return this.sglQuoted();
      case DBLQUOTE: case DOLLDBLQUOTE:
        if (this.mode === Mode.DblQuotes) return null;
        return this.dblQuoted();
      case BCKQUOTE: return this.bqClose() ? null : this.backquoted();
      case GLOBQUEST: case GLOBSTAR: case GLOBPLUS: case GLOBAT: case GLOBEXCL: {
        if (this.posix) decline();
        const opPos = this.pos, op = this.tok, s = this.s;
        let depth = 1, i = this.i;
        for (; i < s.length; i++) {
          if (s[i] === '(') depth++;
          else if (s[i] === ')' && --depth === 0) break;
        }
        const pattern = s.slice(this.i, i);
        if (depth !== 0 || pattern.includes('\\\n')) decline();
        const lit = this.lit(opPos + 2, pattern, i);
        this.i = i + 1;
        this.next();
        return { type: 'ExtGlob', OpPos: opPos, Op: op, Pattern: lit };
      }
      case CMDIN: case CMDOUT: {
        if (this.mode === Mode.HdocWord) decline();
        const opPos = this.pos, op = this.tok;
        const [stmts, rparen] = this.nestedList();
        return { type: 'ProcSubst', OpPos: opPos, Rparen: rparen, Op: op, Stmts: stmts, Last: [] };
      }
      case DOLLBRACE: case DOLLPAREN: case DOLLDBLPAREN: case DOLLAR:
        if (this.mode === Mode.HdocWord) decline();
        return this.dollarPart();
    }
    return null;
  }

  private dollarPart(): WordPart {
    switch (this.tok) {
      case DOLLBRACE: return this.paramExp();
      case DOLLPAREN: {
        const left = this.pos;
        const [stmts, right] = this.nestedList();
        return { type: 'CmdSubst', Left: left, Right: right, Stmts: stmts, Last: [], Backquotes: false, TempFile: false, ReplyVar: false };
      }
      case DOLLDBLPAREN: {
        const left = this.pos;
        const [x, right] = this.doubleParens();
        return { type: 'ArithmExp', Left: left, Right: right, Bracket: false, Unsigned: false, X: x };
      }
      default: { // DOLLAR
        const dollar = this.pos;
        const ch = this.c();
        let name: string;
        if ('@*#$?!-0123456789'.includes(ch) && ch !== '') { name = ch; this.i++; }
        else if (/[A-Za-z_]/.test(ch)) {
          let j = this.i;
          name = '';
          for (;;) {
            if (this.cont(j)) { j += 2; continue; } // mvdan reads a name across line continuations
            if (j >= this.s.length || !/[A-Za-z0-9_]/.test(this.s[j]!)) break;
            name += this.s[j++];
          }
          this.i = j;
        } else {
          if (ch === '\\') decline();
          const l = this.lit(dollar, '$');
          this.next();
          return l;
        }
        const param = this.lit(dollar + 1, name);
        this.next();
        return {
          type: 'ParamExp', Dollar: dollar, Rbrace: 0, Short: true, Excl: false, Length: false, Width: false, Param: param,
          Index: null, Slice: null, Repl: null, Names: 0, Exp: null,
        };
      }
    }
  }

  /** `` `…` `` (the current token opens it; bqNext is its end). */
  private backquoted(): WordPart {
    const left = this.pos, end = this.bqNext;
    this.bqEnd = end;
    this.i++; // the lexer leaves a backquote unread (as mvdan)
    const stmts = this.nested({ inCase: false, subDepth: 0, bqList: true }, () => {
      const list = this.stmtList([]);
      if (!this.bqClose()) decline();
      return list;
    });
    this.bqEnd = -1;
    const right = this.pos;
    this.i = end + 1;
    this.next();
    return { type: 'CmdSubst', Left: left, Right: right, Stmts: stmts, Last: [], Backquotes: true, TempFile: false, ReplyVar: false };
  }

  private sglQuoted(): WordPart {
    const left = this.pos, dollar = this.tok === DOLLSGLQUOTE;
    const s = this.s;
    let i = this.i;
    for (;; i++) {
      if (i >= s.length) decline();
      const ch = s[i];
      if (ch === '\\' && dollar) { i++; continue; }
      if (ch === '\'') break;
    }
    const value = s.slice(this.i, i);
    this.i = i + 1;
    this.next();
    return { type: 'SglQuoted', Left: left, Right: i, Dollar: dollar, Value: value };
  }

  private dblQuoted(): DblQuoted {
    const left = this.pos, dollar = this.tok === DOLLDBLQUOTE;
    const old = this.mode;
    this.mode = Mode.DblQuotes;
    this.next();
    const parts = this.wordParts();
    this.mode = old;
    const right = this.pos;
    if (this.tok !== DBLQUOTE) decline();
    this.next();
    return { type: 'DblQuoted', Left: left, Right: right, Dollar: dollar, Parts: parts };
  }

  private paramExp(): ParamExp {
    const dollar = this.pos;
    let length = false, excl = false;
    const old = this.mode;
    this.mode = Mode.ParamName;
    if (' \t\n|'.includes(this.c()) || this.cont()) decline(); // `${ cmd;}`: mksh's
    if (this.c() === '#') { this.tok = HASH; this.pos = this.i; this.i++; } else this.next();
    const nameOp = (ch: string): boolean => ch !== '' && !'}:+=%[]/^,'.includes(ch);
    if (this.tok === HASH && nameOp(this.c())) {
      if (this.cont()) decline();
      length = true;
      this.next();
    } else if (this.tok === EXCLMARK && nameOp(this.c())) {
      if (this.cont() || this.posix) decline();
      excl = true;
      this.next();
    } else if (this.tok === PERC) decline();
    let param: Lit;
    switch (this.tok) {
      case LIT: case LITWORD:
        if (!/^[0-9]*$/.test(this.val) && !isName(this.val)) decline();
        param = this.lit(this.pos, this.val);
        break;
      case QUEST: case MINUS:
        if (length && this.c() !== '}') decline(); // ${#-default}
        param = this.lit(this.pos, this.tok === QUEST ? '?' : '-');
        break;
      case AT: case STAR: case HASH: case EXCLMARK: case DOLLAR:
        param = this.lit(this.pos, PARAM_NAMES[this.tok]!);
        break;
      default:
        return decline();
    }
    this.next();
    const pe: ParamExp = {
      type: 'ParamExp', Dollar: dollar, Rbrace: 0, Short: false, Excl: excl, Length: length, Width: false, Param: param,
      Index: null, Slice: null, Repl: null, Names: 0, Exp: null,
    };
    if (this.spaced) decline();
    if (this.tok === RIGHTBRACE) return this.closeParam(pe, old);
    if (this.isLit()) decline(); // `${a b}`
    if (this.tok === LEFTBRACK) {
      if (this.posix || !isName(pe.Param.Value)) decline();
      pe.Index = this.index();
      if (this.tok === RIGHTBRACE) return this.closeParam(pe, old);
    }
    if (pe.Length) decline();
    switch (this.tok) {
      case SLASH: case DBLSLASH: {
        if (this.posix) decline();
        const all = this.tok === DBLSLASH;
        this.mode = Mode.ParamRepl;
        this.next();
        const orig = this.getWord();
        this.mode = Mode.ParamExp;
        let withW: Word | null = null;
        if (this.tok === SLASH) { this.next(); withW = this.getWord(); }
        pe.Repl = { type: 'Replace', All: all, Orig: orig, With: withW };
        break;
      }
      case COLON: {
        if (this.posix) decline();
        const slice: Slice = { type: 'Slice', Offset: null, Length: null };
        pe.Slice = slice;
        this.mode = Mode.Slice;
        this.next();
        if (this.tok !== COLON) slice.Offset = this.arithm() ?? decline();
        if (this.got(COLON)) slice.Length = this.arithm() ?? decline();
        break;
      }
      case CARET: case DBLCARET: case COMMA: case DBLCOMMA:
        if (this.posix) decline();
        pe.Exp = this.paramExpExp();
        break;
      case PLUS: case COLPLUS: case MINUS: case COLMINUS: case QUEST: case COLQUEST: case ASSGN: case COLASSGN:
      case PERC: case DBLPERC: case HASH: case DBLHASH:
        pe.Exp = this.paramExpExp();
        break;
      case AT: case STAR:
        if (this.posix) decline();
        if (pe.Excl && this.c() === '}') { // ${!prefix*}, ${!prefix@}
          pe.Names = this.tok;
          this.next();
          break;
        }
        if (this.tok === STAR) decline();
        pe.Exp = this.paramExpExp();
        { // ${x@Q} and the like: one literal operator letter bash knows
          const op = pe.Exp.Word?.Parts.length === 1 ? pe.Exp.Word.Parts[0]! : undefined;
          if (op?.type !== 'Lit' || !'auAEKLPUQ'.includes(op.Value) || op.Value.length !== 1) decline();
        }
        break;
      default:
        decline();
    }
    return this.closeParam(pe, old);
  }

  /** The `}` of `${…}`: read past it in the mode around the expansion. */
  private closeParam(pe: ParamExp, old: Mode): ParamExp {
    if (this.tok !== RIGHTBRACE) decline();
    pe.Rbrace = this.pos;
    this.mode = old;
    this.next();
    return pe;
  }

  private paramExpExp(): Expansion {
    const op = this.tok;
    this.mode = Mode.ParamExp;
    this.next();
    return { type: 'Expansion', Op: op, Word: this.getWord() };
  }

  /** After `(`, `$(`, `<(` or `>(`: the statements up to `)`, and where it is. */
  private nestedList(): [Stmt[], number] {
    const stmts = this.nested({ inCase: false, subDepth: this.subDepth + 1, bqList: false }, () => this.stmtList([]));
    const rparen = this.pos;
    if (!this.got(RIGHTPAREN)) decline();
    return [stmts, rparen];
  }

  /**
   * A nested statement list (substitution, subshell, `case` body, backquotes): `read` runs with the
   * lexer at statement level in the given context, starting past the current token; the context
   * is restored after. A here-document pending across the boundary declines (mvdan buries it).
   */
  private nested<T>(ctx: { inCase: boolean; subDepth: number; bqList: boolean }, read: () => T): T {
    if (this.hdocs.length) decline();
    const old = { mode: this.mode, inCase: this.inCase, subDepth: this.subDepth, bqList: this.bqList };
    Object.assign(this, ctx, { mode: Mode.Reg });
    this.next();
    const r = read();
    if (this.hdocs.length) decline();
    Object.assign(this, old);
    return r;
  }

  // ---- assignments and simple commands -------------------------------------------------------

  private hasValidIdent(): boolean {
    if (!this.isLit()) return false;
    let end = this.eqlOffs;
    if (end > 0) {
      if (this.val[end - 1] === '+' && !this.posix) end--;
      if (isName(this.val.slice(0, end))) return true;
    } else if (!isName(this.val)) return false;
    return this.c() === '['; // a[i]=x
  }

  /** The inside of `[…]` after its `[` (mvdan's eitherIndex), up to and past the `]`. */
  private index(): ArithmExpr {
    const old = this.mode;
    this.mode = Mode.Index;
    this.next();
    if (this.tok === STAR || this.tok === AT) { this.val = this.tok === STAR ? '*' : '@'; this.tok = LITWORD; }
    const x = this.arithm() ?? decline();
    this.mode = old;
    if (this.tok !== RIGHTBRACK) decline();
    this.next();
    return x;
  }

  private getAssign(needEqual: boolean): Assign {
    if (this.eqlOffs <= 0) return this.indexAssign(needEqual);
    const tokPos = this.pos, val = this.val, eq = this.eqlOffs;
    let nameEnd = eq;
    const append = !this.posix && val[eq - 1] === '+';
    if (append) nameEnd--;
    const name = this.lit(tokPos, val.slice(0, nameEnd), tokPos + nameEnd);
    const as: Assign = { type: 'Assign', Append: append, Naked: false, Name: name, Index: null, Value: null, Array: null };
    const rest = val.slice(eq + 1);
    const end = this.at();
    if (this.tok === LITWORD || this.tok === LIT) {
      // a continuation inside the name=... literal would shift mvdan's offsets
      if (end - tokPos !== val.length) decline();
    }
    if (rest !== '') as.Value = this.word([this.lit(tokPos + 1 + eq, rest, end)]);
    this.next();
    if (this.spaced || this.stopToken()) return as;
    if (as.Value === null && this.tok === LEFTPAREN) {
      if (this.posix) decline();
      as.Array = this.arrayExpr();
      return as;
    }
    const w = this.getWord();
    if (w) {
      if (as.Value === null) as.Value = w;
      else as.Value.Parts.push(...w.Parts);
    }
    return as;
  }

  /** `a[i]=…`, `a[i]+=…`, or (in declarations) a bare `a[i]`. */
  private indexAssign(needEqual: boolean): Assign {
    const as: Assign = { type: 'Assign', Append: false, Naked: false, Name: this.lit(this.pos, this.val), Index: null, Value: null, Array: null };
    this.i++; // the `[`
    as.Index = this.index();
    if (this.spaced || this.stopToken()) {
      if (needEqual) decline();
      as.Naked = true;
      return as;
    }
    if (!this.isLit()) decline();
    let v = this.val, p = this.pos;
    if (v[0] === '+') { as.Append = true; v = v.slice(1); p++; }
    if (v[0] !== '=') decline();
    v = v.slice(1);
    p++;
    if (v === '') this.next();
    else { this.val = v; this.pos = p; }
    if (this.spaced || this.stopToken()) return as;
    if (this.tok === LEFTPAREN) decline(); // arrays cannot be nested
    const w = this.getWord();
    if (w) as.Value = w;
    return as;
  }

  /** `(elem …)` of an array assignment; the current token is `(`. */
  private arrayExpr(): ArrayExpr {
    const lparen = this.pos;
    const old = this.mode;
    if (this.hdocs.length) decline();
    this.mode = Mode.ArrayElems;
    this.next();
    this.got(NEWL);
    const elems: ArrayElem[] = [];
    while (this.tok !== EOF && this.tok !== RIGHTPAREN) {
      let idx: ArithmExpr | null = null;
      if (this.tok === LEFTBRACK) {
        idx = this.index();
        if (this.tok !== ASSGN) decline();
        this.next();
      }
      const value = this.getWord();
      if (!value && this.tok !== NEWL && this.tok !== RIGHTPAREN && this.tok !== LEFTBRACK) decline();
      elems.push({ type: 'ArrayElem', Index: idx, Value: value, Comments: [] });
      this.got(NEWL);
    }
    this.mode = old;
    const rparen = this.pos;
    if (!this.got(RIGHTPAREN)) decline();
    return { type: 'ArrayExpr', Lparen: lparen, Rparen: rparen, Elems: elems, Last: [] };
  }

  private callExpr(s: Stmt, w: Word | undefined, assign: boolean): void {
    const ce: CallExpr = { type: 'CallExpr', Assigns: [], Args: w ? [w] : [] };
    if (assign) ce.Assigns.push(this.getAssign(true));
    // words, assignments before the first word, redirections: up to the end of the command
    while (!this.stopToken() || (this.tok === RIGHTPAREN && this.subDepth === 0)) {
      if ((this.tok === LIT || this.tok === LITWORD) && ce.Args.length === 0 && this.hasValidIdent()) ce.Assigns.push(this.getAssign(true));
      else if (this.tok === LITWORD) {
        ce.Args.push(this.word([this.lit(this.pos, this.val)]));
        this.next();
      } else if (this.startsWord()) ce.Args.push(this.word(this.wordParts()));
      else if (this.isRedir()) this.redirect(s);
      else decline(); // `(`, `((`, `)` outside a substitution…
    }
    if (ce.Assigns.length === 0 && ce.Args.length === 0) return;
    if (ce.Args.length && ce.Assigns.some((a) => a.Index !== null || a.Array !== null)) decline(); // inline arrays
    s.Cmd = ce;
  }

  private declClause(s: Stmt): void {
    const variant = this.lit(this.pos, this.val);
    this.next();
    const args: Assign[] = [];
    while (!this.stopToken() && !this.isRedir()) {
      if (this.hasValidIdent()) args.push(this.getAssign(false));
      else if (this.eqlOffs > 0) decline(); // invalid var name (mvdan looks at the last literal's `=`)
      else if (this.tok === LITWORD && isName(this.val)) {
        const name = this.lit(this.pos, this.val);
        this.next();
        args.push({ type: 'Assign', Append: false, Naked: true, Name: name, Index: null, Value: null, Array: null });
      } else {
        const w = this.getWord() ?? decline();
        args.push({ type: 'Assign', Append: false, Naked: true, Name: null, Index: null, Value: w, Array: null });
      }
    }
    s.Cmd = { type: 'DeclClause', Variant: variant, Args: args };
  }

  // ---- compound commands ---------------------------------------------------------------------

  /** Statements after a reserved word, up to one of `stops`; mvdan's `if;`-style forms decline. */
  private body(stops: string[]): Stmt[] {
    if (this.tok === SEMICOLON) decline();
    const newLine = this.got(NEWL);
    const list = this.stmtList(stops);
    if (list.length === 0 && !newLine) decline();
    return list;
  }

  private block(s: Stmt): void {
    const lbrace = this.pos;
    this.next();
    const stmts = this.stmtList(['}']);
    const rbrace = this.needRsrv('}');
    s.Cmd = { type: 'Block', Lbrace: lbrace, Rbrace: rbrace, Stmts: stmts, Last: [] };
  }

  private subshell(s: Stmt): void {
    const lparen = this.pos;
    const [stmts, rparen] = this.nestedList();
    s.Cmd = { type: 'Subshell', Lparen: lparen, Rparen: rparen, Stmts: stmts, Last: [] };
  }

  private ifClause(s: Stmt): void {
    const root = this.ifPart(this.pos);
    let cur = root;
    while (this.rsrv('elif')) {
      const elif = this.ifPart(this.pos);
      cur.Else = elif;
      cur = elif;
    }
    const elsePos = this.gotRsrv('else');
    if (elsePos !== undefined) {
      cur.Else = { type: 'IfClause', Position: elsePos, ThenPos: 0, FiPos: 0, Cond: [], CondLast: [], Then: this.body(['fi']), ThenLast: [], Else: null, Last: [] };
    }
    const fi = this.needRsrv('fi');
    for (let c: IfClause | null = root; c; c = c.Else) c.FiPos = fi; // all of them share the `fi`
    s.Cmd = root;
  }

  private ifPart(pos: number): IfClause {
    this.next();
    const cond = this.body(['then']);
    const thenPos = this.needRsrv('then');
    const then = this.body(['fi', 'elif', 'else']);
    return { type: 'IfClause', Position: pos, ThenPos: thenPos, FiPos: 0, Cond: cond, CondLast: [], Then: then, ThenLast: [], Else: null, Last: [] };
  }

  private whileClause(s: Stmt, until: boolean): void {
    const whilePos = this.pos;
    this.next();
    const cond = this.body(['do']);
    const doPos = this.needRsrv('do');
    const body = this.body(['done']);
    const donePos = this.needRsrv('done');
    s.Cmd = { type: 'WhileClause', WhilePos: whilePos, DoPos: doPos, DonePos: donePos, Until: until, Cond: cond, CondLast: [], Do: body, DoLast: [] };
  }

  /** `for` (word list or C-style) and `select` (word list only). */
  private forClause(s: Stmt, select = false): void {
    const forPos = this.pos;
    this.next();
    if (this.tok === LEFTPAREN || (this.tok === DBLLEFTPAREN && select)) decline();
    const loop: WordIter | CStyleLoop = this.tok === DBLLEFTPAREN ? this.cStyleLoop() : this.wordIter();
    if (this.rsrv('{')) decline(); // for … { }
    const doPos = this.needRsrv('do');
    const body = this.body(['done']);
    const donePos = this.needRsrv('done');
    s.Cmd = { type: 'ForClause', ForPos: forPos, DoPos: doPos, DonePos: donePos, Select: select, Braces: false, Loop: loop, Do: body, DoLast: [] };
  }

  private wordIter(): WordIter {
    if (this.tok !== LITWORD) decline();
    const name = this.lit(this.pos, this.val);
    this.next();
    const wi: WordIter = { type: 'WordIter', Name: name, InPos: 0, Items: [] };
    if (this.got(SEMICOLON)) { this.got(NEWL); return wi; }
    this.got(NEWL);
    const inPos = this.gotRsrv('in');
    if (inPos !== undefined) {
      wi.InPos = inPos;
      while (!this.stopToken()) wi.Items.push(this.getWord() ?? decline());
      this.got(SEMICOLON);
      this.got(NEWL);
    } else if (!this.rsrv('do')) decline();
    return wi;
  }

  private cStyleLoop(): CStyleLoop {
    const lparen = this.pos;
    const old = this.mode;
    this.mode = Mode.Arith;
    this.next();
    const init = this.arithm();
    let cond: ArithmExpr | null = null;
    if (!this.got(DBLSEMICOLON)) {
      if (!this.got(SEMICOLON)) decline();
      cond = this.arithm();
      if (!this.got(SEMICOLON)) decline();
    }
    const post = this.arithm();
    const rparen = this.arithEnd(old);
    this.got(SEMICOLON);
    this.got(NEWL);
    return { type: 'CStyleLoop', Lparen: lparen, Rparen: rparen, Init: init, Cond: cond, Post: post };
  }

  private caseClause(s: Stmt): void {
    const casePos = this.pos;
    this.next();
    const w = this.getWord() ?? decline();
    this.got(NEWL);
    const inPos = this.needRsrv('in');
    const items: CaseItem[] = [];
    this.got(NEWL);
    while (this.tok !== EOF && !this.rsrv('esac')) {
      const ci: CaseItem = { type: 'CaseItem', Op: 0, OpPos: 0, Comments: [], Patterns: [], Stmts: [], Last: [] };
      this.got(LEFTPAREN);
      for (;;) {
        if (this.tok === EOF) decline();
        ci.Patterns.push(this.getWord() ?? decline());
        if (this.tok === RIGHTPAREN) break;
        if (!this.got(OR)) decline();
      }
      ci.Stmts = this.nested({ inCase: true, subDepth: 0, bqList: false }, () => this.stmtList(['esac']));
      if (this.tok !== DBLSEMICOLON && this.tok !== SEMIAND && this.tok !== DBLSEMIAND) {
        ci.Op = DBLSEMICOLON;
        items.push(ci);
        break;
      }
      ci.OpPos = this.pos;
      ci.Op = this.tok;
      this.next();
      this.got(NEWL);
      items.push(ci);
    }
    const esac = this.needRsrv('esac');
    s.Cmd = { type: 'CaseClause', Case: casePos, In: inPos, Esac: esac, Braces: false, Word: w, Items: items, Last: [] };
  }

  private testClause(s: Stmt): void {
    const left = this.pos;
    const old = this.mode;
    this.mode = Mode.Test;
    this.next();
    if (this.rsrv(']]') || this.tok === EOF) decline();
    const x = this.testExpr(false) ?? decline();
    const right = this.pos;
    if (!this.rsrv(']]')) decline();
    this.next(); // still in the test's mode, as mvdan
    this.mode = old;
    s.Cmd = { type: 'TestClause', Left: left, Right: right, X: x };
  }

  private testExpr(pastAndOr: boolean): TestExpr | null {
    this.got(NEWL);
    const left = pastAndOr ? this.testBase() : this.testExpr(true);
    if (!left) return null;
    this.got(NEWL);
    let op: number;
    switch (this.tok) {
      case ANDAND: case OROR: op = this.tok; break;
      case LITWORD:
        if (this.val === ']]') return left;
        op = BIN_TEST[this.val] ?? decline();
        break;
      case RDRIN: case RDROUT: op = this.tok; break;
      case EOF: case RIGHTPAREN: return left;
      default: return decline();
    }
    const opPos = this.pos;
    let y: TestExpr;
    if (op === ANDAND || op === OROR) {
      this.next();
      y = this.testExpr(false) ?? decline();
    } else {
      if (left.type !== 'Word') decline();
      if (op === TSREMATCH) { // =~: the regex is lexed its own way, up to a blank outside parentheses
        this.mode = Mode.Regexp;
        this.rxOpenParens = 0;
        this.rxFirstPart = true;
      }
      this.next();
      y = this.getWord() ?? decline();
      this.mode = Mode.Test;
    }
    return { type: 'BinaryTest', OpPos: opPos, Op: op, X: left, Y: y };
  }

  private testBase(): TestExpr | null {
    switch (this.tok) {
      case EOF: case RIGHTPAREN: return null;
    }
    let tok = this.tok;
    if (tok === LITWORD) {
      const u = UN_TEST[this.val];
      if (u !== undefined) tok = u;
    }
    if (tok === EXCLMARK) {
      const opPos = this.pos;
      this.next();
      const x = this.testExpr(false) ?? decline();
      return { type: 'UnaryTest', OpPos: opPos, Op: EXCLMARK, X: x };
    }
    if (tok >= Tok.tsExists && tok <= Tok.tsRefVar) {
      const opPos = this.pos;
      this.next();
      const x = this.getWord() ?? decline();
      return { type: 'UnaryTest', OpPos: opPos, Op: tok, X: x };
    }
    if (this.tok === LEFTPAREN) {
      const lparen = this.pos;
      this.next();
      const x = this.testExpr(false) ?? decline();
      const rparen = this.pos;
      if (!this.got(RIGHTPAREN)) decline();
      return { type: 'ParenTest', Lparen: lparen, Rparen: rparen, X: x };
    }
    if (this.tok === LITWORD && this.val === ']]') return null;
    return this.getWord();
  }

  private arithCmd(s: Stmt): void {
    const left = this.pos;
    const [x, right] = this.doubleParens();
    s.Cmd = { type: 'ArithmCmd', Left: left, Right: right, Unsigned: false, X: x };
  }

  /** After `((` or `$((`: the expression, and where its `))` is. */
  private doubleParens(): [ArithmExpr, number] {
    const old = this.mode;
    this.mode = Mode.Arith;
    this.next();
    const x = this.arithm() ?? decline();
    return [x, this.arithEnd(old)];
  }

  /** `))` closing arithmetic: returns the position of its first `)`. */
  private arithEnd(old: Mode): number {
    if (this.tok !== RIGHTPAREN || this.c() !== ')') decline();
    this.i++;
    this.mode = old;
    // mvdan's position of the `))`: where the lexer stood before reading the second `)`
    const pos = this.pos;
    this.next();
    return pos;
  }

  // ---- arithmetic ----------------------------------------------------------------------------

  /**
   * An arithmetic expression. `compact` (`let`'s arguments): a blank ends it, and a blank right
   * after an operator is mvdan's error; parentheses and indexes inside are not compact.
   */
  private arithm(compact = false): ArithmExpr | null {
    const old = this.compact;
    this.compact = compact;
    try { return this.arithBinary(0); } finally { this.compact = old; }
  }
  private spacedIn(): boolean { return this.compact && this.spaced; }
  /** Past an operator: in a compact expression nothing blank may follow it. */
  private nextOperand(): void {
    this.next();
    if (this.spacedIn()) decline();
  }

  /** Left-associative binary levels, lowest first; assignment, `?:` and `**` are special. */
  private arithBinary(level: number): ArithmExpr | null {
    if (level === LEVEL_ASSIGN) return this.arithAssign();
    if (level === LEVEL_POWER) return this.arithPower();
    let x = this.arithBinary(level + 1);
    const ops = ARITH_LEVELS[level]!;
    while (ops.includes(this.tok) && !this.spacedIn()) {
      if (!x) decline();
      const op = this.tok, opPos = this.pos;
      this.nextOperand();
      const y = this.arithBinary(level + 1) ?? decline();
      x = { type: 'BinaryArithm', OpPos: opPos, Op: op, X: x!, Y: y };
    }
    return x;
  }

  private arithAssign(): ArithmExpr | null {
    const x = this.arithTernary();
    if ((this.tok === ASSGN || (this.tok >= ADDASSGN && this.tok <= SHRASSGN)) && !this.spacedIn()) {
      if (!x || !isArithName(x)) decline();
      const op = this.tok, opPos = this.pos;
      this.nextOperand();
      const y = this.arithAssign() ?? decline();
      return { type: 'BinaryArithm', OpPos: opPos, Op: op, X: x!, Y: y };
    }
    return x;
  }

  private arithTernary(): ArithmExpr | null {
    const x = this.arithBinary(LEVEL_ASSIGN + 1);
    if (this.tok !== QUEST || this.spacedIn()) return x;
    if (!x) decline();
    const qPos = this.pos;
    this.nextOperand();
    if (this.tok === COLON) decline();
    const t = this.arithm(this.compact) ?? decline();
    if (this.tok !== COLON) decline();
    const cPos = this.pos;
    this.nextOperand();
    const f = this.arithTernary() ?? decline();
    return {
      type: 'BinaryArithm', OpPos: qPos, Op: QUEST, X: x!,
      Y: { type: 'BinaryArithm', OpPos: cPos, Op: COLON, X: t, Y: f },
    };
  }

  private arithPower(): ArithmExpr | null {
    const x = this.arithUnary();
    if (this.tok !== POWER || this.spacedIn()) return x;
    if (!x) decline();
    const opPos = this.pos;
    this.nextOperand();
    const y = this.arithPower() ?? decline();
    return { type: 'BinaryArithm', OpPos: opPos, Op: POWER, X: x!, Y: y };
  }

  private arithUnary(): ArithmExpr | null {
    if (this.tok === EXCLMARK || this.tok === TILDE || this.tok === PLUS || this.tok === MINUS) {
      const op = this.tok, opPos = this.pos;
      this.nextOperand();
      const x = this.arithUnary() ?? decline();
      return { type: 'UnaryArithm', OpPos: opPos, Op: op, Post: false, X: x };
    }
    return this.arithValue();
  }

  private arithValue(): ArithmExpr | null {
    let x: ArithmExpr;
    switch (this.tok) {
      case ADDADD: case SUBSUB: {
        const op = this.tok, opPos = this.pos;
        this.next();
        if (this.tok !== LITWORD) decline();
        const v = this.arithValue() ?? decline();
        return { type: 'UnaryArithm', OpPos: opPos, Op: op, Post: false, X: v };
      }
      case LEFTPAREN: {
        const lparen = this.pos;
        this.nextOperand();
        const inner = this.arithm() ?? decline();
        const rparen = this.pos;
        if (!this.got(RIGHTPAREN)) decline();
        x = { type: 'ParenArithm', Lparen: lparen, Rparen: rparen, X: inner };
        break;
      }
      case LITWORD: {
        const l = this.lit(this.pos, this.val);
        this.next();
        if (this.tok === LEFTBRACK) { // a[i]: a short ParamExp with an index, as mvdan has it
          if (this.posix) decline();
          const pe: ParamExp = {
            type: 'ParamExp', Dollar: l.ValuePos, Rbrace: 0, Short: true, Excl: false, Length: false, Width: false, Param: l,
            Index: this.index(), Slice: null, Repl: null, Names: 0, Exp: null,
          };
          x = this.word([pe]);
        } else x = this.word([l]);
        break;
      }
      case LEFTBRACK: case COLON: return decline();
      default: {
        const w = this.getWord();
        if (!w) return null;
        x = w;
      }
    }
    if (this.spacedIn()) return x;
    if (this.tok === ADDADD || this.tok === SUBSUB) {
      if (!isArithName(x)) decline();
      const u: ArithmExpr = { type: 'UnaryArithm', OpPos: this.pos, Op: this.tok, Post: true, X: x };
      this.next();
      return u;
    }
    return x;
  }
}

// binary levels: `,` | assignment | `||` | `&&` | `|` | `^` | `&` | `== !=` | `< > <= >=` | `<< >>` | `+ -` | `* / %` | `**`
const LEVEL_ASSIGN = 1, LEVEL_POWER = 12;
const ARITH_LEVELS: number[][] = [
  [COMMA], [], [OROR], [ANDAND], [OR], [CARET], [AND], [EQUAL, NEQUAL], [RDRIN, RDROUT, LEQUAL, GEQUAL], [HDOC, APPOUT], [PLUS, MINUS], [STAR, SLASH, PERC],
];

const PARAM_NAMES: Record<number, string> = { [AT]: '@', [STAR]: '*', [HASH]: '#', [EXCLMARK]: '!', [DOLLAR]: '$' };

const UN_TEST: Record<string, number> = {
  '!': EXCLMARK, '-e': Tok.tsExists, '-a': Tok.tsExists, '-f': Tok.tsRegFile, '-d': Tok.tsDirect, '-c': Tok.tsCharSp,
  '-b': Tok.tsBlckSp, '-p': Tok.tsNmPipe, '-S': Tok.tsSocket, '-L': Tok.tsSmbLink, '-h': Tok.tsSmbLink, '-k': Tok.tsSticky,
  '-g': Tok.tsGIDSet, '-u': Tok.tsUIDSet, '-G': Tok.tsGrpOwn, '-O': Tok.tsUsrOwn, '-N': Tok.tsModif, '-r': Tok.tsRead,
  '-w': Tok.tsWrite, '-x': Tok.tsExec, '-s': Tok.tsNoEmpty, '-t': Tok.tsFdTerm, '-z': Tok.tsEmpStr, '-n': Tok.tsNempStr,
  '-o': Tok.tsOptSet, '-v': Tok.tsVarSet, '-R': Tok.tsRefVar,
};
const BIN_TEST: Record<string, number> = {
  '=': ASSGN, '==': EQUAL, '!=': NEQUAL, '=~': TSREMATCH, '-nt': Tok.tsNewer, '-ot': Tok.tsOlder, '-ef': Tok.tsDevIno,
  '-eq': Tok.tsEql, '-ne': Tok.tsNeq, '-le': Tok.tsLeq, '-ge': Tok.tsGeq, '-lt': Tok.tsLss, '-gt': Tok.tsGtr,
};


function isArithName(x: ArithmExpr): boolean {
  if (x.type !== 'Word' || x.Parts.length !== 1) return false;
  const p = x.Parts[0]!;
  return (p.type === 'Lit' && isName(p.Value)) || (p.type === 'ParamExp' && p.Short && p.Index !== null);
}

/** The delimiter of a here-document: its word with quotes removed, and whether it had any. */
function hdocStop(w: Word): { stop: string; quoted: boolean } {
  let stop = '', quoted = false;
  for (const p of w.Parts) {
    if (p.type === 'Lit') {
      for (let i = 0; i < p.Value.length; i++) {
        if (p.Value[i] === '\\') { quoted = true; i++; if (i < p.Value.length) stop += p.Value[i]; } else stop += p.Value[i];
      }
    } else if (p.type === 'SglQuoted') { stop += p.Value; quoted = true; } else if (p.type === 'DblQuoted') {
      quoted = true;
      for (const q of p.Parts) stop += q.type === 'Lit' ? q.Value : decline();
    } else decline();
  }
  return { stop, quoted };
}
