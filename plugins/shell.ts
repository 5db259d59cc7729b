// The built-in `shell` tool's declaration (REQ-SHELL-001). Generated into plugins/shell.mjs by
// `make build` and loaded through the same plugin host and validation as a configured plugin. The
// isolate owns the input rules (core/v1's parseShellInput: shebang, directives, exact body); the
// router's shell contribution (host/shell/) owns what needs the host: the direct-carrier decision
// (the interpreter's parser), script retention and `#!script=` references. The executor is the
// router's shell worker, not an isolate, so this declaration has no `execute`.
import { parseShellInput, type ShellInput } from 'hpatch:core/v1';
import type { CustomToolSpec, TranslateContext, TranslateResult } from '../sdk/index.d.ts';

/** Linux MAX_ARG_STRLEN − 1: the whole input must fit the one command argument Codex passes to bash. */
const INPUT_LIMIT = 131071;

const DESCRIPTION = `Runs a script. The input is the script itself, exactly as it would be in a file — no quoting,
no JSON, no heredoc. Output, exit status and interaction are those of a command.

- First line \`#!<interpreter> [args]\` picks the interpreter: \`#!python3\`, \`#!/usr/bin/env node\`,
  \`#!/usr/bin/env -S python3 -u\`, \`#!sh\`, or a path. Without it the script is Bash.
- Everything after the first line is the script, byte for byte (indentation, blank lines, no final
  newline all kept); it reaches the interpreter as its script file, and standard input stays free.
- Optional directive lines right after the shebang:
  \`#!cmd=<command with one {.}>\` runs the script inside a pipeline, e.g.
  \`#!cmd=curl -fsSL http://host/data.json | {.}\` makes the curl output the script's standard input;
  \`#!params={"workdir":"/path","tty":true,"yield_time_ms":1000}\` sets how the command runs.
- A long-running or interactive script keeps running in the background with a session id;
  continue it with write_stdin.
- The result shows script_ref: @shell/<id>; input \`#!script=@shell/<id>\` alone runs that script again.
- In a Bash or sh script, \`hread FILE [N-M]\` prints lines as \`LINE:HASH|text\` rows with a header
  (line ends, final newline, tag), \`hgrep [-i] [-F] [-C N] REGEX [PATH...]\` prints matching rows as
  \`path:LINE:HASH|text\` (recursive, .gitignore honoured, Rust regex syntax), \`hsymbol NAME [PATH...]\`
  prints a definition's whole range (Go, TypeScript/JavaScript, Python, Rust; Type.method for a
  method), and \`inspect_file FILE\` describes a file; hread and inspect_file also take @shell/<id>.

Write a plain command (\`rg -n foo src\`) as the whole input. Never wrap code in \`python3 -c\`,
\`node -e\`, \`bash -c\` or a heredoc: put \`#!python3\` on the first line and the code below it.`;

const spec: CustomToolSpec = { type: 'custom', name: 'shell', description: DESCRIPTION };

type ParsedInput = Extract<ShellInput, { ok: true }>;

const shell = {
  spec,
  inputLimit: INPUT_LIMIT,
  parse(input: string): { ok: true; value: ParsedInput } | { ok: false; error: string } {
    const parsed = parseShellInput(input);
    return parsed.ok ? { ok: true, value: parsed } : { ok: false, error: parsed.error };
  },
  translate(value: ParsedInput, ctx: TranslateContext): TranslateResult {
    // The router resolves `#!script=` references before it asks the isolate; one that reaches here
    // came out of a stored script, which never holds one: refusing it keeps references acyclic.
    if (value.kind === 'scriptRef') return { reject: `${value.scriptRef} is a script reference inside a script; references do not nest` };
    return ctx.exec([...value.interpreter.fields, value.body], {
      ...(value.command !== undefined ? { template: value.command } : {}),
      ...(value.params !== undefined ? { params: value.params } : {}),
    });
  },
};

export default { apiVersion: 1, id: 'builtin.shell', version: '1', tools: [shell] };
