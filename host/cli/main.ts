// Entry point of the hpatch-router executable: dispatches to the router (default) or a subcommand.
import { runRouterCli } from './router-cli.ts';

const argv = process.argv.slice(2);
const exitCode = await runRouterCli(argv);
if (exitCode !== undefined) process.exitCode = exitCode;
