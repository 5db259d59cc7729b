// The builtins table: one entry per builtin name with what the evaluator needs to know of it —
// its body, whether POSIX calls it special, whether its arguments are assignment words, and its
// fast path without a promise — the way bash keeps one builtins/*.def per builtin. The family
// modules (io.ts, flow.ts, …; all.ts loads them) register their builtins here; the evaluator
// looks builtins up only here and never imports a family.
import type { Shell } from '../execution/runner.ts';
import type { Assign } from '../syntax/ast.ts';
import type { DeclItem } from './declaration-items.ts';

/** A builtin's body: the shell and argv (byte strings, argv[0] the name it was called by) → its status. */
export type Builtin = (sh: Shell, args: string[]) => Promise<number>;

/**
 * Builtins that loops run most, without a promise (Shell.stmtSync): the status, or undefined when
 * they have to run the ordinary way — having done nothing, so the builtin of the same name runs
 * next with the same arguments.
 */
export type SyncBuiltin = (sh: Shell, args: string[]) => number | undefined;

/**
 * A builtin as the table holds it. `special`: a POSIX special builtin (in POSIX mode it is found
 * before a function, its errors end the shell, its prefix assignments stay). `declaration`:
 * declare, typeset, local, export, readonly, whose `NAME=VALUE` words the parser keeps as
 * assignments (a DeclClause): `clause` runs it on those words, `items` on words already expanded,
 * and `itemsSync` (local's) without a promise, undefined when it has to run the ordinary way.
 * `sync`: the fast path of the others, if any.
 */
export type BuiltinEntry =
  | { readonly name: string; readonly run: Builtin; readonly special: boolean; readonly declaration: false; readonly sync: SyncBuiltin | undefined }
  | { readonly name: string; readonly run: Builtin; readonly special: boolean; readonly declaration: true; readonly sync: undefined } & Declaration;

/** How the evaluator runs a declaration builtin for a DeclClause (see BuiltinEntry). */
export interface Declaration {
  readonly clause: (sh: Shell, assigns: Assign[]) => Promise<number>;
  readonly items: (sh: Shell, items: DeclItem[]) => Promise<number>;
  readonly itemsSync: ((sh: Shell, items: DeclItem[]) => number | undefined) | undefined;
}

const table = new Map<string, BuiltinEntry>();
/** Every builtin by name (filled by the family modules as all.ts loads them). */
export const builtinTable: ReadonlyMap<string, BuiltinEntry> = table;

function add(e: BuiltinEntry): void {
  if (table.has(e.name)) throw new Error(`builtin ${e.name} defined twice`);
  table.set(e.name, e);
}

/** Registers a builtin under each of `names` (aliases such as `.`/`source` share the body). */
export function def(names: readonly string[], run: Builtin, flags: { special?: boolean; sync?: SyncBuiltin } = {}): void {
  // (entries are literals of the same properties in the same order: one shape for the evaluator's reads)
  for (const name of names) add({ name, run, special: flags.special ?? false, declaration: false, sync: flags.sync });
}

/** Registers a declaration builtin (declare, typeset, local, export, readonly). */
export function defDeclaration(name: string, run: Builtin, flags: { special: boolean }, decl: Declaration): void {
  add({ name, run, special: flags.special, declaration: true, sync: undefined, clause: decl.clause, items: decl.items, itemsSync: decl.itemsSync });
}

/** The declaration builtin `name` (declare, typeset, local, export, readonly). */
export function declarationBuiltin(name: string): (BuiltinEntry & Declaration) | undefined {
  const e = table.get(name);
  return e?.declaration ? e : undefined;
}
