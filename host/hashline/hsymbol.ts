// `hsymbol NAME [PATH...]` (doc/hashline.md): the rows of every definition of a symbol — the whole
// definition's range, so a function can be read (and later edited) from its name alone. Go from
// core/v1's lexical declaration scanner; TypeScript/JavaScript, Python and Rust from tree-sitter
// grammars (symbol-languages.ts). A member is found as `Container.name` (a method by its type,
// class, impl or trait) or by its bare name, like a free function. Other languages are not guessed
// at with patterns: a wrong range would invite a wrong edit. Files from tree-walk.ts.
import { splitLines } from '../../isolates/core-v1/lines.ts';
import { formatRow } from '../../isolates/core-v1/rows.ts';
import { classifySource } from '../../isolates/core-v1/source-format.ts';
import { BoundedLines } from './bounded-lines.ts';
import { HREAD_MAX_BYTES, HREAD_MAX_ROWS } from './hread.ts';
import { symbolScanner } from './symbol-languages.ts';
import { textFiles } from './tree-walk.ts';


export interface HsymbolResult {
  readonly text: string;
  readonly definitions: number;
  readonly problems: readonly string[];
}

// Identifiers of all four languages (`$` for JavaScript); a JavaScript private member keeps its `#`.
const ID = '[\\p{L}\\p{Nl}_$][\\p{L}\\p{Nl}\\p{Mn}\\p{Mc}\\p{Nd}\\p{Pc}_$]*';
const NAME = new RegExp(`^(?:${ID}\\.)?#?${ID}$`, 'u');

export async function hsymbol(name: string, paths: readonly string[], cwd: string): Promise<HsymbolResult | { error: string }> {
  if (!NAME.test(name)) return { error: `${JSON.stringify(name.slice(0, 80))} is not a symbol name (NAME or Type.Method)` };
  const dot = name.indexOf('.');
  const [container, member] = dot < 0 ? [undefined, name] : [name.slice(0, dot), name.slice(dot + 1)];
  // Rows as hread allows them: a long definition is shown whole up to its window.
  const out = new BoundedLines(HREAD_MAX_ROWS, HREAD_MAX_BYTES);
  let definitions = 0;
  const problems: string[] = [];
  const failed = new Set<string>();
  // A definition spells its name as a whole word: most files are skipped without being parsed.
  const word = new RegExp(`(?<![\\p{L}\\p{Nd}_$])${member.replace(/\$/g, '\\$')}(?![\\p{L}\\p{Nd}_$])`, 'u');
  walk: for (const { shown, text } of textFiles(paths, cwd, problems)) {
    const scan = symbolScanner(classifySource(shown, text).format, shown);
    if (scan === undefined || !text.includes(member) || !word.test(text)) continue;
    let defs;
    try {
      defs = (await scan(text)).filter((d) => d.name === member && (container === undefined || d.container === container));
    } catch (e) {
      // A parser that cannot load is said once, not for every file of its language.
      const why = e instanceof Error ? e.message : String(e);
      if (!failed.has(why)) problems.push(`${shown}: ${why}`);
      failed.add(why);
      continue;
    }
    if (defs.length === 0) continue;
    const lines = splitLines(text);
    for (const d of defs) {
      definitions++;
      if (!out.push(`# ${shown}: ${d.label}, lines ${d.line}-${d.endLine}${d.syntaxError === true ? ' (has a syntax error)' : ''}`)) break walk;
      for (let n = d.line; n <= d.endLine; n++) if (!out.push(`${shown}:${formatRow(n, lines[n - 1]?.text ?? '')}`)) break walk;
    }
  }
  const text = out.text(`# … output stopped after ${definitions} definition${definitions === 1 ? '' : 's'}: name the file, or Type.Method`);
  return { text, definitions, problems };
}
