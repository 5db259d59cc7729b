// Reading a script once `set -o history` is on: bash reads its input one physical line at a
// time, history-expands each (`set -H`), prints an expanded line to stderr, records it (a later
// line of a multi-line command joins the first one's entry, `cmdhist`), and parses and runs each
// complete command before it reads the next line. A line whose expansion fails (`event not
// found`) or ends in `:p` is dropped as if it had not been there: later line numbers count one less.
import type { Shell } from './runner.ts';
import type { DeferredParseError } from '../syntax/reparse.ts';
import { parseScript } from '../syntax/reparse.ts';
import { DiscardSignal } from './errors.ts';
import { AliasReader } from '../syntax/alias.ts';
import { historyExpand, type HistoryEnv, type HistoryList } from '../syntax/history.ts';

export function historyEnv(sh: Shell): HistoryEnv {
  return { getVar: (n) => sh.vars.get(n), extglob: sh.shopt.has('extglob'), posix: sh.posix };
}

/** Where a command's text stands after its lines so far (a rough version of bash's parser state). */
interface TextState {
  /** The innermost quote or substitution left open (`'`, `"`, `` ` ``, `(` for `$(`, `{` for `${`), '' if none. */
  open: string;
  /** Here-document bodies still to read, and whether the next line is a body's first. */
  heredocs: Array<{ delim: string; strip: boolean }>;
  inHeredoc: boolean;
  /** The last two tokens before the last newline ('\n' for an empty line). */
  last: string;
  prev: string;
  caseDepth: number;
  /** Inside `name=(…)` (bash's PST_COMPASSIGN: lines join with a blank). */
  compound: number;
  /** The line that ended last had a comment. */
  comment: boolean;
}

const OPS = [';;&', ';;', ';&', '&&', '||', '|&', '<<-', '<<<', '<<', '>>', '<&', '>&', '<>', '>|', '&>>', '&>', ';', '&', '|', '(', ')', '<', '>'];
const CMD_START = new Set([';', '&', '|', '&&', '||', '|&', '(', '\n', 'do', 'then', 'else', 'elif', 'if', 'while', 'until', '{', '!', ';;', ';&', ';;&', '']);
const KEYWORDS = new Set(['do', 'else', 'if', 'then', 'until', 'while', 'case', 'in', '{', 'for', 'function', 'esac', 'elif', 'fi', 'done', '}']);

/** Scans a command's text line by line (for how bash joins its lines into one history entry). */
export class LineJoiner {
  st: TextState = { open: '', heredocs: [], inHeredoc: false, last: '\n', prev: '\n', caseDepth: 0, compound: 0, comment: false };
  private toks: string[] = [];
  private first = true;

  /** The quote an unfinished line leaves open, for history expansion (bash's history_quoting_state). */
  get quoting(): string { return this.st.open === "'" || this.st.open === '"' ? this.st.open : ''; }

  /**
   * The text to put between the entry so far and `line` (bash's history_delimiting_chars), and
   * whether the line is saved at all; then takes the line in.
   */
  next(line: string, literal: boolean): { sep: string; add: boolean; text: string; hdcs: string; quoted: boolean } {
    const s = this.st;
    let sep: string, add = true, text = line;
    const comment = isComment(line, s);
    // (what history_delimiting_chars says; an empty line is kept when it starts with `;`)
    const hdcs = this.first || s.inHeredoc ? '' : s.open ? '\n' : this.delimiting(line);
    const quoted = s.open !== '';
    if (this.first) sep = '';
    else if (s.inHeredoc) { sep = s.heredocs.length && this.heredocFirst ? '\n' : ''; text = line + '\n'; }
    else if (s.comment) sep = '\n';
    else if (literal) sep = '\n';
    else sep = hdcs;
    // (a comment line inside a command is left out, as it would comment out what follows it)
    if (!this.first && !s.inHeredoc && !s.open && !literal && comment === 1) add = false;
    this.first = false;
    this.feed(line);
    s.comment = comment !== 0 && !s.inHeredoc;
    return { sep, add, text, hdcs, quoted };
  }

  private heredocFirst = false;

  private delimiting(line: string): string {
    const s = this.st;
    const before = s.last, two = s.prev;
    if (s.compound > 0) return ' ';
    if (before === ')') return two === '(' || s.caseDepth > 0 ? ' ' : '; ';
    if (two === 'function' && !KEYWORDS.has(before) && !OPS.includes(before)) return ' ';
    if (line.includes('<<')) return '\n';
    if (two === 'for' && !OPS.includes(before)) return /^\s*in\b/.test(line) ? ' ' : ';';
    if (two === 'case' && s.caseDepth > 0) return ' ';
    if (['\n', '{', '(', ')', ';', '&', '|', 'case', 'do', 'else', 'if', ';;', ';&', ';;&', 'then', 'until', 'while', '&&', '||', 'in'].includes(before)) return ' ';
    if (line.trim() === '') return before !== '\n' ? '; ' : '';
    return '; ';
  }

  /** Takes in one line: quotes, substitutions, tokens, here-documents. */
  private feed(line: string): void {
    const s = this.st;
    if (s.inHeredoc) {
      const h = s.heredocs[0]!;
      this.heredocFirst = false;
      if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim) { s.heredocs.shift(); if (!s.heredocs.length) s.inHeredoc = false; }
      return;
    }
    const lineToks: string[] = [];
    let i = 0;
    const stack = s.open ? s.open.split('') : [];
    let word = stack.length ? 'x' : '';
    const endWord = (): void => { if (word !== '') { lineToks.push(word); word = ''; } };
    while (i < line.length) {
      const c = line[i]!;
      const top = stack[stack.length - 1];
      if (top === "'") { if (c === "'") stack.pop(); i++; continue; }
      if (c === '\\') { word += line.slice(i, i + 2); i += 2; continue; }
      if (top === '"' || top === '`') {
        if (c === top) stack.pop();
        else if (c === '$' && line[i + 1] === '(') { stack.push('('); i++; } else if (c === '$' && line[i + 1] === '{') { stack.push('{'); i++; } else if (c === '`') stack.push('`');
        i++; continue;
      }
      if (top === '{') { if (c === '}') stack.pop(); else if (c === "'" || c === '"') stack.push(c); i++; continue; }
      if (top === '(') {
        if (c === ')') stack.pop(); else if (c === '(') stack.push('('); else if (c === "'" || c === '"' || c === '`') stack.push(c);
        i++; continue;
      }
      if (c === "'" || c === '"' || c === '`') { stack.push(c); word += c; i++; continue; }
      if (c === '$' && (line[i + 1] === '(' || line[i + 1] === '{')) { stack.push(line[i + 1] === '(' ? '(' : '{'); word += '$'; i += 2; continue; }
      if (c === ' ' || c === '\t') { endWord(); i++; continue; }
      if (c === '#' && word === '') break;
      if (c === '(' && line[i + 1] === '(' && word === '') {
        // (`(( … ))` is one token for the parser)
        let depth = 0, k = i;
        for (; k < line.length; k++) { if (line[k] === '(') depth++; else if (line[k] === ')' && --depth === 0) break; }
        if (k < line.length) { lineToks.push('((…))'); i = k + 1; continue; }
      }
      const op = OPS.find((o) => line.startsWith(o, i));
      if (op) {
        // (`name=(…)` is one word for the parser, however many lines it takes)
        if ((op === '(' && word.endsWith('=')) || (op === ')' && s.compound > 0)) { s.compound += op === '(' ? 1 : -1; word = word === '' ? '=()' : word + op; i++; continue; }
        endWord();
        lineToks.push(op);
        i += op.length;
        if (op === '<<' || op === '<<-') {
          while (line[i] === ' ' || line[i] === '\t') i++;
          let j = i;
          while (j < line.length && !' \t;&|<>()'.includes(line[j]!)) j++;
          const raw = line.slice(i, j);
          s.heredocs.push({ delim: raw.replace(/["'\\]/g, ''), strip: op === '<<-' });
          i = j;
        }
        continue;
      }
      word += c; i++;
    }
    if (!stack.length) endWord();
    s.open = stack.join('');
    if (s.open) return;
    for (let k = 0; k < lineToks.length; k++) {
      const t = lineToks[k]!;
      const prevTok = k > 0 ? lineToks[k - 1]! : this.toks[this.toks.length - 1] ?? '';
      if (t === 'case' && CMD_START.has(prevTok)) s.caseDepth++;
      if (t === 'esac') s.caseDepth = Math.max(0, s.caseDepth - 1);
    }
    if (lineToks.length === 0) { s.prev = s.last; s.last = '\n'; } else {
      s.last = lineToks[lineToks.length - 1]!;
      s.prev = lineToks.length > 1 ? lineToks[lineToks.length - 2]! : s.last === '\n' ? '\n' : this.toks[this.toks.length - 1] ?? '\n';
    }
    this.toks.push(...lineToks, '\n');
    if (s.heredocs.length) { s.inHeredoc = true; this.heredocFirst = true; }
  }
}

/** bash's shell_comment: 1 a comment line, 2 a line with an unquoted `#` after something, 0 none. */
function isComment(line: string, s: TextState): number {
  if (s.open || s.inHeredoc) return 0;
  if (/^[ \t]*#/.test(line)) return 1;
  let q = '';
  const nest: string[] = []; // (closers of `${`, `$(`: a `#` inside is no comment)
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (q) { if (c === q) q = ''; else if (c === '\\' && q === '"') i++; continue; }
    if (c === '\\') { i++; continue; }
    if (c === "'" || c === '"' || c === '`') { q = c; continue; }
    if (c === '$' && (line[i + 1] === '{' || line[i + 1] === '(')) { nest.push(line[i + 1] === '{' ? '}' : ')'); i++; continue; }
    if (nest.length && c === nest[nest.length - 1]) { nest.pop(); continue; }
    // (bash's skip_to_delim finds any unquoted `#`, inside a word too: `a#b` counts)
    if (c === '#' && !nest.length) return 2;
  }
  return 0;
}

/** Records a line read (bash's maybe_add_history / bash_add_history). */
function record(sh: Shell, h: HistoryList, j: { sep: string; add: boolean; text: string; quoted: boolean }, env: HistoryEnv): void {
  h.lastLineAdded = false;
  if (h.lineCount > 1) {
    // (a later line: kept only if the first was, joined to it with cmdhist, else its own entry; HISTCONTROL is not asked)
    if (h.firstLineSaved && j.add) { if (sh.shopt.has('cmdhist')) h.addOrJoin(j.text, env, j.sep, j.quoted); else h.push(j.text, env); }
    return;
  }
  h.firstLineSaved = h.checkAdd(j.text, env);
}

/**
 * Runs the current source from `start` reading it the way bash does with history on (see the
 * file comment); aliases are expanded on each complete command's text. Ends like Shell.runAliased.
 */
export async function runHistoryLines(sh: Shell, start: number, st: number, deferred: { error?: DeferredParseError; hdocWarning?: { fromLine: number; text: string } } | undefined, scriptFile: boolean): Promise<number> {
  const orig = sh.source;
  const src = orig.src;
  let pos = start;
  let line = sh.lineOf(start) - (orig.base ?? 0);
  let dropped = 0;
  if (deferred) deferred.error = undefined;
  const h = sh.history;
  try {
    while (pos < src.length) {
      let text = '';
      let parsed: ReturnType<typeof parseScript> | undefined;
      const joiner = new LineJoiner();
      h.lineCount = 0;
      let firstLine = 0, physFirst = 0;
      while (pos < src.length) {
        const nl = src.indexOf('\n', pos);
        let ln = src.slice(pos, nl < 0 ? src.length : nl);
        pos = nl < 0 ? src.length : nl + 1;
        const at = line++;
        const on = sh.history.recording;
        if (on && ln !== '') {
          h.lineCount++;
          // (a here-document's body is recorded but not expanded)
          if (sh.setOpts.get('histexpand') === true && !joiner.st.inHeredoc) {
            const env = historyEnv(sh);
            const cont = h.lineCount > 1 && h.firstLineSaved && sh.shopt.has('cmdhist');
            const r = historyExpand(h, ln, env, joiner.quoting, cont ? Math.max(0, h.length - 1) : h.length);
            if (r.status === -1) {
              await sh.writeFd(2, `${sh.errSourceName()}: line ${at - dropped}: ${r.text}\n`).catch(() => undefined);
            } else if (r.status !== 0) await sh.writeFd(2, r.text + '\n').catch(() => undefined);
            if (r.status === 2) record(sh, h, joiner.next(r.text, sh.shopt.has('lithist')), env);
            if (r.status === -1 || r.status === 2) { h.lineCount--; dropped++; continue; }
            ln = r.text;
          }
          record(sh, h, joiner.next(ln, sh.shopt.has('lithist')), historyEnv(sh));
        } else {
          if (on && h.lineCount > 0) {
            // (an empty line inside a command: kept in a here-document or quoted string, or where bash would add `;`)
            h.lineCount++;
            const keep = joiner.st.inHeredoc || joiner.st.open !== '';
            const j = joiner.next('', sh.shopt.has('lithist'));
            if (keep || j.hdcs.startsWith(';')) record(sh, h, { ...j, add: true }, historyEnv(sh));
          } else joiner.next(ln, false);
        }
        // (set -v: bash echoes the line as expanded, and not a dropped one)
        if (sh.opts.verbose) await sh.writeFd(2, ln + '\n').catch(() => undefined);
        if (text === '') { firstLine = at - dropped; physFirst = at; }
        text += ln + (nl < 0 ? '' : '\n');
        // (a here-document still to read, or an escaped newline, continue the command whatever the parser says)
        if (pos < src.length && (joiner.st.inHeredoc || (joiner.st.open !== "'" && /(^|[^\\])(\\\\)*\\\n$/.test(text)))) continue;
        parsed = parseScript(aliased(sh, text), sh.posix);
        if (!parsed.error || !parsed.error.err.incomplete) break;
      }
      if (!parsed || text === '') break;
      // (the command's text alone, its lines counted from where it starts: no padding to re-parse each time)
      sh.setSource(parsed.src, orig.name);
      sh.source.base = (orig.base ?? 0) + firstLine - 1;
      if (parsed.error) parsed.error.line += firstLine - 1;
      // (a here-document that runs to the end of the script: bash warns as it reads it; the
      // script's parse found it and closed it in the source)
      const w = deferred?.hdocWarning;
      if (w && physFirst >= w.fromLine) { await sh.writeFd(2, w.text).catch(() => undefined); deferred!.hdocWarning = undefined; }
      const list = parsed.file.Stmts;
      for (let i = 0; i < list.length; i++) {
        try {
          st = await sh.stmt(list[i]!);
        } catch (e) {
          if (!(e instanceof DiscardSignal) || (e.hard && !scriptFile)) throw e;
          st = sh.status = e.status;
          break;
        }
      }
      if (parsed.error) {
        if (deferred) deferred.error = parsed.error;
        return st;
      }
    }
  } finally {
    sh.source = orig;
  }
  return st;
}

/** A complete command's text with its aliases expanded (when there are any to expand). */
function aliased(sh: Shell, text: string): string {
  if (!sh.aliases.size || !sh.shopt.has('expand_aliases')) return text;
  const rd = new AliasReader(text, 0, (n) => sh.aliases.get(n));
  let out = '';
  rd.reset();
  for (let l = rd.nextLine(); l !== null; l = rd.nextLine()) out += l;
  return out;
}
