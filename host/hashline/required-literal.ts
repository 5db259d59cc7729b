// A literal every match of a regex must contain, found by reading the pattern conservatively
// (ripgrep's idea, much simplified): hgrep looks for it in a file's raw bytes with one native
// search and skips the file — no decoding, no regex call — when it is absent. Any construct this
// reader does not fully understand (alternation, groups, flags, classes) ends a literal run or
// gives up, so the answer is always safe: null, or a string that every match contains.

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
    // Alternation at any level, groups and flags: another branch may match without the run.
    if (c === '|' || c === '(' || c === ')') return null;
    if (c === '[') {
      // A class is one unknown character: skip it (it may contain `]` first, and escapes).
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      for (; j < pattern.length && pattern[j] !== ']'; j++) if (pattern[j] === '\\') j++;
      if (j >= pattern.length) return null;
      end();
      i = j + 1;
      i = skipQuantifier(pattern, i, () => {});
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
