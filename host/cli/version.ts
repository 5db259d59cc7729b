// This install's package.json: `--version` prints its version, and `plugins new` finds the packed
// SDK beside it. Read at run time rather than baked into the bundle, so the bundle, a source
// checkout and `make install` each report the file they ship.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageRoot {
  readonly dir: string;
  readonly version: string;
}

/** The directory holding hpatch-router's package.json, and its version; throws naming the files tried. */
export function packageRoot(): PackageRoot {
  // dist/hpatch-router.mjs is one level below the root; host/cli/*.ts and dist/chunks/* two.
  const tried: string[] = [];
  for (const rel of ['../package.json', '../../package.json']) {
    const file = fileURLToPath(new URL(rel, import.meta.url));
    tried.push(file);
    let pkg: unknown;
    try {
      pkg = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    const { name, version } = (pkg ?? {}) as { name?: unknown; version?: unknown };
    if (name === 'hpatch-router' && typeof version === 'string') return { dir: dirname(file), version };
  }
  throw new Error(`no hpatch-router package.json found (tried ${tried.join(', ')})`);
}

/** `hpatch-router 0.1.0\n` */
export function versionLine(): string {
  return `hpatch-router ${packageRoot().version}\n`;
}
