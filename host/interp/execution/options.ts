// Shell options as `set` sees them (the ones the evaluator tests on every command), and
// their one-letter names; the long names of `set -o` (with those that have no effect here),
// their state and `$SHELLOPTS`; and shopt's option names. The set and shopt builtins, the
// evaluator and the CLI all read them.
import type { Shell } from './runner.ts';

export interface Options {
  errtrace?: boolean;
  /** `bash -i`: only shows in `$-` and the option state (no prompts or job control). */
  interactive?: boolean;
  errexit: boolean; nounset: boolean; xtrace: boolean; pipefail: boolean; noglob: boolean; noexec: boolean;
  noclobber: boolean; allexport: boolean; verbose: boolean; posix: boolean;
}

export const optionLetters: Record<string, keyof Options> = {
  e: 'errexit', E: 'errtrace', u: 'nounset', x: 'xtrace', f: 'noglob', n: 'noexec', C: 'noclobber', a: 'allexport', v: 'verbose',
};

export const longOpts: Record<string, string> = {
  errtrace: 'errtrace', errexit: 'errexit', nounset: 'nounset', xtrace: 'xtrace', pipefail: 'pipefail', noglob: 'noglob', noexec: 'noexec',
  noclobber: 'noclobber', allexport: 'allexport', verbose: 'verbose', posix: 'posix',
};
export const fakeOpts = ['braceexpand', 'emacs', 'functrace', 'hashall', 'histexpand', 'history', 'ignoreeof', 'interactive-comments', 'keyword', 'monitor', 'nolog', 'notify', 'onecmd', 'physical', 'privileged', 'vi'];
export const longOptNames = [...Object.keys(longOpts), ...fakeOpts];
/** State of a `set -o` option by its long name. */
export function longOptOn(sh: Shell, name: string): boolean {
  return name in longOpts ? !!(sh.opts as unknown as Record<string, boolean>)[longOpts[name]!] : sh.setOpts.get(name) ?? false;
}
/** `$SHELLOPTS`: the enabled `set -o` options. */
export function shellOptsString(sh: Shell): string {
  return [...Object.keys(longOpts), ...fakeOpts].filter((n) => longOptOn(sh, n)).sort().join(':');
}
export function setLongOpt(sh: Shell, name: string, on: boolean): void {
  // (bash's posix mode turns expand_aliases on; leaving it turns it off in a non-interactive shell)
  if (name === 'posix' && !sh.opts.interactive) { if (on) sh.shopt.add('expand_aliases'); else sh.shopt.delete('expand_aliases'); }
  // (and inherit_errexit and shift_verbose on; leaving it turns shift_verbose off)
  if (name === 'posix') { if (on) sh.shopt.add('inherit_errexit').add('shift_verbose'); else sh.shopt.delete('shift_verbose'); }
  if (name in longOpts) { (sh.opts as unknown as Record<string, boolean>)[longOpts[name]!] = on; return; }
  sh.setOpts.set(name, on);
  if (name === 'history') sh.history.recording = on;
  if (on && name === 'vi') sh.setOpts.set('emacs', false); // the editing modes exclude each other
  if (on && name === 'emacs') sh.setOpts.set('vi', false);
}

export const shoptNames = ['autocd', 'assoc_expand_once', 'cdable_vars', 'cdspell', 'checkhash', 'checkjobs', 'checkwinsize', 'cmdhist', 'compat31', 'compat32', 'compat40', 'compat41', 'compat42', 'compat43', 'compat44', 'complete_fullquote', 'direxpand', 'dirspell', 'dotglob', 'execfail', 'expand_aliases', 'extdebug', 'extglob', 'extquote', 'failglob', 'force_fignore', 'globasciiranges', 'globskipdots', 'globstar', 'gnu_errfmt', 'histappend', 'histreedit', 'histverify', 'hostcomplete', 'huponexit', 'inherit_errexit', 'interactive_comments', 'lastpipe', 'lithist', 'localvar_inherit', 'localvar_unset', 'login_shell', 'mailwarn', 'no_empty_cmd_completion', 'nocaseglob', 'nocasematch', 'noexpand_translation', 'nullglob', 'patsub_replacement', 'progcomp', 'progcomp_alias', 'promptvars', 'restricted_shell', 'shift_verbose', 'sourcepath', 'varredir_close', 'xpg_echo'];
