// Shell options as `set` sees them (the ones the evaluator tests on every command), and
// their one-letter names.

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
