// The directory builtins: cd and pwd, and the directory stack (pushd, popd, dirs).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Shell } from '../execution/runner.ts';
import { errnoMsg } from '../execution/errno-message.ts';
import { isRestricted, restrictedMsg } from '../execution/restricted.ts';
import { def } from './table.ts';
import { errOut, out, usageErr } from './builtin-io.ts';
import { flagOptions } from './argument-parsing.ts';

async function chdir(sh: Shell, dir: string, name = 'cd', physical = false): Promise<number> {
  // (pushd/popd change directory through bash's cd, which refuses in a restricted shell)
  if (name !== 'cd' && isRestricted(sh)) { await sh.err(restrictedMsg(name)); return 1; }
  let target = path.resolve(sh.cwd, dir);
  let st: fs.Stats;
  // like bash: the logical path when each directory before a `..` exists, else (and for -P)
  // the path as the kernel resolves it, and then the physical working directory
  if (physical || !dotDotOk(sh.cwd, dir)) {
    const raw = Buffer.from(dir.startsWith('/') ? dir : sh.cwd + '/' + dir, 'latin1');
    try { target = (fs.realpathSync.native(raw, { encoding: 'buffer' }) as Buffer).toString('latin1'); } catch (e) { await errOut(sh, name, `${dir}: ${errnoMsg(e)}`); return 1; }
  }
  try { st = fs.statSync(Buffer.from(target, 'latin1')); } catch (e) { await errOut(sh, name, `${dir}: ${errnoMsg(e)}`); return 1; }
  if (!st.isDirectory()) { await errOut(sh, name, `${dir}: Not a directory`); return 1; }
  try { fs.accessSync(Buffer.from(target, 'latin1'), fs.constants.X_OK); } catch { await errOut(sh, name, `${dir}: Permission denied`); return 1; }
  sh.vars.set('OLDPWD', sh.vars.get('PWD') ?? sh.cwd);
  sh.cwd = target;
  sh.vars.set('PWD', target);
  return 0;
}

/** bash's PATH_CHECKDOTDOT: the logical path before each `..` of `dir` is a directory. */
function dotDotOk(cwd: string, dir: string): boolean {
  let p = dir.startsWith('/') ? '/' : cwd;
  for (const c of dir.split('/')) {
    if (c === '..') {
      try { if (!fs.statSync(Buffer.from(p, 'latin1')).isDirectory()) return false; } catch { return false; }
    }
    p = path.resolve(p, c);
  }
  return true;
}

def(['cd'], async (sh, args) => {
  if (isRestricted(sh)) { await sh.err(restrictedMsg('cd')); return 1; }
  // (the last of -L and -P counts; bash has no -@ without extended attributes)
  const o = await flagOptions(sh, 'cd', args, 'LPe');
  if (typeof o === 'number') return o;
  const physical = o.flags.replace(/e/g, '').endsWith('P');
  const a = args.slice(o.next);
  if (a.length > 1) { await errOut(sh, 'cd', 'too many arguments'); return 1; }
  let dir = a[0];
  let print = false;
  if (dir === undefined) {
    dir = sh.vars.get('HOME');
    if (dir === undefined) { await errOut(sh, 'cd', 'HOME not set'); return 1; }
  } else if (dir === '-') {
    dir = sh.vars.get('OLDPWD');
    if (dir === undefined) { await errOut(sh, 'cd', 'OLDPWD not set'); return 1; }
    print = true;
  } else if (!dir.startsWith('/') && !dir.startsWith('./') && !dir.startsWith('../') && dir !== '.' && dir !== '..') {
    const cdpath = sh.vars.get('CDPATH');
    if (cdpath) {
      for (const p of cdpath.split(':')) {
        if (p === '') continue;
        const cand = path.resolve(sh.cwd, p, dir);
        try { if (fs.statSync(Buffer.from(cand, 'latin1')).isDirectory()) { dir = cand; print = true; break; } } catch { /* */ }
      }
    }
  }
  if (dir === '') return 0;
  const st = await chdir(sh, dir, 'cd', physical);
  if (st === 0 && print) await out(sh, sh.cwd + '\n');
  return st;
});

def(['pwd'], async (sh, args) => {
  let phys = false;
  for (let i = 1; i < args.length && /^-./.test(args[i]!) && args[i] !== '--'; i++) {
    for (const c of args[i]!.slice(1)) {
      if (c === 'P') phys = true;
      else if (c === 'L') phys = false;
      else return usageErr(sh, 'pwd', `-${c}: invalid option`);
    }
  }
  if (phys) { try { await out(sh, (fs.realpathSync(Buffer.from(sh.cwd, 'latin1'), { encoding: 'buffer' }) as Buffer).toString('latin1') + '\n'); return 0; } catch { /* */ } }
  await out(sh, sh.cwd + '\n');
  return 0;
});

/** pushd/popd/dirs operands: leading `-n` (pushd/popd), `+N`/`-N`, `--`; bash's usage errors. */
async function dirArgs(sh: Shell, args: string[], name: string): Promise<{ n: boolean; flags: Set<string>; ops: string[] } | number> {
  const flags = new Set<string>();
  const ops: string[] = [];
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (/^[-+]\d+$/.test(a)) { ops.push(a); continue; }
    if (a.length > 1 && a[0] === '-') {
      const allowed = name === 'dirs' ? 'clpv' : 'n';
      if ([...a.slice(1)].every((c) => allowed.includes(c))) { for (const c of a.slice(1)) flags.add(c); continue; }
      return usageErr(sh, name, `${a}: invalid number`);
    }
    if (name === 'pushd') { ops.push(a); continue; }
    return usageErr(sh, name, name === 'popd' ? `${a}: invalid argument` : `${a}: invalid option`);
  }
  for (; i < args.length; i++) ops.push(args[i]!);
  return { n: flags.has('n'), flags, ops };
}
/** Index into [cwd, ...stack] of `+N`/`-N`, or an error status after printing bash's message. */
async function stackIndex(sh: Shell, name: string, a: string, shown = a): Promise<number | string> {
  const len = sh.dirStack.length + 1;
  const n = Number(a.slice(1));
  const idx = a[0] === '+' ? n : len - 1 - n;
  if (idx >= 0 && idx < len) return idx;
  return sh.dirStack.length === 0 ? 'directory stack empty' : `${shown}: directory stack index out of range`;
}
const printStack = (sh: Shell): Promise<void> => out(sh, [sh.cwd, ...sh.dirStack].map((d) => tildeHome(sh, d)).join(' ') + '\n');
def(['pushd'], async (sh, args) => {
  const o = await dirArgs(sh, args, 'pushd');
  if (typeof o === 'number') return o;
  if (o.ops.length > 1) { await errOut(sh, 'pushd', 'too many arguments'); return 1; }
  const dir = o.ops[0];
  if (dir === undefined && o.n) return 0;
  if (dir === undefined || /^[-+]\d+$/.test(dir)) {
    if (sh.dirStack.length === 0) { await errOut(sh, 'pushd', dir === undefined ? 'no other directory' : 'directory stack empty'); return 1; }
    const idx = dir === undefined ? 1 : await stackIndex(sh, 'pushd', dir);
    if (typeof idx === 'string') { await errOut(sh, 'pushd', idx); return 1; }
    // like bash, the stack changes before the cd, which may fail: the swap puts the current
    // directory on top; a rotation moves it to the bottom, and with -n the new top is dropped
    let to: string;
    if (dir === undefined) { to = sh.dirStack[0]!; sh.dirStack[0] = sh.cwd; } else if (idx === 0) to = sh.cwd;
    else {
      const rot = [...sh.dirStack.slice(idx - 1), sh.cwd, ...sh.dirStack.slice(0, idx - 1)];
      to = rot[0]!;
      sh.dirStack = rot.slice(1);
    }
    if (o.n && dir !== undefined) return 0;
    const st = await chdir(sh, to, 'pushd');
    if (st) return st;
  } else if (o.n) {
    sh.dirStack.unshift(dir); // (as typed)
  } else {
    const cur = sh.cwd;
    const st = await chdir(sh, dir, 'pushd');
    if (st) return st;
    sh.dirStack.unshift(cur);
  }
  await printStack(sh);
  return 0;
});
def(['popd'], async (sh, args) => {
  const o = await dirArgs(sh, args, 'popd');
  if (typeof o === 'number') return o;
  if (o.ops.length > 1) { await errOut(sh, 'popd', 'too many arguments'); return 1; }
  if (sh.dirStack.length === 0) { await errOut(sh, 'popd', 'directory stack empty'); return 1; }
  const idx = o.ops[0] === undefined ? 0 : await stackIndex(sh, 'popd', o.ops[0]);
  if (typeof idx === 'string') { await errOut(sh, 'popd', idx); return 1; }
  if (idx === 0) {
    if (o.n) sh.dirStack.shift();
    else {
      const st = await chdir(sh, sh.dirStack[0]!, 'popd');
      if (st) return st;
      sh.dirStack.shift();
    }
  } else sh.dirStack.splice(idx - 1, 1);
  await printStack(sh);
  return 0;
});
def(['dirs'], async (sh, args) => {
  const o = await dirArgs(sh, args, 'dirs');
  if (typeof o === 'number') return o;
  if (o.flags.has('c')) { sh.dirStack = []; return 0; }
  const long = o.flags.has('l');
  let list = [sh.cwd, ...sh.dirStack].map((d) => (long ? d : tildeHome(sh, d)));
  if (o.ops.length) {
    const idx = await stackIndex(sh, 'dirs', o.ops[0]!, o.ops[0]!.slice(1));
    if (typeof idx === 'string') { await errOut(sh, 'dirs', idx); return 1; }
    list = [list[idx]!];
    if (!o.flags.has('v')) { await out(sh, list[0] + '\n'); return 0; }
  }
  if (o.flags.has('v')) await out(sh, list.map((d, i) => ` ${i}  ${d}\n`).join(''));
  else if (o.flags.has('p')) await out(sh, list.map((d) => d + '\n').join(''));
  else await out(sh, list.join(' ') + '\n');
  return 0;
});
function tildeHome(sh: Shell, d: string): string {
  const h = sh.vars.get('HOME');
  if (h && h !== '/' && (d === h || d.startsWith(h + '/'))) return '~' + d.slice(h.length);
  return d;
}
