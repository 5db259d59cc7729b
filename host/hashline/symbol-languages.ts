// Which definition scanner hsymbol uses for a file: by the format classifySource gives it (the
// extension, or a shebang for a file without one). Go keeps core/v1's lexical scanner; the others
// parse with tree-sitter, loaded only when a file of that language is scanned.
import { scanGoDeclarations } from '../../isolates/core-v1/go-lexical.ts';
import type { SourceFormat } from '../../isolates/core-v1/source-format.ts';
import type { SymbolDefinition, SymbolScanner } from './symbol-definition.ts';
import { pythonScanner } from './symbols-python.ts';
import { rustScanner } from './symbols-rust.ts';
import { typescriptScanner } from './symbols-typescript.ts';

const scanGo: SymbolScanner = async (text) => scanGoDeclarations(text).map((d): SymbolDefinition => ({
  name: d.name,
  ...(d.receiver === undefined ? {} : { container: d.receiver }),
  label: d.kind === 'method' ? `method (${d.receiver}).${d.name}` : `${d.kind} ${d.name}`,
  line: d.line,
  endLine: d.endLine,
}));

const typescript = typescriptScanner('typescript');
const tsx = typescriptScanner('tsx');
const javascript = typescriptScanner('javascript');

/** The scanner for a file, or undefined when hsymbol does not read its language. */
export function symbolScanner(format: SourceFormat, path: string): SymbolScanner | undefined {
  switch (format) {
    case 'go': return scanGo;
    // JSX in a .tsx file and a `<T>x` cast in a .ts one cannot share a grammar.
    case 'typescript': return /\.tsx$/i.test(path) ? tsx : typescript;
    case 'javascript': return javascript;
    case 'python': return pythonScanner;
    case 'rust': return rustScanner;
    default: return undefined;
  }
}

/** The languages hsymbol reads, for its messages. */
export const SYMBOL_LANGUAGES = 'Go, TypeScript/JavaScript, Python and Rust';
