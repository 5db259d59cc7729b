// The plugins exactly as router startup validates them (host/cli/hpatch-tools.ts: the built-in
// tools' names reserved and the registry built), then their frontends' conflicts,
// read-only (host/runtime/frontends.ts planFrontends). Nothing is written and no lock is taken.
import { realpathSync } from 'node:fs';
import { frontendDirectory, planFrontends } from '../runtime/frontends.ts';
import { runtimeBasePath } from '../runtime/runtime-base.ts';
import { errorText, fail, pass, type CheckResult } from './check.ts';

type Env = Readonly<Record<string, string | undefined>>;

export interface PluginsReport {
  readonly results: CheckResult[];
  /** The configured plugin tools that need a frontend (empty when plugins are invalid). */
  readonly tools: string[];
}

export async function checkPlugins(env: Env, invokedAs: string | undefined): Promise<PluginsReport> {
  const { assembleHpatchTools, configuredPluginSource } = await import('../cli/hpatch-tools.ts');
  const set = await assembleHpatchTools({ storage: () => null, source: () => configuredPluginSource(env as NodeJS.ProcessEnv) });
  try {
    if (set.problems.length > 0) {
      return {
        results: [fail('plugins', set.problems.join('\n'), 'fix each problem listed (the router refuses to start until they are fixed); `hpatch-router plugins validate` prints the same list')],
        tools: [],
      };
    }
    const tools = set.plugins.flatMap((p) => p.tools);
    return { results: [pass('plugins', `${set.summary}, all valid`), checkFrontendConflicts(env, invokedAs, tools)], tools };
  } finally {
    set.dispose();
  }
}

function checkFrontendConflicts(env: Env, invokedAs: string | undefined, tools: readonly string[]): CheckResult {
  const name = 'frontends';
  if (tools.length === 0) return pass(name, 'no plugin tool needs one');
  const dir = frontendDirectory(env, invokedAs);
  if (dir === null) return fail(name, 'the frontend directory is unknown', 'run doctor as the installed hpatch-router, or set HPATCH_FRONTEND_DIR');
  let real: string;
  let base: string;
  try {
    real = realpathSync(dir);
    base = runtimeBasePath(env);
  } catch (e) {
    return fail(name, `${dir}: ${errorText(e)}`, `create ${dir}, or set HPATCH_FRONTEND_DIR to a writable directory on the login PATH`);
  }
  const plan = planFrontends({ dir: real, tools, base, snapshotDir: null });
  if (plan.problems.length > 0) return fail(name, plan.problems.join('\n'), 'move each conflicting file away, or rename the plugin tool');
  return pass(name, `${tools.join(', ')} in ${real}: no conflicts`);
}
