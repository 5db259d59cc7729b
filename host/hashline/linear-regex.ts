// hgrep's regex engine: Rust's `regex` crate (rregex, WebAssembly), which runs in time linear in the
// input — a model's pattern can never make the worker backtrack for ever, as a JavaScript RegExp can
// (`(a+)+$`). Loaded on the first search, from the node_modules beside the running dist/
// (package-require.ts).
import { packageRequire } from './package-require.ts';

export interface LineMatcher {
  test(line: string): boolean;
  /**
   * Whether some line of `text` may match: false only when none does, so a file can be skipped with
   * one call instead of one per line.
   */
  mayMatch(text: string): boolean;
  free(): void;
}

interface RRegexModule {
  RRegex: new (pattern: string) => { isMatch(text: string): boolean; free(): void };
}

let loaded: RRegexModule | undefined;

/** A matcher for `pattern` (Rust regex syntax; case-insensitive through `(?i)`), or the compile error. */
export function compileRegex(pattern: string, caseInsensitive: boolean): LineMatcher | { error: string } {
  const mod = load();
  try {
    const re = new mod.RRegex(caseInsensitive ? `(?i)${pattern}` : pattern);
    // The whole text in multi-line CRLF mode (`^`/`$` at every LF or CRLF line boundary) matches
    // whenever one of its lines does; `\A`/`\z` anchor each line only in the per-line test, so a
    // pattern with them is tested per line always.
    const whole = /\\[Az]/.test(pattern) ? null : new mod.RRegex(`(?mR${caseInsensitive ? 'i' : ''})${pattern}`);
    return {
      test: (line) => re.isMatch(line),
      mayMatch: (text) => (whole === null ? true : whole.isMatch(text)),
      free: () => { re.free(); whole?.free(); },
    };
  } catch (e) {
    // rregex's message is the crate's, with a caret under the problem: keep its first lines.
    const text = (e instanceof Error ? e.message : String(e)).split('\n').slice(0, 4).join('\n');
    return { error: text };
  }
}

/** A fixed-string matcher (no regex at all). */
export function fixedString(needle: string, caseInsensitive: boolean): LineMatcher {
  if (!caseInsensitive) return { test: (line) => line.includes(needle), mayMatch: (text) => text.includes(needle), free: () => {} };
  const lower = needle.toLowerCase();
  return { test: (line) => line.toLowerCase().includes(lower), mayMatch: (text) => text.toLowerCase().includes(lower), free: () => {} };
}

function load(): RRegexModule {
  if (loaded !== undefined) return loaded;
  try {
    loaded = packageRequire('rregex')('rregex') as RRegexModule;
    return loaded;
  } catch (e) {
    throw new Error(`the regex engine (rregex) cannot be loaded: ${e instanceof Error ? e.message : String(e)}`);
  }
}
