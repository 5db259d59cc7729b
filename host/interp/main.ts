// Stand-alone entry: `node --import tsx host/interp/main.ts [interp args]` (tests, benchmarks).
import { runInterpCli } from './cli.ts';

const code = await runInterpCli(process.argv.slice(2));
process.exit(code);
