// mvdan-sh for the startup snapshot (snapshot.ts): the blob leaves it out — deserializing its
// GopherJS heap was half of every start — and loads it only for a script fast-parser.ts declines,
// from dist/mvdan-sh.js beside the blob through a V8 code cache (code-cache.ts; the build writes
// the first one).
import * as path from 'node:path';
import { requireCached } from './code-cache.ts';

/** The directory of the blob this process started from (`--snapshot-blob PATH`). */
export function blobDir(): string {
  const argv = process.execArgv;
  const i = argv.indexOf('--snapshot-blob');
  const blob = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--snapshot-blob='))?.slice('--snapshot-blob='.length);
  if (!blob) throw new Error('mvdan-sh: not started with --snapshot-blob');
  return path.dirname(path.resolve(blob));
}

export function loadMvdanBesideBlob(): unknown {
  const file = path.join(blobDir(), 'mvdan-sh.js');
  try {
    return requireCached(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EACCES') throw e;
    const msg = `cannot load the shell parser ${file} (${code}): the install is incomplete, run make build`;
    throw Object.assign(new Error(msg), { stack: msg });
  }
}
