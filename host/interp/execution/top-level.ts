// Reading a script, a -c string, a sourced file or an eval string as bash reads it: one top-level
// line at a time (an error abandons the rest of its line only), `set -v` echoing the lines read,
// re-reading with aliases expanded once aliases exist, bash's deferred syntax errors, the EXIT
// trap and the wait for jobs at the end of a script. Apart from the statements it runs: this is
// about lines of source text, statements.ts about what each statement does.
import type { Shell } from './runner.ts';
import type { File, ExtGlob, Stmt } from '../syntax/ast.ts';
import { DiscardSignal } from './errors.ts';
import { drainHeld } from './io.ts';
import { ParseError } from '../syntax/parser.ts';
import { parseScript, type DeferredParseError } from '../syntax/reparse.ts';
import { AliasReader } from '../syntax/alias.ts';
import { runHistoryLines } from './history-reader.ts';
import { runExitTrap, runPendingTraps } from './traps.ts';
import { handleTopError } from './subshells.ts';

export async function runFile(sh: Shell, f: File, syntaxErr?: DeferredParseError, warning?: { line: number; at: number; message: string }): Promise<number> {
  let st = 0;
  sh.historySource = sh.source;
  try {
    const deferred: { error?: DeferredParseError; hdocWarning?: { fromLine: number; text: string } } = { error: syntaxErr };
    if (warning) {
      // printed as bash reads the line where the top-level command with the here-document starts
      let top = f.Stmts[0];
      for (const s of f.Stmts) if (s.Position <= warning.at) top = s;
      const text = `${sh.errName}: line ${warning.line}: ${warning.message}\n`;
      deferred.hdocWarning = { fromLine: top ? sh.lineOf(top.Position) : 1, text };
    }
    st = await topLevel(sh, f.Stmts, undefined, deferred, !sh.cMode);
    syntaxErr = deferred.error;
    if (syntaxErr) {
      // the lines before it ran; a `[[ ]]` error leaves the last status (2 under errexit), any other one is 2
      await syntaxError(sh, syntaxErr, `${sh.errName}: ${sh.cMode ? '-c: ' : ''}line ${syntaxErr.line}: `);
      st = syntaxErr.cond && !sh.opts.errexit ? sh.status : syntaxErr.status ?? (syntaxErr.inCommandSubst && sh.cMode ? 127 : 2);
    }
  } catch (e) {
    st = handleTopError(sh, e);
  }
  if (sh.pendingSigs.length > 0) {
    sh.status = st;
    try { await runPendingTraps(sh); } catch (e) { st = handleTopError(sh, e); }
  }
  st = await runExitTrap(sh, st);
  // the shell's own fds above 2 close as it exits (a coprocess reading one ends, as with bash),
  // before the wait for the jobs that run in this process
  const high = [...sh.fds.map.entries()].filter(([n]) => n > 2);
  if (high.length) {
    await drainHeld(high.map(([, f]) => f));
    for (const [n] of high) sh.fds.set(n, undefined);
  }
  await sh.waitAll();
  // (what builtins held back for this shell's own fds; a pipe's other writers wait for their part)
  await drainHeld([...sh.fds.map.values()]);
  return st;
}

/**
 * Runs statements the way bash reads a script: one top-level line at a time, so a
 * DiscardError abandons only the rest of its line (statements joined by `;`/`&&`… on the
 * line where the failing one ends) and the next line still runs, with `$?` = 1.
 */
export async function topLevel(sh: Shell, list: Stmt[], before?: (s: Stmt) => void, deferred?: { error?: DeferredParseError; hdocWarning?: { fromLine: number; text: string } }, scriptFile = false): Promise<number> {
  let st = 0;
  // set -v: the source text read so far is printed up to `vAt` (undefined: not tracked while verbose was off)
  let vAt: number | undefined = 0;
  for (let i = 0; i < list.length; i++) {
    const s = list[i]!;
    before?.(s);
    if (deferred?.hdocWarning && sh.lineOf(s.Position) >= deferred.hdocWarning.fromLine) {
      await sh.writeFd(2, deferred.hdocWarning.text).catch(() => undefined);
      deferred.hdocWarning = undefined;
    }
    // with history on, the script is read line by line and each line recorded (history-reader.ts)
    // (from the line after the previous statement's: comment lines between are read and recorded too)
    if (sh.source === sh.historySource && sh.history.recording && startsLine(sh, s.Position)) return runHistoryLines(sh, i > 0 ? Math.min(s.Position, verboseEnd(sh, list, i - 1).end) : s.Position, st, deferred, scriptFile);
    // once aliases exist, the rest is read line by line with aliases expanded on the text
    if (sh.aliases.size && sh.shopt.has('expand_aliases') && startsLine(sh, s.Position)) return runAliased(sh, s.Position, st, deferred, scriptFile);
    const newLine = i === 0 || !sameLine(sh, list[i - 1]!, s);
    if (newLine) {
      if (sh.opts.verbose) vAt = await verboseLines(sh, list, i, vAt);
      else vAt = undefined;
      // bash decodes $'\u…' when it parses a line, in the locale of that moment
      sh.parseUtf8 = sh.vars.utf8Escapes();
    }
    if (deferred && newLine && !sh.shopt.has('extglob')) {
      // bash reads a line's commands before running them, and without extglob `@(` is a syntax error
      const group = [s];
      for (let j = i; j + 1 < list.length && sameLine(sh, list[j]!, list[j + 1]!); j++) group.push(list[j + 1]!);
      const { at, inSubst } = findExtGlob(group);
      if (at !== undefined) {
        const line = sh.lineOf(at) - (sh.source.base ?? 0);
        const from = sh.source.lines[line - 1] ?? 0;
        const nl = sh.source.src.indexOf('\n', from);
        deferred.error = { line, message: "syntax error near unexpected token `('", context: sh.source.src.slice(from, nl < 0 ? undefined : nl), cond: false, err: new ParseError(line, 1, 'extglob', false), status: inSubst && sh.cMode ? 127 : undefined };
        return st;
      }
    }
    try {
      st = await sh.stmt(s);
    } catch (e) {
      if (!(e instanceof DiscardSignal) || (e.hard && !scriptFile)) throw e;
      st = sh.status = e.status;
      discardShift(sh, s);
      while (i + 1 < list.length && sameLine(sh, list[i]!, list[i + 1]!)) i++;
    }
    // (`set -v` on this line: bash had read the line already, it prints from the next one on)
    if (sh.opts.verbose && vAt === undefined) vAt = verboseEnd(sh, list, i).end;
  }
  if (sh.opts.verbose) await verboseRest(sh, vAt, deferred?.error?.line);
  // a syntax error after the lines that ran may be alias text (`alias e='for i in 1; do echo '`)
  const pe = deferred?.error?.prefixEnd;
  if (pe !== undefined && sh.aliases.size && sh.shopt.has('expand_aliases')) return runAliased(sh, pe, st, deferred, scriptFile);
  return st;
}

/**
 * `set -v`: prints the source lines bash reads for the top-level line that starts at list[i]
 * (from `from`, the end of what was printed, else from its first line): up to the end of the
 * last line of its statements, here-document bodies included, but not the lines bash reads
 * while it parses a `$(…)` or `<(…)` (bash does not echo those). Returns the new end.
 */
async function verboseLines(sh: Shell, list: Stmt[], i: number, from: number | undefined): Promise<number> {
  const src = sh.source.src;
  const { end, skip } = verboseEnd(sh, list, i);
  if (from === undefined) from = src.lastIndexOf('\n', list[i]!.Position - 1) + 1;
  let out = '';
  for (let at = from; at < end;) {
    const nl = src.indexOf('\n', at);
    const next = nl < 0 || nl + 1 > end ? end : nl + 1;
    if (!skip.some(([l, r]) => l < at && at <= r)) out += src.slice(at, next);
    at = next;
  }
  if (out && !out.endsWith('\n')) out += '\n';
  if (out) await sh.writeFd(2, out).catch(() => undefined);
  return end;
}

/** The end of the top-level line starting at list[i] (see verboseLines) and its `$(…)`/`<(…)` spans. */
function verboseEnd(sh: Shell, list: Stmt[], i: number): { end: number; skip: [number, number][] } {
  let j = i;
  while (j > 0 && sameLine(sh, list[j - 1]!, list[j]!)) j--;
  let k = i;
  while (k + 1 < list.length && sameLine(sh, list[k]!, list[k + 1]!)) k++;
  let max = 0;
  const skip: [number, number][] = [];
  const walk = (n: unknown, hdoc: boolean): void => {
    if (Array.isArray(n)) { for (const x of n) walk(x, hdoc); return; }
    if (!n || typeof n !== 'object') return;
    const o = n as Record<string, unknown>;
    if (!hdoc && o['type'] === 'CmdSubst' && !o['Backquotes']) skip.push([o['Left'] as number, o['Right'] as number]);
    else if (!hdoc && o['type'] === 'ProcSubst') skip.push([o['OpPos'] as number, o['Rparen'] as number]);
    for (const key in o) {
      const v = o[key];
      if (typeof v === 'number') { if (key !== 'Op' && key !== 'Names' && v > max) max = v; } else if (v && typeof v === 'object') walk(v, hdoc || key === 'Hdoc');
    }
  };
  for (let m = j; m <= k; m++) walk(list[m], false);
  const src = sh.source.src;
  const nl = src.indexOf('\n', max);
  return { end: nl < 0 ? src.length : nl + 1, skip };
}

/**
 * `set -v` at the end of a source: the lines after its last command (comments, blank lines),
 * or up to the end of line `errLine` (a syntax error's, which bash read before it failed).
 */
async function verboseRest(sh: Shell, from: number | undefined, errLine?: number): Promise<void> {
  const src = sh.source.src;
  if (from === undefined || from >= src.length) return;
  let out = src.slice(from, errLine === undefined ? undefined : sh.source.lines[errLine]);
  if (out === '') return;
  if (!out.endsWith('\n')) out += '\n';
  await sh.writeFd(2, out).catch(() => undefined);
}

/** Whether `pos` is the first thing on its line of the current source. */
function startsLine(sh: Shell, pos: number): boolean {
  const src = sh.source.src;
  for (let i = pos - 1; i >= 0; i--) {
    const c = src.charCodeAt(i);
    if (c === 10) return true;
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/**
 * Reads and runs the current source from `start` the way bash does once aliases exist: one
 * command line at a time (more lines while it is incomplete), aliases expanded on the text
 * (alias.ts) and then parsed. A syntax error ends the reading; it replaces `deferred.error`
 * (the caller reports it like any other), with its line counted in the whole source.
 */
async function runAliased(sh: Shell, start: number, st: number, deferred?: { error?: DeferredParseError }, scriptFile = false): Promise<number> {
  const orig = sh.source;
  const base = orig.base ?? 0;
  const rd = new AliasReader(orig.src, start, (n) => (sh.shopt.has('expand_aliases') ? sh.aliases.get(n) : undefined));
  let line = sh.lineOf(start) - base;
  let shift = 0;
  // set -v: bash echoes the source lines as it reads them, before alias expansion
  let echoed = start;
  if (deferred) deferred.error = undefined;
  try {
    while (!rd.done) {
      // (`set -o history` on the line before: reading goes on line by line, recorded)
      if (orig === sh.historySource && sh.history.recording && deferred) { sh.source = orig; return runHistoryLines(sh, rd.srcPos, st, deferred, scriptFile); }
      rd.reset();
      let text = '';
      let parsed: ReturnType<typeof parseScript> | undefined;
      // leading newlines keep the chunk's line numbers (and $LINENO, messages) those of the source
      const pad = '\n'.repeat(line - 1);
      for (let l = rd.nextLine(); l !== null; l = rd.nextLine()) {
        const at = rd.srcPos;
        if (at > echoed) {
          const nl = orig.src.indexOf('\n', at - 1), end = nl < 0 ? orig.src.length : nl + 1;
          const raw = orig.src.slice(echoed, end);
          echoed = end;
          if (sh.opts.verbose) await sh.writeFd(2, raw.endsWith('\n') ? raw : raw + '\n').catch(() => undefined);
        }
        text += l;
        parsed = parseScript(pad + text, sh.posix);
        if (!parsed.error || !parsed.error.err.incomplete || rd.done) break;
      }
      if (!parsed) break;
      sh.setSource(parsed.src, orig.name);
      if (orig.base !== undefined || shift !== 0) sh.source.base = base + shift;
      const list = parsed.file.Stmts;
      for (let i = 0; i < list.length; i++) {
        try {
          st = await sh.stmt(list[i]!);
        } catch (e) {
          if (!(e instanceof DiscardSignal) || (e.hard && !scriptFile)) throw e;
          st = sh.status = e.status;
          // (the chunks that follow count their lines from the failing command's, see discardShift)
          shift += discardDelta(sh, list[i]!)?.d ?? 0;
          break;
        }
      }
      if (parsed.error) {
        if (deferred) deferred.error = parsed.error;
        return st;
      }
      for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) === 10) line++;
    }
  } finally {
    sh.source = orig;
  }
  return st;
}

/** Whether `b` follows `a` on the same source line (`a; b`), i.e. bash parsed them together. */
function sameLine(sh: Shell, a: Stmt, b: Stmt): boolean {
  if (!(a.Semicolon > 0)) return false;
  const src = sh.source.src;
  for (let i = a.Semicolon; i < b.Position && i < src.length; i++) if (src.charCodeAt(i) === 10) return false;
  return true;
}

/** `line`: the script line the string counts its lines from (eval, traps). */
export async function evalString(sh: Shell, src: string, name: string, line?: number): Promise<number> {
  const prevSrc = sh.source;
  const parsed = parseScript(src, sh.posix);
  const f = parsed.file;
  const at = sh.lineOf(sh.curPos);
  sh.setSource(parsed.src, prevSrc.name);
  if (line !== undefined && line > 1) sh.source.base = line - 1;
  try {
    const st = await topLevel(sh, f.Stmts, undefined, parsed);
    if (!parsed.error) return st;
  } finally {
    sh.source = prevSrc;
  }
  const e = parsed.error;
  await syntaxError(sh, e, `${sh.errSourceName()}: ${name}: line ${at + e.line - 1}: `);
  // (bash's parse_matched_pair errors do not count: POSIX mode goes on after those)
  sh.evalSyntaxError = !e.matchedPair;
  return e.status ?? 2;
}

/** Prints a syntax error (found by reparse.ts) like bash: its message, then the offending line. */
export async function syntaxError(sh: Shell, e: DeferredParseError, prefix: string): Promise<void> {
  if (!e.message) return;
  if (e.raw) prefix = `${sh.errName}: `;
  let out = `${prefix}${e.message}\n`;
  if (e.context !== undefined) out += `${prefix}\`${e.context}'\n`;
  await sh.writeFd(2, out).catch(() => undefined);
}

/** Offset of the first extglob group in these statements outside `[[ ]]` (bash parses those as if extglob were on). */
function findExtGlob(nodes: unknown): { at?: number; inSubst: boolean } {
  // (depth first, in order, with its own stack: a tree can be thousands of levels deep, `$(( x+x+…+x ))`)
  const todo: [unknown, boolean][] = [[nodes, false]];
  while (todo.length) {
    const [n, sub] = todo.pop()!;
    if (n === null || typeof n !== 'object') continue;
    if (Array.isArray(n)) { for (let i = n.length - 1; i >= 0; i--) todo.push([n[i], sub]); continue; }
    const t = (n as { type?: string }).type;
    if (t === 'TestClause') continue;
    if (t === 'ExtGlob') return { at: (n as ExtGlob).OpPos, inSubst: sub };
    const s = sub || (t === 'CmdSubst' && !(n as { Backquotes?: boolean }).Backquotes) || t === 'ProcSubst';
    if (t === 'CmdSubst' && (n as { Backquotes?: boolean }).Backquotes) continue; // (parsed when it runs)
    const keys = Object.keys(n);
    for (let i = keys.length - 1; i >= 0; i--) if (keys[i] !== 'type') todo.push([(n as Record<string, unknown>)[keys[i]!], s]);
  }
  return { at: undefined, inSubst: false };
}

/**
 * A run-time error abandoned the top-level compound command `s` (of a script, -c string,
 * sourced file or eval string): bash jumps
 * out of it with the line number of the failing command still set, and its parser, which had
 * read on to the command's last line, counts the following lines from there. So every later
 * line number of the file is off by as much (bash 5.2 does this; a function call or a
 * subshell in between puts its line back first).
 */
function discardShift(sh: Shell, s: Stmt): void {
  const r = discardDelta(sh, s);
  if (r) (sh.source.shifts ??= []).push([r.end + 1, r.d]);
}

/** discardShift's shift (negative) and the offset where `s` ends, or undefined. */
function discardDelta(sh: Shell, s: Stmt): { end: number; d: number } | undefined {
  if (!s.Cmd || !['Block', 'IfClause', 'WhileClause', 'ForClause', 'CaseClause'].includes(s.Cmd.type)) return undefined;
  let end = 0;
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) { for (const x of n) walk(x); return; }
    if (!n || typeof n !== 'object') return;
    for (const [k, v] of Object.entries(n)) {
      if (typeof v === 'number') { if (k !== 'Op' && k !== 'Names' && v > end) end = v; } else if (v && typeof v === 'object') walk(v);
    }
  };
  walk(s);
  const d = sh.lineOf(sh.curPos) - sh.lineOf(end);
  return d < 0 && sh.curPos >= s.Position ? { end, d } : undefined;
}
