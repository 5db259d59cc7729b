// Arithmetic as the evaluator runs it (`((…))`, `let`, `for ((…))`, subscripts): evaluation
// through words/arith.ts with bash's error texts — the expression as written with its words
// expanded, the error token — and the source ranges of expression nodes those texts, xtrace and
// associative keys written like arithmetic (`A[$i,$j]`) are cut from.
import type { Shell } from './runner.ts';
import type { ArithmExpr, ParamExp, Word } from '../syntax/ast.ts';
import { ArithError } from '../words/arith.ts';
import { wordSource } from '../syntax/word-range.ts';
import { rawArith } from '../syntax/reparse-placeholders.ts';

/** Evaluates arithmetic; `start`/`end` locate its source text for error messages. */
export async function arithAst(sh: Shell, e: ArithmExpr, start?: number, end?: number): Promise<bigint> {
  try {
    return await sh.arith.evalAst(e);
  } catch (err) {
    arithErrorSource(sh, err, start, end, e);
    throw err;
  }
}

/** arithAst without awaiting; only when arith.canSync(e). */
export function arithSync(sh: Shell, e: ArithmExpr, start?: number, end?: number): bigint {
  try {
    return sh.arith.evalSync(e);
  } catch (err) {
    arithErrorSource(sh, err, start, end, e);
    throw err;
  }
}

/** An error in `a[…]`'s subscript inside an expression: bash reports the text between the brackets. */
export function subscriptError(sh: Shell, err: unknown, p: ParamExp): void {
  if (!(err instanceof ArithError) || err.expr) return;
  const src = sh.source.src, r = arithRange(src, p.Index!);
  let end = r?.[1];
  if (end !== undefined) { while (src[end] === ' ' || src[end] === '\t' || src[end] === '\n') end++; if (src[end] !== ']') end = undefined; }
  if (end !== undefined && src[p.Param.ValueEnd] === '[') arithErrorSource(sh, err, p.Param.ValueEnd + 1, end);
  else arithErrorSource(sh, err, undefined, undefined, p.Index!);
  // (bash evaluates it apart and its error jumps to the top level: it ends a `-c` string)
  if (err.expr) { err.subscript = true; err.hard = true; }
}

function arithErrorSource(sh: Shell, err: unknown, start?: number, end?: number, e?: ArithmExpr): void {
  if (err instanceof ArithError && !err.expr && err.tokenPos === undefined && err.textExpr !== undefined) {
    // (an error in text the expression expanded to: bash reports that text)
    err.expr = err.textExpr;
    err.textToken();
    if (err.message === 'exponent less than 0' && err.textTokenPos !== undefined) err.token = powErrorToken(err.textExpr.slice(err.textTokenPos));
    return;
  }
  if (err instanceof ArithError && start === undefined && e) [start, end] = arithRange(sh.source.src, e) ?? [];
  if (err instanceof ArithError && start !== undefined && end !== undefined && !err.expr) {
    const src = sh.source.src;
    // (bash shows the text after its expansions: `$1 / 0` with $1=3 is `3 / 0`)
    const values = e ? sh.arith.wordValues(e) : undefined;
    const text = (a: number, b: number): string => values?.size ? spliceRange(src, a, b, values) : src.slice(a, b);
    err.expr = text(start, err.srcEnd ?? end);
    if (err.srcEnd !== undefined && /[$`]/.test(err.expr)) err.expr = err.numberText;
    if (rawArith.size && err.expr.includes('__hpA')) err.expr = err.expr.replace(/ ?(__hpA\d+) \n*/g, (m, n: string) => rawArith.get(n) ?? m);
    if (err.tokenPos !== undefined && err.token === undefined) {
      err.token = text(err.tokenPos, end).replace(/^\s+/, '');
      if (err.message === 'exponent less than 0') err.token = powErrorToken(err.token);
    }
  }
}

/**
 * bash's "error token" for a negative exponent: it is found after the right operand of `**`
 * was read, so the token is the one after that operand, or its last token at the end.
 */
function powErrorToken(rest: string): string {
  const re = /\s*(\*\*|\+\+|--|[-+!~]|[0-9a-zA-Z_#@]+(?:\[[^\]]*\])?|[()]|\S)/y;
  const toks: { at: number; t: string }[] = [];
  for (let m: RegExpExecArray | null; re.lastIndex < rest.length && (m = re.exec(rest));) toks.push({ at: m.index + m[0].length - m[1]!.length, t: m[1]! });
  let i = 0, last = -1;
  for (;;) {
    while (i < toks.length && /^[-+!~]$|^\+\+$|^--$/.test(toks[i]!.t)) i++;
    if (i >= toks.length) break;
    if (toks[i]!.t === '(') {
      let d = 0;
      for (; i < toks.length; i++) { if (toks[i]!.t === '(') d++; else if (toks[i]!.t === ')' && --d === 0) break; }
    }
    last = Math.min(i, toks.length - 1); i++;
    if (i < toks.length && (toks[i]!.t === '++' || toks[i]!.t === '--')) last = i++;
    if (i < toks.length && toks[i]!.t === '**') { i++; continue; }
    break;
  }
  const k = i < toks.length ? i : last;
  return k < 0 ? rest : rest.slice(toks[k]!.at);
}

/** An arithmetic error in `((…))`: bash names the command in the message. */
export function arithCmdError(e: unknown): unknown {
  if (e instanceof ArithError && !e.subscript) e.expr = '((: ' + e.expr.replace(/^[ \t]+/, '');
  return e;
}

/** Source text of an arithmetic expression node (for associative subscripts like m[1+1]). */
export function arithSource(src: string, e: ArithmExpr): string | undefined {
  const r = arithRange(src, e);
  return r ? src.slice(r[0], r[1]) : undefined;
}

/**
 * The source of `e` with the words in `values` replaced by their text, when every range is known:
 * an error message's expression (`toClose`: bash's text runs on to the `))`), or an associative
 * array's key written like arithmetic (`A[$i,$j]`, `A[$k+1]`: bash expands it as a string).
 */
export function spliceArith(src: string, e: ArithmExpr, values: Map<Word, string>, toClose = true): string | undefined {
  const whole = arithRange(src, e);
  if (!whole) return undefined;
  if (toClose) while (whole[1] < src.length && ' \t\n'.includes(src[whole[1]]!)) whole[1]++;
  const cuts: [number, number, string][] = [];
  for (const [w, v] of values) {
    const r = arithRange(src, w);
    if (!r || r[0] < whole[0] || r[1] > whole[1]) return undefined;
    cuts.push([r[0], r[1], v]);
  }
  cuts.sort((a, b) => a[0] - b[0]);
  let out = '', at = whole[0];
  for (const [a, b, v] of cuts) {
    if (a < at) return undefined;
    out += src.slice(at, a) + v;
    at = b;
  }
  return out + src.slice(at, whole[1]);
}

/** src[a, b) with each word of `values` that lies inside it replaced by its text. */
function spliceRange(src: string, a: number, b: number, values: Map<Word, string>): string {
  const cuts: [number, number, string][] = [];
  for (const [w, v] of values) {
    const r = arithRange(src, w);
    if (r && r[0] >= a && r[1] <= b) cuts.push([r[0], r[1], v]);
  }
  cuts.sort((x, y) => x[0] - y[0]);
  let out = '', at = a;
  for (const [x, y, v] of cuts) {
    if (x < at) continue;
    out += src.slice(at, x) + v;
    at = y;
  }
  return out + src.slice(at, b);
}

/** Source range of an arithmetic expression node, when it can be determined. */
export function arithRange(src: string, e: ArithmExpr): [number, number] | undefined {
  const range = (n: ArithmExpr): [number, number] | undefined => {
    switch (n.type) {
      case 'Word': {
        const t = wordSource(src, n);
        if (t === undefined) return undefined;
        const f = n.Parts[0]!;
        const a = f.type === 'Lit' ? f.ValuePos : f.type === 'ParamExp' ? f.Dollar : (f as { Left?: number }).Left;
        return a === undefined ? undefined : [a, a + t.length];
      }
      case 'BinaryArithm': { const x = range(n.X), y = range(n.Y); return x && y ? [x[0], y[1]] : undefined; }
      case 'UnaryArithm': { const x = range(n.X); if (!x) return undefined; return n.Post ? [x[0], n.OpPos + 2] : [n.OpPos, x[1]]; }
      case 'ParenArithm': { const p = n as unknown as { Lparen: number; Rparen: number }; return [p.Lparen, p.Rparen + 1]; }
    }
  };
  return range(e);
}
