// `set` and `shopt`, the builtins that change the shell's options (the option names and states
// are execution/options.ts's: the evaluator and the CLI read them too).
import { optionLetters, fakeOpts, longOpts, longOptOn, setLongOpt, shoptNames } from '../execution/options.ts';
import { isRestricted, setRestrictedShell } from '../execution/restricted.ts';
import { def } from './table.ts';
import { errOut, out, usageErr } from './builtin-io.ts';
import { listFunctions, shQuoteValue } from './variable-listing.ts';

def(['set'], async (sh, args) => {
  if (args.length === 1) {
    for (const n of sh.vars.names().sort()) {
      const v = sh.vars.raw(n)!;
      await out(sh, `${n}=${v.arr || v.assoc ? sh.vars.declareLine(n).replace(/^declare -\S+ [^=]+=/, '') : shQuoteValue((n === 'SHELLOPTS' || n === 'BASHOPTS' ? sh.vars.param(n) : v.str) ?? '', sh.vars.utf8Locale())}\n`);
    }
    if (!sh.opts.posix) await listFunctions(sh);
    return 0;
  }
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; sh.params = args.slice(i); sh.setParamsCount++; return 0; }
    if (a === '-') { sh.opts.xtrace = false; sh.opts.verbose = false; i++; break; }
    if (!/^[-+]/.test(a)) break;
    const enable = a[0] === '-';
    for (let k = 1; k < a.length; k++) {
      const c = a[k]!;
      if (c === 'o') {
        const name = args[++i];
        if (name === undefined) {
          const all = [...Object.keys(longOpts), ...fakeOpts].sort();
          for (const o of all) {
            const on = longOptOn(sh, o);
            await out(sh, enable ? `${o.padEnd(15)}\t${on ? 'on' : 'off'}\n` : `set ${on ? '-' : '+'}o ${o}\n`);
          }
          continue;
        }
        if (name in longOpts || fakeOpts.includes(name)) setLongOpt(sh, name, enable);
        else { await errOut(sh, 'set', `${name}: invalid option name`); sh.usageFailed = true; return 2; }
        continue;
      }
      const o = optionLetters[c];
      if (o) { sh.opts[o] = enable; continue; }
      if (c === 'r') {
        // (restricted mode is for good: `set +r` in it is an invalid option, status 1)
        if (enable) sh.setOpts.set('restricted', true);
        else if (isRestricted(sh)) { await usageErr(sh, 'set', '+r: invalid option'); return 1; }
        continue;
      }
      if (c === 'H') { setLongOpt(sh, 'histexpand', enable); continue; } // (history expansion: history-reader.ts)
      if ('hBmbkpPtT'.includes(c)) continue;
      return usageErr(sh, 'set', `${a[0]}${c}: invalid option`);
    }
  }
  if (i < args.length) { sh.params = args.slice(i); sh.setParamsCount++; }
  return 0;
}, { special: true });

def(['shopt'], async (sh, args) => {
  let mode: 's' | 'u' | '' = '', quiet = false, print = false, oMode = false;
  const names: string[] = [];
  for (const a of args.slice(1)) {
    if (names.length === 0 && a === '--') continue;
    if (names.length === 0 && /^-./.test(a) && !/^-[supqo]+$/.test(a)) {
      const bad = [...a.slice(1)].find((c) => !'supqo'.includes(c))!;
      return usageErr(sh, 'shopt', `-${bad}: invalid option`);
    }
    if (/^-[supqo]+$/.test(a)) {
      for (const c of a.slice(1)) {
        if (c === 's' || c === 'u') {
          if (mode && mode !== c) { await errOut(sh, 'shopt', 'cannot set and unset shell options simultaneously'); return 1; }
          mode = c;
        } else if (c === 'q') quiet = true; else if (c === 'p') print = true; else oMode = true;
      }
      continue;
    }
    names.push(a);
  }
  if (oMode) {
    // `set -o` options: bash reports a bad name but -s/-u still succeed
    let st = 0;
    const list = names.length ? names : [...Object.keys(longOpts), ...fakeOpts].sort();
    for (const n of list) {
      if (!(n in longOpts) && !fakeOpts.includes(n)) { await errOut(sh, 'shopt', `${n}: invalid option name`); if (!mode) st = 1; continue; }
      if (mode && names.length) { setLongOpt(sh, n, mode === 's'); continue; }
      const on = longOptOn(sh, n);
      if (mode && !names.length && (mode === 's') !== on) continue;
      if (quiet) { if (!on) st = 1; continue; }
      await out(sh, print ? `set ${on ? '-' : '+'}o ${n}\n` : `${n.padEnd(15)}\t${on ? 'on' : 'off'}\n`);
      if (!on && names.length) st = 1;
    }
    return st;
  }
  const list = names.length ? names : shoptNames;
  let st = 0;
  for (const n of list) {
    if (!shoptNames.includes(n)) { await errOut(sh, 'shopt', `${n}: invalid shell option name`); st = 1; continue; }
    if (mode && names.length) { if (n === 'restricted_shell') setRestrictedShell(sh); else if (mode === 's') sh.shopt.add(n); else sh.shopt.delete(n); continue; }
    const on = sh.shopt.has(n);
    if (mode && !names.length && (mode === 's') !== on) continue;
    if (quiet) { if (!on) st = 1; continue; }
    await out(sh, print ? `shopt ${on ? '-s' : '-u'} ${n}\n` : `${n.padEnd(15)}\t${on ? 'on' : 'off'}\n`);
    if (!on && names.length) st = 1;
  }
  return st;
});
