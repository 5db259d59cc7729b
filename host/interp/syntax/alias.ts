// Alias expansion on the script text, the way bash does it while reading: one command line at a
// time, the first word of each simple command (and the word after an alias whose value ends in a
// blank) is replaced by the alias value, which is then read again (an alias is not expanded inside
// its own expansion). The runner parses what this returns line by line (see Shell.runAliased), so
// an alias can open a block (`alias LEFT='{'`) or hold part of a loop.

type Ctx = 'paren' | 'casepat' | 'casebody';
interface Active { name: string; end: number; blank: boolean }

const KW_CMD = new Set(['if', 'then', 'else', 'elif', 'while', 'until', 'do', '!', '{', 'time']);
const KW_END = new Set(['fi', 'done', '}']);
const META = ' \t\n;&|()<>';
const ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

export class AliasReader {
  buf: string;
  i: number;
  private active: Active[] = [];
  private cmdPos = true;
  private aliasNext = false;
  private ctx: Ctx[] = [];
  private caseState = 0; // 1: after `case`, 2: after its subject (expects `in`)
  private fnName = false; // after `function`: the name, then a command position
  private prevWord = '';
  private heredocs: { delim: string; strip: boolean; quoted: boolean }[] = [];
  private expansions = 0;

  private readonly srcLength: number;

  constructor(src: string, start: number, private readonly lookup: (name: string) => string | undefined) {
    this.buf = src;
    this.i = start;
    this.srcLength = src.length;
  }

  get done(): boolean { return this.i >= this.buf.length; }

  /** Where reading is in the source text (expansions change only the text before it, or alias text still to read). */
  get srcPos(): number { return this.srcLength - (this.buf.length - this.i); }

  /** Start of a new complete command: forget the reading state. */
  reset(): void {
    this.cmdPos = true; this.aliasNext = false; this.ctx = []; this.caseState = 0; this.fnName = false; this.prevWord = '';
    this.heredocs = []; this.expansions = 0;
  }

  /**
   * The next line, aliases expanded: up to and including a newline outside quotes and
   * substitutions (and the here-document bodies it starts), or to the end of the text.
   */
  nextLine(): string | null {
    if (this.done) return null;
    const from = this.i;
    this.list(false);
    return this.buf.slice(from, this.i);
  }

  private popActive(): void {
    const a = this.active;
    // bash's pop_string: the last alias text that ends decides whether the next word is checked
    while (a.length && a[a.length - 1]!.end <= this.i) this.aliasNext = a.pop()!.blank;
  }

  private list(inSubst: boolean): void {
    for (;;) {
      this.popActive();
      const b = this.buf;
      const c = b[this.i];
      if (c === undefined) return;
      if (c === ' ' || c === '\t') { this.i++; continue; }
      if (c === '\\' && b[this.i + 1] === '\n') { this.i += 2; continue; }
      if (c === '\n') {
        this.i++;
        this.readHeredocs();
        if (this.top() !== 'casepat') this.cmdPos = true;
        this.aliasNext = false;
        if (!inSubst) return;
        continue;
      }
      if (c === '#') { while (this.i < b.length && b[this.i] !== '\n') this.i++; continue; }
      if (c === ';') {
        this.aliasNext = false;
        if (b[this.i + 1] === ';' || b[this.i + 1] === '&') {
          this.i += b[this.i + 1] === ';' && b[this.i + 2] === '&' ? 3 : 2;
          if (this.top() === 'casebody') this.ctx[this.ctx.length - 1] = 'casepat';
          this.cmdPos = false;
          continue;
        }
        this.i++; this.cmdPos = true; continue;
      }
      if (c === '&' || c === '|') {
        if (c === '&' && b[this.i + 1] === '>') { this.redirect(); continue; }
        this.i += b[this.i + 1] === c || (c === '|' && b[this.i + 1] === '&') ? 2 : 1;
        this.cmdPos = true; this.aliasNext = false;
        continue;
      }
      if (c === '(') {
        this.aliasNext = false;
        if (b[this.i + 1] === '(' && (this.cmdPos || this.prevWord === 'for')) { this.i += 2; this.arith(); this.cmdPos = false; continue; }
        this.i++;
        if (this.top() === 'casepat') continue;
        // `name ()` of a function definition
        let j = this.i;
        while (b[j] === ' ' || b[j] === '\t') j++;
        if (b[j] === ')') { this.i = j + 1; this.cmdPos = true; continue; }
        if (this.cmdPos) this.ctx.push('paren');
        continue;
      }
      if (c === ')') {
        this.aliasNext = false;
        this.i++;
        const t = this.top();
        if (t === 'casepat') { this.ctx[this.ctx.length - 1] = 'casebody'; this.cmdPos = true; continue; }
        if (t === 'paren') { this.ctx.pop(); this.cmdPos = false; continue; }
        if (inSubst && t === undefined) return;
        continue;
      }
      if ((c === '<' || c === '>') && b[this.i + 1] !== '(') { this.redirect(); continue; }
      if (/[0-9]/.test(c)) {
        const m = /^[0-9]+(?=[<>])/.exec(b.slice(this.i, this.i + 12));
        if (m && b[this.i + m[0].length + 1] !== '(') { this.i += m[0].length; this.redirect(); continue; }
      }
      if (c === '{') {
        const m = /^\{[A-Za-z_][A-Za-z0-9_]*\}(?=[<>])/.exec(b.slice(this.i, this.i + 80));
        if (m) { this.i += m[0].length; this.redirect(); continue; }
      }
      this.word();
    }
  }

  private top(): Ctx | undefined { return this.ctx[this.ctx.length - 1]; }

  private word(): void {
    const start = this.i;
    const lit = this.scanWord();
    const w = this.buf.slice(start, this.i);
    const eligible = this.cmdPos || this.aliasNext;
    this.aliasNext = false;
    const prev = this.prevWord;
    this.prevWord = lit ? w : '';
    if (this.caseState === 1) { this.caseState = 2; return; }
    if (this.caseState === 2) { if (lit && w === 'in') { this.caseState = 0; this.ctx.push('casepat'); this.cmdPos = false; } return; }
    if (this.fnName) { this.fnName = false; this.cmdPos = true; return; }
    const t = this.top();
    if (lit && w === 'esac' && (t === 'casepat' || (t === 'casebody' && this.cmdPos))) { this.ctx.pop(); this.cmdPos = false; return; }
    if (t === 'casepat') return;
    if (this.cmdPos && lit) {
      if (KW_CMD.has(w)) return;
      if (KW_END.has(w)) { this.cmdPos = false; return; }
      if (w === 'case') { this.caseState = 1; this.cmdPos = false; return; }
      if (w === 'for' || w === 'select') { this.cmdPos = false; return; }
      if (w === 'function') { this.fnName = true; this.cmdPos = false; return; }
      if (w === '[[') { this.dbracket(); this.cmdPos = false; return; }
    }
    if (eligible && lit && !this.active.some((a) => a.name === w) && this.expansions < 1000) {
      const v = this.lookup(w);
      if (v !== undefined) {
        this.expansions++;
        this.buf = this.buf.slice(0, start) + v + this.buf.slice(this.i);
        const delta = v.length - (this.i - start);
        for (const a of this.active) a.end += delta;
        this.active.push({ name: w, end: start + v.length, blank: /[ \t]$/.test(v) });
        this.i = start;
        this.prevWord = prev;
        // read the value again in the same state: its first word is checked too
        if (!this.cmdPos) this.aliasNext = true;
        return;
      }
    }
    if (this.cmdPos && ASSIGN.test(w)) return;
    this.cmdPos = false;
  }

  /** Scans one word; returns whether it is unquoted literal text (an alias or keyword candidate). */
  private scanWord(): boolean {
    const b = this.buf;
    const start = this.i;
    let lit = true;
    while (this.i < b.length) {
      const c = b[this.i]!;
      if (META.includes(c)) {
        if (c === '(' && this.i > start) {
          const pre = b.slice(start, this.i);
          if ('@!*+?'.includes(b[this.i - 1]!) || ASSIGN.test(pre) && /=$/.test(pre)) { this.i++; this.balanced('(', ')'); lit = false; continue; }
        }
        if ((c === '<' || c === '>') && b[this.i + 1] === '(') { this.i += 2; this.subst(); lit = false; continue; }
        break;
      }
      if (c === '\\') { this.i += 2; lit = false; continue; }
      if (c === "'") { const e = b.indexOf("'", this.i + 1); this.i = e < 0 ? b.length : e + 1; lit = false; continue; }
      if (c === '"') { this.i++; this.dquote(); lit = false; continue; }
      if (c === '`') { this.backquote(); lit = false; continue; }
      if (c === '$') {
        lit = false;
        const n = b[this.i + 1];
        if (n === '(' && b[this.i + 2] === '(') { this.i += 3; this.arith(); continue; }
        if (n === '(') { this.i += 2; this.subst(); continue; }
        if (n === '{') { this.i += 2; this.balanced('{', '}'); continue; }
        if (n === "'") { this.i += 2; while (this.i < b.length && b[this.i] !== "'") this.i += b[this.i] === '\\' ? 2 : 1; this.i++; continue; }
        this.i++;
        continue;
      }
      this.i++;
    }
    if (this.i > b.length) this.i = b.length;
    return lit;
  }

  private dquote(): void {
    const b = this.buf;
    while (this.i < b.length && b[this.i] !== '"') {
      const c = b[this.i]!;
      if (c === '\\') this.i += 2;
      else if (c === '`') this.backquote();
      else if (c === '$' && b[this.i + 1] === '(') {
        if (b[this.i + 2] === '(') { this.i += 3; this.arith(); } else { this.i += 2; this.subst(); }
      } else if (c === '$' && b[this.i + 1] === '{') { this.i += 2; this.balanced('{', '}'); }
      else this.i++;
    }
    this.i++;
  }

  private backquote(): void {
    const b = this.buf;
    this.i++;
    while (this.i < b.length && b[this.i] !== '`') this.i += b[this.i] === '\\' ? 2 : 1;
    this.i++;
  }

  /** `${…}` after the `${`, or a balanced `( … )` in a word (extglob, array assignment) after the `(`. */
  private balanced(open: '{' | '(', close: '}' | ')'): void {
    const b = this.buf;
    let depth = 1;
    while (this.i < b.length) {
      const c = b[this.i]!;
      if (c === '\\') { this.i += 2; continue; }
      if (c === "'") { const e = b.indexOf("'", this.i + 1); this.i = e < 0 ? b.length : e + 1; continue; }
      if (c === '"') { this.i++; this.dquote(); continue; }
      if (c === '$' && b[this.i + 1] === '(') { if (b[this.i + 2] === '(') { this.i += 3; this.arith(); } else { this.i += 2; this.subst(); } continue; }
      if (c === open) depth++;
      else if (c === close && --depth === 0) { this.i++; return; }
      this.i++;
    }
  }

  /** Arithmetic after `((` / `$((`, through the closing `))`. */
  private arith(): void {
    const b = this.buf;
    let depth = 0;
    while (this.i < b.length) {
      const c = b[this.i]!;
      if (c === '\\') { this.i += 2; continue; }
      if (c === "'") { const e = b.indexOf("'", this.i + 1); this.i = e < 0 ? b.length : e + 1; continue; }
      if (c === '"') { this.i++; this.dquote(); continue; }
      if (c === '$' && b[this.i + 1] === '(' && b[this.i + 2] !== '(') { this.i += 2; this.subst(); continue; }
      if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0) { this.i += b[this.i + 1] === ')' ? 2 : 1; return; }
        depth--;
      }
      this.i++;
    }
  }

  /** `[[ … ]]` after the `[[`: plain words up to `]]`. */
  private dbracket(): void {
    const b = this.buf;
    while (this.i < b.length) {
      const c = b[this.i]!;
      if (c === ' ' || c === '\t' || c === '\n' || c === '(' || c === ')' || c === '<' || c === '>' || c === '&' || c === '|' || c === '!') { this.i++; continue; }
      const s = this.i;
      this.scanWord();
      if (this.i === s) { this.i++; continue; }
      if (b.slice(s, this.i) === ']]') return;
    }
  }

  /** The commands of `$( … )` / `<( … )` after the `(`, through the closing `)`. */
  private subst(): void {
    const saved = { ctx: this.ctx, cmdPos: this.cmdPos, aliasNext: this.aliasNext, caseState: this.caseState, fnName: this.fnName, prevWord: this.prevWord, heredocs: this.heredocs };
    this.ctx = []; this.cmdPos = true; this.aliasNext = false; this.caseState = 0; this.fnName = false; this.prevWord = ''; this.heredocs = [];
    try { this.list(true); } finally { Object.assign(this, saved); }
  }

  private redirect(): void {
    const b = this.buf;
    let op = '';
    for (const o of ['&>>', '&>', '<<<', '<<-', '<<', '<&', '<>', '<', '>>', '>&', '>|', '>']) if (b.startsWith(o, this.i)) { op = o; break; }
    this.i += op.length || 1;
    this.aliasNext = false;
    while (b[this.i] === ' ' || b[this.i] === '\t') this.i++;
    const s = this.i;
    this.scanWord();
    if (op === '<<' || op === '<<-') {
      const word = b.slice(s, this.i);
      this.heredocs.push({ delim: word.replace(/\\(.)|['"]/g, '$1'), strip: op === '<<-', quoted: /['"\\]/.test(word) });
    }
  }

  private readHeredocs(): void {
    const docs = this.heredocs;
    this.heredocs = [];
    for (const h of docs) {
      while (this.i < this.buf.length) {
        let e = this.buf.indexOf('\n', this.i);
        if (e < 0) e = this.buf.length;
        let line = this.buf.slice(this.i, e);
        if (h.strip) line = line.replace(/^\t+/, '');
        if (line === h.delim) { this.i = Math.min(e + 1, this.buf.length); break; }
        if (!h.quoted) {
          // command substitutions in an unquoted body are read (and alias-expanded) too
          while (this.i < e) {
            const c = this.buf[this.i];
            if (c === '\\') this.i += 2;
            else if (c === '$' && this.buf[this.i + 1] === '(' && this.buf[this.i + 2] !== '(') {
              this.i += 2; this.subst();
              e = this.buf.indexOf('\n', this.i);
              if (e < 0) e = this.buf.length;
            } else this.i++;
          }
        }
        this.i = Math.min(e + 1, this.buf.length);
      }
    }
  }
}
