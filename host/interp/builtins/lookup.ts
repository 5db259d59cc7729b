// Builtins that find commands or tell about them: type, command, builtin, hash, enable, help.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Shell } from '../execution/runner.ts';
import { singleQuote } from '../words/quoting.ts';
import { formatHashTable } from '../execution/command-hash.ts';
import { isExecFile, lookPath } from '../execution/external.ts';
import { HELP_LIST, HELP_TOPICS, HELP_VERSION } from './help-text.ts';
import { hasMeta, matchPattern } from '../words/pattern.ts';
import { isRestricted, restrictedMsg } from '../execution/restricted.ts';
import { builtinTable, def } from './table.ts';
import { errOut, out, usageErr } from './builtin-io.ts';
import { simpleOpts } from './argument-parsing.ts';

const keywords = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc']);

async function describe(sh: Shell, name: string, mode: 'v' | 'V' | 't' | 'p' | 'P', all = false, noFunc = false): Promise<boolean> {
  let found = false;
  const emit = async (kind: string, text: string): Promise<void> => {
    found = true;
    if (mode === 't') await out(sh, kind + '\n');
    else if (mode === 'v') await out(sh, (kind === 'file' ? text : kind === 'alias' ? `alias ${name}=${singleQuote(text)}` : name) + '\n');
    else if (mode === 'V') await out(sh, kind === 'file' ? `${name} is ${text}\n` : kind === 'function' ? (all || mode === 'V' ? `${name} is a function\n${sh.functionText(name)}\n` : '') : kind === 'alias' ? `${name} is aliased to \`${text}'\n` : `${name} is a ${kind === 'builtin' && sh.posix && builtinTable.get(name)?.special ? 'special ' : ''}shell ${kind}\n`);
    else if (kind === 'file') await out(sh, text + '\n');
  };
  if (mode !== 'P' && !noFunc) {
    if (sh.aliases.has(name) && sh.shopt.has('expand_aliases')) { await emit('alias', sh.aliases.get(name)!); if (!all) return true; }
    if (keywords.has(name)) { await emit('keyword', name); if (!all) return true; }
    if (sh.funcs.has(name)) { await emit('function', name); if (!all) return true; }
  }
  if (mode !== 'P' && ((builtinTable.has(name) && !sh.disabled?.has(name)) || sh.handlers.privateCommand(name))) { await emit('builtin', name); if (!all) return true; }
  if (all && !name.includes('/')) {
    // -a: every executable NAME along PATH
    for (const dir of pathDirs(sh)) {
      const d = dir || '.';
      if (isExecFile(path.resolve(sh.cwd, d, name))) await emit('file', d + (d.endsWith('/') ? '' : '/') + name);
    }
    return found;
  }
  const f = lookPath(sh, name);
  if (f.path && (!f.error || !all)) await emit('file', mode === 'V' && !all && sh.commandHash.has(name) ? `hashed (${f.path})` : displayPath(sh, name, f.path));
  return found;
}
/** PATH's directories ('' for the current one); none when PATH is empty or unset (bash then runs a name from the current directory, and shows its full path). */
function pathDirs(sh: Shell): string[] {
  const p = sh.vars.get('PATH') ?? '';
  return p === '' ? [] : p.split(':');
}
/** The path as bash shows it: the name itself if it has a `/`, else PATH's entry (kept relative) + `/name`. */
function displayPath(sh: Shell, name: string, abs: string): string {
  if (name.includes('/')) return name;
  if (sh.commandHash.has(name)) return abs;
  for (const dir of pathDirs(sh)) {
    if (path.resolve(sh.cwd, dir || '.', name) !== abs) continue;
    const d = dir || '.';
    return d + (d.endsWith('/') ? '' : '/') + name;
  }
  return abs;
}

def(['type'], async (sh, args) => {
  let mode: 'V' | 't' | 'p' | 'P' = 'V';
  let all = false, noFunc = false;
  let st = 0;
  // (bash also takes the long spellings -type, -path and -all)
  const argv = args.map((a, i) => (i === 0 ? a : a === '-type' ? '-t' : a === '-path' ? '-p' : a === '-all' ? '-a' : a));
  const o = await simpleOpts(sh, argv, 'afptP');
  if (typeof o === 'number') return o;
  for (const c of o.flags) { if (c === 'a') all = true; else if (c === 'f') noFunc = true; }
  for (const c of argv.slice(1, o.i).join('')) if ('tpP'.includes(c)) mode = c === 'p' && o.flags.has('P') ? 'P' : c as 't' | 'p' | 'P';
  for (const a of argv.slice(o.i)) {
    if (!(await describe(sh, a, mode, all, noFunc))) { if (mode === 'V') await errOut(sh, 'type', `${a}: not found`); st = 1; }
  }
  return st;
});

def(['command'], async (sh, args) => {
  let i = 1, mode: 'v' | 'V' | '' = '', std = false;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (!/^-[pvV]+$/.test(a)) {
      if (/^-./.test(a)) return usageErr(sh, 'command', `-${[...a.slice(1)].find((c) => !'pvV'.includes(c))}: invalid option`);
      break;
    }
    if (a.includes('v')) mode = 'v';
    if (a.includes('V')) mode = 'V';
    if (a.includes('p')) std = true;
  }
  const rest = args.slice(i);
  if (rest.length === 0) return 0;
  if (std && isRestricted(sh)) { await errOut(sh, 'command', restrictedMsg('-p')); return 1; }
  // -p: search bash's standard path (confstr _CS_PATH) instead of $PATH
  if (mode) {
    let any = false;
    const savedPath = sh.vars.get('PATH');
    for (const n of rest) {
      let ok: boolean;
      if (std) sh.vars.set('PATH', '/bin:/usr/bin');
      try { ok = await describe(sh, n, mode); } finally { if (std) { if (savedPath === undefined) sh.vars.unset('PATH'); else sh.vars.set('PATH', savedPath); } }
      if (ok) any = true; else if (mode === 'V') await errOut(sh, 'command', `${n}: not found`);
    }
    return any ? 0 : 1;
  }
  if (std && !rest[0]!.includes('/') && !builtinTable.has(rest[0]!) && !sh.handlers.privateCommand(rest[0]!)) {
    const p = ['/bin', '/usr/bin'].map((d) => `${d}/${rest[0]}`).find((c) => { try { fs.accessSync(c, fs.constants.X_OK); return fs.statSync(c).isFile(); } catch { return false; } });
    if (p === undefined) { await sh.err(`${rest[0]}: command not found`); return 127; }
    return sh.handlers.exec(sh, p, rest);
  }
  sh.commandBuiltin++;
  try { return await sh.callArgs(rest, undefined, { noFunc: true }); } finally { sh.commandBuiltin--; }
});

def(['builtin'], async (sh, args) => {
  const o = await simpleOpts(sh, args, '');
  if (typeof o === 'number') return o;
  if (o.i > 1) args = [args[0]!, ...args.slice(o.i)];
  if (args.length < 2) return 0;
  const b = sh.disabled?.has(args[1]!) ? undefined : builtinTable.get(args[1]!)?.run;
  if (!b) { await errOut(sh, 'builtin', `${args[1]}: not a shell builtin`); return 1; }
  return b(sh, args.slice(1));
});

/** bash 5.2's builtins, in the order `enable` lists them. */
const ENABLE_LIST = ['.', ':', '[', 'alias', 'bg', 'bind', 'break', 'builtin', 'caller', 'cd', 'command', 'compgen', 'complete', 'compopt', 'continue', 'declare', 'dirs', 'disown', 'echo', 'enable', 'eval', 'exec', 'exit', 'export', 'false', 'fc', 'fg', 'getopts', 'hash', 'help', 'history', 'jobs', 'kill', 'let', 'local', 'logout', 'mapfile', 'popd', 'printf', 'pushd', 'pwd', 'read', 'readarray', 'readonly', 'return', 'set', 'shift', 'shopt', 'source', 'suspend', 'test', 'times', 'trap', 'true', 'type', 'typeset', 'ulimit', 'umask', 'unalias', 'unset', 'wait'];
// enable [-a] [-dnps] [name ...]: turns builtins off (-n) and on, or lists them (no loadable builtins here)
def(['enable'], async (sh, args) => {
  const o = await simpleOpts(sh, args, 'adnpsf');
  if (typeof o === 'number') return o;
  const names = args.slice(o.i);
  if ((o.flags.has('f') || o.flags.has('d')) && isRestricted(sh)) { await errOut(sh, 'enable', restrictedMsg()); return 1; }
  if (o.flags.has('f') || o.flags.has('d')) { await errOut(sh, 'enable', 'cannot open shared object: dynamic loading not available'); return 1; }
  const off = o.flags.has('n');
  if (names.length === 0 || o.flags.has('p')) {
    for (const n of ENABLE_LIST) {
      const dis = !!sh.disabled?.has(n);
      if (o.flags.has('s') && !builtinTable.get(n)?.special) continue;
      if (!o.flags.has('a') && dis !== off) continue;
      await out(sh, `enable ${dis ? '-n ' : ''}${n}\n`);
    }
    return 0;
  }
  let st = 0;
  for (const n of names) {
    if (!ENABLE_LIST.includes(n) || !builtinTable.has(n)) { await errOut(sh, 'enable', `${n}: not a shell builtin`); st = 1; continue; }
    // (restricted: a disabled builtin stays disabled)
    if (!off && sh.disabled?.has(n) && isRestricted(sh)) { await errOut(sh, 'enable', restrictedMsg()); st = 1; continue; }
    if (off) (sh.disabled ??= new Set()).add(n); else sh.disabled?.delete(n);
  }
  return st;
});

// help [-dms] [pattern ...]: bash's synopses and one-line descriptions (help-text.ts). Each pattern selects the topics it
// matches as a glob or equals; failing that, the topics it is a prefix of.
def(['help'], async (sh, args) => {
  const o = await simpleOpts(sh, args, 'dms');
  if (typeof o === 'number') return o;
  const pats = args.slice(o.i);
  if (pats.length === 0) { await out(sh, `${HELP_VERSION}\n${HELP_LIST}`); return 0; }
  let text = '';
  if (hasMeta(pats[0]!)) text += `Shell commands matching keyword${pats.length > 1 ? 's' : ''} \`${pats.join(', ')}'\n\n`;
  let found = 0, pat = '';
  for (pat of pats) {
    for (let pass = 1; pass < 3; pass++) {
      let hit = false;
      for (const [name, syn, short] of HELP_TOPICS) {
        if (!(pass === 1 ? name === pat || matchPattern(pat, name, { extglob: true }) : name.startsWith(pat))) continue;
        hit = true; found++;
        // only bash's short forms ship with us (help-text.ts); the long text is bash's own
        const more = `    (bash's full text: bash -c 'help ${name}')\n`;
        if (o.flags.has('d')) text += `${name} - ${short}\n`;
        else if (o.flags.has('m')) text += `NAME\n    ${name} - ${short}\n\nSYNOPSIS\n    ${syn}\n\nDESCRIPTION\n${more}\n`;
        else text += `${name}: ${syn}\n` + (o.flags.has('s') ? '' : `    ${short}\n${more}`);
      }
      if (hit) break;
    }
  }
  await out(sh, text);
  if (found === 0) { await errOut(sh, 'help', `no help topics match \`${pat}'.  Try \`help help' or \`man -k ${pat}' or \`info ${pat}'.`); return 1; }
  return 0;
});

def(['hash'], async (sh, args) => {
  const h = sh.commandHash;
  let i = 1, del = false, print = false, reusable = false, setPath: string | undefined;
  for (; i < args.length && /^-./.test(args[i]!); i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === 'r') h.clear();
      else if (c === 'd') del = true;
      else if (c === 't') print = true;
      else if (c === 'l') reusable = true;
      else if (c === 'p') {
        setPath = a.slice(j + 1) || args[++i];
        if (setPath === undefined) { await errOut(sh, 'hash', '-p: option requires an argument'); return 2; }
        break;
      } else {
        await errOut(sh, 'hash', `-${c}: invalid option`);
        await sh.writeFd(2, 'hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]\n');
        return 2;
      }
    }
  }
  const names = args.slice(i);
  if (names.length === 0) {
    if (del || print || setPath !== undefined) return 0;
    if (args.length > 1 && args.slice(1).every((a) => /^-r+$/.test(a))) return 0;
    await out(sh, h.size ? formatHashTable(h, reusable) : 'hash: hash table empty\n');
    return 0;
  }
  if (setPath !== undefined && isRestricted(sh)) {
    // (restricted: the file must be one a PATH search finds)
    if (setPath.includes('/')) { await errOut(sh, 'hash', restrictedMsg(setPath)); return 1; }
    if (!lookPath(sh, setPath).path) { await errOut(sh, 'hash', `${setPath}: not found`); return 1; }
  }
  let st = 0;
  for (const n of names) {
    if (setPath !== undefined) { h.set(n, { path: setPath, hits: 0 }); continue; }
    if (del) { if (!h.delete(n)) { await errOut(sh, 'hash', `${n}: not found`); st = 1; } continue; }
    if (print) {
      const e = h.get(n);
      if (!e) { await errOut(sh, 'hash', `${n}: not found`); st = 1; continue; }
      await out(sh, reusable ? `builtin hash -p ${e.path} ${n}\n` : names.length > 1 ? `${n}\t${e.path}\n` : `${e.path}\n`);
      continue;
    }
    if (n.includes('/') || builtinTable.has(n) || sh.funcs.has(n)) continue;
    const f = lookPath(sh, n);
    if (f.path && !f.error) { if (!h.has(n)) h.set(n, { path: f.path, hits: 0 }); } else { await errOut(sh, 'hash', `${n}: not found`); st = 1; }
  }
  return st;
});
