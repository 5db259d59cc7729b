// The history list of a shell with `set -o history`, and csh-style history expansion (`set -H`):
// what bash's bashhist.c and readline's history library do for a non-interactive shell. Lines
// are recorded as they are read (history-reader.ts); `history` and `fc` (history-builtins.ts)
// list and change the list. Everything here is on the shell's byte strings.
import { matchPattern, splitIgnore } from '../words/pattern.ts';

export interface HistEntry { line: string; time: number }

/** The expansion's outcome: 0 unchanged, 1 expanded, 2 `:p` (print, do not run), -1 error (`text` is the message). */
export interface Expansion { status: 0 | 1 | 2 | -1; text: string }

/** What the history depends on in the shell: its variables and options. */
export interface HistoryEnv {
  getVar(name: string): string | undefined;
  extglob: boolean;
  posix: boolean;
}

export class HistoryList {
  entries: HistEntry[] = [];
  /**
   * bash's remember_on_history: lines are recorded. Only `set -o history` while the shell runs
   * turns it on; the option given at invocation shows as on but records nothing (non-interactive bash).
   */
  recording = false;
  /** readline's history_base: the number of entries[0] (grows as HISTSIZE drops old ones). */
  base = 1;
  /** bash's history_lines_this_session: entries added since the last `history -a` or `-c` (what `-a` appends). */
  thisSession = 0;
  /** bash's hist_last_line_added: the line being run was added as a new entry; hist_last_line_pushed: by `history -s`. */
  lastLineAdded = false;
  lastLinePushed = false;
  /** Lines `history -r`/`-n` read from the file (where `-n` goes on). */
  linesInFile = 0;
  /** Lines read of the command being read, whether its first one was saved, where a comment ended one. */
  lineCount = 0;
  firstLineSaved = false;
  // expansion state kept between lines, as readline does
  searchString: string | undefined;
  searchMatch: string | undefined;
  substLhs: string | undefined;
  substRhs = '';

  clone(): HistoryList {
    const h = new HistoryList();
    Object.assign(h, this);
    // (entries are never changed in place, so a subshell's copy shares them)
    h.entries = this.entries.slice();
    return h;
  }

  get length(): number { return this.entries.length; }

  /** readline's history_get: the entry numbered n. */
  get(n: number): HistEntry | undefined { return this.entries[n - this.base]; }

  /** HISTSIZE as a limit: a number ≥ 0, else none. */
  private static max(env: HistoryEnv): number | undefined {
    const v = env.getVar('HISTSIZE');
    return v !== undefined && /^\s*\d+\s*$/.test(v) ? Number(v) : undefined;
  }

  /** Applies HISTSIZE to a longer list (readline's stifle_history, which sets history_base to the number dropped). */
  stifle(env: HistoryEnv): void {
    const max = HistoryList.max(env);
    if (max === undefined) return;
    const drop = this.entries.length - max;
    if (drop <= 0) return;
    this.entries.splice(0, drop);
    this.base = drop;
  }

  /** really_add_history (readline's add_history: a full stifled list drops its oldest entry first). */
  push(line: string, env: HistoryEnv): void {
    this.stifle(env);
    const max = HistoryList.max(env);
    if (max === 0) return;
    this.lastLineAdded = true;
    this.lastLinePushed = false;
    this.thisSession++;
    if (max !== undefined && this.entries.length >= max) { this.entries.shift(); this.base++; }
    // (bash keeps no time for an entry added while HISTTIMEFORMAT is unset: `history` shows `??`)
    this.entries.push({ line, time: env.getVar('HISTTIMEFORMAT') !== undefined ? Math.floor(Date.now() / 1000) : 0 });
  }

  /** An entry read from a history file (`history -r`/`-n`): added as add_history does, not counted for `-a`. */
  pushRead(line: string, time: number, env: HistoryEnv): void {
    const max = HistoryList.max(env);
    if (max === 0) return;
    if (max !== undefined && this.entries.length >= max) { this.entries.shift(); this.base++; }
    this.entries.push({ line, time });
  }

  /** Removes entries from..from+count-1 (bash_delete_histent). */
  remove(from: number, count = 1): void {
    const gone = this.entries.splice(from, count).length;
    this.thisSession -= gone;
  }

  /** check_add_history: HISTCONTROL and HISTIGNORE decide; erasedups removes the older copies. Returns whether it was saved. */
  checkAdd(line: string, env: HistoryEnv): boolean {
    const ctl = (env.getVar('HISTCONTROL') ?? '').split(':');
    const ignSpace = ctl.includes('ignorespace') || ctl.includes('ignoreboth');
    const ignDups = ctl.includes('ignoredups') || ctl.includes('ignoreboth');
    if (ignSpace && line.startsWith(' ')) return false;
    if (ignDups && this.entries.length && this.entries[this.entries.length - 1]!.line === line) return false;
    if (this.ignored(line, env)) return false;
    if (ctl.includes('erasedups')) this.entries = this.entries.filter((e) => e.line !== line);
    this.push(line, env);
    return true;
  }

  /** HISTIGNORE: colon-separated patterns matched against the whole line; `&` is the previous entry. */
  private ignored(line: string, env: HistoryEnv): boolean {
    const v = env.getVar('HISTIGNORE');
    if (!v) return false;
    const prev = this.entries[this.entries.length - 1]?.line;
    for (const p of splitIgnore(v)) {
      const pat = p.includes('&') ? p.replace(/(\\.)|&/g, (m, esc: string | undefined) => esc ?? (prev === undefined ? '&' : escapeGlob(prev))) : p;
      if (matchPattern(pat, line, { extglob: env.extglob })) return true;
    }
    return false;
  }

  /** bash_add_history: a new entry, or (a later line of a multi-line command) joined to the last one with `sep`. */
  addOrJoin(line: string, env: HistoryEnv, sep: string | undefined, quoted = false): void {
    if (sep !== undefined && this.lineCount > 1 && this.entries.length) {
      const cur = this.entries[this.entries.length - 1]!;
      let text = cur.line;
      // (an escaped newline outside quotes goes, as the parser removes it)
      if (!quoted && text.endsWith('\\') && !text.endsWith('\\\\')) { text = text.slice(0, -1); sep = ''; }
      if (!quoted && text.endsWith('\n') && sep.startsWith(';')) sep = sep.slice(1);
      // (a new entry object: clones share the entries, see clone)
      this.entries[this.entries.length - 1] = { ...cur, line: text + sep + line };
      return;
    }
    this.push(line, env);
  }
}

/** The closing quote of the single-quoted string opening at s[i] (in $'…' a backslash escapes one), or the end. */
function quoteEnd(s: string, i: number): number {
  const ansi = i > 0 && s[i - 1] === '$';
  let k = i + 1;
  for (; k < s.length && s[k] !== "'"; k++) if (ansi && s[k] === '\\' && k + 1 < s.length) k++;
  return k;
}

function escapeGlob(s: string): string { return s.replace(/[\\*?[\]()|@!+]/g, '\\$&'); }

// ---- history expansion ------------------------------------------------------------------------

const WORD_DELIMS = ' \t\n;&()|<>';
const NO_EXPAND = ' \t\n\r=';
const SEARCH_DELIMS = ';&()|<>';
const EVENT_DELIMS = '^$*%-';

/** The characters of `histchars`: expansion (`!`), quick substitution (`^`), comment (`#`); '' where it has none (empty: no expansion). */
export function histChars(env: HistoryEnv): { bang: string; quick: string; comment: string } {
  const v = env.getVar('histchars');
  if (v === undefined) return { bang: '!', quick: '^', comment: '#' };
  return { bang: v[0] ?? '', quick: v[1] ?? '', comment: v[2] ?? '' };
}

/** bash's skip_to_histexp: the first `bang` from `start` that the shell's quoting leaves alone (fresh quoting state), or the end. */
function skipToHistexp(s: string, start: number, bang: string, posix: boolean): number {
  let dq = false, bq = false, oldDq = false, comsub = 0;
  let i = start;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\\') { i += 2; continue; }
    if (bq && c === '`') { bq = false; dq = oldDq; i++; continue; }
    if (c === '`') { bq = true; oldDq = dq; dq = false; i++; continue; }
    if (dq && c === bang && s[i + 1] === '"') { i += 2; continue; }
    if (c === bang) return i;
    if (dq && c === "'") { i++; continue; }
    if (c === "'") { const e = s.indexOf("'", i + 1); i = e < 0 ? s.length : e + 1; continue; }
    if (!posix && c === '"') { dq = !dq; i++; continue; }
    if (c === '"') { let k = i + 1; for (; k < s.length && s[k] !== '"'; k++) if (s[k] === '\\') k++; i = k + 1; continue; }
    if ((c === '$' || c === '<' || c === '>') && s[i + 1] === '(' && s[i + 2] !== '(') {
      if (i + 2 >= s.length) return i + 2;
      i += 2; comsub++; oldDq = dq; dq = false; continue;
    }
    if (comsub && c === ')') { comsub--; dq = oldDq; i++; continue; }
    i++;
  }
  return i;
}

/** Whether the `bang` at `at` is one the shell's quoting leaves for expansion (the rest of bash_history_inhibit_expansion). */
function shellReaches(s: string, at: number, bang: string, quoting: string, posix: boolean): boolean {
  let si = 0;
  if (quoting === "'") {
    // (the quote that ends it, found as skip_to_delim does: not one inside double quotes)
    let q = 0;
    for (; q < s.length && s[q] !== "'"; q++) {
      if (s[q] === '\\') q++;
      else if (s[q] === '"') { q++; while (q < s.length && s[q] !== '"') { if (s[q] === '\\') q++; q++; } }
    }
    if (q >= s.length || q >= at) return false;
    si = q + 1;
  }
  // (each later search starts afresh, unquoted, just after the last `!` found, as bash's does)
  let t = skipToHistexp(s, si, bang, posix);
  if (t <= 0) return true;
  while (t < at) {
    t = skipToHistexp(s, t + 1, bang, posix);
    if (t <= 0) return true;
  }
  return t === at;
}

/** bash_history_inhibit_expansion: `[!…]`, `${!…}`, `$!`, extglob `!(…)`, and what quoting hides. */
function inhibited(s: string, i: number, env: HistoryEnv, bang: string, quoting: string): boolean {
  if (i > 0 && s[i - 1] === '[' && s.indexOf(']', i + 1) >= 0) return true;
  if (i > 1 && s[i - 1] === '{' && s[i - 2] === '$' && s.indexOf('}', i + 1) >= 0) return true;
  if (i > 1 && s[i - 1] === '$' && s[i] === '!') return true;
  if (env.extglob && i > 1 && s[i + 1] === '(' && s.indexOf(')', i + 2) >= 0) return true;
  return !shellReaches(s, i, bang, quoting, env.posix);
}

/**
 * history_expand on one input line. `quoting`: the quote a previous line left open (`'` turns
 * expansion off up to its end). `length` is the history length the events count from (the line
 * of a multi-line command refers to the entries before that command's).
 */
export function historyExpand(h: HistoryList, line: string, env: HistoryEnv, quoting = '', length = h.length): Expansion {
  const { bang, quick, comment } = histChars(env);
  if (bang === '') return { status: 0, text: line };
  let s = line;
  if (quick !== '' && s[0] === quick) s = bang + bang + ':s' + s;
  else {
    // (a first pass, on the line as read: nothing to expand leaves it alone)
    let dq = quoting === '"', i = 0, found = false;
    if (quoting === "'") { const q = s.indexOf("'"); i = q < 0 ? s.length : q + 1; }
    for (; i < s.length; i++) {
      const c = s[i]!, cc = s[i + 1];
      if (comment && c === comment && !dq && (i === 0 || WORD_DELIMS.includes(s[i - 1]!))) break;
      if (c === bang) {
        if (cc === undefined || NO_EXPAND.includes(cc) || (dq && cc === '"') || inhibited(s, i, env, bang, quoting)) continue;
        found = true; break;
      }
      if (dq && c === '\\' && cc === '"') i++;
      else if (c === '"') dq = !dq;
      else if (!dq && c === "'") i = quoteEnd(s, i);
      else if (c === '\\' && (cc === "'" || cc === bang)) i++;
    }
    if (!found) return { status: 0, text: line };
  }
  const saved = h.entries;
  if (length < h.entries.length) h.entries = h.entries.slice(0, length);
  try {
    // (nothing expanded: the line as read, but for bash's quirk that a `^a^b` line inside a
    // single-quoted string comes back as its `!!:s^a^b` form)
    const r = expandLine(h, s, env, bang, comment, quoting);
    return r.status === 0 && s === line ? { status: 0, text: line } : r;
  } finally {
    h.entries = saved;
  }
}

function expandLine(h: HistoryList, s: string, env: HistoryEnv, bang: string, comment: string, quoting: string): Expansion {
  let out = '', i = 0, dq = quoting === '"', modified = false, printOnly = false;
  if (quoting === "'") {
    const q = s.indexOf("'");
    const end = q < 0 ? s.length : q + 1;
    out = s.slice(0, end); i = end;
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\') { out += c + (s[i + 1] ?? ''); i++; continue; }
    if (c === '"') { dq = !dq; out += c; continue; }
    if (c === "'" && !dq) {
      // (single quotes hide it; in $'…' a backslash escapes a quote)
      const k = quoteEnd(s, i);
      out += s.slice(i, k + 1); i = k; continue;
    }
    if (comment && c === comment && !dq && (i === 0 || WORD_DELIMS.includes(s[i - 1]!))) { out += s.slice(i); break; }
    if (c !== bang) { out += c; continue; }
    const cc = s[i + 1];
    if (cc === undefined || NO_EXPAND.includes(cc) || (dq && cc === '"')) { out += c; continue; }
    // (bash checks what it has expanded so far with this `!` and the next character)
    const sofar = out + c + cc;
    if (inhibited(sofar, out.length, env, bang, quoting)) { out += c; continue; }
    const r = expandOne(h, s, i, dq ? '"' : '', out, env, bang, comment);
    if (r.status < 0) return { status: -1, text: r.text };
    modified = true;
    out += r.text;
    if (r.status === 2) printOnly = true;
    i = r.end;
  }
  return { status: printOnly ? 2 : modified ? 1 : 0, text: out };
}

/** history_expand_internal: one `!…` at s[start]; `end` is the index of its last character. */
function expandOne(h: HistoryList, s: string, start: number, qc: string, current: string, env: HistoryEnv, bang: string, comment: string): { status: number; text: string; end: number } {
  let i = start;
  let event: string | undefined;
  const err = (from: number, to: number, msg: string): { status: number; text: string; end: number } => ({ status: -1, text: `${s.slice(from, to)}: ${msg}`, end: to });
  if (':$*%^'.includes(s[i + 1]!)) { i++; event = h.entries[h.entries.length - 1]?.line; }
  else if (s[i + 1] === '#') { i += 2; event = current; }
  else {
    const r = getEvent(h, s, i, qc, bang, comment);
    i = r.end; event = r.line;
  }
  if (event === undefined) return err(start, i, 'event not found');
  let from = i;
  const ws = wordSpec(h, s, i, event, comment);
  i = ws.end;
  if (ws.bad) return err(from, i, 'bad word specifier');
  let text = ws.text ?? event;
  let quote: 'q' | 'x' | '' = '', print = false;
  from = i;
  while (s[i] === ':') {
    let c = s[i + 1];
    let global = false, byWords = false;
    if (c === 'g' || c === 'a') { global = true; i++; c = s[i + 1]; } else if (c === 'G') { byWords = true; i++; c = s[i + 1]; }
    switch (c) {
      case 'q': quote = 'q'; break;
      case 'x': quote = 'x'; break;
      case 'p': print = true; break;
      case 't': { const k = text.lastIndexOf('/'); if (k >= 0) text = text.slice(k + 1); break; }
      case 'h': { const k = text.lastIndexOf('/'); if (k >= 0) text = text.slice(0, k); break; }
      case 'r': { const k = text.lastIndexOf('.'); if (k >= 0) text = text.slice(0, k); break; }
      case 'e': { const k = text.lastIndexOf('.'); if (k >= 0) text = text.slice(k); break; }
      case 's': case '&': {
        if (c === 's') {
          if (i + 2 >= s.length) break; // (no delimiter: nothing to do)
          const delim = s[i + 2]!;
          i += 3;
          const lhs = substPattern(s, i, delim, false);
          i = lhs.end;
          if (lhs.text !== undefined) h.substLhs = lhs.text;
          else if (h.substLhs === undefined) h.substLhs = h.searchString || undefined;
          const rhs = substPattern(s, i, delim, true);
          i = rhs.end;
          h.substRhs = rhs.text ?? '';
          if (h.substRhs.includes('&')) h.substRhs = h.substRhs.replace(/\\&|&/g, (m) => (m === '&' ? h.substLhs ?? '' : '&'));
        } else i += 2;
        const lhs = h.substLhs ?? '';
        if (lhs === '') return err(from, i, 'no previous substitution');
        if (lhs.length > text.length) return err(from, i, 'substitution failed');
        const next = substitute(text, lhs, h.substRhs, global, byWords);
        if (next === undefined) return err(from, i, 'substitution failed');
        text = next;
        continue; // (i is past the substitution already)
      }
      default: return err(i + 1, i + 2, 'unrecognized history modifier');
    }
    i += 2;
  }
  if (quote === 'q') text = "'" + text.replace(/'/g, "'\\''") + "'";
  else if (quote === 'x') text = quoteBreaks(text);
  return { status: print ? 2 : 1, text, end: i - 1 };
}

/** get_history_event: the line an event names (`!!`, `!n`, `!-n`, `!str`, `!?str?`), and the index after it. */
function getEvent(h: HistoryList, s: string, start: number, qc: string, bang: string, comment: string): { line?: string; end: number } {
  let i = start + 1;
  const len = h.entries.length;
  if (s[i] === bang) return { line: h.entries[len - 1]?.line, end: i + 1 };
  let sign = 1;
  if (s[i] === '-' && /\d/.test(s[i + 1] ?? '')) { sign = -1; i++; }
  if (/\d/.test(s[i] ?? '')) {
    let n = 0;
    for (; /\d/.test(s[i] ?? ''); i++) n = n * 10 + Number(s[i]);
    const which = sign < 0 ? len + h.base - n : n;
    return { line: h.get(which)?.line, end: i };
  }
  let substring = false;
  if (s[i] === '?') { substring = true; i++; }
  const from = i;
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\n' || (substring && c === '?')) break;
    if (!substring && (c === ' ' || c === '\t' || c === ':' || (i > from && c === '-') || (c !== '-' && EVENT_DELIMS.includes(c)) || SEARCH_DELIMS.includes(c) || (qc !== '' && c === qc))) break;
  }
  let pat = s.slice(from, i);
  if (substring && s[i] === '?') i++;
  if (pat === '' && substring) {
    if (h.searchString === undefined) return { end: i };
    pat = h.searchString;
  }
  for (let k = len - 1; k >= 0; k--) {
    const line = h.entries[k]!.line;
    if (substring) {
      // (readline searches a line backwards too: the last occurrence is the match, for `!%`)
      const at = line.lastIndexOf(pat);
      if (at < 0) continue;
      h.searchString = pat;
      h.searchMatch = wordAt(line, at, comment);
      return { line, end: i };
    }
    if (line.startsWith(pat)) return { line, end: i };
  }
  return { end: i };
}

/** get_history_word_specifier: the words a designator picks (`undefined` text: none given). */
function wordSpec(h: HistoryList, s: string, start: number, from: string, comment: string): { text?: string; end: number; bad?: boolean } {
  let i = start, colon = false;
  if (s[i] === ':') { i++; colon = true; }
  if (s[i] === '%') return { text: h.searchMatch ?? '', end: i + 1 };
  if (s[i] === '*') return { text: argExtract(1, DOLLAR, from, comment) ?? '', end: i + 1 };
  if (s[i] === '$') return { text: argExtract(DOLLAR, DOLLAR, from, comment), end: i + 1 };
  let first: number;
  let last: number;
  if (s[i] === '-') first = 0;
  else if (s[i] === '^') { first = 1; i++; }
  else if (/\d/.test(s[i] ?? '') && colon) { first = 0; for (; /\d/.test(s[i] ?? ''); i++) first = first * 10 + Number(s[i]); }
  else return { end: start }; // (no designator: a `:` here starts a modifier)
  if (s[i] === '^' || s[i] === '*') { last = s[i] === '^' ? 1 : DOLLAR; i++; }
  else if (s[i] !== '-') last = first;
  else {
    i++;
    if (/\d/.test(s[i] ?? '')) { last = 0; for (; /\d/.test(s[i] ?? ''); i++) last = last * 10 + Number(s[i]); }
    else if (s[i] === '$') { i++; last = DOLLAR; }
    else if (s[i] === '^') { i++; last = 1; }
    else last = -1; // (`x-`: up to the word before the last)
  }
  const t = last === DOLLAR || last < 0 || last >= first ? argExtract(first, last, from, comment) : undefined;
  return t === undefined ? { end: i, bad: true } : { text: t, end: i };
}

/** The last word, in a word designator. */
const DOLLAR = -1000;

/** history_arg_extract: words first..last of a line, DOLLAR the last, a negative last counting from the end. */
function argExtract(first: number, last: number, line: string, comment: string): string | undefined {
  const words = histTokenize(line, comment);
  const n = words.length;
  let f = first === DOLLAR ? n - 1 : first, l = last === DOLLAR ? n - 1 : last < 0 ? n + last - 1 : last;
  if (f < 0) f = n + f - 1;
  l++;
  if (f >= n || l > n || f < 0 || l < 0 || f > l) return undefined;
  return words.slice(f, l).join(' ');
}

/** history_tokenize's words of `line` as [start, end) spans, up to a word starting with `comment`. */
function* wordSpans(line: string, comment: string): Generator<[number, number]> {
  let i = 0;
  while (i < line.length) {
    while (i < line.length && (line[i] === ' ' || line[i] === '\t' || line[i] === '\n')) i++;
    if (i >= line.length || (comment !== '' && line[i] === comment)) break;
    const start = i;
    i = tokenEnd(line, start);
    if (i === start) { i++; while (i < line.length && WORD_DELIMS.includes(line[i]!)) i++; }
    yield [start, i];
  }
}

/** history_tokenize: the line split into words where the shell would split it, up to a word starting with `comment`. */
export function histTokenize(line: string, comment = '#'): string[] {
  return [...wordSpans(line, comment)].map(([a, b]) => line.slice(a, b));
}

/** The word of `line` containing index `at` (for `!%`). */
function wordAt(line: string, at: number, comment: string): string | undefined {
  for (const [a, b] of wordSpans(line, comment)) if (at >= a && at < b) return line.slice(a, b);
  return undefined;
}

/** history_tokenize_word: where the word starting at `start` ends. */
function tokenEnd(s: string, start: number): number {
  let i = start;
  let delim = '', nest = 0;
  if ('()\n'.includes(s[i]!)) return i + 1;
  if (/\d/.test(s[i]!)) {
    let j = i;
    while (j < s.length && /\d/.test(s[j]!)) j++;
    if (j >= s.length) return j;
    i = j;
    if (s[j] !== '<' && s[j] !== '>') return wordBody(s, i, '', 0);
  }
  if ('<>;&|'.includes(s[i]!)) {
    const c = s[i]!, peek = s[i + 1];
    if (peek === c) {
      if (peek === '<' && (s[i + 2] === '-' || s[i + 2] === '<')) i++;
      return i + 2;
    }
    if (peek === '&' && (c === '>' || c === '<')) {
      let j = i + 2;
      while (j < s.length && /\d/.test(s[j]!)) j++;
      if (s[j] === '-') j++;
      return j;
    }
    if ((peek === '>' && c === '&') || (peek === '|' && c === '>')) return i + 2;
    if (peek === '(' && (c === '>' || c === '<')) { delim = ')'; nest = 1; return wordBody(s, i + 2, delim, nest); }
    return i + 1;
  }
  return wordBody(s, i, delim, nest);
}

function wordBody(s: string, i: number, delim: string, nest: number): number {
  if (delim === '' && '\'"`'.includes(s[i] ?? '\0')) delim = s[i++]!;
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\' && s[i + 1] === '\n') { i++; continue; }
    if (c === '\\' && delim !== "'" && (delim !== '"' || '\\`"$'.includes(s[i + 1] ?? ''))) { i++; continue; }
    if (nest && c === '(') { nest++; continue; }
    if (nest && c === delim) { nest--; if (nest === 0) delim = ''; continue; }
    if (delim && c === delim) { delim = ''; continue; }
    if (!nest && !delim && '<>$!@?+*'.includes(c) && s[i + 1] === '(') { i++; delim = ')'; nest = 1; continue; }
    if (!delim && WORD_DELIMS.includes(c)) break;
    if (!delim && '\'"`'.includes(c)) delim = c;
  }
  return i;
}

/** get_subst_pattern: text up to `delim` (a backslash quotes it); undefined for an empty lhs. */
function substPattern(s: string, i: number, delim: string, rhs: boolean): { text?: string; end: number } {
  let k = i, text = '';
  for (; k < s.length && s[k] !== delim; k++) {
    if (s[k] === '\\' && s[k + 1] === delim) k++;
    text += s[k];
  }
  const end = k < s.length ? k + 1 : k;
  return k > i || rhs ? { text, end } : { end };
}

/** The `:s`/`:gs`/`:Gs` substitution; undefined when the pattern does not occur. */
function substitute(text: string, lhs: string, rhs: string, global: boolean, byWords: boolean): string | undefined {
  let failed = true, wordEnd = 0;
  for (let si = 0; si + lhs.length <= text.length; si++) {
    if (byWords && si > wordEnd) {
      while (si < text.length && (text[si] === ' ' || text[si] === '\t' || text[si] === '\n')) si++;
      wordEnd = tokenEnd(text, si);
    }
    if (text.startsWith(lhs, si)) {
      text = text.slice(0, si) + rhs + text.slice(si + lhs.length);
      failed = false;
      if (global) { si += rhs.length - 1; continue; }
      if (byWords) { si = wordEnd; continue; }
      break;
    }
  }
  return failed ? undefined : text;
}

/** `:x`: quoted like `:q`, but a blank or newline breaks the quoting, so each word is its own. */
function quoteBreaks(s: string): string {
  let r = "'";
  for (const c of s) {
    if (c === "'") r += "'\\''";
    else if (c === ' ' || c === '\t' || c === '\n') r += "'" + c + "'";
    else r += c;
  }
  return r + "'";
}
