// The operator's plugins as router startup loads them: discovery in the plugin directory, then the
// full validation (declarations, isolates, schemas, grammars). Doctor runs the very same steps.
import type { Contribution } from '../registry/contribution.ts';
import type { LoadedPlugin } from './load-plugins.ts';

export type ConfiguredPlugins =
  | { readonly ok: true; readonly contributions: readonly Contribution[]; readonly loaded: readonly LoadedPlugin[]; readonly summary: string; dispose(): void }
  | { readonly ok: false; readonly problems: readonly string[] };

/** The operator's plugins from `<user config dir>/hpatch/plugins` (hpatch mode only). */
export async function loadConfiguredPlugins(builtinNames: readonly string[]): Promise<ConfiguredPlugins> {
  // Imported here, not at the top: passthrough must never load the plugin host.
  const { pluginDirectory } = await import('./config-dir.ts');
  const { discoverPlugins } = await import('./discovery.ts');
  let dir: string;
  try {
    dir = pluginDirectory(process.env, process.platform);
  } catch (e) {
    return { ok: false, problems: [`plugin directory: ${e instanceof Error ? e.message : String(e)}`] };
  }
  const discovered = await discoverPlugins(dir);
  // No declaration: the isolate host, schema and grammar checkers are never loaded (faster start).
  if (discovered.ok && discovered.declarations.length === 0) {
    return { ok: true, contributions: [], loaded: [], summary: `0 plugins with 0 tools loaded from ${dir}`, dispose: () => {} };
  }
  const { disposeAll, loadPlugins } = await import('./load-plugins.ts');
  const { formatPluginProblem } = await import('./validate.ts');
  const result = await loadPlugins({ dir, reservedNames: builtinNames, discovered });
  if (!result.ok) return { ok: false, problems: result.problems.map(formatPluginProblem) };
  const n = result.plugins.length;
  const t = result.contributions.length;
  return {
    ok: true,
    contributions: result.contributions,
    loaded: result.plugins,
    summary: `${n} plugin${n === 1 ? '' : 's'} with ${t} tool${t === 1 ? '' : 's'} loaded from ${dir}`,
    dispose: () => disposeAll(result.isolates),
  };
}
