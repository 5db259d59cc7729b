// How a `#!`-less script file is run: in a fresh shell, which only the launcher knows how to
// build (cli.ts sets it), so the evaluator and `exec` are given it instead of importing the CLI.
import type { Shell } from './runner.ts';

/** Runs a `#!`-less script in a fresh subshell (set by cli.ts, which owns shell construction). */
export let scriptRunner: ((parent: Shell, src: Buffer, args: string[]) => Promise<number>) | undefined;

export function setScriptRunner(f: typeof scriptRunner): void { scriptRunner = f; }
