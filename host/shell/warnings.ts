// REQ-SHELL-001 acceptance 16: a Bash or sh body that wraps a script in another layer — an
// interpreter's inline-code option (`python3 -c`, `node -e`, `perl -e`, `bash -c`, …) or a heredoc
// fed to an interpreter (`python3 <<EOF`) — gets one warning per distinct kind, telling the model
// how to say the same with a shebang. Found in the syntax tree of the worker's own parser, anywhere
// in the body (pipelines, loops, functions, substitutions). Warnings never change the carrier.
import type { CallExpr, Stmt } from '../interp/syntax/ast.ts';
import { Tok } from '../interp/syntax/ast.ts';
import { parseScript } from '../interp/syntax/reparse.ts';
import { staticWord } from './static-word.ts';

interface InlineOption {
  /** The interpreter family a basename belongs to. */
  readonly family: RegExp;
  /** Whether one argument is its inline-code option (alone or in a cluster such as `-lc`, `-ne`). */
  readonly option: (arg: string) => boolean;
  /** The shebang that says the same. */
  readonly shebang: (name: string) => string;
}

const cluster = (letters: string) => (a: string): boolean => /^-[A-Za-z]+$/.test(a) && [...letters].some((l) => a.slice(1).includes(l));
const INLINE: readonly InlineOption[] = [
  { family: /^python[0-9.]*$|^pypy[0-9.]*$/, option: (a) => a === '-c' || /^-[A-Za-z]*c$/.test(a), shebang: (n) => `#!${n}` },
  { family: /^(node|nodejs|bun)$/, option: (a) => ['-e', '--eval', '-p', '--print'].includes(a), shebang: (n) => `#!${n}` },
  { family: /^deno$/, option: (a) => a === 'eval', shebang: () => '#!/usr/bin/env -S deno run' },
  { family: /^perl[0-9.]*$/, option: cluster('eE'), shebang: (n) => `#!${n}` },
  { family: /^ruby[0-9.]*$/, option: cluster('e'), shebang: (n) => `#!${n}` },
  { family: /^php[0-9.]*$/, option: (a) => a === '-r', shebang: (n) => `#!${n}` },
  { family: /^(bash|sh|dash|zsh|ksh|mksh)$/, option: cluster('c'), shebang: (n) => (n === 'bash' || n === 'sh' ? `#!${n} (or no shebang for Bash)` : `#!${n}`) },
];
/** Programs that run a heredoc as their script. */
const HEREDOC_INTERPRETERS = /^(python[0-9.]*|pypy[0-9.]*|node|nodejs|bun|perl[0-9.]*|ruby[0-9.]*|php[0-9.]*|bash|sh|dash|zsh|ksh)$/;

/** Bounded: each warning is a note the model reads with the output on every later request. */
const MAX_WARNINGS = 12;

/** Warnings for one shell body, one per distinct kind, in order of first appearance. */
export function shellWarnings(body: string, posix: boolean): string[] {
  let stmts: Stmt[];
  try {
    stmts = parseScript(Buffer.from(body, 'utf8').toString('latin1'), posix).file.Stmts;
  } catch {
    return [];
  }
  const seen = new Map<string, string>();
  const add = (kind: string, message: string): void => {
    if (!seen.has(kind) && seen.size < MAX_WARNINGS) seen.set(kind, `warning: ${message}`);
  };
  walk(stmts, (stmt) => {
    const call = stmt.Cmd?.type === 'CallExpr' ? stmt.Cmd : null;
    const found = call ? commandName(call) : null;
    const name = found !== null && found.length <= 64 ? found : null;
    if (call && name !== null) {
      const fam = INLINE.find((f) => f.family.test(name));
      const opt = fam ? leadingOptions(call, name).find((a) => fam.option(a)) : undefined;
      if (fam && opt) {
        const kind = `${name} ${opt}`;
        add(kind, `\`${kind}\` wraps a script in a quoted string. Give the script to shell directly instead: first line \`${fam.shebang(name)}\`, the code unquoted below it.`);
      }
    }
    for (const r of stmt.Redirs) {
      if (r.Op !== Tok.hdoc && r.Op !== Tok.dashHdoc) continue;
      if (name !== null && HEREDOC_INTERPRETERS.test(name)) {
        add(`${name} <<`, `a heredoc into \`${name}\` wraps a script. Give the script to shell directly instead: first line \`#!${name}\`, the code below it.`);
      }
    }
  });
  return [...seen.values()];
}

/** Visits every statement, nested ones included, in source order (a generic walk over the tree's objects). */
function walk(stmts: Stmt[], visit: (s: Stmt) => void): void {
  const found: Stmt[] = [];
  const stack: unknown[] = [...stmts];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) { for (const x of v) stack.push(x); continue; }
    if (typeof v !== 'object' || v === null) continue;
    if ((v as { type?: unknown }).type === 'Stmt') found.push(v as Stmt);
    for (const x of Object.values(v)) if (typeof x === 'object' && x !== null) stack.push(x);
  }
  found.sort((a, b) => a.Position - b.Position);
  for (const s of found) visit(s);
}

/** The basename of a static command word (`/usr/bin/python3` → `python3`), skipping `env` and `exec`. */
function commandName(call: CallExpr): string | null {
  let i = 0;
  for (; i < call.Args.length; i++) {
    const w = staticWord(call.Args[i]!);
    if (w === null) return null;
    const base = w.slice(w.lastIndexOf('/') + 1);
    if ((base === 'env' || base === 'exec' || base === 'command' || base === 'time') || (i > 0 && (/^-/.test(w) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)))) continue;
    return base;
  }
  return null;
}

/**
 * The words after the command name up to its first operand (an inline-code option must come before
 * the script or module: `python3 -m pytest -c x` has none); for `deno`, its subcommand.
 */
function leadingOptions(call: CallExpr, name: string): string[] {
  const words = call.Args.map(staticWord);
  const at = words.findIndex((w) => w !== null && w.slice(w.lastIndexOf('/') + 1) === name);
  const out: string[] = [];
  for (const w of words.slice(at + 1)) {
    if (w === null) break;
    if (name === 'deno') return [w];
    if (!w.startsWith('-')) break;
    out.push(w);
  }
  return out;
}
