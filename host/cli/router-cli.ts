// `hpatch-router [--mode …] [--listen …] [--upstream …]`: start the router, print the one
// `listening on` line, stop cleanly on SIGINT/SIGTERM.
import * as os from 'node:os';
import { join } from 'node:path';
import type { LoadedPlugin } from '../plugins/load-plugins.ts';
import type { ShellThreadStorage } from '../shell/thread-storage.ts';
import type { Contribution } from '../registry/contribution.ts';
import { RegistryError, ToolRegistry } from '../registry/registry.ts';
import { stderrSink } from '../proxy/request-log.ts';
import { startRouter, StartupError } from '../router.ts';
import { formatDuration } from './duration.ts';
import { parseRouterArgs, USAGE } from './router-options.ts';

export async function runRouterCli(argv: readonly string[]): Promise<number | undefined> {
  const parsed = parseRouterArgs(argv, process.env);
  if (parsed.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.kind === 'invalid') return reportStartupProblems(parsed.problems, { usage: true });
  const { options } = parsed;
  // Built-in tools register here. Passthrough loads nothing: no built-in, no plugin, not even the
  // plugin host module (it pulls in isolated-vm and the core artifact).
  const builtins: Contribution[] = [];
  const problems: string[] = [];
  let tools = builtins;
  let plugins: ConfiguredPlugins | null = null;
  // The shell tool's per-thread storage exists once the executor side (its snapshot) is up.
  let shellStorage: ShellThreadStorage | null = null;
  let disposeShell = (): void => {};
  if (options.mode === 'hpatch') {
    const { loadBuiltinShell } = await import('../shell/builtin-shell.ts');
    const shell = await loadBuiltinShell(() => shellStorage);
    if (shell.ok) {
      builtins.push(shell.contribution);
      disposeShell = shell.dispose;
    } else problems.push(...shell.problems);
    const { hpatchContribution } = await import('../hpatch/hpatch-contribution.ts');
    builtins.push(hpatchContribution({ storage: () => shellStorage }));
    plugins = await loadConfiguredPlugins(builtins.map((c) => c.name));
    if (plugins.ok) tools = [...builtins, ...plugins.contributions];
    else problems.push(...plugins.problems);
  }
  let registry = ToolRegistry.empty;
  try {
    registry = ToolRegistry.create(tools);
  } catch (e) {
    if (!(e instanceof RegistryError)) throw e;
    problems.push(...e.problems);
  }
  // The executor side (snapshot, frontends beside this executable, their lock) is set up only once
  // everything else is valid, so an invalid configuration writes nothing.
  let releaseExecutor = (): void => {};
  if (options.mode === 'hpatch' && problems.length === 0) {
    const executor = await startExecutorSide(plugins?.ok ? plugins.loaded : []);
    if (executor.ok) {
      releaseExecutor = executor.release;
      const { ShellThreadStorage } = await import('../shell/thread-storage.ts');
      const { SHELL_WRAPPER_PATH } = await import('../runtime/snapshot.ts');
      shellStorage = new ShellThreadStorage(executor.base, join(executor.snapshotDir, SHELL_WRAPPER_PATH));
    } else problems.push(...executor.problems);
  }
  const disposePlugins = (): void => {
    // Shutdown removes the thread storage this router created before its snapshot is unpinned.
    shellStorage?.close();
    releaseExecutor();
    disposeShell();
    if (plugins?.ok) plugins.dispose();
  };
  let router;
  try {
    // Problems found so far go through startRouter so that its own (the ledger) join the same report.
    router = await startRouter(options, { registry, log: stderrSink, priorProblems: problems });
  } catch (e) {
    disposePlugins();
    if (e instanceof StartupError) return reportStartupProblems(e.problems);
    throw e;
  }
  const graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // The operator insists: exit now. 'exit' handlers still release the frontend lock and unpin the snapshot.
      process.stderr.write(`hpatch-router: ${signal} again: exiting now\n`);
      shellStorage?.close();
      process.exit(128 + (os.constants.signals[signal] ?? 0));
    }
    stopping = true;
    process.stderr.write(`hpatch-router: ${signal}: stopping; responses in flight may finish within ${formatDuration(graceMs)} (${signal} again exits at once)\n`);
    router.shutdown(graceMs).then((report) => {
      if (report.cut > 0) process.stderr.write(`hpatch-router: ${report.cut} of ${report.inFlight} response(s) in flight were cut short at the bound\n`);
      disposePlugins();
      process.exit(0);
    }, (e: unknown) => {
      process.stderr.write(`hpatch-router: shutdown failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
  };
  // Before the listening line: whoever reacts to it with a signal must not meet the default
  // disposition, which kills at once without the exit handlers that release the lock.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (plugins?.ok) process.stderr.write(`hpatch-router: ${plugins.summary}\n`);
  process.stdout.write(`listening on ${router.url}\n`);
  process.stderr.write(`hpatch-router: ${options.mode} mode, upstream ${options.upstream.href}, ${registry.size} contributed tool(s)\n`);
  return undefined;
}

/** parseRouterArgs always sets it; this covers a caller that builds options itself. */
const DEFAULT_SHUTDOWN_GRACE_MS = 30_000;

function reportStartupProblems(problems: readonly string[], opts: { usage?: boolean } = {}): number {
  process.stderr.write(`hpatch-router: cannot start (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n`);
  for (const p of problems) process.stderr.write(`  - ${p}\n`);
  // The usage text helps with argument mistakes only; after plugin or ledger problems it is noise.
  if (opts.usage) process.stderr.write(`\n${USAGE}`);
  return 2;
}

type ConfiguredPlugins =
  | { readonly ok: true; readonly contributions: readonly Contribution[]; readonly loaded: readonly LoadedPlugin[]; readonly summary: string; dispose(): void }
  | { readonly ok: false; readonly problems: readonly string[] };

/** The operator's plugins from `<user config dir>/hpatch/plugins` (hpatch mode only). */
async function loadConfiguredPlugins(builtinNames: readonly string[]): Promise<ConfiguredPlugins> {
  // Imported here, not at the top: passthrough must never load the plugin host.
  const { pluginDirectory } = await import('../plugins/config-dir.ts');
  const { discoverPlugins } = await import('../plugins/discovery.ts');
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
  const { disposeAll, loadPlugins } = await import('../plugins/load-plugins.ts');
  const { formatPluginProblem } = await import('../plugins/validate.ts');
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

/** Snapshot, stable frontends and the frontend lock for the configured executor-backed tools. */
async function startExecutorSide(plugins: readonly LoadedPlugin[]): Promise<{ ok: true; base: string; snapshotDir: string; release(): void } | { ok: false; problems: readonly string[] }> {
  const { startExecutorRuntime } = await import('../runtime/executor-runtime.ts');
  const { installRootOf } = await import('../runtime/snapshot.ts');
  const r = startExecutorRuntime({
    env: process.env,
    installRoot: installRootOf(process.argv[1]!),
    plugins: plugins.map((p) => ({ origin: p.file, id: p.id, source: p.source, tools: p.tools })),
  });
  return r.ok ? { ok: true, base: r.runtime.base, snapshotDir: r.runtime.snapshot.dir, release: () => r.runtime.release() } : r;
}
