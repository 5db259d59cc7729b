// hsymbol (issue 15, first part, Go): every definition's whole range as rows, methods by
// Type.Method or bare name, top-level only, in walk order; other languages are not guessed at.
import { expect } from 'chai';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hsymbol } from '../../host/hashline/hsymbol.ts';
import { rowHash } from '../../isolates/core-v1/rows.ts';
import { tempDir } from '../support/temp-dir.ts';

const GO = `package main

// Add adds.
func Add(a, b int) int {
	return a + b // }
}

type Box struct {
	v int
}

func (b *Box) Add(n int) {
	b.v += n
}

var (
	Limit = 3
	other = "}"
)

func main() {
	Add := func() {}
	_ = Add
}
`;

describe('hsymbol (Go)', () => {
  let tmp: { dir: string; cleanup: () => void };
  before(() => {
    tmp = tempDir('hsymbol');
    mkdirSync(join(tmp.dir, 'pkg'));
    writeFileSync(join(tmp.dir, 'pkg', 'main.go'), GO);
    writeFileSync(join(tmp.dir, 'pkg', 'notgo.rb'), 'def Add; end\n'); // a language hsymbol does not read
  });
  after(() => tmp.cleanup());

  const lines = GO.split('\n');
  const rows = (from: number, to: number): string[] => lines.slice(from - 1, to).map((t, i) => `pkg/main.go:${from + i}:${rowHash(t)}|${t}`);
  const run = async (name: string) => {
    const r = await hsymbol(name, ['.'], tmp.dir);
    if ('error' in r) throw new Error(r.error);
    return r;
  };

  it('a name gives every top-level definition of it — the function and the method — with whole ranges', async () => {
    const r = await run('Add');
    expect(r.definitions).to.equal(2);
    expect(r.text).to.equal([
      '# pkg/main.go: func Add, lines 4-6', ...rows(4, 6),
      '# pkg/main.go: method (Box).Add, lines 12-14', ...rows(12, 14), '',
    ].join('\n'));
  });
  it('Type.Method selects the method; types and grouped vars are definitions too; locals are not', async () => {
    expect((await run('Box.Add')).text.split('\n')[0]).to.equal('# pkg/main.go: method (Box).Add, lines 12-14');
    expect((await run('Box')).text.split('\n')[0]).to.equal('# pkg/main.go: type Box, lines 8-10');
    expect((await run('Limit')).text.split('\n')[0]).to.equal('# pkg/main.go: var Limit, lines 17-17');
    expect((await run('main')).definitions).to.equal(1);
  });
  it('an unknown name finds nothing; a bad name is an error', async () => {
    expect(await run('Nope')).to.deep.include({ definitions: 0, text: '' });
    expect(await hsymbol('a b', ['.'], tmp.dir)).to.have.property('error');
    expect(await hsymbol('x.y.z', ['.'], tmp.dir)).to.have.property('error');
  });
});
