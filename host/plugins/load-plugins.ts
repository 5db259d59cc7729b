// Loads the complete plugin registry at startup (REQ-PLUGIN-001): every discovered declaration is
// loaded into its own isolate, everything is validated together, and any problem disposes every
// isolate and returns all problems — never a partial registry.
import type { Contribution } from '../registry/contribution.ts';
import { discoverPlugins, type SkippedEntry, type DiscoveryResult } from './discovery.ts';
import { grammarProblems as checkGrammar } from './grammar/index.ts';
import { PluginIsolate, type IsolateLimits } from './isolate.ts';
import { pluginContributions } from './plugin-contribution.ts';
import { PluginLoadError } from './plugin-errors.ts';
import { validateDeclarations, type GrammarChecker, type LoadedDeclaration, type PluginProblem } from './validate.ts';

export interface LoadPluginsOptions {
  readonly dir: string;
  /** Names of the router's own contributions; plugin tools cannot take them. */
  readonly reservedNames: readonly string[];
  readonly limits?: Partial<IsolateLimits>;
  /** Defaults to the Lark/regex checker in ./grammar. */
  readonly grammarProblems?: GrammarChecker;
  /** The directory as the caller already discovered it (not read a second time). */
  readonly discovered?: DiscoveryResult;
}

export interface LoadedPlugin {
  readonly file: string;
  /** The exact source that was loaded and validated (the executor snapshot stores these bytes). */
  readonly source: string;
  readonly id: string;
  readonly version: string;
  readonly tools: readonly string[];
}

export type LoadPluginsResult =
  | {
      readonly ok: true;
      readonly contributions: readonly Contribution[];
      /** One per plugin, in discovery order; the caller disposes them when the router stops. */
      readonly isolates: readonly PluginIsolate[];
      readonly plugins: readonly LoadedPlugin[];
      /** Entries of the plugin directory that are not declarations (for debug logging). */
      readonly skipped: readonly SkippedEntry[];
    }
  | { readonly ok: false; readonly problems: readonly PluginProblem[] };

export async function loadPlugins(opts: LoadPluginsOptions): Promise<LoadPluginsResult> {
  const found = opts.discovered ?? (await discoverPlugins(opts.dir));
  if (!found.ok) return { ok: false, problems: found.problems };

  // Loaded concurrently (startup time grows with the plugin count); results stay in discovery order.
  const settled = await Promise.allSettled(
    found.declarations.map((d) => PluginIsolate.load({ file: d.file, source: d.source, ...(opts.limits ? { limits: opts.limits } : {}) })),
  );
  const isolates: PluginIsolate[] = [];
  const loaded: LoadedDeclaration[] = settled.map((s, i) => {
    const file = found.declarations[i]!.file;
    if (s.status === 'fulfilled') {
      isolates.push(s.value);
      return { kind: 'loaded', file, description: s.value.description };
    }
    return { kind: 'load-error', file, error: loadErrorOf(s.reason) };
  });

  const result = validateDeclarations(loaded, { builtinNames: opts.reservedNames, grammarProblems: opts.grammarProblems ?? checkGrammar });
  if (result.problems.length > 0) {
    disposeAll(isolates);
    return { ok: false, problems: result.problems };
  }
  // Every declaration loaded and validated, so isolates and declarations correspond one to one.
  const byFile = new Map(isolates.map((iso) => [iso.file, iso]));
  const sources = new Map(found.declarations.map((d) => [d.file, d.source]));
  const contributions: Contribution[] = [];
  const plugins: LoadedPlugin[] = [];
  for (const d of result.declarations) {
    const isolate = byFile.get(d.file)!;
    contributions.push(...pluginContributions(d.description, isolate));
    plugins.push({ file: d.file, source: sources.get(d.file)!, id: d.description.id, version: d.description.version, tools: d.description.tools.map((t) => t.spec.name) });
  }
  return { ok: true, contributions, isolates, plugins, skipped: found.skipped };
}

export function disposeAll(isolates: readonly PluginIsolate[]): void {
  for (const iso of isolates) {
    try {
      iso.dispose();
    } catch {
      // Already disposed (e.g. by its memory limit): nothing left to release.
    }
  }
}

function loadErrorOf(e: unknown): { message: string; line?: number; column?: number } {
  if (e instanceof PluginLoadError) {
    // The problem is printed after its file already; don't repeat it.
    const message = e.message.startsWith(`${e.file}: `) ? e.message.slice(e.file.length + 2) : e.message;
    return { message, ...(e.line !== undefined ? { line: e.line } : {}), ...(e.column !== undefined ? { column: e.column } : {}) };
  }
  // Not the host's own error type: still this file's problem, and still reported with the others.
  return { message: `cannot be loaded: ${e instanceof Error ? e.message : String(e)}` };
}
