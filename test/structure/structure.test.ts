// The codebase's shape as issue 17 set it: no value-import circle in host/ (type-only imports are
// fine: they vanish at build time), no source file over 900 lines, the interpreter's files in the
// folders that name its parts, and its builtins reached only through their table.
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { importCycles, sourceFiles, valueImports } from './import-graph.ts';

const host = path.resolve('host');
const rel = (f: string): string => path.relative(host, f);
const MAX_LINES = 900;

describe('structure of host/', () => {
  it('has no value-import circle', () => {
    expect(importCycles(sourceFiles(host)).map((c) => c.map(rel).join(' → '))).to.deep.equal([]);
  });

  it(`has no source file over ${MAX_LINES} lines`, () => {
    const long = sourceFiles(host).map((f) => [rel(f), fs.readFileSync(f, 'utf8').split('\n').length - 1] as const).filter(([, n]) => n > MAX_LINES);
    expect(long).to.deep.equal([]);
  });

  it('keeps every interpreter file in the folder of its part', () => {
    const parts = new Set(['syntax', 'words', 'variables', 'execution', 'builtins', 'private', 'launch']);
    const stray = sourceFiles(path.join(host, 'interp')).map((f) => path.relative(path.join(host, 'interp'), f)).filter((f) => !parts.has(f.split(path.sep)[0]!));
    expect(stray).to.deep.equal([]);
  });

  it('reaches the builtin families only through the table (launch/ loads them all once)', () => {
    const builtins = path.join(host, 'interp', 'builtins');
    const shared = new Set(['table.ts', 'declaration-items.ts'].map((f) => path.join(builtins, f)));
    const loader = path.join(builtins, 'all.ts');
    const reaches = sourceFiles(host).filter((f) => !f.startsWith(builtins + path.sep)).flatMap((f) => valueImports(f)
      .filter((t) => t.startsWith(builtins + path.sep) && !shared.has(t) && !(t === loader && f.startsWith(path.join(host, 'interp', 'launch') + path.sep)))
      .map((t) => `${rel(f)} → ${rel(t)}`));
    expect(reaches).to.deep.equal([]);
  });

  describe('the import-graph reader', () => {
    let dir: string;
    const write = (name: string, text: string): void => fs.writeFileSync(path.join(dir, name), text);
    beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-graph-')); });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('finds a circle of value imports, static and dynamic', () => {
      write('a.ts', "import { b } from './b.ts';\nexport const a = b;\n");
      write('b.ts', "export const b = 1;\nexport async function c() { return (await import('./a.ts')).a; }\n");
      write('c.ts', "import { a } from './a.ts';\nexport const c = a;\n");
      write('d.ts', "import './e.ts';\n");
      write('e.ts', "import {\n  x,\n} from './d.ts';\n");
      expect(importCycles(sourceFiles(dir)).map((c) => c.map((f) => path.basename(f)))).to.deep.equal([['a.ts', 'b.ts'], ['d.ts', 'e.ts']]);
    });

    it('leaves type-only imports out', () => {
      write('a.ts', "import type { B } from './b.ts';\nimport { type C } from './c.ts';\nexport type A = B | C;\n");
      write('b.ts', "import { a } from './a.ts';\nexport type B = number;\nexport const x = a;\n");
      write('c.ts', "export { a } from './a.ts';\nexport type C = string;\n");
      expect(importCycles(sourceFiles(dir))).to.deep.equal([]);
    });
  });
});
