// Stand-alone entry: `node --import tsx host/interp/launch/main.ts [interp args]` (tests, benchmarks).
import { fileURLToPath } from 'node:url';
import { runInterpCli } from './cli.ts';
import { findSpawnAddon, setSpawnAddon } from '../execution/native-spawn.ts';

setSpawnAddon(findSpawnAddon([fileURLToPath(new URL('../../../dist', import.meta.url))]));

const code = await runInterpCli(process.argv.slice(2));
process.exit(code);
