// The fast parser's compound commands (fast-parser.ts has the why): `{ }`, `( )`, `if`, `while`/
// `until`, `for`/`select` (word lists and C-style loops), `case` and `(( ))`, as mvdan-sh's nodes.
// A layer of the parser classes, above the test clauses (fast-parser-cond.ts); the statements
// they hold are read by the layer above (fast-parser.ts).
import type { ArithmExpr, CaseItem, CStyleLoop, IfClause, Stmt, WordIter } from './ast.ts';
import {
  DBLLEFTPAREN, DBLSEMIAND, DBLSEMICOLON, decline, EOF, LEFTPAREN, LITWORD, Mode, NEWL, OR,
  RIGHTPAREN, SEMIAND, SEMICOLON,
} from './fast-lexer.ts';
import { CondParser } from './fast-parser-cond.ts';

export abstract class CompoundParser extends CondParser {
  // ---- compound commands ---------------------------------------------------------------------

  /** Statements after a reserved word, up to one of `stops`; mvdan's `if;`-style forms decline. */
  private body(stops: string[]): Stmt[] {
    if (this.tok === SEMICOLON) decline();
    const newLine = this.got(NEWL);
    const list = this.stmtList(stops);
    if (list.length === 0 && !newLine) decline();
    return list;
  }

  protected block(s: Stmt): void {
    const lbrace = this.pos;
    this.next();
    const stmts = this.stmtList(['}']);
    const rbrace = this.needRsrv('}');
    s.Cmd = { type: 'Block', Lbrace: lbrace, Rbrace: rbrace, Stmts: stmts, Last: [] };
  }

  protected subshell(s: Stmt): void {
    const lparen = this.pos;
    const [stmts, rparen] = this.nestedList();
    s.Cmd = { type: 'Subshell', Lparen: lparen, Rparen: rparen, Stmts: stmts, Last: [] };
  }

  protected ifClause(s: Stmt): void {
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

  protected whileClause(s: Stmt, until: boolean): void {
    const whilePos = this.pos;
    this.next();
    const cond = this.body(['do']);
    const doPos = this.needRsrv('do');
    const body = this.body(['done']);
    const donePos = this.needRsrv('done');
    s.Cmd = { type: 'WhileClause', WhilePos: whilePos, DoPos: doPos, DonePos: donePos, Until: until, Cond: cond, CondLast: [], Do: body, DoLast: [] };
  }

  /** `for` (word list or C-style) and `select` (word list only). */
  protected forClause(s: Stmt, select = false): void {
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

  protected caseClause(s: Stmt): void {
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

  protected arithCmd(s: Stmt): void {
    const left = this.pos;
    const [x, right] = this.doubleParens();
    s.Cmd = { type: 'ArithmCmd', Left: left, Right: right, Unsigned: false, X: x };
  }
}
