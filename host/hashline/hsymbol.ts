// `hsymbol NAME [PATH...]` (doc/hashline.md): the rows of every definition of a symbol — the whole
// definition's range, so a function can be read (and later edited) from its name alone. Go first,
// from core/v1's lexical declaration scanner: functions, methods (`Type.Method`, or the bare method
// name), types, vars and consts at the top level. Other languages are refused by name until they
// have a real parser behind them (a wrong range would invite a wrong edit). Files from tree-walk.ts.
import { scanGoDeclarations } from '../../isolates/core-v1/go-lexical.ts';
import { splitLines } from '../../isolates/core-v1/lines.ts';
import { formatRow } from '../../isolates/core-v1/rows.ts';
import { classifySource } from '../../isolates/core-v1/source-format.ts';
import { BoundedLines } from './bounded-lines.ts';
import { HREAD_MAX_BYTES, HREAD_MAX_ROWS } from './hread.ts';
import { walkTextFiles } from './tree-walk.ts';


export interface HsymbolResult {
  readonly text: string;
  readonly definitions: number;
  readonly problems: readonly string[];
}

const NAME = /^[\p{L}_][\p{L}\p{Nd}_]*(?:\.[\p{L}_][\p{L}\p{Nd}_]*)?$/u;

export function hsymbol(name: string, paths: readonly string[], cwd: string): HsymbolResult | { error: string } {
  if (!NAME.test(name)) return { error: `${JSON.stringify(name.slice(0, 80))} is not a symbol name (NAME or Type.Method)` };
  const [recv, member] = name.includes('.') ? name.split('.') as [string, string] : [undefined, name];
  // Rows as hread allows them: a long definition is shown whole up to its window.
  const out = new BoundedLines(HREAD_MAX_ROWS, HREAD_MAX_BYTES);
  let definitions = 0;
  const problems = walkTextFiles(paths, cwd, (shown, text) => {
    if (classifySource(shown, text).format !== 'go') return true;
    const decls = scanGoDeclarations(text).filter((d) => d.name === member && (recv === undefined || d.receiver === recv));
    if (decls.length === 0) return true;
    const lines = splitLines(text);
    for (const d of decls) {
      definitions++;
      const what = d.kind === 'method' ? `method (${d.receiver}).${d.name}` : `${d.kind} ${d.name}`;
      if (!out.push(`# ${shown}: ${what}, lines ${d.line}-${d.endLine}`)) return false;
      for (let n = d.line; n <= d.endLine; n++) if (!out.push(`${shown}:${formatRow(n, lines[n - 1]?.text ?? '')}`)) return false;
    }
    return true;
  });
  const text = out.text(`# … output stopped after ${definitions} definition${definitions === 1 ? '' : 's'}: name the file, or Type.Method`);
  return { text, definitions, problems };
}
