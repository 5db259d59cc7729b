// Entry for a V8 user-land startup snapshot (scripts/build-interp.mjs --snapshot):
// mvdan-sh is loaded and warmed up at build time; the deserialized main runs the CLI.
import * as v8 from 'node:v8';
import { runInterpCli } from './cli.ts';
import { parse } from './parser.ts';

parse('echo warm | cat; x=$((1+2)); [[ a == b ]]', false);
parse('echo warm', true);
v8.startupSnapshot.setDeserializeMainFunction(() => {
  runInterpCli(process.argv.slice(1)).then(
    (code) => process.exit(code),
    (e: unknown) => { process.stderr.write(`interp: ${(e as Error)?.stack ?? String(e)}\n`); process.exit(70); },
  );
});
