// .gitignore / .ignore rules for hgrep's walk (the subset of gitignore(5) that decides what a search
// skips): blank lines and `#` comments ignored, `\` escapes a leading `#` or `!`, `!` re-includes, a
// trailing `/` matches directories only, a `/` at the start or in the middle anchors the pattern to
// the file's directory (otherwise it matches a name at any depth), `*` and `?` never cross `/`,
// `[…]` classes, and `**` as a whole segment spans directories. The last matching rule wins. Pure.

export interface IgnoreRule {
  readonly negated: boolean;
  readonly dirOnly: boolean;
  /** Matches a path relative to the directory that holds the rule's file ('/'-separated). */
  readonly re: RegExp;
}

export function parseIgnoreFile(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (let line of text.split(/\r?\n/)) {
    // Trailing spaces are ignored unless escaped.
    line = line.replace(/(?<!\\)[ \t]+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    let negated = false;
    if (line.startsWith('!')) { negated = true; line = line.slice(1); }
    else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
    let dirOnly = false;
    if (line.endsWith('/')) { dirOnly = true; line = line.slice(0, -1); }
    if (line === '') continue;
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    rules.push({ negated, dirOnly, re: new RegExp(`^${anchored ? '' : '(?:.*/)?'}${globToRegex(line)}$`, 's') });
  }
  return rules;
}

/** The verdict of one rule set for `rel` (relative to its directory): true ignore, false re-include, null no rule. */
export function ignoredBy(rules: readonly IgnoreRule[], rel: string, isDir: boolean): boolean | null {
  let verdict: boolean | null = null;
  for (const r of rules) {
    if (r.dirOnly && !isDir) continue;
    if (r.re.test(rel)) verdict = !r.negated;
  }
  return verdict;
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*' && (i === 0 || glob[i - 1] === '/') && (i + 2 === glob.length || glob[i + 2] === '/')) {
        // `**/` any leading directories, `/**` everything inside, `/**/` zero or more directories.
        out += i + 2 === glob.length ? '.*' : '(?:.*/)?';
        i += 2;
        continue;
      }
      out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) { out += '\\['; continue; }
      let cls = glob.slice(i + 1, close);
      if (cls.startsWith('!')) cls = `^${cls.slice(1)}`;
      out += `[${cls.replace(/\\/g, '\\\\')}]`;
      i = close;
    } else if (c === '\\' && i + 1 < glob.length) {
      out += escape(glob[++i]!);
    } else out += escape(c);
  }
  return out;
}

function escape(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
