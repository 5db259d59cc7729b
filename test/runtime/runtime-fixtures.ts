// Shared fixtures of the executor-runtime tests: a private temp area, a fake install tree and plugins.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureRuntimeBase } from '../../host/runtime/runtime-base.ts';
import type { SnapshotPlugin } from '../../host/runtime/snapshot.ts';

export interface Area {
  readonly root: string;
  /** A verified runtime base (<root>/rt). */
  readonly base: string;
  /** A directory for frontends (<root>/bin). */
  readonly bin: string;
  cleanup(): void;
}

export function privateArea(label: string): Area {
  const root = mkdtempSync(join(tmpdir(), `hpatch-${label}-`));
  const base = ensureRuntimeBase(join(root, 'rt'));
  const bin = join(root, 'bin');
  mkdirSync(bin);
  return {
    root,
    base,
    bin,
    cleanup: () => {
      // Snapshot files are read-only; their directories are not, so a recursive remove works.
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A minimal install tree: launcher, shell wrapper, entry, a chunk, node_modules, the interpreter's startup snapshot, plus a source map and a code cache (neither is snapshotted). */
export function fakeInstall(root: string, entryText = 'export {};\n'): string {
  const install = join(root, 'install');
  mkdirSync(join(install, 'bin'), { recursive: true });
  mkdirSync(join(install, 'dist', 'chunks'), { recursive: true });
  mkdirSync(join(install, 'node_modules'), { recursive: true });
  writeFileSync(join(install, 'bin', 'hpatch-router'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(install, 'bin', 'hpatch-router'), 0o755);
  writeFileSync(join(install, 'bin', 'shell-worker'), '#!/usr/bin/perl\nexit 0;\n');
  chmodSync(join(install, 'bin', 'shell-worker'), 0o755);
  writeFileSync(join(install, 'dist', 'hpatch-router.mjs'), entryText);
  writeFileSync(join(install, 'dist', 'chunks', 'a.mjs'), 'export const a = 1;\n');
  writeFileSync(join(install, 'dist', 'hpatch-router.mjs.map'), '{}');
  writeFileSync(join(install, 'dist', 'interp.blob'), 'per-machine');
  writeFileSync(join(install, 'dist', 'interp.blob.stamp'), '/usr/bin/node\n\n');
  writeFileSync(join(install, 'dist', 'mvdan-sh.js'), '// the blob\'s shell parser\n');
  writeFileSync(join(install, 'dist', `mvdan-sh.js.${process.version}.cache`), 'per-machine');
  return install;
}

export function plugin(tools: readonly string[], source = 'export default {};\n', origin = '/cfg/hpatch/plugins/p.mjs'): SnapshotPlugin {
  return { origin, id: 'test.plugin', source, tools };
}
