// The real router, started in this process with a registry the test chooses (contributions the
// test suite defines go through the same registry, rewrite, translation and ledger as any other).
import type { Contribution } from '../../host/registry/contribution.ts';
import { ToolRegistry } from '../../host/registry/registry.ts';
import { startRouter, type RunningRouter } from '../../host/router.ts';
import { tempDir } from './temp-dir.ts';

export interface TestRouter extends RunningRouter {
  readonly logLines: string[];
  readonly stateDir: string;
  /** Stops the router and removes its state unless `keepState`. */
  stop(opts?: { keepState?: boolean }): Promise<void>;
}

export async function startTestRouter(opts: { upstream: string; mode?: 'hpatch' | 'passthrough'; contributions?: Contribution[]; stateDir?: string }): Promise<TestRouter> {
  const tmp = opts.stateDir ? null : tempDir('router-state');
  const stateDir = opts.stateDir ?? tmp!.dir;
  const logLines: string[] = [];
  const router = await startRouter(
    { mode: opts.mode ?? 'hpatch', host: '127.0.0.1', port: 0, upstream: new URL(opts.upstream), stateDir },
    { registry: ToolRegistry.create(opts.contributions ?? []), log: (l) => logLines.push(l) },
  );
  return {
    ...router,
    logLines,
    stateDir,
    stop: async (o = {}) => {
      await router.close();
      if (!o.keepState) tmp?.cleanup();
    },
  };
}
