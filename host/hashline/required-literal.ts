// A literal every match of a regex must contain, found by reading the pattern conservatively
// (ripgrep's idea, much simplified): hgrep looks for it in a file's raw bytes with one native
// search and skips the file — no decoding, no regex call — when it is absent. Any construct this
// reader does not fully understand (alternation, groups, flags, classes) ends a literal run or
// gives up, so the answer is always safe: null, or a string that every match contains.

/**
 * Literals of which every match of `pattern` contains at least one: one per top-level alternative
 * (`foo|bar` → foo, bar), or null when some alternative has none this reader is sure of.
 */
export function requiredLiterals(pattern: string): string[] | null {
  const branches = topLevelBranches(pattern);
  if (branches === null) return null;
  const out: string[] = [];
  for (const b of branches) {
    const lit = requiredLiteral(b);
    if (lit === null) return null;
    out.push(lit);
  }
  return out;
}

/** `pattern` split at its top-level `|`, or null when it cannot be split safely. */
function topLevelBranches(p: string): string[] | null {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '\\') { i++; continue; }
    if (c === '[') {
      const j = classEnd(p, i);
      if (j < 0) return null;
      i = j;
    } else if (c === '(') depth++;
    else if (c === ')') { if (--depth < 0) return null; }
    else if (c === '|' && depth === 0) { out.push(p.slice(from, i)); from = i + 1; }
  }
  if (depth !== 0) return null;
  out.push(p.slice(from));
  return out;
}

/** Index of the `]` closing the class opened at `i` (it may hold `]` first, and escapes), or -1. */
function classEnd(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === '^') j++;
  if (p[j] === ']') j++;
  for (; j < p.length && p[j] !== ']'; j++) if (p[j] === '\\') j++;
  return j < p.length ? j : -1;
}

/** Index of the `)` closing the group opened at `i`, or -1. */
function groupEnd(p: string, i: number): number {
  let depth = 0;
  for (let j = i; j < p.length; j++) {
    const c = p[j]!;
    if (c === '\\') { j++; continue; }
    if (c === '[') { j = classEnd(p, j); if (j < 0) return -1; continue; }
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j;
  }
  return -1;
}

/** The longest literal (UTF-8 bytes) every match of `pattern` contains, or null when none is sure. */
export function requiredLiteral(pattern: string): string | null {
  let best = '';
  let run = '';
  const end = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    // Top-level alternation: another branch may match without the run (requiredLiterals splits it).
    if (c === '|' || c === ')') return null;
    if (c === '(') {
      // Flags set for the rest of the pattern (`(?i)`, `(?x)`) change what a literal is: give up.
      if (/^\(\?[a-zA-Z-]*\)/.test(pattern.slice(i))) return null;
      // Any other group is one unknown piece (what it requires inside is not read).
      const j = groupEnd(pattern, i);
      if (j < 0) return null;
      end();
      i = skipQuantifier(pattern, j + 1, () => {});
      continue;
    }
    if (c === '[') {
      // A class is one unknown character.
      const j = classEnd(pattern, i);
      if (j < 0) return null;
      end();
      i = skipQuantifier(pattern, j + 1, () => {});
      continue;
    }
    let lit: string | null = null;
    let width = 1;
    if (c === '\\') {
      const d = pattern[i + 1];
      if (d === undefined) return null;
      width = 2;
      // Escaped punctuation is itself; letters and digits are classes, anchors or escapes we do not read.
      lit = /[^\p{L}\p{N}\s]/u.test(d) ? d : null;
      if (d === 'x' || d === 'u' || d === 'p' || d === 'P' || d === 'Q') return null;
    } else if ('*+?{}'.includes(c)) {
      return null; // a quantifier (or brace) this reader did not expect here
    } else if ('.^$'.includes(c)) {
      lit = null;
    } else {
      const cp = pattern.codePointAt(i)!;
      lit = String.fromCodePoint(cp);
      width = lit.length;
    }
    i += width;
    if (lit === null) {
      // `.`, a class escape or an anchor: not literal, and neither is its quantifier.
      end();
      i = skipQuantifier(pattern, i, () => {});
      continue;
    }
    // A quantifier after the character: `?`, `*`, `{0,…}` make it optional; `+`, `{n,…}` keep one.
    let optional = false;
    let quantified = false;
    i = skipQuantifier(pattern, i, (min) => { quantified = true; optional = min === 0; });
    if (optional) { end(); continue; }
    run += lit;
    if (quantified) end();
  }
  end();
  return best.length >= 2 ? best : null;
}

/** Skips a quantifier at `i` (with its lazy/possessive suffix), reporting its minimum; returns the next index. */
function skipQuantifier(p: string, i: number, seen: (min: number) => void): number {
  const c = p[i];
  if (c === '*' || c === '?') { seen(0); i++; }
  else if (c === '+') { seen(1); i++; }
  else if (c === '{') {
    const m = /^\{(\d+)(?:,\d*)?\}/.exec(p.slice(i));
    if (m === null) return i;
    seen(Number(m[1]));
    i += m[0].length;
  } else return i;
  if (p[i] === '?' || p[i] === '+') i++;
  return i;
}
