// alias and unalias (where aliases expand: syntax/alias.ts).
import { singleQuote } from '../words/quoting.ts';
import { def } from './table.ts';
import { errOut, out, usageErr } from './builtin-io.ts';
import { simpleOpts } from './argument-parsing.ts';

def(['alias'], async (sh, args) => {
  let st = 0;
  const o = await simpleOpts(sh, args, 'p');
  if (typeof o === 'number') return o;
  const a = args.slice(o.i);
  if (a.length === 0 || o.flags.has('p')) { for (const [k, v] of [...sh.aliases].sort()) await out(sh, `alias ${k}=${singleQuote(v)}\n`); if (a.length === 0) return 0; }
  for (const x of a) {
    const eq = x.indexOf('=');
    if (eq > 0) {
      // (bash's legal_alias_name: no blank, metacharacter, quote, `$` or `/`)
      const name = x.slice(0, eq);
      if (/[ \t\n()<>;&|"'`\\$/]/.test(name)) { await errOut(sh, 'alias', `\`${name}': invalid alias name`); st = 1; } else sh.aliases.set(name, x.slice(eq + 1));
    } else if (sh.aliases.has(x)) await out(sh, `alias ${x}=${singleQuote(sh.aliases.get(x)!)}\n`);
    else { await errOut(sh, 'alias', `${x}: not found`); st = 1; }
  }
  return st;
});
def(['unalias'], async (sh, args) => {
  const o = await simpleOpts(sh, args, 'a');
  if (typeof o === 'number') return o;
  if (o.flags.has('a')) { sh.aliases.clear(); return 0; }
  if (o.i >= args.length) return usageErr(sh, 'unalias', undefined);
  let st = 0;
  for (const x of args.slice(o.i)) if (!sh.aliases.delete(x)) { await errOut(sh, 'unalias', `${x}: not found`); st = 1; }
  return st;
});
