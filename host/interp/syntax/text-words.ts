// Text parsed at run time as the body of a here-document, to be expanded as bash expands it:
// arithmetic text (arith.ts) and the PS4 prompt (expand.ts). Apart from reparse.ts because it
// runs when the script does, not when it is read.
import type { Word } from './ast.ts';
import { parse } from './parser.ts';
import { toUtf8 } from './reparse-after-parse.ts';

const textWords = new Map<string, Word | null>();

/**
 * Arithmetic text as a word to expand like a here-document body (`$…`, `` `…` `` and `\` are
 * special), with the double quotes removed as bash does; null when it needs no expansion or
 * does not parse.
 */
export function arithTextWord(text: string): Word | null {
  let w = textWords.get(text);
  if (w !== undefined) return w;
  w = null;
  if (/[$`"\\]/.test(text)) {
    const d = '__HPATCH_ARITH_TEXT__';
    try {
      const f = parse(toUtf8(`: <<${d}\n${text}\n${d}\n`), false);
      const h = f.Stmts[0]?.Redirs[0]?.Hdoc;
      if (h) w = { ...h, Parts: h.Parts.map((p) => (p.type === 'Lit' ? { ...p, Value: p.Value.replace(/"/g, '') } : p)) };
    } catch { /* evaluated as it is: a syntax error */ }
  }
  if (textWords.size > 500) textWords.clear();
  textWords.set(text, w);
  return w;
}

const promptWords = new Map<string, { word: Word; src: string } | null>();

/** A prompt string (PS4) as a word to expand like a here-document body, and the text its positions are in; null when it does not parse. */
export function promptTextWord(text: string): { word: Word; src: string } | null {
  let w = promptWords.get(text);
  if (w !== undefined) return w;
  w = null;
  const d = '__HPATCH_PROMPT_TEXT__';
  const src = `: <<${d}\n${text}\n${d}\n`;
  try { const word = parse(toUtf8(src), false).Stmts[0]?.Redirs[0]?.Hdoc; if (word) w = { word, src }; } catch { /* used as it is */ }
  if (promptWords.size > 100) promptWords.clear();
  promptWords.set(text, w);
  return w;
}
