// CommonJS-friendly entry (no top-level await) for the esbuild bundle built by
// scripts/build-interp.mjs: `node dist/interp-launch.cjs [interp args]`.
import { runInterpCli } from './cli.ts';
import { runShellWorker, SHELL_WORKER_FLAG } from '../../worker/shell-worker.ts';
import { findSpawnAddon, setSpawnAddon } from '../execution/native-spawn.ts';

// (the bundle is dist/interp.cjs: the addon is beside it)
if (typeof __dirname === 'string') setSpawnAddon(findSpawnAddon([__dirname]));

const args = process.argv.slice(2);
(args[0] === SHELL_WORKER_FLAG ? runShellWorker(args.slice(1)) : runInterpCli(args)).then(
  (code) => process.exit(code),
  (e: unknown) => { process.stderr.write(`interp: ${(e as Error)?.stack ?? String(e)}\n`); process.exit(70); },
);
