// hsymbol for TypeScript and JavaScript (tree-sitter): whole ranges from `export`/decorators to the
// closing brace, doc comments left out, `Class.method` or the bare name, overload signatures joined
// to their implementation, locals and text in strings, comments and templates never definitions.
import { expect } from 'chai';
import { hsymbolFixture } from './hsymbol-fixture.ts';

const BOX_TS = `// function fake() {} in a comment
/** Doc comment: not part of the range. */
@sealed({
  id: 1,
})
export class Box<T> extends Base {
  private items: T[] = [];

  /** Adds. */
  add(item: T): void;
  add(items: T[]): void;
  @logged
  add(x: T | T[]): void {
    const s = \`}\${'{'} class Fake {}\`;
    this.items.push(...(Array.isArray(x) ? x : [x]));
  }

  get size(): number { return this.items.length; }

  onClick = (e: Event) => {
    function local() {}
    return e;
  };
}

export async function add(
  a: number,
  b: number,
): Promise<number> {
  const fake = "function fake() { }";
  return a + b;
}

export const LIMIT = 3, { left, right: [first] } = pair();
let counter = 0;
export interface Shape { area(): number }
export type Id = string | number;
enum Color { Red, Green }
namespace Geometry {
  export function area(s: Shape): number { return s.area(); }
}
export function parse(s: string): number;
export function parse(s: number): number;
export function parse(s: unknown): number {
  return Number(s);
}
`;

const VIEW_TSX = `export function View<T>(props: { items: T[] }) {
  return <ul>{props.items.map((i) => <li>{String(i)}</li>)}</ul>;
}
`;

const APP_JSX = `class App extends Component {
  @bound
  render() {
    return <div className="}">{this.props.title}</div>;
  }
  handle = () => 1;
}
module.exports = { App };
`;

const BROKEN_TS = `export function before(a: number) {
  return a +;
}

function unclosed(x: number) {
  if (x) {
    return 1;
`;

describe('hsymbol (TypeScript, JavaScript)', function () {
  this.timeout(20_000); // the first call loads the grammars
  const { rows, run, headers } = hsymbolFixture('hsymbol-ts', { 'src/box.ts': BOX_TS, 'src/view.tsx': VIEW_TSX, 'src/app.jsx': APP_JSX, 'broken.ts': BROKEN_TS }, ['src']);

  it('a class from its decorators to its closing brace, without the doc comment before them', async () => {
    const r = await run('Box');
    expect(r.text).to.equal(['# src/box.ts: class Box, lines 3-24', ...rows('src/box.ts', BOX_TS, 3, 24), ''].join('\n'));
  });

  it('a bare name finds the free function and the method; Class.method only the method, overloads joined', async () => {
    expect(await headers('add')).to.deep.equal(['# src/box.ts: method Box.add, lines 10-16', '# src/box.ts: function add, lines 26-32']);
    const m = await run('Box.add');
    expect(m.text).to.equal(['# src/box.ts: method Box.add, lines 10-16', ...rows('src/box.ts', BOX_TS, 10, 16), ''].join('\n'));
    expect(await headers('parse')).to.deep.equal(['# src/box.ts: function parse, lines 42-46']);
  });

  it('a multi-line signature is one range with its body', async () => {
    const r = await run('add');
    expect(r.text).to.include(['# src/box.ts: function add, lines 26-32', ...rows('src/box.ts', BOX_TS, 26, 32)].join('\n'));
  });

  it('getters, function-valued fields, variables (each destructured name), types, enums and namespace members', async () => {
    expect(await headers('size')).to.deep.equal(['# src/box.ts: method Box.size, lines 18-18']);
    expect(await headers('Box.onClick')).to.deep.equal(['# src/box.ts: method Box.onClick, lines 20-23']);
    expect(await headers('first')).to.deep.equal(['# src/box.ts: const first, lines 34-34']);
    expect(await headers('counter')).to.deep.equal(['# src/box.ts: let counter, lines 35-35']);
    expect(await headers('Shape')).to.deep.equal(['# src/box.ts: interface Shape, lines 36-36']);
    expect(await headers('Id')).to.deep.equal(['# src/box.ts: type Id, lines 37-37']);
    expect(await headers('Color')).to.deep.equal(['# src/box.ts: enum Color, lines 38-38']);
    expect(await headers('Geometry.area')).to.deep.equal(['# src/box.ts: function Geometry.area, lines 40-40']);
    expect(await headers('Geometry')).to.deep.equal(['# src/box.ts: namespace Geometry, lines 39-41']);
  });

  it('locals, fields that hold data, interface members and text in strings, comments and templates are not definitions', async () => {
    for (const name of ['local', 'fake', 'Fake', 'items', 'area', 'Shape.area']) {
      const r = await run(name);
      expect(r.definitions, name).to.equal(name === 'area' ? 1 : 0); // area: the namespace's function only
    }
  });

  it('.tsx and .jsx files parse with JSX; JavaScript decorators are part of the method', async () => {
    expect(await headers('View')).to.deep.equal(['# src/view.tsx: function View, lines 1-3']);
    expect(await headers('App.render')).to.deep.equal(['# src/app.jsx: method App.render, lines 2-5']);
    expect(await headers('handle')).to.deep.equal(['# src/app.jsx: method App.handle, lines 6-6']);
  });

  it('a file with syntax errors: what parses keeps its range, a recovered definition says so', async () => {
    expect(await headers('before', ['broken.ts'])).to.deep.equal(['# broken.ts: function before, lines 1-3 (has a syntax error)']);
    expect(await headers('unclosed', ['broken.ts'])).to.deep.equal(['# broken.ts: function unclosed, lines 5-7 (has a syntax error)']);
  });

  it('an unknown name finds nothing', async () => {
    expect(await run('Nope')).to.deep.include({ definitions: 0, text: '' });
  });
});
