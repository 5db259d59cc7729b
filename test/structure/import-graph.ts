// The value-import graph of host/: every `import … from './x.ts'` and `export … from` that is not
// type-only, every bare `import './x.ts'`, and every dynamic import('./x.ts') with a literal path. Type-only imports are left
// out: they vanish at build time and so cannot make a module wait for another to load.
import * as fs from 'node:fs';
import * as path from 'node:path';

const STATIC = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.{1,2}\/[^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
const BARE = /^\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/gm;

export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name)).sort();
}

/** `{ type A, type B }` (every name type-only) counts as type-only too. */
function typeOnly(kw: string | undefined, clause: string): boolean {
  if (kw) return true;
  const m = /^\{([^}]*)\}$/s.exec(clause.trim());
  if (!m) return false;
  const names = m[1]!.split(',').map((s) => s.trim()).filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

export function valueImports(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(STATIC)) if (!typeOnly(m[2], m[3]!)) out.push(path.resolve(path.dirname(file), m[4]!));
  for (const m of src.matchAll(BARE)) out.push(path.resolve(path.dirname(file), m[1]!));
  for (const m of src.matchAll(DYNAMIC)) out.push(path.resolve(path.dirname(file), m[1]!));
  return out;
}

/** Strongly connected components of more than one file (or a file importing itself), by Tarjan. */
export function importCycles(files: string[]): string[][] {
  const edges = new Map(files.map((f) => [f, valueImports(f)]));
  let index = 0;
  const idx = new Map<string, number>(), low = new Map<string, number>(), onStack = new Set<string>(), stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index); low.set(v, index); index++; stack.push(v); onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); comp.push(w); } while (w !== v);
      if (comp.length > 1 || (edges.get(v) ?? []).includes(v)) cycles.push(comp.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return cycles;
}
