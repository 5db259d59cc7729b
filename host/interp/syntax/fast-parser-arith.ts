// The fast parser's arithmetic (fast-parser.ts has the why): `$((…))`, `((…))`, `let`'s
// arguments, `[…]` subscripts and `${x:off:len}`, parsed into mvdan-sh's ArithmExpr nodes with its
// precedence levels and quirks. The lowest layer of the parser classes (each extends the one
// before), with the AST helpers they all use; an operand that is a word is read by the layer above.
import type { ArithmExpr, Lit, ParamExp, Word, WordPart } from './ast.ts';
import {
  ADDADD, ADDASSGN, AND, ANDAND, APPOUT, ASSGN, AT, CARET, COLON, COMMA, decline, EQUAL, EXCLMARK,
  GEQUAL, HDOC, LEFTBRACK, LEFTPAREN, LEQUAL, Lexer, LITWORD, MINUS, Mode, NEQUAL, OR, OROR, PERC,
  PLUS, POWER, QUEST, RDRIN, RDROUT, RIGHTBRACK, RIGHTPAREN, SHRASSGN, SLASH, STAR, SUBSUB, TILDE,
} from './fast-lexer.ts';
import { isName } from './names.ts';

export abstract class ArithParser extends Lexer {
  private compact = false;  // in `let`'s arguments: a blank ends an arithmetic expression

  /** Words (fast-parser-words.ts): an arithmetic operand that is not a plain name or number. */
  protected abstract getWord(): Word | null;

  // ---- AST helpers ---------------------------------------------------------------------------

  protected lit(pos: number, val: string, end = this.at()): Lit {
    return { type: 'Lit', ValuePos: pos, ValueEnd: end, Value: val };
  }
  protected word(parts: WordPart[]): Word { return { type: 'Word', Parts: parts }; }

  // ---- `((`, `$((` and subscripts ------------------------------------------------------------

  /** The inside of `[…]` after its `[` (mvdan's eitherIndex), up to and past the `]`. */
  protected index(): ArithmExpr {
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

  /** After `((` or `$((`: the expression, and where its `))` is. */
  protected doubleParens(): [ArithmExpr, number] {
    const old = this.mode;
    this.mode = Mode.Arith;
    this.next();
    const x = this.arithm() ?? decline();
    return [x, this.arithEnd(old)];
  }

  /** `))` closing arithmetic: returns the position of its first `)`. */
  protected arithEnd(old: Mode): number {
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
  protected arithm(compact = false): ArithmExpr | null {
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

function isArithName(x: ArithmExpr): boolean {
  if (x.type !== 'Word' || x.Parts.length !== 1) return false;
  const p = x.Parts[0]!;
  return (p.type === 'Lit' && isName(p.Value)) || (p.type === 'ParamExp' && p.Short && p.Index !== null);
}
