import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh private directory, removed by the returned cleanup. */
export function tempDir(label: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `hpatch-${label}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
