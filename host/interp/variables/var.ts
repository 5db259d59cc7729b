// A shell variable's value and attributes, and the small facts about variables that the
// evaluator and the builtins share.
import type { Options } from '../execution/options.ts';
import { bucketOrder } from '../execution/bash-hash-order.ts';

export interface Var {
  str?: string | undefined;
  arr?: Map<number, string>;
  assoc?: Map<string, string>;
  exported?: boolean; readonly?: boolean; integer?: boolean; lower?: boolean; upper?: boolean; nameref?: boolean;
  /** `declare -c` (first character upper case, the rest lower) and `declare -t` (shown only). */
  capcase?: boolean; trace?: boolean;
  local?: boolean;
  /** Declared as an array (`declare -a x`) and never assigned: `declare -p` shows no `=()`. */
  declOnly?: boolean;
}

/** One scope of variables: the global one, a function's locals, a command's prefix assignments. */
export type Scope = Map<string, Var>;

/** Scopes of prefix assignments (`x=1 cmd`); `local` skips them to reach the function's scope. */
export const tempScopes = new WeakSet<Map<string, Var>>();

/** The options a function's `local -` saved, by its scope: put back when it returns. */
export const savedOpts = new WeakMap<Map<string, Var>, Options>();

export function cloneVar(v: Var): Var {
  const n: Var = { ...v };
  if (v.arr) n.arr = new Map(v.arr);
  if (v.assoc) n.assoc = new Map(v.assoc);
  return n;
}

/** The highest index of an indexed array, -1 when it has none (a loop: no spread, whatever the size). */
export function maxKey(m: Map<number, unknown>): number {
  let max = -1;
  for (const k of m.keys()) if (k > max) max = k;
  return max;
}

/** bash's iteration order for associative arrays: 1024 FNV-1 hash buckets, newest first. */
export function assocOrder(m: Map<string, string>): [string, string][] {
  return bucketOrder(m, 1024);
}

/** A variable's value as `$name` reads it: element 0 of an array. */
export function scalarValue(v: Var): string | undefined {
  return v.arr ? v.arr.get(0) : v.assoc ? v.assoc.get('0') : v.str;
}
