// Shell patterns (glob, case, [[ == ]], ${x#pat}) compiled to JS regular expressions over
// byte strings, and filesystem globbing. In a pattern string, a backslash quotes the next
// character (quoted parts of words are escaped this way by the expander).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UTF8_CHAR, charUnits } from './utf8-chars.ts';

export interface PatOpts {
  extglob?: boolean; nocase?: boolean;
  /** `*`,`?` and `[...]` never match '/' */
  pathname?: boolean;
  /** UTF-8 locale: `?` and `[...]` match one character, multibyte ones included (utf8-chars.ts) */
  utf8?: boolean;
}

const classMap: Record<string, string> = {
  alpha: 'a-zA-Z', digit: '0-9', alnum: 'a-zA-Z0-9', upper: 'A-Z', lower: 'a-z', space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t', punct: '!-\\/:-@\\[-`{-~', print: ' -~', graph: '!-~', cntrl: '\\x00-\\x1f\\x7f', xdigit: '0-9A-Fa-f', word: 'a-zA-Z0-9_',
};

function reEsc(c: string): string { return /[\\^$.*+?()[\]{}|\/-]/.test(c) ? '\\' + c : c; }

/** Returns true when the pattern has unquoted special characters. */
export function hasMeta(pat: string, extglob = true): boolean {
  for (let i = 0; i < pat.length; i++) {
    const c = pat[i]!;
    if (c === '\\') { i++; continue; }
    if (c === '*' || c === '?') return true;
    if (c === '[' && bracketEnd(pat, i) > 0) return true;
    if (extglob && '@+!'.includes(c) && pat[i + 1] === '(') return true;
  }
  return false;
}

/** Index just after the closing ']' of a bracket expression starting at i, or -1. */
function bracketEnd(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === '!' || p[j] === '^') j++;
  if (p[j] === ']') j++;
  while (j < p.length) {
    const c = p[j]!;
    if (c === '\\') { j += 2; continue; }
    if (c === '[' && (p[j + 1] === ':' || p[j + 1] === '.' || p[j + 1] === '=')) {
      const close = p.indexOf(p[j + 1]! + ']', j + 2);
      if (close < 0) return -1;
      j = close + 2; continue;
    }
    if (c === ']') return j + 1;
    j++;
  }
  return -1;
}

function findClose(p: string, i: number): number {
  // i points just after '('; returns index of the matching ')'
  let depth = 1;
  for (let j = i; j < p.length; j++) {
    const c = p[j]!;
    if (c === '\\') { j++; continue; }
    if (c === '[') { const e = bracketEnd(p, j); if (e > 0) { j = e - 1; continue; } }
    if (c === '(') depth++;
    else if (c === ')') { if (--depth === 0) return j; }
  }
  return -1;
}

function splitAlts(s: string): string[] {
  const out: string[] = [];
  let depth = 0, start = 0;
  for (let j = 0; j < s.length; j++) {
    const c = s[j]!;
    if (c === '\\') { j++; continue; }
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) { out.push(s.slice(start, j)); start = j + 1; }
  }
  out.push(s.slice(start));
  return out;
}

/**
 * Translates a shell pattern to a regex source (unanchored). A pattern of `*`s and
 * one-character parts (no extglob group; `?` and brackets only outside a UTF-8 locale) with two
 * or more stars is built so that it cannot backtrack exponentially (`*a*a*a*b` against a long
 * run of `a`s took the regex engine O(n^k)): the part after each inner star is found at its
 * first occurrence and kept (an atomic group, `(?=(…*?X))\N`), the last one at the latest; the
 * same matches (and longest matches from a start), in O(length × pattern).
 */
export function patternSource(p: string, o: PatOpts = {}): string {
  const pieces: string[] = [];
  const out = patternPieces(p, o, pieces);
  return pieces.length ? starSegments(pieces, o.pathname ? '[^/]' : '[\\s\\S]') : out;
}

const STAR = '\0*';

function starSegments(pieces: string[], any: string): string {
  const segs: string[][] = [[]];
  for (const x of pieces) if (x === STAR) segs.push([]); else segs[segs.length - 1]!.push(x);
  let out = segs[0]!.join('');
  let group = 0;
  for (let k = 1; k < segs.length - 1; k++) {
    const seg = segs[k]!.join('');
    if (seg === '') continue;
    group++;
    out += `(?=(${any}*?${seg}))\\${group}`;
  }
  return out + any + '*' + segs[segs.length - 1]!.join('');
}

/** patternSource's translation; fills `pieces` (a STAR for each `*`) when starSegments can take the pattern. */
function patternPieces(p: string, o: PatOpts, pieces: string[]): string {
  const any = o.pathname ? '[^/]' : '[\\s\\S]';
  const one = o.utf8 ? (o.pathname ? `(?![/])${UTF8_CHAR}` : UTF8_CHAR) : any;
  let out = '';
  // (one-character parts and stars so far; false once the pattern has anything else)
  let simple = true, stars = 0;
  const piece = (x: string): void => { out += x; if (simple) pieces.push(x); };
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '\\') {
      if (i + 1 < p.length) { piece(reEsc(p[++i]!)); } else piece('\\\\');
      continue;
    }
    if (o.extglob !== false && '?*+@!'.includes(c) && p[i + 1] === '(') {
      const close = findClose(p, i + 2);
      if (close > 0) {
        simple = false;
        // (not starSegments inside: its group numbers are the whole regex's)
        const alts = splitAlts(p.slice(i + 2, close)).map((a) => patternPieces(a, o, []));
        const g = '(?:' + alts.join('|') + ')';
        if (c === '?') out += g + '?';
        else if (c === '*') out += g + '*';
        else if (c === '+') out += g + '+';
        else if (c === '@') out += g;
        else {
          const rest = patternPieces(p.slice(close + 1), o, []);
          out += `(?:(?!${g}(?:${rest})$)${any}*?)`;
        }
        i = close;
        continue;
      }
    }
    if (c === '*') { out += any + '*'; stars++; if (simple) pieces.push(STAR); while (p[i + 1] === '*') i++; continue; }
    if (c === '?') { if (o.utf8) simple = false; piece(one); continue; }
    if (c === '[') {
      const end = bracketEnd(p, i);
      if (end < 0) { piece('\\['); continue; }
      if (o.utf8) simple = false;
      let j = i + 1;
      let neg = false;
      if (p[j] === '!' || p[j] === '^') { neg = true; j++; }
      let cls = '';
      const multi: string[] = []; // multibyte characters (UTF-8 locale)
      let first = true;
      while (j < end - 1) {
        const d = p[j]!;
        if (o.utf8 && d.charCodeAt(0) >= 0xc2) {
          const u = charUnits(p.slice(j, end - 1))[0]!;
          if (u.length > 1) { multi.push(reEsc(u)); j += u.length; first = false; continue; }
        }
        if (d === ']' && !first) break;
        first = false;
        if (d === '[' && p[j + 1] === ':') {
          const close = p.indexOf(':]', j + 2);
          const name = p.slice(j + 2, close);
          cls += classMap[name] ?? '';
          j = close + 2; continue;
        }
        if (d === '[' && (p[j + 1] === '.' || p[j + 1] === '=')) {
          const close = p.indexOf(p[j + 1]! + ']', j + 2);
          cls += reEsc(p.slice(j + 2, close));
          j = close + 2; continue;
        }
        let ch = d;
        if (d === '\\' && j + 1 < end - 1) { ch = p[++j]!; }
        if (p[j + 1] === '-' && j + 2 < end - 1 && p[j + 2] !== ']') {
          let hi = p[j + 2]!;
          let k = j + 2;
          if (hi === '\\') { k++; hi = p[k]!; }
          if (ch <= hi) cls += reEsc(ch) + '-' + reEsc(hi); // a reversed range matches nothing
          j = k + 1; continue;
        }
        cls += reEsc(ch);
        j++;
      }
      if (o.utf8) {
        // one character: a member (class or multibyte alternative), or for `[!…]` any character that is none
        const members = [...(cls === '' ? [] : [`[${cls}]`]), ...multi];
        const set = members.length ? `(?:${members.join('|')})` : '(?!)';
        out += (o.pathname ? '(?![/])' : '') + (neg ? (members.length ? `(?!${set})${UTF8_CHAR}` : UTF8_CHAR) : set);
      } else if (o.pathname) piece(neg ? `(?![/])[^${cls}]` : `(?![/])[${cls}]`);
      else piece(neg ? `[^${cls}]` : (cls === '' ? '(?!)' : `[${cls}]`));
      i = end - 1;
      continue;
    }
    piece(reEsc(c));
  }
  if (!simple || stars < 2) pieces.length = 0;
  return out;
}

const cache = new Map<string, RegExp>();
export function patternRegex(p: string, o: PatOpts = {}, mode: 'full' | 'none' = 'full'): RegExp {
  const key = `${mode}|${o.extglob ? 1 : 0}${o.nocase ? 1 : 0}${o.pathname ? 1 : 0}${o.utf8 ? 1 : 0}|${p}`;
  let r = cache.get(key);
  if (!r) {
    const src = patternSource(p, o);
    r = new RegExp(mode === 'full' ? `^(?:${src})$` : src, o.nocase ? 'i' : '');
    if (cache.size > 2000) cache.clear();
    cache.set(key, r);
  }
  return r;
}

export function matchPattern(p: string, s: string, o: PatOpts = {}): boolean {
  if (!o.nocase && !o.pathname) {
    const m = plainMatch(p, s);
    if (m !== undefined) return m;
  }
  return patternRegex(p, o).test(s);
}

/**
 * A `case` or `[[ == ]]` pattern (extglob always on): the plain forms without a regex, so the
 * subject's UTF-8 check (`locale.utf8`, which bash's multibyte matching needs) is made only for the others.
 */
export function matchExtPattern(p: string, s: string, nocase: boolean, locale: { utf8(s: string): boolean }): boolean {
  if (!nocase) {
    const m = plainMatch(p, s);
    if (m !== undefined) return m;
  }
  return patternRegex(p, { extglob: true, nocase, utf8: locale.utf8(s) }).test(s);
}

/**
 * `X`, `*X`, `X*` and `*X*` where X has nothing special (the commonest `case` and `[[ ]]`
 * patterns), without a regex; undefined for any other pattern.
 */
function plainMatch(p: string, s: string): boolean | undefined {
  const m = plainMatcher(p);
  return m === null ? undefined : m(s);
}

/** plainMatch's test for pattern `p` as a function of the subject (null: not a plain form), made once per pattern. */
export function plainMatcher(p: string): ((s: string) => boolean) | null {
  let m = plainMatchers.get(p);
  if (m === undefined) {
    const lead = p.charCodeAt(0) === 42; // '*'
    const trail = p.length > 1 && p.charCodeAt(p.length - 1) === 42;
    const x = lead || trail ? p.slice(lead ? 1 : 0, trail ? -1 : p.length) : p;
    // (`(` for extglob groups such as `*(…)`, `@(…)`)
    m = SPECIAL.test(x) ? null : lead && trail ? (s) => s.includes(x) : lead ? (s) => s.endsWith(x) : trail ? (s) => s.startsWith(x) : (s) => s === x;
    if (plainMatchers.size > 2000) plainMatchers.clear();
    plainMatchers.set(p, m);
  }
  return m;
}
const plainMatchers = new Map<string, ((s: string) => boolean) | null>();
const SPECIAL = /[*?[\\(]/;

/** Removes pattern escapes (quote removal for a pattern string). */
export function unescapePattern(p: string): string {
  let out = '';
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\' && i + 1 < p.length) { out += p[++i]; continue; }
    out += p[i];
  }
  return out;
}

/** Splits GLOBIGNORE at ':' outside bracket expressions, extglob groups and backslash escapes; drops empty parts. */
export function splitIgnore(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\') { i++; continue; }
    if (c === '[') { const e = bracketEnd(s, i); if (e > 0) { i = e - 1; continue; } }
    if ('?*+@!'.includes(c) && s[i + 1] === '(') { const e = findClose(s, i + 2); if (e > 0) { i = e; continue; } }
    if (c === ':') { out.push(s.slice(start, i)); start = i + 1; }
  }
  out.push(s.slice(start));
  return out.filter((x) => x !== '');
}

export interface GlobOpts {
  dotglob?: boolean; extglob?: boolean; nocase?: boolean; globstar?: boolean; cwd: string;
  /** UTF-8 locale: `?` and `[…]` match a whole character of a name */
  utf8?: boolean;
  /** `shopt -u globskipdots`: a pattern starting with '.' also matches '.' and '..' */
  noskipdots?: boolean;
  /** GLOBIGNORE patterns (matched against whole results, `*` not matching '/'); '.' and '..' are then never returned */
  ignore?: string[];
}

function toBuf(s: string): Buffer { return Buffer.from(s, 'latin1'); }

function listDir(dir: string): string[] {
  try {
    return (fs.readdirSync(toBuf(dir), { encoding: 'buffer' }) as Buffer[]).map((b) => b.toString('latin1'));
  } catch { return []; }
}

function isDir(p: string): boolean {
  try { return fs.statSync(toBuf(p)).isDirectory(); } catch { return false; }
}

/** Filesystem glob of a pattern (with backslash quoting). Returns sorted matches or []. */
export function glob(pat: string, o: GlobOpts): string[] {
  const abs = pat.startsWith('/');
  const comps = pat.split('/');
  let bases: string[] = [abs ? '/' : ''];
  if (abs) comps.shift();
  let prevGlob = false;
  for (let ci = 0; ci < comps.length; ci++) {
    const comp = comps[ci]!;
    const last = ci === comps.length - 1;
    if (comp === '') {
      // `a//b` keeps its slashes in the results, like bash; after a matched component
      // (`x*//y`, `x*//`) they become one
      if (prevGlob) { if (last) bases = bases.map((b) => (b.endsWith('/') ? b : b + '/')); continue; }
      bases = bases.map((b) => (last ? (b.endsWith('/') ? b : b + '/') : b + (b.endsWith('/') ? '/' : '//')));
      continue;
    }
    prevGlob = hasMeta(comp, o.extglob);
    const next: string[] = [];
    if (o.globstar && comp === '**') {
      if (comps[ci + 1] === '**' && ci + 2 < comps.length) continue; // `**/**/x` is `**/x`
      for (const b of bases) {
        // the starting directory is listed as `dir/`, directories below it (when `**` ends the
        // pattern) without the slash, like bash
        const dirsOnly = ci === comps.length - 2 && comps[ci + 1] === '';
        const walk = (rel: string, top = false): void => {
          next.push(top && rel !== '' && !rel.endsWith('/') ? rel + '/' : last && !top ? rel.replace(/\/$/, '') : rel);
          const real = path.resolve(o.cwd, rel === '' ? '.' : rel);
          for (const n of listDir(real).sort()) {
            if (n.startsWith('.') && !o.dotglob) continue;
            const child = rel === '' || rel.endsWith('/') ? rel + n : rel + '/' + n;
            let st: fs.Stats | undefined;
            try { st = fs.lstatSync(toBuf(path.resolve(o.cwd, child))); } catch { /* */ }
            if (st?.isDirectory()) walk(child + '/');
            else if (last) next.push(child);
            else if (dirsOnly && st?.isSymbolicLink() && isDir(path.resolve(o.cwd, child))) next.push(child + '/'); // `**/` lists, never enters, symlinked dirs
          }
        };
        walk(b, true);
      }
      bases = last ? next.filter((x) => x !== '') : next;
      continue;
    }
    if (!hasMeta(comp, o.extglob)) {
      const lit = unescapePattern(comp);
      for (const b of bases) {
        const cand = b === '' ? lit : (b.endsWith('/') ? b + lit : b + '/' + lit);
        if (last) { try { fs.lstatSync(toBuf(path.resolve(o.cwd, cand))); next.push(cand); } catch { /* */ } }
        else if (isDir(path.resolve(o.cwd, cand))) next.push(cand);
      }
      bases = next;
      continue;
    }
    const re = patternRegex(comp, { extglob: o.extglob, nocase: o.nocase, pathname: true, utf8: o.utf8 });
    const litDot = comp.startsWith('.') || comp.startsWith('\\.');
    const dotOk = o.dotglob || litDot;
    for (const b of bases) {
      const dir = path.resolve(o.cwd, b === '' ? '.' : b);
      const names = listDir(dir);
      names.sort();
      if (o.noskipdots && litDot) names.unshift('.', '..');
      for (const n of names) {
        if ((n === '.' || n === '..') && !(o.noskipdots && litDot)) continue;
        if (n.startsWith('.') && !dotOk) continue;
        if (!re.test(n)) continue;
        const cand = b === '' ? n : (b.endsWith('/') ? b + n : b + '/' + n);
        if (!last && !isDir(path.resolve(o.cwd, cand))) continue;
        next.push(cand);
      }
    }
    bases = next;
  }
  let res = bases.filter((b) => b !== '' && b !== '/');
  if (o.ignore && o.ignore.length) {
    const res0 = res;
    const ign = o.ignore.map((p) => patternRegex(p, { extglob: o.extglob, nocase: o.nocase, pathname: true }));
    res = res0.filter((r) => {
      const base = r.endsWith('/') ? r : r.slice(r.lastIndexOf('/') + 1);
      if (base === '.' || base === '..') return false;
      return !ign.some((re) => re.test(r));
    });
  }
  return res.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).concat(abs && pat === '/' ? ['/'] : []);
}
