// bash's command hash table: the first PATH search for a name is remembered, and later runs use
// the remembered file without searching again (so a command added earlier in PATH is not seen
// until `hash -r` or an assignment to PATH; a remembered file that disappeared fails with 127).
import { bucketOrder } from './bash-hash-order.ts';

export interface HashEntry { path: string; hits: number }
export type CommandHash = Map<string, HashEntry>;

/** The `hash` builtin's listing, in bash's order (its table has 256 buckets). */
export function formatHashTable(h: CommandHash, reusable: boolean): string {
  const ents = bucketOrder(h, 256);
  if (reusable) return ents.map(([name, e]) => `builtin hash -p ${e.path} ${name}\n`).join('');
  return 'hits\tcommand\n' + ents.map(([, e]) => `${String(e.hits).padStart(4)}\t${e.path}\n`).join('');
}
