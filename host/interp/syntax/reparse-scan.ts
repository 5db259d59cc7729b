// Scanning the script's text the way bash's parser matches pairs (quotes, `\x`, nested
// parentheses and `${…}`), for the source fixes and the deferred syntax errors alike: where a word
// ends, the first `)` that closes nothing, the `}` that closes a `${`.

/** End of the shell word starting at `i` (quotes, `$(…)`, `${…}` and backquotes skipped), or `i` if unsure. */
export function wordEnd(src: string, i: number): number {
  const start = i;
  let depth = 0;
  for (; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') { i++; continue; }
    if (c === "'") { const j = src.indexOf("'", i + 1); if (j < 0) return start; i = j; continue; }
    if (c === '"') {
      for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === '\\') i++;
      if (i >= src.length) return start;
      continue;
    }
    if (c === '`') { const j = src.indexOf('`', i + 1); if (j < 0) return start; i = j; continue; }
    if (c === '$' && (src[i + 1] === '(' || src[i + 1] === '{')) { depth++; i++; continue; }
    if (depth > 0) { if (c === '(' || c === '{') depth++; else if (c === ')' || c === '}') depth--; continue; }
    if (/[\s;&|<>()]/.test(c)) break;
  }
  return depth === 0 ? i : start;
}

/**
 * Index just past the first `)` that closes nothing, scanning from `i` (bash's
 * parse_matched_pair: quotes, `\x` and nested parens are skipped), or -1.
 */
export function firstUnbalanced(src: string, i: number): number {
  let depth = 0;
  for (; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') { i++; continue; }
    if (c === "'") { const j = src.indexOf("'", i + 1); if (j < 0) return -1; i = j; continue; }
    if (c === '"') {
      for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === '\\') i++;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') { if (depth === 0) return i + 1; depth--; }
  }
  return -1;
}

/** Index of the `}` closing the `${` at `d`, as bash matches it; 'inside-command' when `off` is in a nested `$(…)`/backquotes. */
export function paramClose(src: string, d: number, off: number): number | null | 'inside-command' {
  let depth = 0;
  for (let i = d + 2; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') { i++; continue; }
    if (c === "'" || c === '"' || c === '`') {
      const j = quoteEnd(src, i);
      if (j < 0) return null;
      if (c === '`' && i < off && off <= j) return 'inside-command';
      i = j;
      continue;
    }
    if (c === '$' && src[i + 1] === '(') {
      let k = i + 2;
      for (let par = 1; k < src.length && par > 0; k++) {
        if (src[k] === '\\') k++;
        else if (src[k] === '(') par++;
        else if (src[k] === ')') par--;
      }
      if (i < off && off < k) return 'inside-command';
      i = k - 1;
      continue;
    }
    // (bash's first-close rule: a bare `{` opens nothing; only a nested `${` does)
    if (c === '$' && src[i + 1] === '{') { depth++; i++; }
    else if (c === '}') { if (depth === 0) return i; depth--; }
  }
  return null;
}

/** Index of the quote closing the one at `i` (backslash escapes in `"…"` and backquotes), or -1. */
function quoteEnd(src: string, i: number): number {
  const q = src[i]!;
  for (let j = i + 1; j < src.length; j++) {
    if (src[j] === '\\' && q !== "'") { j++; continue; }
    if (src[j] === q) return j;
  }
  return -1;
}
