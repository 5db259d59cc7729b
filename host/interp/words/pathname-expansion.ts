// Pathname expansion, the last step of a word's expansion: each field that has unquoted glob
// characters is matched against the file system under the shell's options (dotglob, extglob,
// nocaseglob, globstar, nullglob, failglob, GLOBIGNORE).
import type { Shell } from '../execution/runner.ts';
import { DiscardError, ShellError } from '../execution/errors.ts';
import type { FieldBuilder } from './fields.ts';
import { glob, hasMeta, splitIgnore } from './pattern.ts';

/** Finishes a word's fields: pathname expansion, then appends them to `out`. */
export function globFields(sh: Shell, fb: FieldBuilder, out: string[]): void {
  const done = fb.finish();
  const globbing = !sh.opts.noglob, ext = sh.shopt.has('extglob');
  for (let i = 0; i < done.length; i++) {
    const f = done[i]!;
    if (f.meta && globbing && hasMeta(f.pat, ext)) {
      // GLOBIGNORE: colon-separated patterns removed from the results; setting it turns dotglob on
      const gi = sh.vars.get('GLOBIGNORE');
      const ignore = gi ? splitIgnore(gi) : undefined;
      const m = glob(f.pat, {
        cwd: sh.cwd, dotglob: sh.shopt.has('dotglob') || !!ignore?.length, extglob: sh.shopt.has('extglob'),
        nocase: sh.shopt.has('nocaseglob'), globstar: sh.shopt.has('globstar'),
        noskipdots: !sh.shopt.has('globskipdots'), ignore, utf8: sh.vars.utf8Locale(),
      });
      if (m.length) { out.push(...m); continue; }
      if (sh.shopt.has('nullglob')) continue;
      if (sh.shopt.has('failglob')) {
        // bash's report_error(): under `set -e` the shell exits, otherwise the line is abandoned
        if (sh.opts.errexit) throw new ShellError(`no match: ${f.val}`, 1, true);
        throw new DiscardError(`no match: ${f.val}`);
      }
      out.push(f.val);
      continue;
    }
    out.push(f.val);
  }
}
