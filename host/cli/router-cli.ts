// `hpatch-router [--mode …] [--listen …] [--upstream …]`: start the router, print the one
// `listening on` line, stop cleanly on SIGINT/SIGTERM.
import * as os from 'node:os';
import { join } from 'node:path';
import type { LoadedPlugin } from '../plugins/load-plugins.ts';
import type { ShellThreadStorage } from '../shell/thread-storage.ts';
import { ToolRegistry } from '../registry/registry.ts';
import { createLogger } from '../log/logger.ts';
import { startRouter, StartupError } from '../router.ts';
import { assembleHpatchTools, configuredPluginSource } from './hpatch-tools.ts';
import { formatDuration } from './duration.ts';
import { DEFAULT_SHUTDOWN_GRACE_MS, parseRouterArgs, USAGE } from './router-options.ts';

export async function runRouterCli(argv: readonly string[]): Promise<number | undefined> {
  const parsed = parseRouterArgs(argv, process.env);
  if (parsed.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.kind === 'version') {
    const { versionLine } = await import('./version.ts');
    process.stdout.write(versionLine());
    return 0;
  }
  if (parsed.kind === 'invalid') return reportStartupProblems(parsed.problems, { usage: true });
  const { options } = parsed;
  const log = createLogger({ format: options.logFormat, level: options.logLevel });
  // Passthrough loads nothing: no built-in, no plugin, not even the plugin host module (it pulls in
  // isolated-vm and the core artifact).
  const problems: string[] = [];
  let registry = ToolRegistry.empty;
  let plugins: readonly LoadedPlugin[] = [];
  let summary: string | null = null;
  // The shell tool's per-thread storage exists once the executor side (its snapshot) is up.
  let shellStorage: ShellThreadStorage | null = null;
  let disposeTools = (): void => {};
  if (options.mode === 'hpatch') {
    const tools = await assembleHpatchTools({ storage: () => shellStorage, source: () => configuredPluginSource(process.env) });
    problems.push(...tools.problems);
    ({ registry, plugins, summary } = tools);
    disposeTools = tools.dispose;
  }
  // The executor side (snapshot, frontends beside this executable, their lock) is set up only once
  // everything else is valid, so an invalid configuration writes nothing.
  let releaseExecutor = (): void => {};
  if (options.mode === 'hpatch' && problems.length === 0) {
    const executor = await startExecutorSide(plugins);
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
    disposeTools();
  };
  let router;
  try {
    // Problems found so far go through startRouter so that its own (the ledger) join the same report.
    router = await startRouter(options, { registry, log, priorProblems: problems });
  } catch (e) {
    disposePlugins();
    if (e instanceof StartupError) return reportStartupProblems(e.problems);
    throw e;
  }
  // Lifecycle lines keep their `hpatch-router:` form in text (people and tests read them); JSON gets records.
  const lifecycle = (level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, string | number> = {}): void => {
    if (options.logFormat === 'json') log.event(level, msg, fields);
    else if (log.enabled(level)) process.stderr.write(`hpatch-router: ${msg}\n`);
  };
  const graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // The operator insists: exit now. 'exit' handlers still release the frontend lock and unpin the snapshot.
      lifecycle('warn', `${signal} again: exiting now`, { signal });
      shellStorage?.close();
      process.exit(128 + (os.constants.signals[signal] ?? 0));
    }
    stopping = true;
    lifecycle('info', `${signal}: stopping; responses in flight may finish within ${formatDuration(graceMs)} (${signal} again exits at once)`, { signal, grace_ms: graceMs });
    router.shutdown(graceMs).then((report) => {
      if (report.cut > 0) lifecycle('warn', `${report.cut} of ${report.inFlight} response(s) in flight were cut short at the bound`, { cut: report.cut, in_flight: report.inFlight });
      disposePlugins();
      process.exit(0);
    }, (e: unknown) => {
      lifecycle('error', `shutdown failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    });
  };
  // Before the listening line: whoever reacts to it with a signal must not meet the default
  // disposition, which kills at once without the exit handlers that release the lock.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (summary !== null) lifecycle('info', summary, { plugins: plugins.length, tools: plugins.reduce((n, p) => n + p.tools.length, 0) });
  process.stdout.write(`listening on ${router.url}\n`);
  lifecycle('info', `${options.mode} mode, upstream ${options.upstream.href}, ${registry.size} contributed tool(s)`, { mode: options.mode, upstream: options.upstream.href, listen: router.url, tools: registry.size });
  return undefined;
}


function reportStartupProblems(problems: readonly string[], opts: { usage?: boolean } = {}): number {
  process.stderr.write(`hpatch-router: cannot start (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n`);
  for (const p of problems) process.stderr.write(`  - ${p}\n`);
  // The usage text helps with argument mistakes only; after plugin or ledger problems it is noise.
  if (opts.usage) process.stderr.write(`\n${USAGE}`);
  return 2;
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
