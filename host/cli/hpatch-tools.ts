// The hpatch-mode tool set exactly as startup assembles it: the built-in shell and hpatch tools, the
// operator's plugins validated against their names, and the registry over all of them. The router
// and `hpatch-router plugins validate|list` both call this, so an author's check is the startup check.
import type { DiscoveryResult } from '../plugins/discovery.ts';
import type { LoadedPlugin } from '../plugins/load-plugins.ts';
import type { PluginProblem } from '../plugins/validate.ts';
import type { Contribution } from '../registry/contribution.ts';
import type { ShellThreadStorage } from '../shell/thread-storage.ts';
import { RegistryError, ToolRegistry } from '../registry/registry.ts';

/** Where the plugin declarations come from: the configured directory, or files/directories named on a command line. */
export interface PluginSource {
  /** Shown in the summary line ("… loaded from LABEL"). */
  readonly label: string;
  /** The plugin directory loadPlugins is told about (the configured one, or the first named path). */
  readonly dir: string;
  readonly discovered: DiscoveryResult;
}

export interface HpatchTools {
  /** Every problem, formatted as startup prints it; empty when the set is valid. */
  readonly problems: readonly string[];
  /** The plugin problems among them, unformatted (file, tool, position), for machine-readable reports. */
  readonly pluginProblems: readonly PluginProblem[];
  readonly registry: ToolRegistry;
  /** The validated plugins (empty unless every problem list is empty). */
  readonly plugins: readonly LoadedPlugin[];
  /** `N plugins with T tools loaded from LABEL`, once the plugins are valid. */
  readonly summary: string | null;
  dispose(): void;
}

/** The configured plugin directory, `<user config dir>/hpatch/plugins`, as discovered at startup. */
export async function configuredPluginSource(env: NodeJS.ProcessEnv = process.env): Promise<PluginSource | { readonly problem: string }> {
  // Imported here, not at the top: passthrough must never load the plugin host.
  const { pluginDirectory } = await import('../plugins/config-dir.ts');
  const { discoverPlugins } = await import('../plugins/discovery.ts');
  let dir: string;
  try {
    dir = pluginDirectory(env, process.platform);
  } catch (e) {
    return { problem: `plugin directory: ${e instanceof Error ? e.message : String(e)}` };
  }
  return { label: dir, dir, discovered: await discoverPlugins(dir) };
}

export async function assembleHpatchTools(opts: {
  readonly storage: () => ShellThreadStorage | null;
  readonly source: () => Promise<PluginSource | { readonly problem: string }>;
}): Promise<HpatchTools> {
  const builtins: Contribution[] = [];
  const problems: string[] = [];
  const disposers: (() => void)[] = [];
  const { loadBuiltinShell } = await import('../shell/builtin-shell.ts');
  const shell = await loadBuiltinShell(opts.storage);
  if (shell.ok) {
    builtins.push(shell.contribution);
    disposers.push(shell.dispose);
  } else problems.push(...shell.problems);
  const { hpatchContribution } = await import('../hpatch/hpatch-contribution.ts');
  builtins.push(hpatchContribution({ storage: opts.storage }));

  const plugins = await loadPluginSource(await opts.source(), builtins.map((c) => c.name));
  let tools = builtins;
  if (plugins.ok) {
    tools = [...builtins, ...plugins.contributions];
    disposers.push(plugins.dispose);
  } else problems.push(...plugins.problems);

  let registry = ToolRegistry.empty;
  try {
    registry = ToolRegistry.create(tools);
  } catch (e) {
    if (!(e instanceof RegistryError)) throw e;
    problems.push(...e.problems);
  }
  const valid = problems.length === 0 && plugins.ok;
  return {
    problems,
    pluginProblems: plugins.ok ? [] : plugins.pluginProblems,
    registry,
    plugins: valid ? plugins.loaded : [],
    summary: valid ? plugins.summary : null,
    dispose: () => {
      for (const d of disposers.reverse()) d();
    },
  };
}

type LoadedSource =
  | { readonly ok: true; readonly contributions: readonly Contribution[]; readonly loaded: readonly LoadedPlugin[]; readonly summary: string; dispose(): void }
  | { readonly ok: false; readonly problems: readonly string[]; readonly pluginProblems: readonly PluginProblem[] };

async function loadPluginSource(source: PluginSource | { readonly problem: string }, builtinNames: readonly string[]): Promise<LoadedSource> {
  if ('problem' in source) return { ok: false, problems: [source.problem], pluginProblems: [] };
  const { discovered, dir, label } = source;
  // No declaration: the isolate host, schema and grammar checkers are never loaded (faster start).
  if (discovered.ok && discovered.declarations.length === 0) {
    return { ok: true, contributions: [], loaded: [], summary: `0 plugins with 0 tools loaded from ${label}`, dispose: () => {} };
  }
  const { disposeAll, loadPlugins } = await import('../plugins/load-plugins.ts');
  const { formatPluginProblem } = await import('../plugins/validate.ts');
  const result = await loadPlugins({ dir, reservedNames: builtinNames, discovered });
  if (!result.ok) return { ok: false, problems: result.problems.map(formatPluginProblem), pluginProblems: result.problems };
  const n = result.plugins.length;
  const t = result.contributions.length;
  return {
    ok: true,
    contributions: result.contributions,
    loaded: result.plugins,
    summary: `${n} plugin${n === 1 ? '' : 's'} with ${t} tool${t === 1 ? '' : 's'} loaded from ${label}`,
    dispose: () => disposeAll(result.isolates),
  };
}
