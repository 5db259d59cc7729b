// What the per-language hsymbol tests share: a temp tree of source files (written before the
// suite, removed after), the rows a definition should print, and hsymbol run on the tree.
import { expect } from 'chai';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hsymbol } from '../../host/hashline/hsymbol.ts';
import { rowHash } from '../../isolates/core-v1/rows.ts';
import { tempDir } from '../support/temp-dir.ts';

export interface HsymbolFixture {
  /** `file:LINE:HASH|text` rows `from..to` of `text` (the content of `file`). */
  rows(file: string, text: string, from: number, to: number): string[];
  run(name: string, paths?: string[]): Promise<{ text: string; definitions: number }>;
  /** The `# …` header lines of a run. */
  headers(name: string, paths?: string[]): Promise<string[]>;
}

/** Call inside a `describe`: registers the before/after hooks that lay out `files`. */
export function hsymbolFixture(label: string, files: Readonly<Record<string, string>>, defaultPaths: string[] = ['.']): HsymbolFixture {
  let tmp: { dir: string; cleanup: () => void };
  before(() => {
    tmp = tempDir(label);
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(tmp.dir, rel)), { recursive: true });
      writeFileSync(join(tmp.dir, rel), text);
    }
  });
  after(() => tmp.cleanup());
  const run = async (name: string, paths = defaultPaths): Promise<{ text: string; definitions: number }> => {
    const r = await hsymbol(name, paths, tmp.dir);
    if ('error' in r) throw new Error(r.error);
    expect(r.problems).to.deep.equal([]);
    return r;
  };
  return {
    rows: (file, text, from, to) => text.split('\n').slice(from - 1, to).map((t, i) => `${file}:${from + i}:${rowHash(t)}|${t}`),
    run,
    headers: async (name, paths) => (await run(name, paths)).text.split('\n').filter((l) => l.startsWith('# ')),
  };
}
