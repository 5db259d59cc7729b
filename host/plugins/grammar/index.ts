// Local, deterministic validation of OpenAI custom-tool grammar formats (REQ-PLUGIN-001): the stable
// subset of OpenAI's custom-tools guide. Provider model-specific and complexity limits stay remote.
import { larkGrammarProblems, type GrammarProblem } from './lark-grammar.ts';
import { checkRustRegex } from './rust-regex.ts';

export type { GrammarProblem } from './lark-grammar.ts';
export { larkGrammarProblems, parseLarkGrammar } from './lark-grammar.ts';
export { commonTerminalNames } from './lark-checks.ts';
export { checkRustRegex } from './rust-regex.ts';

export interface GrammarFormat {
  readonly type: 'grammar';
  readonly syntax: 'lark' | 'regex';
  readonly definition: string;
}

/** Every problem in the grammar, in source order; [] when valid. Positions are 1-based. */
export function grammarProblems(format: GrammarFormat): GrammarProblem[] {
  if (format.syntax === 'lark') return larkGrammarProblems(format.definition);
  return regexProblems(format.definition);
}

function regexProblems(pattern: string): GrammarProblem[] {
  return checkRustRegex(pattern).map((issue) => ({ message: issue.message, ...positionOf(pattern, issue.offset) }));
}

function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset && i < text.length; ) {
    const cp = text.codePointAt(i) ?? 0;
    if (cp === 0x0a) {
      line++;
      column = 1;
    } else {
      column++;
    }
    i += cp > 0xffff ? 2 : 1;
  }
  return { line, column };
}
