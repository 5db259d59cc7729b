// The snapshot's shell wrapper as the locator finds it: `<dir>/runtime/bin/shell-worker` with the
// built `dist/` beside its `bin/` (the layout of a snapshot's runtime/), for tests that start the
// executor side of a shell call without a router.
import { chmodSync, copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './codex-cli.ts';

/** Lays the wrapper out under `dir` and returns its path. */
export function installShellWrapper(dir: string): string {
  mkdirSync(join(dir, 'runtime', 'bin'), { recursive: true });
  const wrapper = join(dir, 'runtime', 'bin', 'shell-worker');
  copyFileSync(join(PROJECT_ROOT, 'bin', 'shell-worker'), wrapper);
  chmodSync(wrapper, 0o755);
  symlinkSync(join(PROJECT_ROOT, 'dist'), join(dir, 'runtime', 'dist'));
  return wrapper;
}
