// The I/O builtins: echo, printf, read, mapfile/readarray. printf's formatting is
// printf-format.ts; reading a record from an fd is execution/read-line.ts.
import { isatty } from 'node:tty';
import type { Shell } from '../execution/runner.ts';
import { ShellError } from '../execution/errors.ts';
import { singleQuote } from '../words/quoting.ts';
import { isName } from '../syntax/names.ts';
import { def } from './table.ts';
import { errOut, out, usageErr } from './builtin-io.ts';
import { ReadTimeout, readLine } from '../execution/read-line.ts';
import { echoEscapes, escapeCIndex, formatPrintf } from './printf-format.ts';

def(['echo'], async (sh, args) => {
  await out(sh, echoText(sh, args));
  return 0;
}, { sync: (sh, args) => sh.writeFdSync(1, echoText(sh, args), 'echo') });

function echoText(sh: Shell, args: string[]): string {
  let i = 1, nl = true, esc = sh.shopt.has('xpg_echo');
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (!/^-[neE]+$/.test(a)) break;
    for (const c of a.slice(1)) { if (c === 'n') nl = false; else if (c === 'e') esc = true; else esc = false; }
  }
  let s = args.slice(i).join(' ');
  if (esc) {
    const c = escapeCIndex(s);
    let stop = false;
    if (c >= 0) { s = s.slice(0, c); stop = true; }
    s = echoEscapes(s, false, sh.vars.utf8Escapes());
    if (stop) nl = false;
  }
  return nl ? s + '\n' : s;
}

// ---- printf -----------------------------------------------------------------------------------
/** TZ as the C library sees it: bash only passes an exported TZ to localtime(3). */
function exportedTz(sh: Shell): string | undefined {
  return sh.vars.resolve('TZ')?.exported ? sh.vars.get('TZ') : undefined;
}

def(['printf'], async (sh, args) => {
  let i = 1;
  let varName: string | undefined;
  if (args[i] === '-v') {
    varName = args[i + 1];
    if (varName === undefined) { await errOut(sh, 'printf', '-v: option requires an argument'); await sh.writeFd(2, 'printf: usage: printf [-v var] format [arguments]\n'); return 2; }
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?$/s.test(varName)) { await errOut(sh, 'printf', `\`${varName}': not a valid identifier`); return 2; }
    i += 2;
  }
  if (args[i] === '--') i++;
  else if (args[i] !== undefined && /^-./.test(args[i]!)) { await errOut(sh, 'printf', `${args[i]!.slice(0, 2)}: invalid option`); await sh.writeFd(2, 'printf: usage: printf [-v var] format [arguments]\n'); return 2; }
  const fmt = args[i];
  if (fmt === undefined) { await sh.writeFd(2, 'printf: usage: printf [-v var] format [arguments]\n'); return 2; }
  const errs: string[] = [];
  const errAt: number[] = [];
  const r = formatPrintf(fmt, args.slice(i + 1), errs, () => exportedTz(sh), sh.startTime, sh.vars.utf8Escapes(), errAt);
  if (varName) {
    if (/\[/.test(varName)) { const m = /^(.*?)\[(.*)\]$/.exec(varName)!; sh.vars.setElem(m[1]!, await sh.refSubscriptAsync(m[1]!, m[2]!), r.out); }
    else sh.vars.set(varName, r.out);
    for (const e of errs) await errOut(sh, 'printf', e);
  } else {
    // (bash's messages go out at once, its output at the end of each pass of the format: with
    // 2>&1 a pass's errors come before its output)
    let at = 0;
    for (let k = 0; k < errs.length; k++) {
      if (errAt[k]! > at) { await out(sh, r.out.slice(at, errAt[k])); at = errAt[k]!; }
      await errOut(sh, 'printf', errs[k]!);
    }
    await out(sh, r.out.slice(at));
  }
  return errs.some((e) => !e.startsWith('warning: ')) ? 1 : 0;
}, { sync: printfSync });

// `printf [-v NAME] [--] FORMAT [ARG…]` when nothing is to be reported (no usage or conversion
// error) and the output goes out in one write or into a plain, writable variable.
function printfSync(sh: Shell, args: string[]): number | undefined {
  let i = 1, varName: string | undefined;
  if (args[1] === '-v') {
    varName = args[2];
    if (varName === undefined || !isName(varName) || sh.vars.resolve(varName)?.readonly) return undefined;
    i = 3;
  }
  const dashes = args[i] === '--';
  if (dashes) i++;
  const fmt = args[i];
  if (fmt === undefined || (!dashes && fmt.length > 1 && fmt.startsWith('-'))) return undefined;
  const errs: string[] = [];
  const r = formatPrintf(fmt, args.slice(i + 1), errs, () => exportedTz(sh), sh.startTime, sh.vars.utf8Escapes());
  if (errs.length !== 0) return undefined;
  if (varName === undefined) return sh.writeFdSync(1, r.out, 'printf');
  sh.vars.set(varName, r.out);
  return 0;
}

// ---- read / mapfile -----------------------------------------------------------------------
/**
 * read's field splitting: at most n fields, the last gets the rest (trailing IFS whitespace
 * removed). With `esc` (no -r), `\\c` pairs are literal characters that never split or get trimmed.
 */
function ifsSplit(s: string, ifs: string, n: number, esc = false): string[] {
  if (s === '') return [];
  if (!(esc && s.includes('\\')) && !hasIfsChar(s, ifs)) return [s]; // (the common case, without the arrays below)
  const ch: string[] = [], lit: boolean[] = [];
  for (let k = 0; k < s.length; k++) {
    if (esc && s[k] === '\\' && k + 1 < s.length) { ch.push(s[++k]!); lit.push(true); } else { ch.push(s[k]!); lit.push(false); }
  }
  const isIfs = (k: number): boolean => !lit[k] && ifs.includes(ch[k]!);
  const isWs = (k: number): boolean => isIfs(k) && ' \t\n'.includes(ch[k]!);
  const len = ch.length;
  const fields: string[] = [];
  const word = (i: number): [string, number] => {
    let j = i;
    while (j < len && !isIfs(j)) j++;
    const w = ch.slice(i, j).join('');
    // skip the delimiter: ws* [nonws] ws*
    while (j < len && isWs(j)) j++;
    if (j < len && isIfs(j) && !isWs(j)) { j++; while (j < len && isWs(j)) j++; }
    return [w, j];
  };
  let i = 0;
  while (i < len && isWs(i)) i++;
  while (i < len) {
    if (fields.length === n - 1) {
      // bash: the rest of the line, unless it is a single word followed only by delimiters
      const [w, j] = word(i);
      if (j >= len) { fields.push(w); return fields; }
      let e = len;
      while (e > i && isWs(e - 1)) e--;
      fields.push(ch.slice(i, e).join(''));
      return fields;
    }
    const [w, j] = word(i);
    fields.push(w);
    i = j;
  }
  return fields;
}

function hasIfsChar(s: string, ifs: string): boolean {
  for (let k = 0; k < s.length; k++) if (ifs.includes(s[k]!)) return true;
  return false;
}

function unbackslash(s: string): string { return s.replace(/\\(.)/gs, '$1'); }

def(['read'], async (sh, args) => {
  let raw = false, delim = '\n', max = -1, fd = 0, arr: string | undefined, prompt: string | undefined, exact = false, uGiven = false;
  let deadline: number | undefined;
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (!a.startsWith('-') || a === '-') break;
    for (let k = 1; k < a.length; k++) {
      const c = a[k]!;
      if ('dnNuapti'.includes(c) && k === a.length - 1 && i + 1 >= args.length) return usageErr(sh, 'read', `-${c}: option requires an argument`);
      const val = (): string => { const rest = a.slice(k + 1); k = a.length; return rest !== '' ? rest : args[++i] ?? ''; };
      if (c === 'r') raw = true;
      else if (c === 's' || c === 'e') { /* no terminal handling */ }
      else if (c === 'd') { const v = val(); delim = v === '' ? '\0' : v[0]!; }
      else if (c === 'n' || c === 'N') {
        const v = val();
        if (!/^\s*[-+]?[0-9]+$/.test(v) || Number(v) < 0) { await errOut(sh, 'read', `${v}: invalid number`); return 1; }
        max = Number(v);
        if (c === 'N') exact = true;
      }
      else if (c === 'u') {
        const v = val();
        if (!/^\s*[-+]?[0-9]+$/.test(v) || Number(v) < 0) { await errOut(sh, 'read', `${v}: invalid file descriptor specification`); return 1; }
        fd = Number(v);
        uGiven = true;
      }
      else if (c === 'a') arr = val();
      else if (c === 'p') prompt = val();
      else if (c === 't') {
        const tv = val();
        // (bash's uconvert: a sign, digits, a fraction; the sign applies to the whole seconds only)
        const tm = /^([-+]?)([0-9]*)(?:\.([0-9]*))?$/.exec(tv);
        const t = tm && !(tm[1] === '-' && Number(tm[2] || '0') > 0) ? Number(tm[2] || '0') + Number(`0.${tm[3] || '0'}`) : NaN;
        if (!(t >= 0)) { await errOut(sh, 'read', `${tv}: invalid timeout specification`); return 1; }
        if (t === 0) return sh.fds.get(fd) ? 0 : 1;
        deadline = Date.now() + t * 1000;
      }
      else if (c === 'i') val();
      else return usageErr(sh, 'read', `-${c}: invalid option`);
    }
  }
  const names = args.slice(i);
  if (prompt !== undefined) {
    // (bash shows the prompt only when reading from a terminal)
    const f = sh.fds.get(fd);
    let tty = false;
    try { tty = !!f && isatty(f.fd); } catch { /* */ }
    if (tty) await sh.writeFd(2, prompt);
  }
  let line: { text: string; eof: boolean } | null;
  // (bash checks an fd given with -u first; a closed stdin fails at read(2))
  if (!sh.fds.get(fd) && !uGiven) { await errOut(sh, 'read', `read error: ${fd}: Bad file descriptor`); return 1; }
  try { line = await readLine(sh, fd, exact ? '' : delim, max, raw, deadline, true); } catch (e) {
    if (e instanceof ShellError) { await errOut(sh, 'read', e.message); return 1; }
    if ((e as NodeJS.ErrnoException)?.code === 'EISDIR') { await errOut(sh, 'read', `read error: ${fd}: Is a directory`); return 1; }
    if (e instanceof ReadTimeout) {
      // bash assigns what was read so far and returns > 128
      const text = e.partial;
      if (names.length === 0 && !arr) sh.vars.set('REPLY', text); else if (names[0]) sh.vars.set(names[0], text);
      return 142;
    }
    throw e;
  }
  const text = line?.text ?? '';
  const ifs = sh.vars.get('IFS') ?? ' \t\n';
  const badName = async (n: string): Promise<boolean> => {
    if (/^[a-zA-Z_][a-zA-Z0-9_]*(\[[\s\S]*\])?$/.test(n)) return false;
    await errOut(sh, 'read', `\`${n}': not a valid identifier`);
    return true;
  };
  if (arr !== undefined && await badName(arr)) return 1;
  if (exact) {
    sh.vars.set(names[0] ?? 'REPLY', raw ? text : unbackslash(text));
    for (const n of names.slice(1)) sh.vars.set(n, '');
  } else if (arr) {
    const fields = ifsSplit(text, ifs, Infinity, !raw);
    const m = sh.vars.lvalueArray(arr);
    m.clear();
    fields.forEach((f, k) => m.set(k, f));
  } else if (names.length === 0) {
    sh.vars.set('REPLY', raw ? text : unbackslash(text));
  } else {
    const fields = ifsSplit(text, ifs, names.length, !raw);
    for (let k = 0; k < names.length; k++) {
      if (await badName(names[k]!)) return 1;
      const m = /^([a-zA-Z_][a-zA-Z0-9_]*)\[([\s\S]*)\]$/.exec(names[k]!);
      if (m) sh.vars.setElem(m[1]!, await sh.refSubscriptAsync(m[1]!, m[2]!), fields[k] ?? '');
      else sh.vars.set(names[k]!, fields[k] ?? '');
    }
  }
  return line === null || line.eof ? 1 : 0;
}, { sync: readSync });

// `read [-r] [NAME…]` of a line already read ahead (a while-read loop's input, OsFd.readAhead):
// no waiting, nothing to report. Anything else — other options, subscripts, a readonly name, a
// line still to be read or one with backslashes to undo — runs the ordinary way.
function readSync(sh: Shell, args: string[]): number | undefined {
  let i = 1, raw = false;
  for (; i < args.length && args[i] === '-r'; i++) raw = true;
  for (let k = i; k < args.length; k++) if (!isName(args[k]!) || sh.vars.resolve(args[k]!)?.readonly) return undefined;
  if (i === args.length && sh.vars.resolve('REPLY')?.readonly) return undefined;
  const t = sh.fds.get(0)?.takeLineAhead(10, (l) => raw || !l.includes('\\'));
  if (t === undefined) return undefined;
  const text = t.includes('\0') ? t.replace(/\0/g, '') : t;
  if (i === args.length) sh.vars.set('REPLY', text);
  else {
    const fields = ifsSplit(text, sh.vars.get('IFS') ?? ' \t\n', args.length - i, false);
    for (let k = i; k < args.length; k++) sh.vars.set(args[k]!, fields[k - i] ?? '');
  }
  return 0;
}
def(['mapfile', 'readarray'], async (sh, args) => {
  let strip = false, delim = '\n', count = 0, origin = 0, skip = 0, fd = 0, hasOrigin = false;
  let callback: string | undefined, quantum = 5000;
  let i = 1;
  const num = (v: string): number | undefined => (/^\s*[-+]?[0-9]+\s*$/.test(v) ? Number(v) : undefined);
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (!a.startsWith('-') || a === '-') break;
    for (let k = 1; k < a.length; k++) {
      const c = a[k]!;
      if (!'dnOstuCc'.includes(c)) return usageErr(sh, args[0]!, `-${c}: invalid option`);
      if (c === 't') { strip = true; continue; }
      if (k === a.length - 1 && i + 1 >= args.length) return usageErr(sh, args[0]!, `-${c}: option requires an argument`);
      const v = k < a.length - 1 ? a.slice(k + 1) : args[++i]!;
      k = a.length;
      const n = num(v);
      if (c === 'd') delim = v === '' ? '\0' : v[0]!;
      else if (c === 'C') callback = v;
      else if (c === 'n' || c === 's') {
        if (n === undefined || n < 0) { await errOut(sh, args[0]!, `${v}: invalid line count`); return 1; }
        if (c === 'n') count = n; else skip = n;
      } else if (c === 'O') {
        if (n === undefined || n < 0) { await errOut(sh, args[0]!, `${v}: invalid array origin`); return 1; }
        origin = n; hasOrigin = true;
      } else if (c === 'u') {
        if (n === undefined || n < 0) { await errOut(sh, args[0]!, `${v}: invalid file descriptor specification`); return 1; }
        fd = n;
      } else {
        if (n === undefined || n <= 0) { await errOut(sh, args[0]!, `${v}: invalid callback quantum`); return 1; }
        quantum = n;
      }
    }
  }
  const name = args[i] ?? 'MAPFILE';
  if (!isName(name)) { await errOut(sh, args[0]!, `\`${name}': not a valid identifier`); return 1; }
  // (a closed fd named by -u is an error; a closed stdin only ends the input)
  if (!sh.fds.get(fd) && fd !== 0) { await errOut(sh, args[0]!, `${fd}: invalid file descriptor: Bad file descriptor`); return 1; }
  const m = sh.vars.lvalueArray(name);
  if (!hasOrigin) m.clear();
  if (!sh.fds.get(fd)) return 0;
  let k = origin, n = 0;
  for (;;) {
    if (count && n >= count) break;
    let line;
    try { line = await readLine(sh, fd, delim, -1, true); } catch (e) {
      if ((e as NodeJS.ErrnoException)?.code === 'EISDIR') break; // bash ignores read errors here
      throw e;
    }
    if (!line) break;
    if (skip > 0) { skip--; continue; }
    const nul = line.text.indexOf('\0'); // bash keeps each line as a C string: cut at a NUL
    const text = nul >= 0 ? line.text.slice(0, nul) : strip || line.eof || delim === '\0' ? line.text : line.text + delim;
    // (-C: every quantum-th line, `callback INDEX LINE` is evaluated before the line is stored)
    if (callback !== undefined && (n + 1) % quantum === 0) await sh.evalString(`${callback} ${k} ${singleQuote(text)}`, 'mapfile', sh.lineOf(sh.curPos));
    m.set(k++, text);
    n++;
  }
  return 0;
});
