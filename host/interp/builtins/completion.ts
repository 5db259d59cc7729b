// Programmable completion and line editing as a non-interactive bash has them: compgen,
// complete, compopt, bind.
import type { Shell } from '../execution/runner.ts';
import { CompletionSpecs } from './completion-specs.ts';
import { builtinTable, def } from './table.ts';
import { errOut, out, usageErr } from './builtin-io.ts';

def(['bind'], async (sh) => { await errOut(sh, 'bind', 'warning: line editing not enabled'); return 0; });
def(['compopt'], async () => 0);
def(['complete'], async (sh, args) => {
  const r = (sh.completionSpecs ??= new CompletionSpecs()).run(args.slice(1));
  if (r.out) await out(sh, r.out);
  for (const e of r.errors) await errOut(sh, 'complete', e);
  if (r.usage !== undefined) return usageErr(sh, 'complete', undefined);
  return r.status;
});

def(['compgen'], async (sh, args) => {
  let words: string[] = [];
  let func: string | undefined;
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (!a.startsWith('-') || a === '-') break;
    const o = a.slice(1);
    if (o === 'W') { const w = args[++i] ?? ''; const ifs = sh.vars.get('IFS') ?? ' \t\n'; words.push(...w.split(new RegExp(`[${ifs.replace(/[\]\\^-]/g, '\\$&')}]+`)).filter((x) => x !== '')); continue; }
    if (o === 'A') { const k = args[++i] ?? ''; words.push(...compgenKind(sh, k)); continue; }
    if (o === 'F') { func = args[++i] ?? ''; continue; }
    for (const c of o) {
      const k = ({ v: 'variable', a: 'alias', b: 'builtin', k: 'keyword', e: 'export' } as Record<string, string>)[c];
      if (k) words.push(...compgenKind(sh, k));
    }
  }
  const prefix = args[i] ?? '';
  const hits = words.filter((w) => w.startsWith(prefix));
  if (func !== undefined) hits.push(...await compgenFunction(sh, func, prefix));
  for (const w of hits) await out(sh, w + '\n');
  return hits.length ? 0 : 1;
});

/**
 * `compgen -F func`: bash calls the function as for completing an empty command line (the COMP_*
 * variables say so) and takes COMPREPLY as it is, unfiltered; then unsets them all.
 */
async function compgenFunction(sh: Shell, func: string, word: string): Promise<string[]> {
  await errOut(sh, 'compgen', 'warning: -F option may not work as you expect');
  const body = sh.funcs.get(func);
  if (!body) { await sh.err(`completion: function \`${func}' not found`); return []; }
  const vars = ['COMP_WORDS', 'COMP_CWORD', 'COMP_LINE', 'COMP_POINT', 'COMP_TYPE', 'COMP_KEY'];
  sh.vars.lvalueArray('COMP_WORDS').clear();
  sh.vars.set('COMP_CWORD', '-1'); sh.vars.set('COMP_LINE', ''); sh.vars.set('COMP_POINT', '0'); sh.vars.set('COMP_TYPE', '0'); sh.vars.set('COMP_KEY', '0');
  try {
    await sh.callFunc(func, body, ['compgen', word, '']);
    return sh.vars.arrayValues('COMPREPLY');
  } finally {
    for (const n of [...vars, 'COMPREPLY']) { try { sh.vars.unset(n); } catch { /* readonly */ } }
  }
}

function compgenKind(sh: Shell, kind: string): string[] {
  switch (kind) {
    case 'function': return [...sh.funcs.keys()].sort();
    case 'alias': return [...sh.aliases.keys()].sort();
    case 'builtin': return [...builtinTable.keys()].sort();
    case 'keyword': return ['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc'];
    case 'variable': case 'export': {
      const names = new Set<string>();
      for (const k of sh.vars.names(true, kind === 'export')) names.add(k);
      return [...names].sort();
    }
    default: return [];
  }
}
