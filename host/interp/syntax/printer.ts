// Prints function definitions the way bash does (`type f`, `declare -f f`), from the AST and
// the source text of words.
import { Tok, type Command, type Redirect, type Stmt, type TestExpr, type Word } from './ast.ts';
import { wordRange } from './word-range.ts';
import { ansiC } from '../words/quoting.ts';

const IND = '    ';

class Printer {
  heredocs: string[] = [];
  /** Set by stmtLines: each statement printed is preceded by a marker `\uE000<index>\uE001` (never in latin1 source text). */
  marked: Stmt[] | undefined;
  /** $BASH_COMMAND's form (bash's make_command_string outside a function definition): lists on one line. */
  oneLine = false;
  constructor(readonly src: string) {}

  /** `reprint`: `$( )` and `<( )` as bash 5.2 prints them again from their parse (not in here-document bodies). */
  word(w: Word | null, reprint = true): string {
    if (!w) return '';
    const r = wordRange(w);
    if (r) {
      // edits of the source text, in source offsets
      const edits: Array<[number, number, string]> = [];
      for (const p of w.Parts) {
        // ($"…" prints as "…")
        if (p.type === 'DblQuoted' && p.Dollar && p.Left >= r[0] && this.src[p.Left] === '$') { edits.push([p.Left, p.Left + 1, '']); continue; }
        // ($'…' is decoded when bash reads it: it prints the text single-quoted)
        if (p.type !== 'SglQuoted' || !p.Dollar || p.Left < r[0] || p.Right >= r[1] || this.src[p.Left] !== '$') continue;
        edits.push([p.Left, p.Right + 1, "'" + ansiC(p.Value, false).replace(/'/g, "'\\''") + "'"]);
      }
      if (reprint) this.substEdits(w.Parts, edits);
      let text = this.src.slice(r[0], r[1]);
      for (const [lo, hi, t] of edits.sort((a, b) => b[0] - a[0])) {
        if (lo >= r[0] && hi <= r[1]) text = text.slice(0, lo - r[0]) + t + text.slice(hi - r[0]);
      }
      return text;
    }
    return w.Parts.map((p) => (p.type === 'Lit' ? p.Value : '')).join('');
  }

  /** Edits that print each `$( )`/`<( )`/`>( )` in `node` (not backquotes) from its statements. */
  private substEdits(node: unknown, edits: Array<[number, number, string]>): void {
    if (Array.isArray(node)) { for (const x of node) this.substEdits(x, edits); return; }
    if (!node || typeof node !== 'object') return;
    const n = node as { type?: string } & Record<string, unknown>;
    if (n.type === 'CmdSubst') {
      const c = n as unknown as import('./ast.ts').CmdSubst;
      if (!c.Backquotes && this.src.startsWith('$(', c.Left) && this.src[c.Right] === ')') edits.push([c.Left, c.Right + 1, `$(${this.comsub(c.Stmts)})`]);
      return;
    }
    if (n.type === 'ProcSubst') {
      const c = n as unknown as import('./ast.ts').ProcSubst;
      const op = this.src.slice(c.OpPos, c.OpPos + 2);
      if ((op === '<(' || op === '>(') && this.src[c.Rparen] === ')') edits.push([c.OpPos, c.Rparen + 1, `${op}${this.comsub(c.Stmts)})`]);
      return;
    }
    for (const k in n) if (k !== 'type') this.substEdits(n[k], edits);
  }

  /** A command substitution's list as bash's print_comsub lays it out: `;`-joined on a line, newlines kept, compound commands as in functions. */
  private comsub(stmts: Stmt[]): string {
    const p = new Printer(this.src);
    p.oneLine = true;
    let text = '';
    stmts.forEach((s, i) => {
      text += p.stmt(s, '');
      const hd = p.flushHeredocs();
      text += hd;
      if (i < stmts.length - 1 && !hd) text += s.Background ? ' ' : s.Semicolon ? '; ' : '\n';
    });
    // (a leading `(` is set apart, or it would read as `$((`)
    return text.startsWith('(') ? ' ' + text : text;
  }

  redir(r: Redirect): string {
    const ops: Record<number, string> = {
      [Tok.rdrOut]: '>', [Tok.appOut]: '>>', [Tok.rdrIn]: '<', [Tok.rdrInOut]: '<>', [Tok.dplIn]: '<&', [Tok.dplOut]: '>&',
      [Tok.clbOut]: '>|', [Tok.hdoc]: '<<', [Tok.dashHdoc]: '<<-', [Tok.wordHdoc]: '<<<', [Tok.rdrAll]: '&>', [Tok.appAll]: '&>>',
    };
    const n = r.N ? r.N.Value : '';
    const op = ops[r.Op] ?? '>';
    if (r.Op === Tok.hdoc || r.Op === Tok.dashHdoc) {
      const delim = this.word(r.Word);
      let body = r.Hdoc ? (wordRange(r.Hdoc) ? this.word(r.Hdoc, false) : r.Hdoc.Parts.map((p) => (p.type === 'Lit' ? p.Value : '')).join('')) : '';
      if (r.Op === Tok.dashHdoc) body = body.replace(/^\t+/gm, ''); // (bash stores `<<-` bodies without their tabs)
      const d = delim.replace(/['"\\]/g, '');
      let b = body;
      if (b.endsWith(d + '\n')) b = b.slice(0, -d.length - 1); else if (b.endsWith(d)) b = b.slice(0, -d.length);
      if (b !== '' && !b.endsWith('\n')) b += '\n';
      this.heredocs.push(b + d + '\n');
      return `${n}${op}${delim}`;
    }
    if (r.Op === Tok.dplIn || r.Op === Tok.dplOut) {
      const w = this.word(r.Word);
      return `${n || (r.Op === Tok.dplIn ? '0' : '1')}${w === '-' ? '>&' : op}${w}`; // (bash prints a close as `>&-`)
    }
    return `${n}${op} ${this.word(r.Word)}`;
  }

  /** A statement on one logical line (compound commands span lines at `ind`). */
  stmt(s: Stmt, ind: string): string {
    let out = s.Negated ? '! ' : '';
    if (this.marked) out = `\uE000${this.marked.push(s) - 1}\uE001` + out;
    out += s.Cmd ? this.cmd(s.Cmd, ind) : '';
    const rs = s.Redirs.map((r) => this.redir(r));
    if (rs.length) out += (out ? ' ' : '') + rs.join(' ');
    if (s.Background) out += ' &';
    return out;
  }

  flushHeredocs(): string {
    if (!this.heredocs.length) return '';
    const h = '\n' + this.heredocs.join('');
    this.heredocs = [];
    return h;
  }

  /** Statements one per line; `lastSemi` adds `;` after the last one too. */
  list(stmts: Stmt[], ind: string, lastSemi: boolean): string {
    let out = '';
    let sameLine = false;
    stmts.forEach((s, i) => {
      const text = this.stmt(s, ind);
      const semi = (i < stmts.length - 1 || lastSemi) && !s.Background ? ';' : '';
      const hd = this.flushHeredocs();
      out += (sameLine ? ' ' : (i > 0 ? '\n' : '') + ind) + text + (hd || semi);
      sameLine = s.Background && i < stmts.length - 1;
    });
    return out;
  }

  /** Statements on one line: `; ` between them, a blank after `&`. */
  flat(stmts: Stmt[], ind: string): string {
    return stmts.map((s, i) => this.stmt(s, ind) + (i === stmts.length - 1 ? '' : s.Background ? ' ' : '; ')).join('');
  }

  inline(stmts: Stmt[], ind: string): string {
    return stmts.map((s) => this.stmt(s, ind)).join('; ');
  }

  cmd(c: Command, ind: string): string {
    const inner = ind + IND;
    switch (c.type) {
      case 'CallExpr': {
        const parts = c.Assigns.map((a) => `${a.Name?.Value ?? ''}${a.Index ? `[${this.arithText(a.Index).trim()}]` : ''}${a.Append ? '+=' : '='}${a.Array ? '(' + a.Array.Elems.map((e) => (e.Index ? `[${this.arithText(e.Index).trim()}]=` : '') + this.word(e.Value)).join(' ') + ')' : this.word(a.Value)}`);
        for (const w of c.Args) parts.push(this.word(w));
        return parts.join(' ');
      }
      case 'DeclClause': {
        const parts = [c.Variant.Value];
        for (const a of c.Args) {
          if (a.Naked && !a.Name) parts.push(this.word(a.Value));
          else if (a.Naked) parts.push(a.Name!.Value);
          else parts.push(`${a.Name!.Value}${a.Append ? '+=' : '='}${a.Array ? '(' + a.Array.Elems.map((e) => (e.Index ? `[${this.arithText(e.Index).trim()}]=` : '') + this.word(e.Value)).join(' ') + ')' : this.word(a.Value)}`);
        }
        return parts.join(' ');
      }
      case 'Block': return this.oneLine ? `{ ${this.flat(c.Stmts, ind)}; }` : `{ \n${this.list(c.Stmts, inner, false)}\n${ind}}`;
      case 'Subshell': return this.oneLine ? `( ${this.flat(c.Stmts, ind)} )` : `( ${c.Stmts.map((x) => this.stmt(x, ind)).join(';\n' + ind)} )`;
      case 'BinaryCmd': {
        const op = c.Op === Tok.andAnd ? '&&' : c.Op === Tok.orOr ? '||' : c.Op === Tok.orAnd ? '2>&1 |' : '|';
        return `${this.stmt(c.X, ind)} ${op} ${this.stmt(c.Y, ind)}`;
      }
      case 'IfClause': {
        let out = `if ${this.inline(c.Cond, ind)}; then\n${this.list(c.Then, inner, true)}\n`;
        const e = c.Else;
        if (e) {
          if (e.Cond.length === 0) out += `${ind}else\n${this.list(e.Then, inner, true)}\n`;
          else out += `${ind}else\n${inner}${this.cmd(e, inner)};\n`; // bash prints elif as a nested if
        }
        return out + `${ind}fi`;
      }
      case 'WhileClause':
        return `${c.Until ? 'until' : 'while'} ${this.inline(c.Cond, ind)}; do\n${this.list(c.Do, inner, true)}\n${ind}done`;
      case 'ForClause': {
        const L = c.Loop;
        const head = L.type === 'WordIter'
          ? `${c.Select ? 'select' : 'for'} ${L.Name.Value} in ${L.InPos ? L.Items.map((w) => this.word(w)).join(' ') : '"$@"'};`
          : `for ((${this.arithText(L.Init)}; ${this.arithText(L.Cond)}; ${this.arithText(L.Post)}))`;
        return `${head}\n${ind}do\n${this.list(c.Do, inner, true)}\n${ind}done`;
      }
      case 'CaseClause': {
        let out = `case ${this.word(c.Word)} in \n`;
        for (const it of c.Items) {
          out += `${inner}${it.Patterns.map((p) => this.word(p)).join(' | ')})\n`;
          out += it.Stmts.length ? this.list(it.Stmts, inner + IND, false) + '\n' : '\n';
          out += `${inner}${it.Op === Tok.semiAnd ? ';&' : it.Op === Tok.dblSemiAnd ? ';;&' : ';;'}\n`;
        }
        return out + `${ind}esac`;
      }
      case 'ArithmCmd': return `((${this.src.slice(c.Left + 2, c.Right)}))`; // (bash keeps the text as written)
      case 'TestClause': return `[[ ${this.cond(c.X)} ]]`;
      case 'LetClause': {
        // (up to the end of its last argument, else of its line)
        const last = c.Exprs.length ? arithRange(c.Exprs[c.Exprs.length - 1]!) : undefined;
        const nl = this.src.indexOf('\n', c.Let);
        return `let ${this.src.slice(c.Let + 3, last ? last[1] : nl < 0 ? undefined : nl).trim().replace(/;$/, '')}`;
      }
      case 'CoprocClause': return `coproc ${c.Name ? this.word(c.Name) : 'COPROC'} ${this.stmt(c.Stmt, ind)}`;
      case 'FuncDecl': return 'function ' + printFunction(this.src, c.Name.Value, c.Body).replace(/\n/g, '\n' + ind);
      case 'TimeClause': return `time ${c.Stmt ? this.stmt(c.Stmt, ind) : ''}`;
      default: return ':';
    }
  }

  /**
   * A `[[ ]]` expression as bash's print_cond_node prints it: words as written, one blank around
   * operators, `( … )` spaced, and a lone word as the `-n WORD` test bash's parser made of it.
   */
  cond(e: TestExpr): string {
    switch (e.type) {
      case 'Word': return `-n ${this.word(e)}`;
      case 'ParenTest': return `( ${this.cond(e.X)} )`;
      case 'UnaryTest': {
        const op = /^(!|-[A-Za-z]+)/.exec(this.src.slice(e.OpPos))?.[0] ?? '!';
        // (a unary operator's operand is always a word, printed without `-n`)
        if (op !== '!') return `${op} ${e.X.type === 'Word' ? this.word(e.X) : this.cond(e.X)}`;
        // (`!` toggles the term's inversion flag: `! ! a` prints as `-n a`)
        let x = e.X, odd = true;
        while (x.type === 'UnaryTest' && /^!/.test(this.src.slice(x.OpPos))) { x = x.X; odd = !odd; }
        return `${odd ? '! ' : ''}${this.cond(x)}`;
      }
      case 'BinaryTest': {
        const op = /^(&&|\|\||==|=~|!=|=|<|>|-[A-Za-z]+)/.exec(this.src.slice(e.OpPos))?.[0] ?? '==';
        const side = (x: TestExpr): string => (op !== '&&' && op !== '||' && x.type === 'Word' ? this.word(x) : this.cond(x));
        return `${side(e.X)} ${op} ${side(e.Y)}`;
      }
    }
  }

  arithText(e: import('./ast.ts').ArithmExpr | null): string {
    // bash prints each part of `for ((…))` as written (trailing blanks kept), or 1 when empty
    if (!e) return '1';
    const r = arithRange(e);
    if (!r) return e.type === 'Word' ? this.word(e) : '';
    return this.src.slice(r[0], r[1]) + (/^[ \t]*/.exec(this.src.slice(r[1]))?.[0] ?? '');
  }
}

function arithRange(e: import('./ast.ts').ArithmExpr): [number, number] | undefined {
  type P = { Lparen: number; Rparen: number };
  const lo = (n: import('./ast.ts').ArithmExpr): number | undefined => n.type === 'Word' ? wordRange(n)?.[0] : n.type === 'BinaryArithm' ? lo(n.X) : n.type === 'UnaryArithm' ? (n.Post ? lo(n.X) : n.OpPos) : n.type === 'ParenArithm' ? (n as unknown as P).Lparen : undefined;
  const hi = (n: import('./ast.ts').ArithmExpr): number | undefined => n.type === 'Word' ? wordRange(n)?.[1] : n.type === 'BinaryArithm' ? hi(n.Y) : n.type === 'UnaryArithm' ? (n.Post ? n.OpPos + 2 : hi(n.X)) : n.type === 'ParenArithm' ? (n as unknown as P).Rparen + 1 : undefined;
  const a = lo(e), b = hi(e);
  return a === undefined || b === undefined ? undefined : [a, b];
}

/** `name () \n{ \n    body\n}` like bash. */
export function printFunction(src: string, name: string, body: Stmt): string {
  const p = new Printer(src);
  if (body.Cmd?.type === 'Block') {
    const inner = p.list(body.Cmd.Stmts, IND, false);
    const rs = body.Redirs.map((r) => p.redir(r)); // (a definition's redirections are the function's)
    return `${name} () \n{ \n${inner}\n}${rs.length ? ' ' + rs.join(' ') + p.flushHeredocs() : ''}`;
  }
  // bash wraps any other compound body (e.g. a subshell) in braces
  return `${name} () \n{ \n${p.list([body], IND, false)}\n}`;
}

/**
 * The line, counted from 0, of each statement of a `$( )` in the text bash runs for it: bash 5.2
 * parses a command substitution with the command and runs it printed again (print_comsub), so
 * its line numbers (errors, $LINENO) count lines of that text from the line of the `)`. The
 * statements of its list keep their own lines (`;` and `&` go on, a newline starts a line);
 * compound commands are laid out as `declare -f` does. Returns statement positions, ascending.
 */
export function stmtLines(src: string, stmts: Stmt[]): Array<[number, number]> {
  // (a `$( )` in a loop runs again and again: its tree and source do not change)
  let r = linesOf.get(stmts);
  if (r === undefined) linesOf.set(stmts, (r = printedLines(src, stmts)));
  return r;
}
const linesOf = new WeakMap<Stmt[], Array<[number, number]>>();

function printedLines(src: string, stmts: Stmt[]): Array<[number, number]> {
  const p = new Printer(src);
  p.marked = [];
  let text = '';
  stmts.forEach((s, i) => {
    text += p.stmt(s, '') + p.flushHeredocs();
    text += i === stmts.length - 1 ? '' : (s.Semicolon || s.Background) && !text.endsWith('\n') ? '; ' : '\n';
  });
  const out: Array<[number, number]> = [];
  let line = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    else if (c === 0xe000) {
      const j = text.indexOf('\uE001', i);
      const st = p.marked[Number(text.slice(i + 1, j))]!;
      out.push([st.Position, line]);
      i = j;
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** One command as bash prints it for `$BASH_COMMAND` (here-doc bodies left out). */
export function printCommand(src: string, st: Stmt): string {
  const p = new Printer(src);
  p.oneLine = true;
  return p.stmt({ ...st, Background: false }, '');
}
