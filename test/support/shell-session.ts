// What an end-to-end session of the router's shell tools needs around the real Codex CLI: a
// workspace, a HOME whose bin holds the installed locator (as `make install` puts `shell` beside
// hpatch-router, on PATH through the login profile Codex's `bash -lc` reads), the runtime base both
// sides share, and the router's state and config directories.
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkDir, PROJECT_ROOT, removeDir } from './codex-cli.ts';
import { startRouterProcess, type RouterProcess } from './router-process.ts';
import { tempDir } from './temp-dir.ts';

export interface ShellSession {
  readonly work: string;
  readonly home: string;
  readonly bin: string;
  /** The runtime base (HPATCH_RUNTIME_DIR) of the router and of the commands Codex runs. */
  readonly runtimeBase: string;
  readonly stateDir: string;
  readonly configDir: string;
  /** Environment the router and Codex's commands share. */
  executorEnv(): Record<string, string>;
  /** Environment of the Codex process: the executor's, this HOME and the install's bin first on PATH. */
  codexEnv(extra?: Record<string, string>): Record<string, string>;
  startRouter(upstreamUrl: string): Promise<RouterProcess>;
  cleanup(): void;
}

export function createShellSession(label: string): ShellSession {
  const work = makeWorkDir(label);
  const home = tempDir(`${label}-home`);
  const runtime = tempDir(`${label}-runtime`);
  const state = tempDir(`${label}-state`);
  const config = tempDir(`${label}-config`);
  const bin = join(home.dir, 'bin');
  mkdirSync(bin);
  copyFileSync(join(PROJECT_ROOT, 'bin', 'shell'), join(bin, 'shell'));
  chmodSync(join(bin, 'shell'), 0o755);
  writeFileSync(join(home.dir, '.profile'), `export PATH=${JSON.stringify(bin)}:"$PATH"\n`);
  const runtimeBase = join(runtime.dir, 'base');
  const executorEnv = (): Record<string, string> => ({ HPATCH_RUNTIME_DIR: runtimeBase });
  return {
    work,
    home: home.dir,
    bin,
    runtimeBase,
    stateDir: state.dir,
    configDir: config.dir,
    executorEnv,
    codexEnv: (extra = {}) => ({ ...executorEnv(), HOME: home.dir, PATH: `${bin}:${process.env['PATH'] ?? ''}`, ...extra }),
    startRouter: (upstreamUrl) => startRouterProcess({
      args: ['--upstream', upstreamUrl, '--state-dir', state.dir],
      env: { XDG_CONFIG_HOME: config.dir, ...executorEnv() },
      startTimeoutMs: 30_000,
    }),
    cleanup: () => {
      removeDir(work);
      for (const d of [home, runtime, state, config]) d.cleanup();
    },
  };
}
