// hsymbol for Python (tree-sitter): a def or class from its first decorator to its last
// statement, methods as Class.method, nested classes as Outer.Inner, module variables; locals,
// class attributes and text in strings or comments are not definitions.
import { expect } from 'chai';
import { hsymbolFixture } from './hsymbol-fixture.ts';

const SHAPES_PY = `"""def fake(): pass in a docstring"""
import functools

LIMIT: int = 3
WIDTH, HEIGHT = 80, 24
type Point = tuple[float, float]


# A comment before the decorators is not part of the range.
@functools.cache
@register(
    "area",
)
def area(width: float,
         height: float) -> float:
    """Docstring: part of the body."""
    def helper():  # a local
        return 0
    return width * height
# trailing comment, not part of area


class Shape(Base):
    sides = 0

    class Meta:
        def area(self):
            return None

    @property
    def area(self) -> float:
        s = "def fake(): pass"
        return 0.0
    # the class's last comment


if TYPE_CHECKING:
    def typed() -> None: ...
else:
    typed = None

async def fetch(url):
    return url
`;

const BROKEN_PY = `def before(a):
    return a +

class After:
    def method(self):
        return "}"
`;

describe('hsymbol (Python)', function () {
  this.timeout(20_000); // the first call loads the grammar
  const fx = hsymbolFixture('hsymbol-py', { 'shapes.py': SHAPES_PY, 'broken.py': BROKEN_PY });
  const rows = (from: number, to: number): string[] => fx.rows('shapes.py', SHAPES_PY, from, to);
  const { run, headers } = fx;

  it('a function from its first decorator through a multi-line signature to its last statement', async () => {
    const r = await run('area', ['shapes.py']);
    expect(r.text.split('\n').slice(0, 11)).to.deep.equal(['# shapes.py: function area, lines 10-19', ...rows(10, 19)]);
  });

  it('a bare name finds the function and every method; Class.method, nested classes as Outer.Inner', async () => {
    expect(await headers('area', ['shapes.py'])).to.deep.equal([
      '# shapes.py: function area, lines 10-19',
      '# shapes.py: method Meta.area, lines 27-28',
      '# shapes.py: method Shape.area, lines 30-33',
    ]);
    expect(await headers('Shape.area')).to.deep.equal(['# shapes.py: method Shape.area, lines 30-33']);
    expect(await headers('Shape.Meta')).to.deep.equal(['# shapes.py: class Shape.Meta, lines 26-28']);
    expect(await headers('Shape')).to.deep.equal(['# shapes.py: class Shape, lines 23-33']);
  });

  it('async functions, module variables and type aliases; definitions in if/else blocks at module level', async () => {
    expect(await headers('LIMIT')).to.deep.equal(['# shapes.py: variable LIMIT, lines 4-4']);
    expect(await headers('HEIGHT')).to.deep.equal(['# shapes.py: variable HEIGHT, lines 5-5']);
    expect(await headers('Point')).to.deep.equal(['# shapes.py: type Point, lines 6-6']);
    expect(await headers('fetch')).to.deep.equal(['# shapes.py: function fetch, lines 42-43']);
    expect(await headers('typed')).to.deep.equal(['# shapes.py: function typed, lines 38-38', '# shapes.py: variable typed, lines 40-40']);
  });

  it('locals, class attributes and text in strings, docstrings and comments are not definitions', async () => {
    for (const name of ['helper', 'sides', 'fake', 's']) expect((await run(name)).definitions, name).to.equal(0);
  });

  it('a file with syntax errors: the broken function says so, what follows is still found', async () => {
    expect(await headers('before', ['broken.py'])).to.deep.equal(['# broken.py: function before, lines 1-2 (has a syntax error)']);
    expect(await headers('After.method', ['broken.py'])).to.deep.equal(['# broken.py: method After.method, lines 5-6']);
  });

  it('an unknown name finds nothing', async () => {
    expect(await run('Nope')).to.deep.include({ definitions: 0, text: '' });
  });
});
