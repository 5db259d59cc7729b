// The value of a shell word that no expansion can change, judged on the worker's syntax tree: the
// direct-carrier rule's "static command" and the warnings' command names and options.
import type { Word } from '../interp/syntax/ast.ts';

/** Characters whose presence in an unquoted literal makes bash expand the word (globs, tilde, braces). */
const EXPANDING_LITERAL = /[*?[~{]/;

/** The word's value when bash cannot change it by expansion (literals and plain quotes), else null. */
export function staticWord(w: Word): string | null {
  let out = '';
  for (const p of w.Parts) {
    if (p.type === 'Lit') {
      if (EXPANDING_LITERAL.test(p.Value) || p.Value.includes('$') || p.Value.includes('`')) return null;
      out += p.Value.replace(/\\(.)/gs, '$1');
    } else if (p.type === 'SglQuoted' && !p.Dollar) out += p.Value;
    else if (p.type === 'DblQuoted' && !p.Dollar && p.Parts.every((q) => q.type === 'Lit' && !/[$`]/.test(q.Value))) {
      out += p.Parts.map((q) => (q as { Value: string }).Value.replace(/\\([$`"\\])/g, '$1')).join('');
    } else return null;
  }
  return Buffer.from(out, 'latin1').toString('utf8');
}

