// The fast parser's words (fast-parser.ts has the why): literals, quotes, backquotes, extglobs,
// process and command substitutions, and `$…`/`${…}` parameter expansions with all their operators,
// as mvdan-sh's WordPart nodes; and the nested statement lists substitutions open. A layer of the
// parser classes: arithmetic below it (fast-parser-arith.ts), statements above.
import type { DblQuoted, Expansion, Lit, ParamExp, Slice, Stmt, Word, WordPart } from './ast.ts';
import {
  ASSGN, AT, BCKQUOTE, CARET, CMDIN, CMDOUT, COLASSGN, COLMINUS, COLON, COLPLUS, COLQUEST, COMMA,
  DBLCARET, DBLCOMMA, DBLHASH, DBLPERC, DBLQUOTE, DBLSLASH, decline, DOLLAR, DOLLBRACE,
  DOLLDBLPAREN, DOLLDBLQUOTE, DOLLPAREN, DOLLSGLQUOTE, EXCLMARK, GLOBAT, GLOBEXCL, GLOBPLUS,
  GLOBQUEST, GLOBSTAR, HASH, LEFTBRACK, LIT, LITWORD, MINUS, Mode, PERC, PLUS, QUEST, RIGHTBRACE,
  RIGHTPAREN, SGLQUOTE, SLASH, STAR,
} from './fast-lexer.ts';
import { isName } from './names.ts';
import { ArithParser } from './fast-parser-arith.ts';

export abstract class WordParser extends ArithParser {
  protected subDepth = 0;     // inside `$( )`/`( )`: `)` ends a statement list
  protected inCase = false;   // `;;` ends a statement list

  /** Statements (fast-parser.ts): the inside of `$( )`, `( )`, backquotes. */
  protected abstract stmtList(stops: string[]): Stmt[];

  // ---- words ---------------------------------------------------------------------------------

  protected getWord(): Word | null {
    const parts = this.wordParts();
    return parts.length ? this.word(parts) : null;
  }

  protected wordParts(): WordPart[] {
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

  protected dollarPart(): WordPart {
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
  protected nestedList(): [Stmt[], number] {
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
  protected nested<T>(ctx: { inCase: boolean; subDepth: number; bqList: boolean }, read: () => T): T {
    if (this.hdocs.length) decline();
    const old = { mode: this.mode, inCase: this.inCase, subDepth: this.subDepth, bqList: this.bqList };
    Object.assign(this, ctx, { mode: Mode.Reg });
    this.next();
    const r = read();
    if (this.hdocs.length) decline();
    Object.assign(this, old);
    return r;
  }
}

const PARAM_NAMES: Record<number, string> = { [AT]: '@', [STAR]: '*', [HASH]: '#', [EXCLMARK]: '!', [DOLLAR]: '$' };
