// Loads mvdan-sh (GopherJS build of mvdan/sh v3.5.1) once and converts its AST to plain JSON
// through the GopherJS internals (`__internal_object__`), which is ~250x faster than the
// public getters. Never use the package's public walker (slow, and it panics on BraceExp).
import type { File } from './ast.ts';
import { findEmptyBody } from './empty-body-check.ts';
import { fastParse } from './fast-parser.ts';

interface GoParser { Parse(src: string, name: string): { __internal_object__: unknown } }
interface MvdanSh { syntax: { NewParser(...opts: unknown[]): GoParser; Variant(v: number): unknown; IsIncomplete(e: unknown): boolean } }

let sh: MvdanSh | undefined;
const parsers = new Map<number, GoParser>();
let loader: (() => unknown) | undefined;

/**
 * How to load mvdan-sh instead of `require` (the startup snapshot, which leaves it out: see
 * mvdan-lazy.ts). Called before anything is parsed.
 */
export function setMvdanLoader(load: () => unknown): void { loader = load; }

/** Whether mvdan-sh has been loaded (the snapshot's build checks that it was not). */
export function mvdanLoaded(): boolean { return sh !== undefined; }

function load(): MvdanSh {
  if (sh) return sh;
  const g = globalThis as Record<string, unknown>;
  const hadRequire = Object.prototype.hasOwnProperty.call(g, 'require');
  const oldRequire = g['require'];
  const limit = Error.stackTraceLimit;
  try {
    // a direct `require('mvdan-sh')` lets the CJS bundle (scripts/build-interp.mjs) inline it
    if (loader) sh = loader() as MvdanSh;
    else sh = (typeof require === 'function' ? require('mvdan-sh') : process.getBuiltinModule('node:module').createRequire(import.meta.url)('mvdan-sh')) as MvdanSh;
  } finally {
    Error.stackTraceLimit = limit;
    if (hadRequire) g['require'] = oldRequire; else delete g['require'];
  }
  return sh;
}

function parserFor(posix: boolean): GoParser {
  const lang = posix ? 1 : 0;
  let p = parsers.get(lang);
  if (!p) {
    const s = load();
    p = s.syntax.NewParser(s.syntax.Variant(lang));
    parsers.set(lang, p);
  }
  return p;
}

/**
 * mvdan-sh takes an unquoted `\r` for a blank, bash for an ordinary character (`echo a\rb`, CRLF
 * scripts): the parser gets a control byte absent from the source instead, mapped back in raw().
 */
let crStandIn: string | undefined;
function crFree(src: string): string | undefined {
  for (let c = 1; c < 32; c++) {
    const ch = String.fromCharCode(c);
    if (c !== 9 && c !== 10 && c !== 13 && !src.includes(ch)) return ch;
  }
  return undefined;
}

/** Converts a GopherJS value to plain JSON (see dependencies notes §2). */
function raw(v: any): any {
  if (typeof v === 'string' && crStandIn !== undefined) return v.split(crStandIn).join('\r');
  if (v === null || v === undefined || typeof v !== 'object') return v ?? null;
  if (v.$array !== undefined && v.$length !== undefined) {
    const out = new Array(v.$length);
    for (let i = 0; i < v.$length; i++) out[i] = raw(v.$array[v.$offset + i]);
    return out;
  }
  if ('offs' in v && 'lineCol' in v) return v.offs;
  const c = v.constructor;
  const ts: string | undefined = c && c.string;
  if (ts && ts.startsWith('*syntax.')) {
    if (c.nil === v) return null;
    const o: Record<string, unknown> = { type: ts.slice(8) };
    for (const f of c.elem.fields) o[f.name] = raw(v[f.prop]);
    return o;
  }
  if (v.$val !== undefined && v.$val !== v) return raw(v.$val);
  if (c === Object) return null; // GopherJS nil interface ($ifaceNil)
  return v;
}

export class ParseError extends Error {
  constructor(readonly line: number, readonly col: number, readonly text: string, readonly incomplete: boolean) {
    super(`${line}:${col}: ${text}`);
  }
}

/**
 * Parses `src` (a normal JS string). Lit values in the result are UTF-8 byte strings. The scripts
 * fast-parser.ts understands completely never load mvdan-sh; it declines anything else.
 */
export function parse(src: string, posix = false): File {
  const file = fastParse(utf8Bytes(src), posix) ?? mvdanParse(src, posix);
  if (src.includes('`') && src.includes('\\')) unescapeBackquoted(file, 0, false);
  return checkedBodies(src, file);
}

/**
 * bash removes the backslash before `$`, `` ` `` and `\` (and `"` inside double quotes) in a
 * backquote substitution's text before it parses it, so in single quotes too (`` `echo '\$x'` ``
 * prints `$x`); mvdan-sh keeps single-quoted text as written. Once per level of backquotes.
 */
function unescapeBackquoted(n: unknown, depth: number, dq: boolean): void {
  if (Array.isArray(n)) { for (const x of n) unescapeBackquoted(x, depth, dq); return; }
  if (!n || typeof n !== 'object') return;
  const o = n as Record<string, unknown>;
  if (o['type'] === 'SglQuoted' && depth > 0 && !o['Dollar']) {
    let v = o['Value'] as string;
    for (let i = 0; i < depth && v.includes('\\'); i++) v = v.replace(dq ? /\\([$`\\"])/g : /\\([$`\\])/g, '$1');
    o['Value'] = v;
    return;
  }
  const bq = o['type'] === 'CmdSubst' && o['Backquotes'] === true;
  if (o['type'] === 'CmdSubst' && !bq) { unescapeBackquoted(o['Stmts'], depth, false); return; }
  const d = bq ? depth + 1 : depth, q = o['type'] === 'DblQuoted' ? true : bq ? dq && depth === 0 : dq;
  for (const k in o) { const v = o[k]; if (v && typeof v === 'object') unescapeBackquoted(v, d, q); }
}

const utf8Bytes = (s: string): string => (/^[\x00-\x7f]*$/.test(s) ? s : Buffer.from(s, 'utf8').toString('latin1'));

/** Parses with mvdan-sh alone (differential tests compare fast-parser.ts with it). */
export function mvdanParse(src: string, posix = false): File {
  const p = parserFor(posix);
  let f: { __internal_object__: unknown };
  const stand = src.includes('\r') ? crFree(src) : undefined;
  try {
    f = p.Parse(stand ? src.split('\r').join(stand) : src, '');
  } catch (e: any) {
    if (e && typeof e.Error === 'function') {
      let msg: string = String(e.Error());
      if (stand) msg = msg.split(stand).join('\r');
      const m = /^(\d+):(\d+): ([\s\S]*)$/.exec(msg);
      let incomplete = false;
      try { incomplete = Boolean(load().syntax.IsIncomplete(e)); } catch { /* ignore */ }
      if (m) throw new ParseError(Number(m[1]), Number(m[2]), m[3]!, incomplete);
      throw new ParseError(1, 1, msg, incomplete);
    }
    throw new ParseError(1, 1, String(e && e.message ? e.message : e), false);
  }
  crStandIn = stand;
  let file: File;
  try { file = raw(f.__internal_object__) as File; } finally { crStandIn = undefined; }
  return file;
}

function checkedBodies(src: string, file: File): File {
  const empty = findEmptyBody(file);
  if (empty) {
    const bytes = Buffer.from(src).toString('latin1');
    // `while ; do`, `{ ; }`: bash stops at the `;` (or `&`) right after the opening word
    const semi = /(?:^|[\s;&|(])(?:while|until|if|elif|then|do|else|\{|\()[ \t]*([;&])[ \t\n]*$/.exec(bytes.slice(Math.max(0, empty.offset - 40), empty.offset));
    if (semi) empty.offset -= semi[0].length - semi[0].lastIndexOf(semi[1]!), empty.token = semi[1]!;
    if (empty.token === '') empty.token = /^[^\s;&|()<>]*/.exec(bytes.slice(empty.offset))![0];
    const before = bytes.slice(0, empty.offset);
    const line = before.split('\n').length;
    const col = empty.offset - before.lastIndexOf('\n');
    throw new ParseError(line, col, `syntax error near unexpected token \`${empty.token}'`, false);
  }
  return file;
}

/** Line number (1-based) of a byte offset in a UTF-8 byte string source. */
export function lineOf(srcBytes: string, offs: number): number {
  let n = 1;
  for (let i = 0; i < offs && i < srcBytes.length; i++) if (srcBytes.charCodeAt(i) === 10) n++;
  return n;
}
