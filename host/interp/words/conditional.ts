// `[[ ... ]]` (over the AST) and `test` / `[` (over argv).
import * as fs from 'node:fs';
import { Tok, type BinaryTest, type TestExpr, type UnaryTest, type Word } from '../syntax/ast.ts';
import type { Shell } from '../execution/runner.ts';
import { ShellError } from '../execution/errors.ts';
import { ArithError } from './arith.ts';
import { matchExtPattern } from './pattern.ts';
import { parse } from '../syntax/parser.ts';
import { ereInvalid, ereToJs } from './regex.ts';
import { isatty } from 'node:tty';

function statOf(sh: Shell, p: string, follow = true): fs.Stats | undefined {
  if (p === '') return undefined;
  try { return follow ? fs.statSync(sh.openBuf(p)) : fs.lstatSync(sh.pathBuf(p)); } catch { return undefined; }
}

function access(sh: Shell, p: string, mode: number): boolean {
  try { fs.accessSync(sh.openBuf(p), mode); return true; } catch { return false; }
}

const unaryOps: Record<string, number> = {
  '-e': Tok.tsExists, '-a': Tok.tsExists, '-f': Tok.tsRegFile, '-d': Tok.tsDirect, '-c': Tok.tsCharSp, '-b': Tok.tsBlckSp,
  '-p': Tok.tsNmPipe, '-S': Tok.tsSocket, '-L': Tok.tsSmbLink, '-h': Tok.tsSmbLink, '-k': Tok.tsSticky, '-g': Tok.tsGIDSet,
  '-u': Tok.tsUIDSet, '-G': Tok.tsGrpOwn, '-O': Tok.tsUsrOwn, '-N': Tok.tsModif, '-r': Tok.tsRead, '-w': Tok.tsWrite,
  '-x': Tok.tsExec, '-s': Tok.tsNoEmpty, '-t': Tok.tsFdTerm, '-z': Tok.tsEmpStr, '-n': Tok.tsNempStr, '-o': Tok.tsOptSet,
  '-v': Tok.tsVarSet, '-R': Tok.tsRefVar,
};
const binaryOps: Record<string, number> = {
  '=': Tok.equal, '==': Tok.equal, '!=': Tok.nequal, '<': Tok.rdrIn, '>': Tok.rdrOut, '-nt': Tok.tsNewer, '-ot': Tok.tsOlder,
  '-ef': Tok.tsDevIno, '-eq': Tok.tsEql, '-ne': Tok.tsNeq, '-le': Tok.tsLeq, '-ge': Tok.tsGeq, '-lt': Tok.tsLss, '-gt': Tok.tsGtr,
};

export function unaryTest(sh: Shell, op: number, x: string): boolean {
  switch (op) {
    case Tok.tsExists: return !!statOf(sh, x);
    case Tok.tsRegFile: return !!statOf(sh, x)?.isFile();
    case Tok.tsDirect: return !!statOf(sh, x)?.isDirectory();
    case Tok.tsCharSp: return !!statOf(sh, x)?.isCharacterDevice();
    case Tok.tsBlckSp: return !!statOf(sh, x)?.isBlockDevice();
    case Tok.tsNmPipe: return !!statOf(sh, x)?.isFIFO();
    case Tok.tsSocket: return !!statOf(sh, x)?.isSocket();
    case Tok.tsSmbLink: return !!statOf(sh, x, false)?.isSymbolicLink();
    case Tok.tsSticky: return !!((statOf(sh, x)?.mode ?? 0) & 0o1000);
    case Tok.tsGIDSet: return !!((statOf(sh, x)?.mode ?? 0) & 0o2000);
    case Tok.tsUIDSet: return !!((statOf(sh, x)?.mode ?? 0) & 0o4000);
    case Tok.tsGrpOwn: return statOf(sh, x)?.gid === process.getgid?.();
    case Tok.tsUsrOwn: return statOf(sh, x)?.uid === process.getuid?.();
    case Tok.tsModif: { const s = statOf(sh, x); return !!s && s.mtimeMs > s.atimeMs; }
    case Tok.tsRead: return !!statOf(sh, x) && access(sh, x, fs.constants.R_OK);
    case Tok.tsWrite: return !!statOf(sh, x) && access(sh, x, fs.constants.W_OK);
    case Tok.tsExec: return !!statOf(sh, x) && access(sh, x, fs.constants.X_OK);
    case Tok.tsNoEmpty: return (statOf(sh, x)?.size ?? 0) > 0;
    case Tok.tsFdTerm: { const f = sh.fds.get(Number(x)); try { return !!f && /^\d+$/.test(x) && isatty(f.fd); } catch { return false; } }
    case Tok.tsEmpStr: return x === '';
    case Tok.tsNempStr: return x !== '';
    case Tok.tsOptSet: return (sh.vars.param('SHELLOPTS') ?? '').split(':').includes(x);
    case Tok.tsVarSet: {
      const m = /^([a-zA-Z_][a-zA-Z0-9_]*)\[(.*)\]$/.exec(x);
      // (`@` and `*` of an associative array are keys like any other)
      if (m) return (m[2] === '@' || m[2] === '*') && !sh.vars.resolve(m[1]!)?.assoc ? sh.vars.arrayValues(m[1]!).length > 0 : sh.vars.getElem(m[1]!, sh.refSubscript(m[1]!, m[2]!)) !== undefined;
      if (/^[0-9]+$/.test(x)) return sh.vars.param(x) !== undefined;
      const v = sh.vars.resolve(x);
      return !!v && (v.str !== undefined || (v.arr?.has(0) ?? false) || (v.assoc?.has('0') ?? false));
    }
    case Tok.tsRefVar: return !!sh.vars.raw(x)?.nameref;
  }
  return false;
}


function intArg(sh: Shell, s: string, strict: boolean): bigint {
  const t = s.trim();
  if (strict) {
    // (bash's legal_number: out of the 64-bit range is no integer)
    if (/^[+-]?[0-9]+$/.test(t)) { const n = BigInt(t); if (n >= -(2n ** 63n) && n < 2n ** 63n) return n; }
    throw new ShellError(`${s}: integer expression expected`, 2);
  }
  return sh.arith.evalString(s); // (an error: see condBinary)
}

export function binaryTest(sh: Shell, op: number, x: string, y: string, strictInt: boolean): boolean {
  switch (op) {
    case Tok.equal: return x === y;
    case Tok.nequal: return x !== y;
    case Tok.rdrIn: return x < y;
    case Tok.rdrOut: return x > y;
    case Tok.tsNewer: { const a = statOf(sh, x), b = statOf(sh, y); return !!a && (!b || a.mtimeMs > b.mtimeMs); }
    case Tok.tsOlder: { const a = statOf(sh, x), b = statOf(sh, y); return !!b && (!a || a.mtimeMs < b.mtimeMs); }
    case Tok.tsDevIno: { const a = statOf(sh, x), b = statOf(sh, y); return !!a && !!b && a.dev === b.dev && a.ino === b.ino; }
    case Tok.tsEql: return intArg(sh, x, strictInt) === intArg(sh, y, strictInt);
    case Tok.tsNeq: return intArg(sh, x, strictInt) !== intArg(sh, y, strictInt);
    case Tok.tsLeq: return intArg(sh, x, strictInt) <= intArg(sh, y, strictInt);
    case Tok.tsGeq: return intArg(sh, x, strictInt) >= intArg(sh, y, strictInt);
    case Tok.tsLss: return intArg(sh, x, strictInt) < intArg(sh, y, strictInt);
    case Tok.tsGtr: return intArg(sh, x, strictInt) > intArg(sh, y, strictInt);
  }
  return false;
}

/**
 * `[[ ]]`'s tree with bash's precedence. mvdan-sh v3.5.1 reads `X && REST`, `X || REST` and
 * `! REST` with everything after the operator as its right side (`a && b || c` is `a && (b || c)`,
 * `! a || b` is `!(a || b)`); bash binds `!` tightest, then `&&`, then `||`, left to right. The
 * chain is flattened in source order and built again (cached per node).
 */
function withPrecedence(e: TestExpr): TestExpr {
  if (e.type === 'Word') return e;
  let r = fixedTests.get(e);
  if (r !== undefined) return r;
  type Item = TestExpr | BinaryTest | UnaryTest;
  const items: { neg: UnaryTest[]; x: TestExpr }[] = [];
  const ops: BinaryTest[] = [];
  let neg: UnaryTest[] = [];
  const flat = (n: TestExpr): void => {
    if (n.type === 'BinaryTest' && (n.Op === Tok.andAnd || n.Op === Tok.orOr)) { flat(n.X); ops.push(n); flat(n.Y); return; }
    if (n.type === 'UnaryTest' && n.Op === Tok.exclMark) { neg.push(n); flat(n.X); return; }
    let x: TestExpr = n;
    if (n.type === 'ParenTest') { const inner = withPrecedence(n.X); if (inner !== n.X) x = { ...n, X: inner }; }
    items.push({ neg, x });
    neg = [];
  };
  flat(e);
  const prim = (i: number): TestExpr => {
    let x = items[i]!.x;
    const ns = items[i]!.neg;
    for (let k = ns.length - 1; k >= 0; k--) x = { ...ns[k]!, X: x };
    return x;
  };
  // items[i] and ops[i] (between items i and i+1)
  const terms: TestExpr[] = [];
  const orOps: BinaryTest[] = [];
  let cur = prim(0);
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op.Op === Tok.andAnd) cur = { ...op, X: cur, Y: prim(i + 1) };
    else { terms.push(cur); orOps.push(op); cur = prim(i + 1); }
  }
  terms.push(cur);
  r = terms[0]!;
  for (let i = 0; i < orOps.length; i++) r = { ...orOps[i]!, X: r, Y: terms[i + 1]! };
  // (unchanged shape: keep the original node, so per-node caches stay shared)
  if (sameTree(r, e)) r = e;
  fixedTests.set(e, r);
  return r;
  function sameTree(a: Item, b: Item): boolean {
    if (a === b) return true;
    if (a.type !== b.type) return false;
    if (a.type === 'BinaryTest' && b.type === 'BinaryTest') return a.Op === b.Op && sameTree(a.X, b.X) && sameTree(a.Y, b.Y);
    if (a.type === 'UnaryTest' && b.type === 'UnaryTest') return a.Op === b.Op && sameTree(a.X, b.X);
    if (a.type === 'ParenTest' && b.type === 'ParenTest') return a.X === b.X;
    return false;
  }
}
const fixedTests = new WeakMap<TestExpr, TestExpr>();

/** binaryTest in `[[ ]]`: an arithmetic error in an operand is reported (`[[: …`) and the primary is false, like bash. */
function condBinary(sh: Shell, op: number, x: string, y: string): boolean | Promise<boolean> {
  try {
    return binaryTest(sh, op, x, y, false);
  } catch (e) {
    // (an error in a subscript jumps to the top level instead)
    if (!(e instanceof ArithError) || e.subscript) throw e;
    return sh.err(`[[: ${e.report()}`).then(() => false);
  }
}

/**
 * Evaluates `[[ expr ]]`; returns the exit status — without a promise when every word in it
 * expands synchronously (testSyncable), so Shell.stmtSync can run it.
 */
export function evalTest(sh: Shell, e: TestExpr): number | Promise<number> {
  e = withPrecedence(e);
  try {
    const r = ev(sh, e);
    return typeof r === 'boolean' ? (r ? 0 : 1) : r.then((v) => (v ? 0 : 1), badRegexStatus);
  } catch (x) {
    return badRegexStatus(x);
  }
}

function badRegexStatus(x: unknown): number {
  if (x instanceof BadRegex) return 2;
  throw x;
}

/** Whether evalTest(e) runs without a promise: every word expands synchronously (cached per node). */
export function testSyncable(sh: Shell, e: TestExpr): boolean {
  e = withPrecedence(e);
  let r = syncTests.get(e);
  if (r === undefined) {
    switch (e.type) {
      case 'ParenTest': r = testSyncable(sh, e.X); break;
      case 'UnaryTest': r = testSyncable(sh, e.X); break;
      case 'BinaryTest': r = testSyncable(sh, e.X) && testSyncable(sh, e.Y); break;
      case 'Word': { const p = e.Parts.length === 1 ? e.Parts[0]! : undefined; r = sh.ex.canSync(e) && !(p?.type === 'ExtGlob' && p.Op === Tok.globExcl); break; } // (notGroup)
    }
    syncTests.set(e, r);
  }
  return r;
}
const syncTests = new WeakMap<TestExpr, boolean>();

/** A `=~` operand regcomp rejects: the whole `[[ ]]` returns 2 (no message). */
class BadRegex extends Error {}

/** `f(v)` now when `v` is a value, after it when it is a promise. */
function then<T, U>(v: T | Promise<T>, f: (v: T) => U | Promise<U>): U | Promise<U> {
  return v instanceof Promise ? v.then(f) : f(v);
}

// Each node expands its words when it gets to them (`&&`/`||` short-circuit), without a promise
// when they expand synchronously.
function ev(sh: Shell, e: TestExpr): boolean | Promise<boolean> {
  switch (e.type) {
    case 'ParenTest': return ev(sh, e.X);
    case 'UnaryTest': {
      if (e.Op === Tok.exclMark) return then(ev(sh, e.X), (v) => !v);
      const op = e.Op;
      return then(literal(sh, e.X as Word), (x) => unaryTest(sh, op, x));
    }
    case 'BinaryTest': {
      const y = e.Y;
      if (e.Op === Tok.andAnd) return then(ev(sh, e.X), (v) => v && ev(sh, y));
      if (e.Op === Tok.orOr) return then(ev(sh, e.X), (v) => v || ev(sh, y));
      const op = e.Op;
      if (op === Tok.equal || op === Tok.assgn || op === Tok.nequal) {
        // (a literal plain pattern: no closures or promises, the commonest `[[ $x == *.txt ]]`)
        const m = sh.shopt.has('nocasematch') ? null : sh.ex.constMatcher(y as Word);
        if (m !== null && sh.ex.canSync(e.X as Word)) return m(sh.ex.literalSync(e.X as Word)) !== (op === Tok.nequal);
      }
      return then(literal(sh, e.X as Word), (x) => {
        if (op === Tok.equal || op === Tok.assgn || op === Tok.nequal) return then(pattern(sh, y as Word), (pat) => patternTest(sh, op, x, pat));
        if (op === Tok.tsReMatch) return then(sh.ex.regexWord(y as Word), (re) => regexTest(sh, x, re));
        return then(literal(sh, y as Word), (t) => condBinary(sh, op, x, t));
      });
    }
    case 'Word': {
      const neg = notGroup(sh, e);
      if (neg) return then(ev(sh, neg), (v) => !v);
      return then(literal(sh, e), (x) => x !== '');
    }
  }
}

const literal = (sh: Shell, w: Word): string | Promise<string> => (sh.ex.canSync(w) ? sh.ex.literalSync(w) : sh.ex.literal(w));
const pattern = (sh: Shell, w: Word): string | Promise<string> => (sh.ex.canSync(w) ? sh.ex.patternSync(w) : sh.ex.pattern(w));

function patternTest(sh: Shell, op: number, x: string, pat: string): boolean {
  const m = matchExtPattern(pat, x, sh.shopt.has('nocasematch'), sh.ex);
  return op !== Tok.nequal ? m : !m;
}

function regexTest(sh: Shell, x: string, re: string): boolean {
  let r: RegExp;
  if (ereInvalid(re)) throw new BadRegex();
  try { r = new RegExp(ereToJs(re), sh.shopt.has('nocasematch') ? 'i' : ''); } catch { throw new BadRegex(); }
  const m = r.exec(x);
  const v = sh.vars.lvalueArray('BASH_REMATCH');
  v.clear();
  if (!m) return false;
  m.forEach((g, i) => v.set(i, g ?? ''));
  return true;
}

const notGroups = new WeakMap<object, TestExpr | null>();
/**
 * mvdan/sh always reads `!(…)` as an extglob group; with extglob off, bash reads `[[ !(x) ]]`
 * as `! ( x )`. The group's text is parsed again as a `[[ ]]` expression.
 */
function notGroup(sh: Shell, w: Word): TestExpr | null {
  const p = w.Parts.length === 1 ? w.Parts[0]! : undefined;
  if (!p || p.type !== 'ExtGlob' || p.Op !== Tok.globExcl || sh.shopt.has('extglob')) return null;
  let r = notGroups.get(p);
  if (r === undefined) {
    r = null;
    try {
      const f = parse(Buffer.from(`[[ ${p.Pattern.Value} ]]`, 'latin1').toString('utf8'), false);
      const c = f.Stmts.length === 1 ? f.Stmts[0]!.Cmd : null;
      if (c && c.type === 'TestClause') r = c.X;
    } catch { /* keep the word */ }
    notGroups.set(p, r);
  }
  return r;
}

/** `test` / `[` over argv (POSIX rules by argument count, then a recursive parser). */
export function testArgs(sh: Shell, a: string[]): boolean {
  let i = 0;
  const peek = (): string | undefined => a[i];
  const orE = (): boolean => {
    let v = andE();
    while (peek() === '-o') { i++; const r = andE(); v = v || r; }
    return v;
  };
  const andE = (): boolean => {
    let v = notE();
    while (peek() === '-a') { i++; const r = notE(); v = v && r; }
    return v;
  };
  const notE = (): boolean => {
    if (peek() === '!') { i++; return !notE(); }
    return prim();
  };
  const prim = (): boolean => {
    const t = a[i];
    if (t === undefined) throw new ShellError('argument expected', 2);
    if (t === '(') {
      i++;
      const v = orE();
      if (a[i] !== ')') throw new ShellError(`\`)' expected`, 2);
      i++;
      return v;
    }
    const next = a[i + 1];
    if (next !== undefined && binaryOps[next] !== undefined && a[i + 2] !== undefined) {
      i += 3;
      return binaryTest(sh, binaryOps[next]!, t, a[i - 1]!, true);
    }
    if (unaryOps[t] !== undefined && next !== undefined) {
      i += 2;
      return unaryTest(sh, unaryOps[t]!, next);
    }
    i++;
    return t !== '';
  };
  switch (a.length) {
    case 0: return false;
    case 1: return a[0] !== '';
    case 2:
      if (a[0] === '!') return a[1] === '';
      if (unaryOps[a[0]!] !== undefined) return unaryTest(sh, unaryOps[a[0]!]!, a[1]!);
      throw new ShellError(`${a[0]}: unary operator expected`, 2);
    case 3:
      if (binaryOps[a[1]!] !== undefined) return binaryTest(sh, binaryOps[a[1]!]!, a[0]!, a[2]!, true);
      if (a[1] === '-a') return a[0] !== '' && a[2] !== '';
      if (a[1] === '-o') return a[0] !== '' || a[2] !== '';
      if (a[0] === '!') return !testArgs(sh, a.slice(1));
      if (a[0] === '(' && a[2] === ')') return a[1] !== '';
      throw new ShellError(`${a[1]}: binary operator expected`, 2);
    case 4:
      if (a[0] === '!') return !testArgs(sh, a.slice(1));
      if (a[0] === '(' && a[3] === ')') return testArgs(sh, a.slice(1, 3));
  }
  const v = orE();
  if (i < a.length) throw new ShellError(`too many arguments`, 2);
  return v;
}

const binNames: Record<number, string> = {
  [Tok.equal]: '==', [Tok.assgn]: '=', [Tok.nequal]: '!=', [Tok.rdrIn]: '<', [Tok.rdrOut]: '>', [Tok.tsReMatch]: '=~', [Tok.tsNewer]: '-nt',
  [Tok.tsOlder]: '-ot', [Tok.tsDevIno]: '-ef', [Tok.tsEql]: '-eq', [Tok.tsNeq]: '-ne', [Tok.tsLeq]: '-le', [Tok.tsGeq]: '-ge',
  [Tok.tsLss]: '-lt', [Tok.tsGtr]: '-gt', [Tok.andAnd]: '&&', [Tok.orOr]: '||',
};

/**
 * evalTest under xtrace: like bash, each primary is traced as it is evaluated (`[[ -n abc ]]`,
 * `[[ abc == a* ]]`, a lone word as `-n`), its operands expanded and shown as they are (an empty
 * one as `''`), a `!` only when it applies to the primary itself.
 */
export async function evalTestTraced(sh: Shell, e: TestExpr): Promise<number> {
  e = withPrecedence(e);
  try { return (await evTraced(sh, e)) ? 0 : 1; } catch (x) { return badRegexStatus(x); }
}

async function evTraced(sh: Shell, e: TestExpr): Promise<boolean> {
  let neg = false;
  while (e.type === 'UnaryTest' && e.Op === Tok.exclMark) { neg = !neg; e = e.X; }
  const shown = (x: string): string => (x === '' ? "''" : x);
  const trace = (text: string): Promise<void> => sh.traceRaw(`[[ ${neg ? '! ' : ''}${text} ]]`);
  let v: boolean;
  switch (e.type) {
    case 'ParenTest': v = await evTraced(sh, e.X); break;
    case 'UnaryTest': {
      const x = await literal(sh, e.X as Word);
      const name = Object.keys(unaryOps).find((k) => unaryOps[k] === e.Op && k !== '-a' && k !== '-h') ?? '-?';
      await trace(`${name} ${shown(x)}`);
      v = unaryTest(sh, e.Op, x);
      break;
    }
    case 'BinaryTest': {
      if (e.Op === Tok.andAnd) { v = (await evTraced(sh, e.X)) && (await evTraced(sh, e.Y)); break; }
      if (e.Op === Tok.orOr) { v = (await evTraced(sh, e.X)) || (await evTraced(sh, e.Y)); break; }
      const op = e.Op, x = await literal(sh, e.X as Word);
      if (op === Tok.equal || op === Tok.assgn || op === Tok.nequal) {
        const pat = await sh.ex.patternShown(e.Y as Word);
        await trace(`${shown(x)} ${binNames[op]} ${shown(pat)}`);
        v = patternTest(sh, op, x, pat);
      } else if (op === Tok.tsReMatch) {
        const re = await sh.ex.regexWord(e.Y as Word);
        await trace(`${shown(x)} =~ ${shown(re)}`);
        v = regexTest(sh, x, re);
      } else {
        const y = await literal(sh, e.Y as Word);
        await trace(`${shown(x)} ${binNames[op] ?? '?'} ${shown(y)}`);
        v = await condBinary(sh, op, x, y);
      }
      break;
    }
    case 'Word': {
      const g = notGroup(sh, e);
      if (g) { v = !(await evTraced(sh, g)); break; }
      const x = await literal(sh, e);
      await trace(`-n ${shown(x)}`);
      v = x !== '';
      break;
    }
  }
  return neg ? !v : v;
}

