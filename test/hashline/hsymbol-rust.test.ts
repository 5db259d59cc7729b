// hsymbol for Rust (tree-sitter): items from their first outer attribute to their end, doc
// comments left out, impl and trait members as Type.method (`impl Trait for Type` counts for
// Type), mod members as module.item; locals and text in strings, raw strings and comments are not
// definitions.
import { expect } from 'chai';
import { hsymbolFixture } from './hsymbol-fixture.ts';

const LIB_RS = `//! fn fake() {} in a crate doc
use std::fmt;

/// Doc comment: not part of the range.
#[derive(Debug,
         Clone)]
pub struct Point<T> {
    x: T,
}

impl<T: fmt::Debug> Point<T> {
    pub const ORIGIN: i32 = 0;

    /// new
    #[inline]
    pub fn new(
        x: T,
    ) -> Self {
        fn helper() {} // a local
        let s = r#"fn fake() { "}" }"#;
        Point { x }
    }
}

impl fmt::Display for Point<i32> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "}}")
    }
}

pub trait Shape {
    fn area(&self) -> f64;
    fn name(&self) -> &str {
        "shape"
    }
}

pub fn new() -> Point<u8> { Point { x: 0 } }

pub enum Kind { A, B(u8) }
type Alias = Vec<u8>;
static COUNT: u32 = 0;
const MAX: usize = 10;
macro_rules! square { ($x:expr) => { $x * $x }; }

mod tests {
    #[test]
    fn it_works() {}
}
`;

const BROKEN_RS = `fn before() -> u8 { 1 + }

struct After { a: u8 }

impl After {
    fn method(&self) -> &str { "}" }
}
`;

describe('hsymbol (Rust)', function () {
  this.timeout(20_000); // the first call loads the grammar
  const fx = hsymbolFixture('hsymbol-rs', { 'lib.rs': LIB_RS, 'broken.rs': BROKEN_RS });
  const rows = (from: number, to: number): string[] => fx.rows('lib.rs', LIB_RS, from, to);
  const { run, headers } = fx;

  it('a struct from its first attribute to its closing brace, without the doc comment', async () => {
    expect((await run('Point', ['lib.rs'])).text).to.equal(['# lib.rs: struct Point, lines 5-9', ...rows(5, 9), ''].join('\n'));
  });

  it('a method with attribute and multi-line signature; a bare name finds the free fn too', async () => {
    expect((await run('Point.new')).text).to.equal(['# lib.rs: method Point.new, lines 15-22', ...rows(15, 22), ''].join('\n'));
    expect(await headers('new', ['lib.rs'])).to.deep.equal(['# lib.rs: method Point.new, lines 15-22', '# lib.rs: fn new, lines 38-38']);
  });

  it('impl Trait for Type, trait methods with and without a body, associated consts, mod members', async () => {
    expect(await headers('Point.fmt')).to.deep.equal(['# lib.rs: method Point.fmt, lines 26-28']);
    expect(await headers('Shape.area')).to.deep.equal(['# lib.rs: method Shape.area, lines 32-32']);
    expect(await headers('name')).to.deep.equal(['# lib.rs: method Shape.name, lines 33-35']);
    expect(await headers('Shape')).to.deep.equal(['# lib.rs: trait Shape, lines 31-36']);
    expect(await headers('Point.ORIGIN')).to.deep.equal(['# lib.rs: const Point.ORIGIN, lines 12-12']);
    expect(await headers('tests.it_works')).to.deep.equal(['# lib.rs: fn tests.it_works, lines 47-48']);
  });

  it('enums, type aliases, statics, consts, macro_rules! and modules', async () => {
    expect(await headers('Kind')).to.deep.equal(['# lib.rs: enum Kind, lines 40-40']);
    expect(await headers('Alias')).to.deep.equal(['# lib.rs: type Alias, lines 41-41']);
    expect(await headers('COUNT')).to.deep.equal(['# lib.rs: static COUNT, lines 42-42']);
    expect(await headers('MAX')).to.deep.equal(['# lib.rs: const MAX, lines 43-43']);
    expect(await headers('square')).to.deep.equal(['# lib.rs: macro square, lines 44-44']);
    expect(await headers('tests')).to.deep.equal(['# lib.rs: mod tests, lines 46-49']);
  });

  it('locals, fields, variants and text in strings, raw strings and comments are not definitions', async () => {
    for (const name of ['helper', 'x', 'A', 'fake', 's']) expect((await run(name)).definitions, name).to.equal(0);
  });

  it('a file with syntax errors: the broken fn says so, what follows is still found', async () => {
    expect(await headers('before', ['broken.rs'])).to.deep.equal(['# broken.rs: fn before, lines 1-1 (has a syntax error)']);
    expect(await headers('After.method', ['broken.rs'])).to.deep.equal(['# broken.rs: method After.method, lines 6-6']);
  });

  it('an unknown name finds nothing', async () => {
    expect(await run('Nope')).to.deep.include({ definitions: 0, text: '' });
  });
});
