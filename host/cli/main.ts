// Entry point of the hpatch-router executable. Subcommands are imported lazily so that each role
// loads only what it needs (the interpreter must not pay for undici, the router for mvdan-sh).
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { invokedName, takeInvokedAs } from '../runtime/invocation.ts';

const argv = process.argv.slice(2);
// The launcher exports HPATCH_INVOKED_AS="$0"; taken out of the environment here so no child inherits it.
const invokedAs = takeInvokedAs(process.env);

async function main(): Promise<number | undefined> {
  // Launched through a configured tool's frontend symlink: dispatch by argv[0] (doc/executor.md).
  if (invokedAs !== undefined && invokedName(invokedAs) !== 'hpatch-router') {
    const { runFrontendWorker } = await import('../worker/frontend-worker.ts');
    return runFrontendWorker({ invokedAs, argv });
  }
  if (argv[0] === 'interp') {
    const { runInterpCli } = await import('../interp/launch/cli.ts');
    const { findSpawnAddon, setSpawnAddon } = await import('../interp/execution/native-spawn.ts');
    // (dist/hpatch-router.mjs or a chunk beside it; from source, host/cli/main.ts)
    const here = path.dirname(fileURLToPath(import.meta.url));
    setSpawnAddon(findSpawnAddon([here, path.join(here, '..'), path.join(here, '..', '..', 'dist')]));
    // Exit at once: a builtin may still hold a read on an inherited descriptor that would keep
    // the event loop alive after the script finished (the interpreter writes synchronously).
    process.exit(await runInterpCli(argv.slice(1)));
  }
  if (argv[0] === 'plugins') {
    const { runPluginsCli } = await import('./plugins-cli.ts');
    return runPluginsCli(argv.slice(1));
  }
  if (argv[0] === 'doctor') {
    const { runDoctorCli } = await import('./doctor.ts');
    // Exit at once: a probe's socket or a plugin isolate must not hold the finished report back.
    process.exit(await runDoctorCli(argv.slice(1)));
  }
  if (argv[0] === 'ledger') {
    const { runLedgerCli } = await import('./ledger-cli.ts');
    return runLedgerCli(argv.slice(1));
  }
  const { runRouterCli } = await import('./router-cli.ts');
  return runRouterCli(argv);
}

const exitCode = await main();
if (exitCode !== undefined) process.exitCode = exitCode;
