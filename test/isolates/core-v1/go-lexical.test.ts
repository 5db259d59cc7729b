import { expect } from 'chai';
import {
  GO_KEYWORDS,
  goStringLiteral,
  goStringLiteralBytes,
  isGoIdentifier,
  scanGoDeclarations,
  type GoDeclaration,
} from '../../../isolates/core-v1/index.ts';

const brief = (ds: GoDeclaration[]): string[] =>
  ds.map((d) => `${d.kind} ${d.receiver !== undefined ? `${d.receiver}.` : ''}${d.name} ${d.line}-${d.endLine}`);

describe('core-v1 Go lexical helpers', () => {
  it('GO_KEYWORDS are the 25 keywords of the Go spec, frozen', () => {
    expect(GO_KEYWORDS).to.have.length(25);
    expect(GO_KEYWORDS).to.include.members(['func', 'fallthrough', 'select', 'chan', 'goto']);
    expect(Object.isFrozen(GO_KEYWORDS)).to.equal(true);
  });

  it('isGoIdentifier: Unicode letters/digits per the spec, not a keyword', () => {
    for (const s of ['x', '_', '_x9', 'ThisVariableIsExported', 'αβ', '世界', 'Ωmega', 'x١٢', '𝒳']) expect(isGoIdentifier(s), s).to.equal(true);
    for (const s of ['', '9x', 'func', 'type', 'a-b', 'a b', 'x.y', '١x', 'é\u0301', '$x', 'a\u200b']) expect(isGoIdentifier(s), s).to.equal(false);
  });

  it('goStringLiteral decodes interpreted and raw literals', () => {
    const table: [string, string][] = [
      ['""', ''],
      ['"abc"', 'abc'],
      ['"\\a\\b\\f\\n\\r\\t\\v\\\\\\""', '\x07\b\f\n\r\t\v\\"'],
      ['"\\101\\x42\\u0043\\U0001F600"', 'ABC😀'],
      ['"\\xe4\\xb8\\x96"', '世'], // byte escapes combine into UTF-8
      ['"日本語"', '日本語'],
      ['`raw \\n "q"`', 'raw \\n "q"'],
      ['`line1\r\nline2`', 'line1\nline2'], // CRs are discarded in raw strings
      ['``', ''],
    ];
    for (const [lit, value] of table) expect(goStringLiteral(lit), lit).to.equal(value);
  });

  it('goStringLiteral rejects invalid literals; non-UTF-8 values are null but available as bytes', () => {
    for (const lit of ['', '"', '"abc', 'abc"', "'a'", '"a\nb"', '"\\\'"', '"\\q"', '"\\400"', '"\\12"', '"\\x4"', '"\\ud800"', '"\\U00110000"', '"a"b"', '`a`b`', '"\\"', '"\ud800"']) {
      expect(goStringLiteral(lit), lit).to.equal(null);
    }
    expect(goStringLiteral('"\\xff"')).to.equal(null);
    expect([...goStringLiteralBytes('"\\xff\\377"')!]).to.deep.equal([0xff, 0xff]);
    expect(goStringLiteralBytes('"\\q"')).to.equal(null);
  });

  it('scanGoDeclarations: funcs, methods (generic receivers), grouped and ungrouped type/var/const', () => {
    const src = [
      'package main', //                                  1
      '', //                                              2
      'import (', //                                      3
      '\t"fmt"', //                                       4
      '\ts "strings"', //                                 5
      ')', //                                             6
      '', //                                              7
      'type (', //                                        8
      '\tPoint struct{ X, Y int }', //                    9
      '\tList[T any] []T', //                             10
      '\tAlias = Point', //                               11
      ')', //                                             12
      'const (', //                                       13
      '\tA = iota', //                                    14
      '\tB', //                                           15
      '\t_', //                                           16
      '\tC, D = 1, 2', //                                 17
      ')', //                                             18
      'var x, y int = 1, 2', //                           19
      'var f = func() { var inner int; _ = inner }', //   20
      'func (p *Point) Move(dx int) {', //                21
      '\ttype local int', //                              22
      '\tfmt.Println("}")', //                            23
      '}', //                                             24
      'func (List[T]) Len() int { return 0 }', //         25
      'func Map[T, U any](xs []T, f func(T) U) []U {', // 26
      '\treturn nil', //                                  27
      '}', //                                             28
      'func main() { s.ToUpper("x") }', //                29
      'type Tree[K comparable, V any] struct {', //       30
      '\tleft, right *Tree[K, V]', //                     31
      '}', //                                             32
      'func (t *Tree[K, V]) Get(k K) V { var zero V; return zero }', // 33
      'type I interface{ M() }', //                       34
      'var _ = 1', //                                     35
    ].join('\n');
    expect(brief(scanGoDeclarations(src))).to.deep.equal([
      'type Point 9-9',
      'type List 10-10',
      'type Alias 11-11',
      'const A 14-14',
      'const B 15-15',
      'const C 17-17',
      'const D 17-17',
      'var x 19-19',
      'var y 19-19',
      'var f 20-20',
      'method Point.Move 21-24',
      'method List.Len 25-25',
      'func Map 26-28',
      'func main 29-29',
      'type Tree 30-32',
      'method Tree.Get 33-33',
      'type I 34-34',
    ]);
  });

  it('scanGoDeclarations skips comments, strings, raw strings and runes that look like code', () => {
    const src = [
      'package p', //                                     1
      '// func notThis() {}', //                          2
      '/* func alsoNot()', //                             3
      '   type Nope int */ func After() {}', //           4
      'const raw = `', //                                 5
      'func insideRaw() {', //                            6
      '` + "func str() {" // }', //                       7
      "var r = '\\''", //                                 8
      "var q = '`'", //                                   9
      "var dq = '\"'", //                                 10
      'var url = "http://x/*y*/" // func c()', //         11
      'func Real() { _ = `}` }', //                       12
      "func Rune() rune { return '}' }", //               13
      'var s = "\\"func esc() {"', //                     14
      '/* multi', //                                      15
      'line */', //                                       16
      'func Last() {}', //                                17
    ].join('\n');
    expect(brief(scanGoDeclarations(src))).to.deep.equal([
      'func After 4-4',
      'const raw 5-7',
      'var r 8-8',
      'var q 9-9',
      'var dq 10-10',
      'var url 11-11',
      'func Real 12-12',
      'func Rune 13-13',
      'var s 14-14',
      'func Last 17-17',
    ]);
  });

  it('scanGoDeclarations: a multi-line block comment ends a statement like a newline', () => {
    const src = 'package p\nvar a = 1 /*\n*/ func B() {}\nvar c = 2 /* one line */\nfunc D() {}\n';
    expect(brief(scanGoDeclarations(src))).to.deep.equal(['var a 2-2', 'func B 3-3', 'var c 4-4', 'func D 5-5']);
  });

  it('scanGoDeclarations: CRLF sources, Unicode names, init functions and semicolons', () => {
    const src = 'package p\r\nfunc init() {}\r\nfunc init() {}\r\nvar 世界 = 1; const Ω = 2\r\ntype ( T1 int; T2 string )\r\n';
    expect(brief(scanGoDeclarations(src))).to.deep.equal(['func init 2-2', 'func init 3-3', 'var 世界 4-4', 'const Ω 4-4', 'type T1 5-5', 'type T2 5-5']);
  });

  it('scanGoDeclarations never throws on broken input', () => {
    for (const src of ['', 'func', 'func (', 'func (r T', 'type (', 'var (\n a', '`unterminated\nfunc X() {}', '"unterminated\nfunc Y() {}', ')))}}}', 'func (T) {', '/* open']) {
      expect(() => scanGoDeclarations(src), src).not.to.throw();
    }
    // A newline ends an unterminated interpreted string, so the next line is still code.
    expect(brief(scanGoDeclarations('var s = "oops\nfunc Y() {}\n'))).to.deep.equal(['var s 1-1', 'func Y 2-2']);
  });
});
