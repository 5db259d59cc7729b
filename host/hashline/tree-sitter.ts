// Tree-sitter for hsymbol's TypeScript/JavaScript, Python and Rust definitions: real grammars, so
// a brace in a string, a template literal, a raw string or a comment can never shift a range.
// @vscode/tree-sitter-wasm ships the runtime and the grammars as WebAssembly built together (one
// ABI, no native build). Nothing is loaded until the first file of such a language is scanned —
// the worker's cold start never pays for it — and then only that language's grammar; the package
// is found beside the running dist/ (package-require.ts), as the startup snapshot cannot hold it.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Language, Node, Parser, Point } from '@vscode/tree-sitter-wasm';
import { packageRequire } from './package-require.ts';

export type { Node as SyntaxNode } from '@vscode/tree-sitter-wasm';

export type Grammar = 'typescript' | 'tsx' | 'javascript' | 'python' | 'rust';

const PACKAGE = '@vscode/tree-sitter-wasm';

interface Runtime {
  readonly Parser: typeof Parser;
  readonly Language: typeof Language;
  readonly wasmDir: string;
}

let runtime: Promise<Runtime> | undefined;
const parsers = new Map<Grammar, Promise<Parser>>();

async function loadRuntime(): Promise<Runtime> {
  const req = packageRequire(PACKAGE);
  const mod = req(PACKAGE) as typeof import('@vscode/tree-sitter-wasm');
  const wasmDir = dirname(req.resolve(PACKAGE));
  await mod.Parser.init({ locateFile: (file: string) => join(wasmDir, file) });
  return { Parser: mod.Parser, Language: mod.Language, wasmDir };
}

// A failed load is reported for the file that needed it and tried again for the next one.
function forgetOnFailure<T>(p: Promise<T>, forget: () => void): Promise<T> {
  p.catch(forget);
  return p;
}

function parserFor(grammar: Grammar): Promise<Parser> {
  let p = parsers.get(grammar);
  if (p === undefined) {
    p = forgetOnFailure((async () => {
      runtime ??= forgetOnFailure(loadRuntime(), () => { runtime = undefined; });
      const rt = await runtime;
      const language = await rt.Language.load(readFileSync(join(rt.wasmDir, `tree-sitter-${grammar}.wasm`)));
      const parser = new rt.Parser();
      parser.setLanguage(language);
      return parser;
    })(), () => parsers.delete(grammar));
    parsers.set(grammar, p);
  }
  return p;
}

/** Parses `text` and hands the root to `read`; the tree is freed afterwards (it lives in WebAssembly memory). */
export async function parseWith<T>(grammar: Grammar, text: string, read: (root: Node) => T): Promise<T> {
  let parser: Parser;
  try {
    parser = await parserFor(grammar);
  } catch (e) {
    // (the first line: Node's "Cannot find module" goes on with its whole require stack)
    const why = (e instanceof Error ? e.message : String(e)).split('\n')[0];
    throw new Error(`the ${grammar} parser (${PACKAGE}) cannot be loaded: ${why}`);
  }
  // Tree-sitter always returns a tree: syntax errors become ERROR or MISSING nodes in it.
  const tree = parser.parse(text);
  if (tree === null) throw new Error(`the ${grammar} parser gave no tree`);
  try {
    return read(tree.rootNode);
  } finally {
    tree.delete();
  }
}

const COMMENTS = new Set(['comment', 'line_comment', 'block_comment']);

export function isComment(n: Node): boolean {
  return COMMENTS.has(n.type);
}

/**
 * The first node of a definition's range: the earliest of the decorators or attributes (`accept`)
 * directly before it among its siblings — comments between them belong to the range, comments
 * before the first one do not.
 */
export function attachedStart(node: Node, accept: (sibling: Node) => boolean): Node {
  let start = node;
  for (let s = node.previousSibling; s !== null; s = s.previousSibling) {
    if (accept(s)) start = s;
    else if (!isComment(s)) break;
  }
  return start;
}

/**
 * A definition's span: 1-based lines from `start`'s first line to `node`'s last token that is not
 * a comment (a comment trailing a Python block is not part of the definition, and neither is a
 * zero-width token tree-sitter inserted for a missing `}`), and whether tree-sitter had to recover
 * from a syntax error inside it (the range may then not be what a compiler would see).
 */
export function span(start: Node, node: Node): { line: number; endLine: number; syntaxError?: true } {
  const line = start.startPosition.row + 1;
  const end = lastTokenEnd(node);
  // A token that ends with its newline (a line comment) ends on the line before.
  const endLine = Math.max(line, end.column === 0 && end.row > start.startPosition.row ? end.row : end.row + 1);
  return node.hasError ? { line, endLine, syntaxError: true } : { line, endLine };
}

function lastTokenEnd(node: Node): Point {
  let n = node;
  for (;;) {
    let next: Node | null = null;
    for (let i = n.childCount - 1; i >= 0; i--) {
      const c = n.child(i);
      if (c !== null && !isComment(c) && c.endIndex > c.startIndex) {
        next = c;
        break;
      }
    }
    if (next === null) return n.endPosition;
    n = next;
  }
}

/** A named child by field, or null (a thin wrapper: the runtime returns null or undefined). */
export function field(node: Node, name: string): Node | null {
  return node.childForFieldName(name) ?? null;
}

/** The named children, without comments. */
export function members(node: Node): Node[] {
  const out: Node[] = [];
  for (let i = 0; i < node.namedChildCount; i++) {
    const c = node.namedChild(i);
    if (c !== null && !isComment(c)) out.push(c);
  }
  return out;
}
