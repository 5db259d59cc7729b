// Codex's own apply_patch applier: the native `codex` binary of the pinned @openai/codex package,
// run as `codex --codex-run-as-apply-patch PATCH` (what Codex itself does to apply a patch). Tests
// and the edit-safety benchmark use it to check that hpatch's rendered text lands exactly.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT } from './codex-cli.ts';

let found: string | null = null;

export function codexNativeBinary(): string {
  if (found !== null) return found;
  const base = path.join(PROJECT_ROOT, 'node_modules', '@openai');
  for (const pkg of readdirSync(base).filter((d) => d.startsWith('codex-'))) {
    const vendor = path.join(base, pkg, 'vendor');
    if (!existsSync(vendor)) continue;
    for (const triple of readdirSync(vendor)) {
      const bin = path.join(vendor, triple, 'bin', 'codex');
      if (existsSync(bin)) return (found = bin);
    }
  }
  throw new Error(`no native codex binary under ${base}`);
}

export interface ApplyResult {
  readonly status: number | null;
  readonly output: string;
}

export function codexApply(patch: string, cwd: string): ApplyResult {
  const r = spawnSync(codexNativeBinary(), ['--codex-run-as-apply-patch', patch], { cwd, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: cwd } });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}
