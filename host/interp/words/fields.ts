// Field splitting: the FieldBuilder that collects an expanded word's text into fields (each with
// its value and the pattern pathname expansion sees), splitting unquoted expansion results at IFS
// characters. Apart from the Expander, which decides what is quoted and what is split.

/** One field under construction: the value, its pattern form, and whether it must be kept. */
interface Field { val: string; pat: string; keep: boolean; meta: boolean }

const PAT_META = /[*?[\]\\()|@+!{}]/g;
export function escPat(s: string): string {
  // (a regex scan: quoted text is mostly free of meta characters, and this runs on every quoted part)
  PAT_META.lastIndex = 0;
  return PAT_META.test(s) ? s.replace(PAT_META, '\\$&') : s;
}

/** A regex for the runs of characters that are not in IFS (cached: IFS rarely changes). */
let runsIfs = '', runsRe = /[^ \t\n]+/g;
export function nonIfsRuns(ifs: string): RegExp {
  if (ifs !== runsIfs) {
    runsIfs = ifs;
    runsRe = new RegExp(`[^${ifs.replace(/[\\\]^-]/g, '\\$&')}]+`, 'g');
  }
  return runsRe;
}
const isIfsWs = (c: string): boolean => c === ' ' || c === '\t' || c === '\n';
export const IFS_WS = /^[ \t\n]+$/;

/** Unquoted expansion text in a ${x/p/r} replacement: `\\` and `\&` quote, other backslashes are literal. */
function repEsc(s: string): string {
  return s.includes('\\') ? s.replace(/\\([\\&])|\\/g, (m: string, c?: string) => (c ? m : '\\\\')) : s;
}

export class FieldBuilder {
  fields: Field[] = [];
  cur: Field = { val: '', pat: '', keep: false, meta: false };
  afterWsDelim = false;
  /** The replacement of ${x/p/r}: in unquoted expansions only `\\` and `\&` are escapes (see repEsc). */
  bsLit = false;
  /** `flat`: a word expanded without splitting (assignment, redirection, `[[ ]]`…): lists join into one string. */
  constructor(readonly ifs: string, readonly flat = false) {}
  /** Quoted text, or unquoted literal text (which can carry glob meta characters). */
  addQuoted(s: string): void { this.cur.val += s; this.cur.pat += this.bsLit && s.includes('&') ? escPat(s).replace(/&/g, '\\&') : escPat(s); this.cur.keep = true; this.afterWsDelim = false; }
  addLiteral(val: string, pat: string): void {
    this.cur.val += val; this.cur.pat += pat;
    if (val !== '' || pat !== '') { this.cur.keep = true; this.afterWsDelim = false; }
    this.cur.meta = true;
  }
  markKeep(): void { this.cur.keep = true; }
  /** Unquoted expansion result: subject to splitting and globbing. */
  addSplit(s: string, split: boolean): void {
    if (!split || this.ifs === '') {
      // (a backslash in an unquoted expansion quotes the next character in a pattern, as in bash 5.2)
      if (s !== '') { this.cur.val += s; this.cur.pat += this.bsLit ? repEsc(s) : s; this.cur.keep = true; this.cur.meta = true; this.afterWsDelim = false; }
      return;
    }
    // (runs of non-IFS characters found by a regex: a char-by-char loop is slow until V8 optimizes it)
    const re = nonIfsRuns(this.ifs);
    re.lastIndex = 0;
    for (let at = 0; ;) {
      const m = re.exec(s);
      const end = m ? m.index : s.length;
      for (let i = at; i < end; i++) this.separator(s[i]!);
      if (!m) break;
      const run = m[0];
      at = end + run.length;
      this.cur.val += run; this.cur.pat += this.bsLit ? repEsc(run) : run; this.cur.keep = true; this.cur.meta = true;
      this.afterWsDelim = false;
    }
  }
  /** One IFS character in an unquoted expansion: whitespace ends a nonempty field, other separators end any field. */
  private separator(c: string): void {
    if (isIfsWs(c)) {
      if (this.cur.keep) { this.push(); this.afterWsDelim = true; }
    } else if (this.afterWsDelim && !this.cur.keep) {
      this.afterWsDelim = false;
    } else {
      this.push(true);
      this.afterWsDelim = false;
    }
  }
  push(force = false): void {
    if (this.cur.keep || force) this.fields.push(this.cur);
    this.cur = { val: '', pat: '', keep: false, meta: false };
  }
  /** Forces a field break (between "$@" elements). */
  breakField(): void { this.fields.push(this.cur); this.cur = { val: '', pat: '', keep: true, meta: false }; }
  finish(): Field[] { if (this.cur.keep) this.fields.push(this.cur); return this.fields; }
}

/** A FieldBuilder whose pattern escapes every quoted (ASCII) character, as bash's quote_string_for_globbing. */
export class ShownFieldBuilder extends FieldBuilder {
  override addQuoted(s: string): void {
    this.cur.val += s; this.cur.pat += s.replace(/[\x00-\x7f]/g, '\\$&'); this.cur.keep = true; this.afterWsDelim = false;
  }
}
