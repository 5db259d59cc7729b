// Finds an installed npm package for the hashline commands that load one on first use (rregex for
// hgrep, the tree-sitter grammars for hsymbol). The shell worker starts from a V8 startup snapshot,
// where only built-in modules can be required directly: a package is found through createRequire,
// anchored at the node_modules beside the running dist/ first.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { blobDir } from '../interp/launch/mvdan-lazy.ts';

/** A `require` that resolves `name` (its own paths too, e.g. a .wasm file inside it), or throws the last resolution error. */
export function packageRequire(name: string): NodeJS.Require {
  const { createRequire } = process.getBuiltinModule('node:module') as typeof import('node:module');
  const anchors: string[] = [];
  // (realpath: a dist/ reached through a symlink resolves modules where the real one lives)
  const dist = startedFromBlob() ? realpathOr(blobDir()) : undefined;
  if (dist !== undefined) anchors.push(join(dist, '..', 'package.json'));
  if (typeof __dirname === 'string') anchors.push(join(__dirname, '..', 'package.json'));
  anchors.push(join(process.cwd(), 'package.json'));
  let last: unknown;
  for (const anchor of [...anchors, ...moduleAnchor()]) {
    try {
      const req = createRequire(anchor);
      req.resolve(name);
      return req;
    } catch (e) {
      last = e;
    }
  }
  throw last instanceof Error ? last : new Error(String(last));
}

function realpathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function startedFromBlob(): boolean {
  return process.execArgv.some((a) => a === '--snapshot-blob' || a.startsWith('--snapshot-blob='));
}

/** From source (tests), this module's own location resolves the project's node_modules. */
function moduleAnchor(): string[] {
  try {
    const url = (import.meta as { url?: string }).url;
    return url ? [url] : [];
  } catch {
    return [];
  }
}
