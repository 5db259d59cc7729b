// Shell arithmetic with 64-bit two's-complement wrap-around (BigInt). Two front ends: the
// mvdan-sh ArithmExpr AST (evalArith) and a parser for arithmetic text found in variable
// values or `let` strings (evalArithString). Both share the evaluator over ANode.
import { Tok, type ArithmExpr, type BinaryArithm, type ParamExp, type UnaryArithm, type Word, type WordPart } from '../syntax/ast.ts';
import { rawArith } from '../syntax/reparse-placeholders.ts';
import { wordRange } from '../syntax/word-range.ts';
import { isName } from '../syntax/names.ts';

/** Runs `f`, marking an arithmetic error it throws as hard (see ArithError.hard). */
export function hardArith<T>(f: () => T): T {
  try { return f(); } catch (e) { if (e instanceof ArithError) e.hard = true; throw e; }
}

export class ArithError extends Error {
  /** Source offset of the operator that failed (for bash's "error token is"). */
  tokenPos: number | undefined;
  /** The same in the text a TextParser read (variable values, `let` words, spliced expressions), and that text. */
  textTokenPos: number | undefined;
  textExpr: string | undefined;
  /** Raised by evalexp outside an expansion (an integer variable's value, an array subscript): bash's jump to the top level ends a `-c` string too. */
  hard = false;
  /** Raised evaluating an array subscript inside an expression: bash names no command (`let:`, `((:`) then. */
  subscript = false;
  /** Names the builtin that assigned (bash: `declare: 1/0: division by 0 …`). */
  inBuiltin(name: string): void {
    if (this.hard && !this.named) { this.expr = `${name}: ${this.expr.replace(/^[ \t]+/, '')}`; this.named = true; }
  }
  private named = false;
  /** Sets the token from textTokenPos in textExpr. */
  textToken(): void {
    if (this.textTokenPos !== undefined && this.textExpr !== undefined && this.token === undefined && this.message !== 'exponent less than 0') this.token = this.textExpr.slice(this.textTokenPos).replace(/^\s+/, '');
  }
  token: string | undefined;
  /** A bad number constant: bash shows the expression only up to its end (`srcEnd`: that end in the source). */
  badNumber = false;
  srcEnd: number | undefined;
  /** The text shown when the source up to srcEnd has expansions (bash shows their values). */
  numberText = '';
  /** A syntax error in arithmetic text: what was read before it, which bash has evaluated by then (see TextParser.parseAll). */
  pre: unknown;
  constructor(message: string, public expr = '') { super(message); }
  /** bash's message: the expression, the error and its token. */
  report(): string {
    const tok = this.token !== undefined ? ` (error token is "${this.token}")` : '';
    // (bash skips blanks before the expression, not newlines)
    return this.expr ? `${this.expr.replace(/^[ \t]+/, '')}: ${this.message}${tok}` : this.message + tok;
  }
}

export interface ArithHost {
  /** Value of a variable (or array element) as text; undefined when unset. */
  get(name: string, index: string | undefined): string | undefined;
  set(name: string, index: string | undefined, v: bigint): void;
  isAssoc(name: string): boolean;
  /** `set -u` and an unset `name` (or element of it, `indexed`): throws bash's error. */
  nounset(name: string, indexed: boolean): void;
  expandWord(w: Word): Promise<string>;
  /** Whether expandWord(w) can be done without awaiting (structural); expandWordSync then gives its result. */
  canExpandSync?(w: Word): boolean;
  expandWordSync?(w: Word): string;
  /** An array subscript read from arithmetic text that has `$` or a backquote: expanded (and evaluated for an indexed array), as bash does. */
  subscript?(name: string, text: string): string;
  /** Source text of an index expression node (for assoc subscripts). */
  nodeText?(n: ArithmExpr): Promise<string>;
  nodeTextSync?(n: ArithmExpr): string | undefined;
  /** Expands arithmetic source text the way bash does before evaluating it (`$x`, `$(…)`, `"` removed). */
  expandText?(text: string): Promise<string>;
  /** The source text of `e` with each word in `values` replaced by its expanded text; undefined when positions are unknown. */
  spliceSource?(e: ArithmExpr, values: Map<Word, string>): string | undefined;
  /** An error evaluating an array subscript: bash evaluates it on its own and names its text. */
  indexError?(err: unknown, elem: ParamExp): void;
}

const wrap = (v: bigint): bigint => BigInt.asIntN(64, v);
/** A value that reads as one operand (a number in any base, or a name) whether spliced or not. */
const OPERAND_RE = /^[0-9a-zA-Z_@#]+$/;
/** Arith.canSync per AST node (structural). */
const syncNodes = new WeakMap<ArithmExpr, boolean>();
/** Trees of expressions whose words are all literal text (no expansion): they never change. */
const constTrees = new WeakMap<ArithmExpr, ANode>();

type ANode =
  | { k: 'num'; v: bigint }
  | { k: 'var'; name: string; index?: ANode | string | RawSub }
  | { k: 'un'; op: string; x: ANode }
  | { k: 'inc'; op: '++' | '--'; post: boolean; x: ANode }
  | { k: 'bin'; op: string; x: ANode; y: ANode; opPos?: number; textPos?: number; text?: string }
  | { k: 'asg'; op: string; x: ANode; y: ANode; opPos?: number }
  | { k: 'cond'; c: ANode; t: ANode; f: ANode }
  /** A syntax error after `pre`: bash evaluates as it parses, so `pre`'s effects happen first. */
  | { k: 'fail'; pre: ANode; err: ArithError };

/** A subscript in arithmetic text that has not been expanded (a variable's value, a `let` word): bash expands it when it is used. */
interface RawSub { sub: string }

// ---- text parser ------------------------------------------------------------------------
const binPrec: Record<string, number> = {
  ',': 1, '||': 4, '&&': 5, '|': 6, '^': 7, '&': 8, '==': 9, '!=': 9, '<': 10, '>': 10, '<=': 10, '>=': 10,
  '<<': 11, '>>': 11, '+': 12, '-': 12, '*': 13, '/': 13, '%': 13, '**': 14,
};
const assignOps = ['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '^=', '|='];
const ops3 = ['<<=', '>>='];
const ops2 = ['**', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '+=', '-=', '*=', '/=', '%=', '&=', '^=', '|='];

class TextParser {
  i = 0;
  /** Where the last operator seen starts: bash's error token for a missing final operand. */
  opAt = 0;
  /** Depth of parentheses being read. */
  parens = 0;
  /** Where the last operand (or closing parenthesis) read starts. */
  lastTok = 0;
  /** `raw`: the text is not expanded yet (see RawSub). */
  constructor(readonly s: string, readonly raw = false) {}
  ws(): void { while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i]!)) this.i++; }
  peekOp(): string | undefined {
    this.ws();
    const s = this.s, i = this.i;
    const o = this.opAtHere(s, i);
    if (o !== undefined) this.opAt = i;
    return o;
  }
  private opAtHere(s: string, i: number): string | undefined {
    for (const o of ops3) if (s.startsWith(o, i)) return o;
    for (const o of ops2) if (s.startsWith(o, i)) return o;
    const c = s[i];
    if (c && '+-*/%<>&|^!~=?:,()[]'.includes(c)) return c;
    return undefined;
  }
  err(msg = 'syntax error: operand expected'): never {
    const rest = this.s.slice(this.i).replace(/^\s+/, '');
    throw new ArithError(`${msg} (error token is "${rest}")`, this.s);
  }
  parseExpr(): ANode { return this.comma(); }
  comma(): ANode {
    let x = this.assign();
    while (this.peekOp() === ',') {
      this.i++;
      let y: ANode;
      // (only at the top: inside parentheses the operands before may be under a short circuit)
      try { y = this.assign(); } catch (e) { if (e instanceof ArithError && e.pre === undefined && this.parens === 0) e.pre = x; throw e; }
      x = { k: 'bin', op: ',', x, y };
    }
    return x;
  }
  /** The whole text as one expression; a syntax error keeps in `pre` the complete operands before it. */
  parseAll(): ANode {
    const n = this.parseExpr();
    this.ws();
    if (this.i < this.s.length) {
      // (bash reads a token ahead: a character that is no token at all fails before the operand
      // it follows is used; another token fails once the whole expression is evaluated)
      const msg = trailingError(this.s[this.i]!);
      const pre = msg === 'syntax error in expression' ? n : n.k === 'bin' && n.op === ',' ? n.x : undefined;
      try { this.err(msg); } catch (e) { (e as ArithError).pre = pre; throw e; }
    }
    return n;
  }
  assign(): ANode {
    const x = this.ternary();
    const op = this.peekOp();
    if (op && assignOps.includes(op)) {
      // (bash's token is the rest from the operator)
      if (x.k !== 'var') this.err('attempted assignment to non-variable');
      this.i += op.length;
      const y = this.assign();
      return { k: 'asg', op, x, y };
    }
    return x;
  }
  ternary(): ANode {
    const c = this.binary(4);
    if (this.peekOp() === '?') {
      this.i++;
      this.ws();
      // bash's "expression expected": its token is the `:` read in place of one, else the operator before the end
      if (this.i >= this.s.length) { this.i = this.opAt; this.err('expression expected'); }
      if (this.s[this.i] === ':') this.err('expression expected');
      // (the middle is a whole comma expression for bash; its operands are not evaluated before an error)
      this.parens++;
      const t = this.comma();
      this.parens--;
      if (this.peekOp() !== ':') {
        // (the token is the one read instead, or at the end the last one read)
        if (this.i >= this.s.length) this.i = this.lastTok;
        this.err("`:' expected for conditional expression");
      }
      this.i++;
      this.ws();
      if (this.i >= this.s.length) { this.i = this.opAt; this.err('expression expected'); }
      const f = this.assign();
      return { k: 'cond', c, t, f };
    }
    return c;
  }
  binary(minPrec: number): ANode {
    let x = this.unary();
    for (;;) {
      let op = this.peekOp();
      if (!op) break;
      if (op === '++' || op === '--') op = op[0]!; // after an operand that is not a name: `5--3` is 5 - -3
      const p = binPrec[op];
      if (p === undefined || p < minPrec || op === ',') break;
      const opPos = this.i;
      this.i += op.length;
      const y = op === '**' ? this.binary(p) : this.binary(p + 1);
      x = { k: 'bin', op, x, y, textPos: opPos, text: this.s };
    }
    return x;
  }
  unary(): ANode {
    const op = this.peekOp();
    // bash's pre-increment needs a name after it (blanks allowed); else it is two signs (`--3` is 3)
    if ((op === '++' || op === '--') && /^[ \t\n\r]*[a-zA-Z_]/.test(this.s.slice(this.i + 2))) { this.i += 2; const x = this.unary(); return { k: 'inc', op, post: false, x }; }
    if (op === '++' || op === '--') { this.i++; return { k: 'un', op: op[0]!, x: this.unary() }; }
    if (op === '+' || op === '-' || op === '!' || op === '~') { this.i++; return { k: 'un', op, x: this.unary() }; }
    return this.postfix();
  }
  postfix(): ANode {
    const x = this.primary();
    const op = this.peekOp();
    if ((op === '++' || op === '--') && x.k === 'var') { this.i += 2; return { k: 'inc', op, post: true, x }; }
    return x;
  }
  primary(): ANode {
    this.ws();
    const s = this.s;
    if (this.i >= s.length) {
      // bash names the operator left without its operand, with what follows it (`4 + ` → "+ ")
      if (this.opAt > 0 || this.opAtHere(s, 0) !== undefined) this.i = this.opAt;
      this.err();
    }
    const c = s[this.i]!;
    if (c === '(') {
      this.i++;
      this.parens++;
      const x = this.comma();
      if (this.peekOp() !== ')') {
        // (bash's message has no "syntax error:"; at the end its token is the last one read)
        if (this.i >= this.s.length) this.i = this.lastTok;
        this.err("missing `)'");
      }
      this.lastTok = this.i;
      this.i++;
      this.parens--;
      return x;
    }
    this.lastTok = this.i;
    const m = /^[0-9][0-9a-zA-Z@_#]*/.exec(s.slice(this.i));
    if (m) {
      this.i += m[0].length;
      // (bash cuts the expression after the token while it converts it)
      try { return { k: 'num', v: parseNumber(m[0]) }; } catch (e) { if (e instanceof ArithError) { e.expr = s.slice(0, this.i); e.badNumber = true; } throw e; }
    }
    const n = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(s.slice(this.i));
    if (n) {
      this.i += n[0].length;
      if (s[this.i] === '[') {
        let depth = 0, j = this.i;
        for (; j < s.length; j++) { if (s[j] === '[') depth++; else if (s[j] === ']' && --depth === 0) break; }
        // (an unclosed subscript: bash's token is the rest from the name)
        if (j >= s.length) { this.i = this.lastTok; this.err('bad array subscript'); }
        const idx = s.slice(this.i + 1, j);
        this.i = j + 1;
        return { k: 'var', name: n[0], index: this.raw && /[$`]/.test(idx) ? { sub: idx } : idx };
      }
      return { k: 'var', name: n[0] };
    }
    this.err();
  }
}

export function parseNumber(t: string): bigint {
  // (bash's strlong: a leading 0 or 0x fixes the base, and a later `#` is then an invalid number;
  // before a `#` the digits read so far, in base 10, are the base)
  let base = 10, i = 0, foundBase = false;
  if (t[0] === '0' && t.length > 1) {
    i = 1;
    if (t[1] === 'x' || t[1] === 'X') { base = 16; i = 2; } else base = 8;
    foundBase = true;
  }
  let v = 0n;
  let B = BigInt(base);
  for (; i < t.length; i++) {
    const ch = t[i]!;
    if (ch === '#') {
      if (foundBase) throw new ArithError(`invalid number (error token is "${t}")`, t);
      if (v < 2n || v > 64n) throw new ArithError(`invalid arithmetic base (error token is "${t}")`, t);
      base = Number(v); B = v; v = 0n; foundBase = true;
      if (i + 1 >= t.length) throw new ArithError(`invalid integer constant (error token is "${t}")`, t);
      continue;
    }
    let d: number;
    const c = ch.charCodeAt(0);
    if (c >= 48 && c <= 57) d = c - 48;
    else if (c >= 97 && c <= 122) d = c - 97 + 10;
    else if (c >= 65 && c <= 90) d = base <= 36 ? c - 65 + 10 : c - 65 + 36;
    else if (ch === '@') d = 62;
    else if (ch === '_') d = 63;
    else throw new ArithError(`value too great for base (error token is "${t}")`, t);
    if (d >= base) throw new ArithError(`value too great for base (error token is "${t}")`, t);
    v = wrap(v * B + BigInt(d));
  }
  return v;
}

export class Arith {
  depth = 0;
  /** Set while `let` evaluates its arguments: they are ordinary words, quotes and all removed. */
  inLet = false;
  constructor(readonly host: ArithHost) {}

  /** Evaluates arithmetic text (variable values, `let` arguments, array subscripts). */
  evalString(s: string): bigint {
    if (s.trim() === '') return 0n;
    const p = new TextParser(s, true);
    let n: ANode;
    try { n = p.parseAll(); } catch (e) {
      if (!(e instanceof ArithError) || e.pre === undefined) throw e;
      n = { k: 'fail', pre: e.pre as ANode, err: e };
      e.pre = undefined;
    }
    try { return this.evalNode(n); } catch (e) {
      // (bash reports the innermost text evaluated, and its rest after the failing operator)
      if (e instanceof ArithError && !e.expr) {
        e.expr = s;
        if (e.textExpr === s) e.textToken();
      }
      throw e;
    }
  }

  private varValue(name: string, index: ANode | string | RawSub | undefined): bigint {
    const idx = index === undefined ? undefined : this.indexText(name, index);
    const v = this.host.get(name, idx);
    if (v === undefined) { this.host.nounset(name, idx !== undefined); return 0n; }
    const t = v.trim();
    if (/^-?(?:0|[1-9][0-9]*)$/.test(t) && t.length < 19) return BigInt(t);
    // (bash's limit: the 1023rd nested value fails)
    if (this.depth >= 1022) { const e = new ArithError('expression recursion level exceeded', v); e.token = v; throw e; }
    this.depth++;
    try { return this.evalString(v); } finally { this.depth--; }
  }

  private indexText(name: string, index: ANode | string | RawSub): string {
    if (typeof index !== 'string' && 'sub' in index) return this.host.subscript ? this.host.subscript(name, index.sub) : this.indexText(name, index.sub);
    if (this.host.isAssoc(name)) return typeof index === 'string' ? index : String(this.evalNode(index));
    if (typeof index !== 'string') return String(this.evalNode(index));
    try { return String(this.evalString(index)); } catch (e) { if (e instanceof ArithError) { e.subscript = true; e.hard = true; } throw e; }
  }

  evalNode(n: ANode): bigint {
    switch (n.k) {
      case 'num': return n.v;
      case 'var': return this.varValue(n.name, n.index);
      case 'un': {
        const x = this.evalNode(n.x);
        if (n.op === '-') return wrap(-x);
        if (n.op === '+') return x;
        if (n.op === '!') return x === 0n ? 1n : 0n;
        return wrap(~x);
      }
      case 'inc': {
        const t = n.x;
        if (t.k !== 'var') throw new ArithError('syntax error: operand expected');
        const old = this.varValue(t.name, t.index);
        const nv = wrap(n.op === '++' ? old + 1n : old - 1n);
        this.host.set(t.name, t.index === undefined ? undefined : this.indexText(t.name, t.index), nv);
        return n.post ? old : nv;
      }
      case 'cond': return this.evalNode(n.c) !== 0n ? this.evalNode(n.t) : this.evalNode(n.f);
      case 'fail': this.evalNode(n.pre); throw n.err;
      case 'asg': {
        const t = n.x;
        if (t.k !== 'var') { const e = new ArithError('attempted assignment to non-variable'); e.tokenPos = n.opPos; throw e; }
        const idx = t.index === undefined ? undefined : this.indexText(t.name, t.index);
        const y = this.evalNode(n.y);
        let v = y;
        if (n.op !== '=') v = binop(n.op.slice(0, -1), this.varValue(t.name, t.index), y);
        this.host.set(t.name, idx, v);
        return v;
      }
      case 'bin': {
        if (n.op === '&&') return this.evalNode(n.x) !== 0n && this.evalNode(n.y) !== 0n ? 1n : 0n;
        if (n.op === '||') return this.evalNode(n.x) !== 0n || this.evalNode(n.y) !== 0n ? 1n : 0n;
        if (n.op === ',') { this.evalNode(n.x); return this.evalNode(n.y); }
        const x = this.evalNode(n.x), y = this.evalNode(n.y);
        try { return binop(n.op, x, y); } catch (e) {
          if (e instanceof ArithError && n.opPos !== undefined && e.tokenPos === undefined) e.tokenPos = n.opPos + n.op.length;
          if (e instanceof ArithError && n.textPos !== undefined && e.textTokenPos === undefined) { e.textTokenPos = n.textPos + n.op.length; e.textExpr = n.text; }
          throw e;
        }
      }
    }
  }

  /** Converts the mvdan-sh AST to ANode, expanding words (may run command substitutions). */
  async fromAst(e: ArithmExpr): Promise<ANode> {
    switch (e.type) {
      case 'ParenArithm': return this.fromAst(e.X);
      case 'UnaryArithm': return unaryNode(e, await this.fromAst(e.X));
      case 'BinaryArithm': {
        const op = binOpName(e.Op);
        if (op === '?') {
          const c = await this.fromAst(e.X);
          const y = condBranches(e.Y);
          return { k: 'cond', c, t: await this.fromAst(y.X), f: await this.fromAst(y.Y) };
        }
        const x = await this.fromAst(e.X);
        return binaryNode(op, e, x, await this.fromAst(e.Y));
      }
      case 'Word': {
        const p = e.Parts.length === 1 ? e.Parts[0]! : undefined;
        if (p && p.type === 'Lit' && rawArith.has(p.Value)) return this.textTree(rawArith.get(p.Value)!);
        if (p && p.type === 'Lit' && isName(p.Value)) return { k: 'var', name: p.Value };
        const bad = p && notElementRef(p);
        if (bad !== undefined) return this.valueTree(e, bad, true);
        if (p && isElementRef(p)) {
          const name = p.Param.Value, index = p.Index!;
          if (!isName(name)) throw badElementBase(p);
          if (this.host.isAssoc(name)) {
            const t = index.type === 'Word' ? await this.host.expandWord(index) : this.host.nodeText ? await this.host.nodeText(index) : String(await this.evalAst(index));
            return { k: 'var', name, index: t };
          }
          let v: bigint;
          try { v = await this.evalAst(index); } catch (err) { this.host.indexError?.(err, p); throw err; }
          return { k: 'var', name, index: { k: 'num', v } };
        }
        const v = await this.host.expandWord(e);
        try { return this.valueTree(e, this.inLet ? v : sglQuoted(e, v)); } catch (err) { throw badNumberAt(err, e); }
      }
    }
  }

  /** The tree of a word's expanded value `s` (a number, or arithmetic text bash parses again). */
  private valueTree(e: Word, s: string, splice_ = false): ANode {
    this.wordText.set(e, s);
    const t = s.trim();
    if (t === '' && e === this.top) return { k: 'num', v: 0n };
    if (!splice_ && /^[0-9]+$/.test(t) && t.length < 19 && !(t.length > 1 && t[0] === '0')) return { k: 'num', v: BigInt(t) };
    // More than one operand or token: bash expands the expression's text before parsing it, so the
    // value's operators bind with their neighbours (`$x*3` with x='1+2' is 1+2*3). Recorded here,
    // re-read from the spliced text by withSplices once every word is expanded (each exactly once).
    const splice = splice_ || !OPERAND_RE.test(t) ? (this.spliced ??= { values: new Map(), error: undefined }) : undefined;
    splice?.values.set(e, s);
    try {
      // (`let`'s words are not expanded again by it, but their subscripts are, when used)
      const p = new TextParser(s, this.inLet);
      const n = p.parseExpr();
      p.ws();
      if (p.i < s.length) p.err(trailingError(s[p.i]!));
      return n;
    } catch (err) {
      // `1+` on its own is an error, `$x 2` with x='1+' is not: the spliced text decides
      if (!splice) throw err;
      splice.error ??= err;
      return { k: 'num', v: 0n };
    }
  }

  /** The last expanded text of each word (bash's error messages show the expanded expression). */
  private wordText = new WeakMap<Word, string>();

  /** The expanded words of `e` (outside subscripts), for an error message's text. */
  wordValues(e: ArithmExpr, out = new Map<Word, string>()): Map<Word, string> {
    switch (e.type) {
      case 'ParenArithm': case 'UnaryArithm': this.wordValues(e.X, out); break;
      case 'BinaryArithm': this.wordValues(e.X, out); this.wordValues(e.Y, out); break;
      case 'Word': { const v = this.wordText.get(e); if (v !== undefined) out.set(e, v); break; }
    }
    return out;
  }

  /** Arithmetic source text (kept raw by reparse.ts), expanded and parsed when it runs, like bash. */
  async textTree(text: string): Promise<ANode> {
    return parseExpanded(this.host.expandText ? await this.host.expandText(text) : text);
  }

  /**
   * Words of the expression being converted whose values are not one operand, and the first error
   * reading such a value on its own (see valueTree).
   */
  private spliced: { values: Map<Word, string>; error: unknown } | undefined;

  /** Converts `e` with `build`; when a word's value is not one operand, parses the spliced source instead. */
  private withSplices(e: ArithmExpr, build: () => ANode): ANode;
  private withSplices(e: ArithmExpr, build: () => Promise<ANode>): Promise<ANode>;
  private withSplices(e: ArithmExpr, build: () => ANode | Promise<ANode>): ANode | Promise<ANode> {
    const outer = this.spliced;
    this.spliced = undefined;
    const done = (t: ANode): ANode => {
      const sp = this.spliced;
      this.spliced = outer;
      if (!sp) return t;
      const text = this.host.spliceSource?.(e, sp.values);
      if (text !== undefined) return parseExpanded(text, this.inLet);
      if (sp.error !== undefined) throw sp.error;
      return t;
    };
    let r: ANode | Promise<ANode>;
    try { r = build(); } catch (err) { this.spliced = outer; throw err; }
    return r instanceof Promise ? r.then(done, (err: unknown) => { this.spliced = outer; throw err; }) : done(r);
  }

  async evalAst(e: ArithmExpr): Promise<bigint> {
    if (this.canSync(e)) return this.evalSync(e);
    const outer = this.top;
    this.top = e;
    try { return this.evalNode(await this.withSplices(e, () => this.fromAst(e))); } finally { this.top = outer; }
  }
  /** The whole expression being evaluated: a word that is all of it and expands to blanks is 0 (bash's `$(( $empty ))`). */
  private top: ArithmExpr | undefined;

  /**
   * Whether fromAst(e) never has to await: every word in it is literal text or expands
   * synchronously (host.canExpandSync). Structural and cached per node, so the choice between
   * evalSync and the async path is made before anything is evaluated.
   */
  canSync(e: ArithmExpr): boolean {
    let r = syncNodes.get(e);
    if (r !== undefined) return r;
    switch (e.type) {
      case 'ParenArithm': case 'UnaryArithm': r = this.canSync(e.X); break;
      case 'BinaryArithm': r = this.canSync(e.X) && this.canSync(e.Y); break;
      case 'Word': {
        const p = e.Parts.length === 1 ? e.Parts[0]! : undefined;
        if (p && p.type === 'Lit' && isName(p.Value)) r = !rawArith.has(p.Value);
        else if (p && isElementRef(p)) {
          const index = p.Index!;
          r = this.canSync(index) && (index.type !== 'Word' || !!this.host.canExpandSync?.(index));
        } else r = !!this.host.canExpandSync?.(e);
        break;
      }
      default: r = false;
    }
    syncNodes.set(e, r);
    return r;
  }

  /** evalAst without awaiting; only when canSync(e). */
  evalSync(e: ArithmExpr): bigint {
    let t = constTrees.get(e);
    if (t === undefined) {
      const outer = this.dynamic, outerTop = this.top;
      this.dynamic = false;
      this.top = e;
      try {
        t = this.withSplices(e, () => this.treeSync(e));
        if (!this.dynamic) constTrees.set(e, t);
      } finally { this.dynamic = outer; this.top = outerTop; }
    }
    return this.evalNode(t);
  }

  /** Set while building a tree when it depends on expansions (then it is not cached). */
  private dynamic = false;

  /** fromAst without awaiting (same conversion, same order of expansions). */
  private treeSync(e: ArithmExpr): ANode {
    switch (e.type) {
      case 'ParenArithm': return this.treeSync(e.X);
      case 'UnaryArithm': return unaryNode(e, this.treeSync(e.X));
      case 'BinaryArithm': {
        const op = binOpName(e.Op);
        if (op === '?') {
          const c = this.treeSync(e.X);
          const y = condBranches(e.Y);
          const t = this.treeSync(y.X);
          return { k: 'cond', c, t, f: this.treeSync(y.Y) };
        }
        const x = this.treeSync(e.X);
        return binaryNode(op, e, x, this.treeSync(e.Y));
      }
      case 'Word': {
        const p = e.Parts.length === 1 ? e.Parts[0]! : undefined;
        if (p && p.type === 'Lit' && isName(p.Value)) return { k: 'var', name: p.Value };
        const bad = p && notElementRef(p);
        if (bad !== undefined) return this.valueTree(e, bad, true);
        if (p && isElementRef(p)) {
          this.dynamic = true;
          const name = p.Param.Value, index = p.Index!;
          if (!isName(name)) throw badElementBase(p);
          if (this.host.isAssoc(name)) {
            const t = index.type === 'Word' ? this.host.expandWordSync!(index) : this.host.nodeTextSync?.(index) ?? String(this.evalSync(index));
            return { k: 'var', name, index: t };
          }
          let v: bigint;
          try { v = this.evalSync(index); } catch (err) { this.host.indexError?.(err, p); throw err; }
          return { k: 'var', name, index: { k: 'num', v } };
        }
        const s = this.host.expandWordSync!(e);
        // literal text (a single Lit) expands to itself whatever the state: the tree is constant
        if (!(p && p.type === 'Lit')) this.dynamic = true;
        try { return this.valueTree(e, this.inLet ? s : sglQuoted(e, s)); } catch (err) { throw badNumberAt(err, e); }
      }
    }
  }
}

/**
 * bash's error for what follows a whole expression: another operand or an operator that cannot
 * go there is "in expression"; a character that is no operator at all (`@`, `'`, `.`, `)`…) is not.
 */
function trailingError(c: string): string {
  return /[\w+\-*\/%<>=!&|^~?:,(]/.test(c) ? 'syntax error in expression' : 'syntax error: invalid arithmetic operator';
}

/** Parses arithmetic text that has been expanded (bash's second reading of `$((…))`). */
function parseExpanded(s: string, raw = false): ANode {
  if (s.trim() === '') return { k: 'num', v: 0n };
  const p = new TextParser(s, raw);
  try {
    return p.parseAll();
  } catch (e) {
    // (bash shows it from its first token; a bad number is shown alone)
    if (e instanceof ArithError && (!e.expr || e.expr === s)) e.expr = s.replace(/^[ \t]+/, '');
    if (e instanceof ArithError && e.pre !== undefined) { const pre = e.pre as ANode; e.pre = undefined; return { k: 'fail', pre, err: e }; }
    throw e;
  }
}

// Node builders shared by the async (fromAst) and synchronous (treeSync) conversions.
function unaryNode(e: UnaryArithm, x: ANode): ANode {
  if (e.Op === Tok.addAdd || e.Op === Tok.subSub) {
    const sign = e.Op === Tok.addAdd ? '+' : '-';
    // bash reads `--3` and `--(y)` as two signs: pre-increment needs a name after it
    if (!e.Post && x.k !== 'var') return { k: 'un', op: sign, x: { k: 'un', op: sign, x } };
    return { k: 'inc', op: e.Op === Tok.addAdd ? '++' : '--', post: e.Post, x };
  }
  const op = e.Op === Tok.exclMark ? '!' : e.Op === Tok.tilde ? '~' : e.Op === Tok.minus ? '-' : '+';
  return { k: 'un', op, x };
}

function binaryNode(op: string, e: BinaryArithm, x: ANode, y: ANode): ANode {
  return assignOps.includes(op) ? { k: 'asg', op, x, y, opPos: e.OpPos } : { k: 'bin', op, x, y, opPos: e.OpPos };
}

/** The `t : f` of `c ? t : f`. */
function condBranches(y: ArithmExpr): BinaryArithm {
  if (y.type !== 'BinaryArithm' || y.Op !== Tok.colon) throw new ArithError('syntax error');
  return y;
}

/**
 * A word's value in arithmetic: bash removes double quotes there but not single quotes, which
 * are then a syntax error (`$(( '1' + 2 ))`); such a word keeps its quotes so the text fails.
 */
function sglQuoted(e: Word, s: string): string {
  // (`$'…'` too: bash turns it into '…' there)
  if (!e.Parts.some(p => p.type === 'SglQuoted')) return s;
  if (e.Parts.every(p => p.type === 'Lit' || (p.type === 'SglQuoted' && !p.Dollar))) {
    return e.Parts.map(p => p.type === 'Lit' ? p.Value : `'${(p as { Value: string }).Value}'`).join('');
  }
  return `'${s}'`;
}

/**
 * A bad number written as such in the source, or that a word expanded to: bash shows the
 * expression (expanded) up to its end.
 */
function badNumberAt(err: unknown, e: Word): unknown {
  const p = e.Parts.length === 1 ? e.Parts[0]! : undefined;
  if (err instanceof ArithError && err.badNumber && err.srcEnd === undefined) {
    const end = p?.type === 'Lit' ? p.ValueEnd : wordRange(e)?.[1];
    if (end !== undefined) { err.numberText = err.expr; err.expr = ''; err.srcEnd = end; }
  }
  return err;
}

/** `1[$i]`: a subscript that is not plain text after a number (notElementRef takes the plain ones); bash's token is the rest from the `[`. */
function badElementBase(p: ParamExp): ArithError {
  const e = new ArithError('syntax error: invalid arithmetic operator');
  e.tokenPos = p.Param.ValueEnd;
  return e;
}

/**
 * `1[2]`: mvdan-sh reads a subscript after a number or special parameter as an element of it;
 * for bash it is that text, which then fails to parse (`invalid arithmetic operator`).
 */
function notElementRef(p: WordPart): string | undefined {
  if (p.type !== 'ParamExp' || !p.Short || p.Index?.type !== 'Word' || isName(p.Param.Value)) return undefined;
  const parts = p.Index.Parts;
  return parts.every((q) => q.type === 'Lit') ? `${p.Param.Value}[${parts.map((q) => (q as { Value: string }).Value).join('')}]` : undefined;
}

/** `a[i]` / `${a[i]}` without operators: a variable reference with a subscript. */
function isElementRef(p: WordPart): p is ParamExp {
  return p.type === 'ParamExp' && p.Short && p.Index !== null && !p.Exp && !p.Slice && !p.Repl && !p.Length && !p.Excl;
}

function binOpName(op: number): string {
  switch (op) {
    case Tok.plus: return '+'; case Tok.minus: return '-'; case Tok.star: return '*'; case Tok.slash: return '/';
    case Tok.perc: return '%'; case Tok.power: return '**'; case Tok.equal: return '=='; case Tok.rdrOut: return '>';
    case Tok.rdrIn: return '<'; case Tok.nequal: return '!='; case Tok.lequal: return '<='; case Tok.gequal: return '>=';
    case Tok.and: return '&'; case Tok.or: return '|'; case Tok.caret: return '^'; case Tok.appOut: return '>>';
    case Tok.hdoc: return '<<'; case Tok.andAnd: return '&&'; case Tok.orOr: return '||'; case Tok.comma: return ',';
    case Tok.quest: return '?'; case Tok.colon: return ':'; case Tok.assgn: return '=';
    case Tok.addAssgn: return '+='; case Tok.subAssgn: return '-='; case Tok.mulAssgn: return '*='; case Tok.quoAssgn: return '/=';
    case Tok.remAssgn: return '%='; case Tok.andAssgn: return '&='; case Tok.orAssgn: return '|='; case Tok.xorAssgn: return '^=';
    case Tok.shlAssgn: return '<<='; case Tok.shrAssgn: return '>>=';
  }
  throw new ArithError('unknown arithmetic operator');
}

export function binop(op: string, x: bigint, y: bigint): bigint {
  switch (op) {
    case '+': return wrap(x + y);
    case '-': return wrap(x - y);
    case '*': return wrap(x * y);
    case '/': case '%':
      if (y === 0n) throw new ArithError('division by 0');
      if (x === -(2n ** 63n) && y === -1n) return op === '/' ? x : 0n;
      return op === '/' ? wrap(x / y) : wrap(x % y);
    case '**': {
      if (y < 0n) throw new ArithError('exponent less than 0');
      let r = 1n, b = x, e = y;
      while (e > 0n) { if (e & 1n) r = wrap(r * b); b = wrap(b * b); e >>= 1n; }
      return r;
    }
    case '<<': return wrap(x << (y & 63n));
    case '>>': return wrap(x >> (y & 63n));
    case '&': return x & y;
    case '|': return x | y;
    case '^': return x ^ y;
    case '==': return x === y ? 1n : 0n;
    case '!=': return x !== y ? 1n : 0n;
    case '<': return x < y ? 1n : 0n;
    case '>': return x > y ? 1n : 0n;
    case '<=': return x <= y ? 1n : 0n;
    case '>=': return x >= y ? 1n : 0n;
  }
  throw new ArithError(`syntax error: invalid arithmetic operator`);
}
