// `getopts`, bash's getopts.def over its sh_getopt.
import { isName } from '../syntax/names.ts';
import { def } from './table.ts';
import { errOut, usageErr } from './builtin-io.ts';

// bash's sh_getopt: sh.optind is its sh_optind (argv[0] is $0), sh.optchar the offset of
// `nextchar` inside argv[optind] (0: none). Assigning OPTIND resets both (VarStore.set).
def(['getopts'], async (sh, args) => {
  const spec = args[1];
  const name = args[2];
  if (spec === undefined || name === undefined) return usageErr(sh, 'getopts', undefined);
  const argv = [sh.arg0, ...(args.length > 3 ? args.slice(3) : sh.params)];
  const argc = argv.length;
  // (OPTERR=0 silences the messages as bash's atoi reads it; unset, they are on)
  const opterr = sh.vars.get('OPTERR');
  const silent = spec.startsWith(':'), quiet = silent || (opterr !== undefined && !(parseInt(opterr.trim(), 10) || 0));
  const opts = silent ? spec.slice(1) : spec;
  let ind = sh.optind, ci = sh.optchar;
  const v = sh.vars.get('OPTIND');
  if (v !== String(ind)) { ind = Number(v) || 1; ci = 0; }
  const bind = async (val: string): Promise<number> => {
    if (!isName(name)) { await errOut(sh, 'getopts', `\`${name}': not a valid identifier`); return 1; }
    sh.vars.set(name, val);
    return 0;
  };
  const finish = (): void => { sh.vars.set('OPTIND', String(ind)); sh.optind = ind; sh.optchar = ci; };
  const eof = async (): Promise<number> => { finish(); sh.vars.unset('OPTARG'); await bind('?'); return 1; };
  if (ind >= argc || ind < 0) { ind = argc; ci = 0; return eof(); }
  if (ind === 0) { ind = 1; ci = 0; }
  if (!ci) {
    const a = argv[ind]!;
    if (a[0] !== '-' || a.length === 1) return eof();
    if (a === '--') { ind++; return eof(); }
    ci = 1;
  }
  const el = argv[ind]!;
  const c = el[ci++]!;
  if (ci >= el.length) { ind++; ci = 0; }
  const k = opts.indexOf(c);
  if (k < 0 || c === ':') {
    finish();
    if (silent) { sh.vars.set('OPTARG', c); }
    else { if (!quiet) await sh.writeFd(2, `${sh.arg0}: illegal option -- ${c}\n`); sh.vars.unset('OPTARG'); }
    return bind('?');
  }
  if (opts[k + 1] === ':') {
    let val: string | undefined;
    if (ci) { val = el.slice(ci); ind++; }
    else if (ind < argc) val = argv[ind++];
    ci = 0;
    finish();
    if (val === undefined) {
      if (silent) { sh.vars.set('OPTARG', c); return bind(':'); }
      if (!quiet) await sh.writeFd(2, `${sh.arg0}: option requires an argument -- ${c}\n`);
      sh.vars.unset('OPTARG');
      return bind('?');
    }
    sh.vars.set('OPTARG', val);
    return bind(c);
  }
  finish();
  sh.vars.unset('OPTARG');
  return bind(c);
});
