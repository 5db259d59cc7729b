// The fast parser's `[[ … ]]` test clauses (fast-parser.ts has the why): unary and binary tests,
// `!`, `&&`, `||`, parentheses and `=~` regexes, as mvdan-sh's TestExpr nodes. A layer of the
// parser classes, above the words (fast-parser-words.ts).
import type { Stmt, TestExpr } from './ast.ts';
import { Tok } from './ast.ts';
import {
  ANDAND, ASSGN, decline, EOF, EQUAL, EXCLMARK, LEFTPAREN, LITWORD, Mode, NEQUAL, NEWL, OROR, RDRIN,
  RDROUT, RIGHTPAREN, TSREMATCH,
} from './fast-lexer.ts';
import { WordParser } from './fast-parser-words.ts';

export abstract class CondParser extends WordParser {
  protected testClause(s: Stmt): void {
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
}

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
