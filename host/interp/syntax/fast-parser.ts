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
// The grammar is in layers, each a class extending the one below: fast-parser-arith.ts
// (arithmetic, the AST helpers), fast-parser-words.ts (words and expansions), fast-parser-cond.ts
// (`[[ … ]]`), fast-parser-compound.ts (compound commands), and here the statements, simple
// commands, assignments, redirections and here-documents; the tokens in fast-lexer.ts. Input is
// the script's UTF-8 bytes as a latin1 string; offsets are byte offsets.
import type { ArithmExpr, ArrayElem, ArrayExpr, Assign, CallExpr, File, Lit, Redirect, Stmt, Word, WordPart } from './ast.ts';
import {
  AND, ANDAND, APPALL, APPOUT, ASSGN, BCKQUOTE, CLBOUT, CMDIN, CMDOUT, DASHHDOC, DBLLEFTPAREN,
  DBLQUOTE, DBLSEMIAND, DBLSEMICOLON, DECLINE, decline, DOLLAR, DOLLBRACE, DOLLDBLPAREN,
  DOLLDBLQUOTE, DOLLPAREN, DOLLSGLQUOTE, DPLIN, DPLOUT, EOF, GLOBAT, GLOBEXCL, GLOBPLUS, GLOBQUEST,
  GLOBSTAR, HDOC, LEFTBRACK, LEFTPAREN, LIT, LITREDIR, LITWORD, Mode, NEWL, OR, ORAND, OROR, RDRALL,
  RDRIN, RDRINOUT, RDROUT, RIGHTPAREN, SEMIAND, SEMICOLON, SGLQUOTE, WORDHDOC,
} from './fast-lexer.ts';
import { isName } from './names.ts';
import { CompoundParser } from './fast-parser-compound.ts';

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

class Parser extends CompoundParser {
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
  protected stmtList(stops: string[]): Stmt[] {
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
