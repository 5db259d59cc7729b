// Builtins' arguments as bash's internal_getopt and legal_number read them: leading letter
// options without arguments, and 64-bit number operands. Shared by the families.
import type { Shell } from '../execution/runner.ts';
import { usageErr } from './builtin-io.ts';

/**
 * bash's internal_getopt for builtins whose options are letters without arguments: the letters
 * given before the first operand (or `--`), in order, and the index of the first operand; a
 * usage error's status for a letter not in `allowed`.
 */
export async function flagOptions(sh: Shell, name: string, args: string[], allowed: string): Promise<{ flags: string; next: number } | number> {
  let flags = '', i = 1;
  for (; i < args.length; i++) {
    const o = args[i]!;
    if (o === '--') { i++; break; }
    if (!/^-./.test(o)) break;
    for (const c of o.slice(1)) {
      if (!allowed.includes(c)) return usageErr(sh, name, `-${c}: invalid option`);
      flags += c;
    }
  }
  return { flags, next: i };
}
/**
 * Leading options of a builtin that takes only the flags in `allowed` (internal_getopt-like):
 * `--` ends them, a lone `-` is an operand. Returns the flags and the index of the first operand,
 * or the usage-error status (2) after printing `-X: invalid option`.
 */
export async function simpleOpts(sh: Shell, args: string[], allowed: string): Promise<{ flags: Set<string>; i: number } | number> {
  const flags = new Set<string>();
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (a.length < 2 || a[0] !== '-') break;
    for (const c of a.slice(1)) {
      if (!allowed.includes(c)) return usageErr(sh, args[0]!, `-${c}: invalid option`);
      flags.add(c);
    }
  }
  return { flags, i };
}

/** A number argument as bash's legal_number takes it (64 bits, blanks around), else undefined. */
export function int64Arg(a: string): number | undefined {
  if (!/^\s*[-+]?\d+\s*$/.test(a)) return undefined;
  const n = BigInt(a);
  return BigInt.asIntN(64, n) === n ? Number(n) : undefined;
}
