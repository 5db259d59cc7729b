// What a ledger directory holds, by name and lstat only (nothing is opened, followed or changed):
// thread files `<threadId>.ledger`, and anything else, which the router never uses or removes.
import { promises as fsp, type Dirent, type Stats } from 'node:fs';
import * as path from 'node:path';
import { isSafeThreadId } from './thread-id.ts';

export const LEDGER_SUFFIX = '.ledger';

export type LedgerDirEntry =
  | { readonly kind: 'thread'; readonly threadId: string; readonly file: string; readonly size: number; readonly mtimeMs: number }
  /** Not a thread file: another name, or a thread file's name on a symlink, directory, FIFO… */
  | { readonly kind: 'other'; readonly name: string; readonly why: string };

/** The thread id a directory entry's name stands for, or null. */
export function threadIdOfName(name: string): string | null {
  if (!name.endsWith(LEDGER_SUFFIX)) return null;
  const id = name.slice(0, -LEDGER_SUFFIX.length);
  return isSafeThreadId(id) ? id : null;
}

/**
 * Every entry of `dir`, one lstat each, read through an async directory stream: a directory of
 * many thousand files is walked without holding the event loop (each step is one await).
 */
export async function* ledgerEntries(dir: string): AsyncGenerator<LedgerDirEntry> {
  const handle = await fsp.opendir(dir, { bufferSize: 256 });
  for await (const dirent of handle as AsyncIterable<Dirent>) {
    const name = dirent.name;
    const threadId = threadIdOfName(name);
    if (threadId === null) {
      yield { kind: 'other', name, why: 'not named <thread id>.ledger' };
      continue;
    }
    const file = path.join(dir, name);
    let st: Stats;
    try {
      st = await fsp.lstat(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed meanwhile
      throw err;
    }
    if (!st.isFile()) yield { kind: 'other', name, why: st.isSymbolicLink() ? 'a symbolic link' : 'not a regular file' };
    else yield { kind: 'thread', threadId, file, size: st.size, mtimeMs: st.mtimeMs };
  }
}
