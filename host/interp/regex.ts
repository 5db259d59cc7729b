// POSIX extended regular expressions (for `[[ =~ ]]`) translated to JS RegExp source.
const classMap: Record<string, string> = {
  alpha: 'a-zA-Z', digit: '0-9', alnum: 'a-zA-Z0-9', upper: 'A-Z', lower: 'a-z', space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t', punct: '!-\\/:-@\\[-`{-~', print: ' -~', graph: '!-~', cntrl: '\\x00-\\x1f\\x7f', xdigit: '0-9A-Fa-f', word: 'a-zA-Z0-9_',
};

export function ereToJs(re: string): string {
  let out = '';
  for (let i = 0; i < re.length; i++) {
    const c = re[i]!;
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

export function escapeEre(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
