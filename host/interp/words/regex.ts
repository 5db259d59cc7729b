// POSIX extended regular expressions (for `[[ =~ ]]`) translated to JS RegExp source.
const classMap: Record<string, string> = {
  alpha: 'a-zA-Z', digit: '0-9', alnum: 'a-zA-Z0-9', upper: 'A-Z', lower: 'a-z', space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t', punct: '!-\\/:-@\\[-`{-~', print: ' -~', graph: '!-~', cntrl: '\\x00-\\x1f\\x7f', xdigit: '0-9A-Fa-f', word: 'a-zA-Z0-9_',
};

export function ereToJs(re: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < re.length; i++) {
    const c = re[i]!;
    if (c === '(') depth++;
    if (c === ')') { if (depth === 0) { out += '\\)'; continue; } depth--; }
    if (c === '\\') {
      const n = re[i + 1];
      if (n === undefined) { out += '\\\\'; continue; }
      i++;
      out += /[a-zA-Z0-9]/.test(n) ? n : '\\' + n;
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      let cls = '';
      if (re[j] === '^') { cls += '^'; j++; }
      if (re[j] === ']') { cls += '\\]'; j++; }
      while (j < re.length && re[j] !== ']') {
        if (re[j] === '[' && re[j + 1] === ':') {
          const e = re.indexOf(':]', j + 2);
          if (e > 0) { cls += classMap[re.slice(j + 2, e)] ?? ''; j = e + 2; continue; }
        }
        const ch = re[j]!;
        cls += ch === '\\' || ch === '[' || ch === '/' ? '\\' + ch : ch;
        j++;
      }
      if (j >= re.length) { out += '\\['; continue; }
      out += '[' + cls + ']';
      i = j;
      continue;
    }
    if (c === '{' && /^\{,\d+\}/.test(re.slice(i))) { out += '{0'; continue; } // `{,n}` is `{0,n}`
    if (c === '{' && !/^\{\d+(,\d*)?\}/.test(re.slice(i))) { out += '\\{'; continue; }
    if (c === '}' ) {
      // closing of a valid interval is kept; a stray one is literal
      const open = out.lastIndexOf('{');
      if (open < 0 || out[open - 1] === '\\' || out.slice(open).includes('}')) { out += '\\}'; continue; }
    }
    if (c === '/') { out += '\\/'; continue; }
    out += c;
  }
  return out;
}

/**
 * Whether glibc's regcomp (REG_EXTENDED) rejects `re` (bash's `[[ =~ ]]` then returns 2):
 * a trailing `\`, an unterminated `[`, an unmatched `(`, a `{` that is not a valid interval, a
 * repetition with nothing before it.
 */
export function ereInvalid(re: string): boolean {
  let depth = 0;
  let atomBefore = false;
  for (let i = 0; i < re.length; i++) {
    const c = re[i]!;
    if (c === '\\') { if (i + 1 >= re.length) return true; i++; atomBefore = true; continue; }
    if (c === '[') {
      let j = i + 1;
      if (re[j] === '^') j++;
      if (re[j] === ']') j++;
      while (j < re.length && re[j] !== ']') {
        if (re[j] === '[' && ':.='.includes(re[j + 1] ?? '')) {
          const e = re.indexOf(re[j + 1]! + ']', j + 2);
          if (e < 0) return true;
          j = e + 2;
          continue;
        }
        j++;
      }
      if (j >= re.length) return true;
      i = j; atomBefore = true; continue;
    }
    if (c === '(') { depth++; atomBefore = false; continue; }
    if (c === ')') { if (depth > 0) depth--; atomBefore = true; continue; }
    if (c === '|') { atomBefore = false; continue; }
    if (c === '^') { atomBefore = false; continue; }
    if (c === '*' || c === '+' || c === '?') { if (!atomBefore && !(c === '*' && re[i - 1] === '^')) return true; continue; }
    if (c === '{') {
      const m = /^\{(\d*)(,(\d*))?\}/.exec(re.slice(i));
      if (!m || (m[1] === '' && m[2] === undefined)) return true;
      if (m[1] !== '' && m[3] !== undefined && m[3] !== '' && Number(m[3]) < Number(m[1])) return true;
      if (!atomBefore) return true;
      i += m[0].length - 1;
      continue;
    }
    atomBefore = true;
  }
  return depth > 0;
}

export function escapeEre(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
