// `hpatch-router [--mode …] [--listen …] [--upstream …]`: start the router, print the one
// `listening on` line, stop cleanly on SIGINT/SIGTERM.
import { ToolRegistry } from '../registry/registry.ts';
import { stderrSink } from '../proxy/request-log.ts';
import { startRouter, StartupError } from '../router.ts';
import { parseRouterArgs, USAGE } from './router-options.ts';

export async function runRouterCli(argv: readonly string[]): Promise<number | undefined> {
  const parsed = parseRouterArgs(argv, process.env);
  if (parsed.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.kind === 'invalid') return reportStartupProblems(parsed.problems);
  const { options } = parsed;
  // Built-in tools and plugin declarations register here as they land; passthrough loads none.
  const registry = ToolRegistry.empty;
  let router;
  try {
    router = await startRouter(options, { registry, log: stderrSink });
  } catch (e) {
    if (e instanceof StartupError) return reportStartupProblems(e.problems);
    throw e;
  }
  process.stdout.write(`listening on ${router.url}\n`);
  process.stderr.write(`hpatch-router: ${options.mode} mode, upstream ${options.upstream.href}, ${registry.size} contributed tool(s)\n`);
  const stop = (): void => {
    router.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return undefined;
}

function reportStartupProblems(problems: readonly string[]): number {
  process.stderr.write(`hpatch-router: cannot start (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n`);
  for (const p of problems) process.stderr.write(`  - ${p}\n`);
  process.stderr.write(`\n${USAGE}`);
  return 2;
}
