// External commands through posix_spawn(3): the native addon dist/interp-spawn.node, built from
// native/posix-spawn.cc by scripts/build-interp.mjs. libuv forks this ~50 MB process for every
// command (page tables copied, then torn down by exec): 2.5–3.5 ms a command where bash takes
// ~1.3. glibc's posix_spawn shares the memory until exec, about half the cost. Without the addon
// (no compiler at build time, or a kernel without pidfds), exec.ts falls back to child_process.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface SpawnAddon {
  /** pid, or -errno when nothing was started; `onExit(code, signal)` with code -1 when killed. */
  spawn(file: Buffer, argv: Buffer[], env: Buffer[], cwd: Buffer, fds: Int32Array, setsid: boolean, onExit: (code: number, signal: number) => void, ignored?: Int32Array): number;
  /** A new anonymous pipe, [read fd, write fd] (close-on-exec), or -errno. */
  pipe(): [number, number] | number;
  supported(): boolean;
}

export const SPAWN_ADDON = 'interp-spawn.node';

let addonPath: string | undefined;
/** undefined: not loaded yet; null: none (not built, not loadable, or no pidfd support). */
let addon: SpawnAddon | null | undefined;

/**
 * Where the entry point found the addon (beside its bundle or blob). Never set while a startup
 * snapshot is built: a loaded native module cannot be serialized.
 */
export function setSpawnAddon(file: string | undefined): void {
  addonPath = file;
  addon = undefined;
}

/** The first of `dirs` that holds the addon, as its path. */
export function findSpawnAddon(dirs: string[]): string | undefined {
  for (const d of dirs) {
    const f = path.join(d, SPAWN_ADDON);
    if (fs.existsSync(f)) return f;
  }
  return undefined;
}

export function spawnAddon(): SpawnAddon | null {
  if (addon !== undefined) return addon;
  addon = null;
  if (addonPath === undefined) return null;
  try {
    const m = { exports: {} as SpawnAddon };
    process.dlopen(m, addonPath);
    if (m.exports.supported()) addon = m.exports;
  } catch { /* missing or built for another node: child_process it is */ }
  return addon;
}
