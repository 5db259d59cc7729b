// The shell word a piece of source text spells, parsed once and cached: for words the parser
// left as text (a declaration's argument mvdan-sh rejected after an assignment, an array
// literal's `[i]=v` element).
import type { Word } from './ast.ts';
import { parseScript } from './reparse.ts';

const textWords = new Map<string, Word | null>();
/** The shell word `text` spells (one word of source text), or undefined. */
export function wordOfText(text: string): Word | undefined {
  let w = textWords.get(text);
  if (w === undefined) {
    w = null;
    try {
      const r = parseScript(`: ${text}`, false);
      const c = !r.error && r.file.Stmts.length === 1 ? r.file.Stmts[0]!.Cmd : undefined;
      if (c?.type === 'CallExpr' && c.Args.length === 2) w = c.Args[1]!;
    } catch { /* left as it is */ }
    textWords.set(text, w);
  }
  return w ?? undefined;
}
