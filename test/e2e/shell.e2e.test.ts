// End to end, the built-in shell tool (REQ-SHELL-001): the REAL Codex CLI → the BUILT router (which
// loads plugins/shell.mjs through its plugin host) → scripted upstream. The scripted model calls
// `shell`; Codex runs the carrier the router emits — the direct command, or `shell FIELD… BODY`,
// which the installed locator (bin/shell, copied onto the session's PATH the way `make install`
// puts it in $PREFIX/bin) turns into the router's worker — and the next upstream request shows the
// model's original call with the real output. What Codex ran is read from its own session rollout.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describeRun, makeCodexHome, runCodex, type CodexRunResult } from '../support/codex-cli.ts';
import { runAppServerTurn } from '../support/codex-app-server.ts';
import { executedCommands } from '../support/codex-rollout.ts';
import { rowHash } from '../../isolates/core-v1/rows.ts';
import type { RouterProcess } from '../support/router-process.ts';
import { startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream.ts';
import { createShellSession, type ShellSession } from '../support/shell-session.ts';

type Json = Record<string, any>;

interface ShellCall {
  readonly id: string;
  readonly input: string;
}

/**
 * What the model sees as the call's result, in either shape: the command's output and its exit code
 * (null while it runs). Native: the exec_command result string; Code Mode: the nested result object
 * the exec program forwards with text().
 */
function resultOf(item: Json | undefined): { output: string; exit: number | null; raw: string } {
  if (!item) return { output: '', exit: null, raw: '' };
  if (typeof item['output'] === 'string') {
    const raw = item['output'] as string;
    const at = raw.indexOf('Output:\n');
    const code = /Process exited with code (\d+)/.exec(raw);
    return { output: at < 0 ? raw : raw.slice(at + 8), exit: code ? Number(code[1]) : null, raw };
  }
  const texts = (item['output'] as Json[]).map((p) => String(p['text']));
  const raw = texts.join('\n');
  for (const t of texts) {
    if (!t.startsWith('{')) continue;
    const r = JSON.parse(t) as Json;
    return { output: String(r['output']), exit: typeof r['exit_code'] === 'number' ? r['exit_code'] : null, raw };
  }
  return { output: raw, exit: null, raw };
}

describe('end to end: the built-in shell tool with the real Codex CLI (REQ-SHELL-001)', function () {
  this.timeout(180_000);
  let upstream: ScriptedUpstream | undefined;
  let router: RouterProcess | undefined;
  let session: ShellSession;
  let work: string;
  let bin: string;
  let server: Server | undefined;

  beforeEach(() => {
    session = createShellSession('shell-e2e');
    work = session.work;
    bin = session.bin;
    // A test executable standing for an external tool such as `rtk`: prints its argv, one per line.
    writeFileSync(join(bin, 'rtk'), '#!/bin/sh\nfor a in "$@"; do printf "arg[%s]\\n" "$a"; done\n', { mode: 0o755 });
  });
  afterEach(async () => {
    await router?.stop();
    await upstream?.close();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    router = undefined;
    upstream = undefined;
    server = undefined;
    session.cleanup();
  });

  async function start(calls: readonly ShellCall[], namespace?: string): Promise<void> {
    const items = calls.map((c) => ({ type: 'custom_tool_call' as const, name: 'shell', input: c.input, call_id: c.id, ...(namespace ? { namespace } : {}) }));
    upstream = await startScriptedUpstream([{ items }, { items: [{ type: 'message', text: 'All done.' }] }]);
    router = await session.startRouter(upstream.url);
  }

  async function codex(shape: 'native' | 'code_mode', extraEnv: Record<string, string> = {}): Promise<CodexRunResult> {
    const run = await runCodex({
      baseUrl: router!.baseUrl,
      prompt: 'Use the shell tool.',
      ...(shape === 'native' ? { model: 'gpt-5.5' } : {}),
      cwd: work,
      codexHome: makeCodexHome('shell-e2e'),
      env: session.codexEnv(extraEnv),
    });
    expect(run.code, describeRun(run)).to.equal(0);
    return run;
  }

  /** The model-visible outputs of each call on the second request, and the original calls restored. */
  function outputs(calls: readonly ShellCall[]): Map<string, ReturnType<typeof resultOf>> {
    const reqs = upstream!.responsesRequests();
    expect(reqs, 'two model requests').to.have.length(2);
    const input = reqs[1]!.json['input'] as Json[];
    const out = new Map<string, ReturnType<typeof resultOf>>();
    for (const c of calls) {
      const call = input.find((i) => i['call_id'] === c.id && i['type'] === 'custom_tool_call');
      expect(call, `original call ${c.id}`).to.include({ name: 'shell', input: c.input });
      out.set(c.id, resultOf(input.find((i) => i['call_id'] === c.id && i['type'] === 'custom_tool_call_output')));
    }
    // No carrier leaks into the model's history.
    expect(JSON.stringify(input)).to.not.match(/"name":"exec_command","arguments"|tools\.exec_command\(\{"cmd":"shell /);
    return out;
  }

  const PYTHON = { id: 'call_py', input: '#!/usr/bin/env python3\nimport sys\nfor i in range(2):\n    print("py", i, sys.argv[1:])\n' };
  const DIRECT = { id: 'call_rtk', input: "rtk shadowtree test . -run='^$'\n" };
  const BASH = { id: 'call_bash', input: 'for w in alpha beta; do echo "w=$w"; done | tr a-z A-Z\n' };
  const ENV = { id: 'call_env', input: '#!python3 -u\nimport os\nprint("cwd", os.getcwd())\nprint("fn", os.environ.get("BASH_FUNC_greet%%"))\nprint("odd", os.environ.get("odd-name"))\nraise SystemExit(3)' };
  const BAD = { id: 'call_bad', input: '#!cmd=cat\necho never\n' };

  for (const shape of ['native', 'code_mode'] as const) {
    it(`${shape}: #!/usr/bin/env python3, a direct external command and a composed Bash body run as Codex shows them (acceptance 1, 7)`, async () => {
      const calls = [PYTHON, DIRECT, BASH];
      await start(calls, shape === 'code_mode' ? 'functions' : undefined);
      const run = await codex(shape);
      const out = outputs(calls);
      expect(out.get('call_py')).to.deep.include({ output: 'py 0 []\npy 1 []\n', exit: 0 });
      expect(out.get('call_rtk')).to.deep.include({ output: 'arg[shadowtree]\narg[test]\narg[.]\narg[-run=^$]\n', exit: 0 });
      expect(out.get('call_bash')).to.deep.include({ output: 'W=ALPHA\nW=BETA\n', exit: 0 });
      const cmds = executedCommands(run.codexHome);
      // One physical `shell python3 $'…'` line; the direct command exactly as written, without its newline.
      expect(cmds).to.include(`shell python3 $'import sys\\nfor i in range(2):\\n    print("py", i, sys.argv[1:])\\n'`);
      expect(cmds).to.include("rtk shadowtree test . -run='^$'");
      expect(cmds.some((c) => c.startsWith('shell bash '))).to.equal(true);
      for (const c of cmds) expect(c).to.not.contain('\n');
    });
  }

  for (const shape of ['native', 'code_mode'] as const) {
    it(`${shape}: #!python3, #! python3, #!/usr/bin/env -S python3 -u and a direct interpreter path select their interpreter; malformed selectors and directives are diagnostics (acceptance 2, 3, 10, 12)`, async () => {
      const python = realPython();
      const calls = [
        { id: 'call_bare', input: '#!python3\nimport sys\nprint("bare", sys.argv)\n' },
        { id: 'call_space', input: '#! python3\nprint("space")\n' },
        { id: 'call_envs', input: '#!/usr/bin/env -S python3 -u\nimport sys\nprint("unbuffered", sys.stdout.write_through)\n' },
        { id: 'call_path', input: `#!${python}\nimport sys\nprint("path", sys.executable == ${JSON.stringify(python)} or sys.executable)\n` },
        { id: 'call_empty', input: '#!\nprint(1)\n' },
        { id: 'call_env', input: '#!/usr/bin/env\nprint(1)\n' },
        { id: 'call_login', input: '#!python3\n#!params={"login":true}\nprint(1)\n' },
      ];
      await start(calls, shape === 'code_mode' ? 'functions' : undefined);
      const run = await codex(shape);
      const out = outputs(calls);
      expect(out.get('call_bare')).to.deep.include({ output: "bare ['/dev/fd/3']\n", exit: 0 });
      expect(out.get('call_space')).to.deep.include({ output: 'space\n', exit: 0 });
      expect(out.get('call_envs')).to.deep.include({ output: 'unbuffered True\n', exit: 0 });
      expect(out.get('call_path')).to.deep.include({ output: 'path True\n', exit: 0 });
      expect(out.get('call_empty')!.output).to.match(/empty interpreter selector/);
      expect(out.get('call_env')!.output).to.match(/env without an executable/);
      expect(out.get('call_login')!.output).to.match(/"login" must be false/);
      // Native: a failed command (status 2, message on stderr); Code Mode: a failed exec program.
      for (const id of ['call_empty', 'call_env', 'call_login']) expect(out.get(id)!.exit, id).to.equal(shape === 'native' ? 2 : null);
      const cmds = executedCommands(run.codexHome);
      expect(cmds).to.include(`shell python3 $'print("space")\\n'`);
      expect(cmds).to.include(`shell python3 -u $'import sys\\nprint("unbuffered", sys.stdout.write_through)\\n'`);
      expect(cmds.some((c) => c.startsWith(`shell ${python} `))).to.equal(true);
      // Diagnostics ran no interpreter: only the four scripts reached the helper.
      expect(cmds.filter((c) => c.startsWith('shell '))).to.have.length(4);
    });
  }

  for (const shape of ['native', 'code_mode'] as const) {
    it(`${shape}: private commands in a Bash body — hread in a pipeline under cd, inspect_file, hgrep, hread @shell/<id> of a script retained in the same turn (REQ-SHELL-001 paragraph 6)`, async () => {
      mkdirSync(join(work, 'docs'));
      writeFileSync(join(work, 'docs', 'notes.txt'), 'alpha\r\nbeta\r\ngamma');
      const calls = [
        { id: 'call_src', input: '#!python3\nprint("retained")\n' },
        { id: 'call_priv', input: 'cd docs && hread notes.txt 2- | tr a-z A-Z\ninspect_file notes.txt | grep -E "^(line ends|final newline):"\nhgrep -i GAMMA\nhread @shell/call_src | tail -n 1\nhread nope.txt 2>&1 || echo "status $?"\n' },
      ];
      await start(calls, shape === 'code_mode' ? 'functions' : undefined);
      const run = await codex(shape);
      const out = outputs(calls).get('call_priv')!;
      expect(out.output).to.equal([
        '# NOTES.TXT: 3 LINES, 18 BYTES, CRLF LINE ENDS, NO FINAL NEWLINE, TAG ' + /TAG ([0-9A-F]{8})/.exec(out.output)![1],
        '# LINES 2-3 OF 3', `2:${rowHash('beta').toUpperCase()}|BETA`, `3:${rowHash('gamma').toUpperCase()}|GAMMA`,
        'line ends: crlf', 'final newline: no',
        `notes.txt:3:${rowHash('gamma')}|gamma`,
        `2:${rowHash('print("retained")')}|print("retained")`,
        'hread: nope.txt: No such file or directory', 'status 1', '',
      ].join('\n'));
      expect(out.exit).to.equal(0);
      // The private commands ran inside the worker: Codex ran one helper command for the body.
      expect(executedCommands(run.codexHome).filter((c) => c.includes('hread'))).to.have.length(1);
    });
  }

  it('native: cwd and environment reach the interpreter unchanged, exported Bash functions and odd names included, and a nonzero status is the result (acceptance 9)', async () => {
    await start([ENV]);
    await codex('native', { 'BASH_FUNC_greet%%': '() {  echo hi\n}', 'odd-name': 'kept' });
    const out = outputs([ENV]).get('call_env')!;
    expect(out).to.deep.include({ output: `cwd ${work}\nfn () {  echo hi\n}\nodd kept\n`, exit: 3 });
  });

  it('native: #!cmd= with a local HTTP server in place of the curl URL feeds Bash and Python standard input (acceptance 4, 5)', async () => {
    server = createServer((_req, res) => res.end('line one\nline two\n'));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data`;
    const calls = [
      { id: 'call_cmd_bash', input: `#!cmd=curl -fsS ${url} | {.} | tr a-z A-Z\nwhile read -r l; do echo "got $l"; done\n` },
      { id: 'call_cmd_py', input: `#!python3\n#!cmd=curl -fsS ${url} | {.}\nimport sys\nprint(len(sys.stdin.read().splitlines()), "lines")\n` },
    ];
    await start(calls);
    const run = await codex('native');
    const out = outputs(calls);
    expect(out.get('call_cmd_bash')).to.deep.include({ output: 'GOT LINE ONE\nGOT LINE TWO\n', exit: 0 });
    expect(out.get('call_cmd_py')).to.deep.include({ output: '2 lines\n', exit: 0 });
    const cmds = executedCommands(run.codexHome);
    expect(cmds).to.include(`curl -fsS ${url} | shell bash $'while read -r l; do echo "got $l"; done\\n' | tr a-z A-Z`);
    expect(cmds).to.include(`curl -fsS ${url} | shell python3 $'import sys\\nprint(len(sys.stdin.read().splitlines()), "lines")\\n'`);
  });

  it('native: malformed input is answered with a diagnostic before any interpreter starts (acceptance 6, 10)', async () => {
    await start([BAD]);
    const run = await codex('native');
    const out = outputs([BAD]).get('call_bad')!;
    expect(out).to.deep.include({ output: 'shell: #!cmd= must contain exactly one {.} placeholder (found 0)\n', exit: 2 });
    expect(executedCommands(run.codexHome).some((c) => c.includes('shell '))).to.equal(false);
  });

  for (const shape of ['native', 'code_mode'] as const) {
    it(`${shape}: each call is retained as @shell/<call id>, and #!script= reruns the stored script's current content; the ledger keeps the original reference call (acceptance 17, storage half)`, async () => {
      const ns = shape === 'code_mode' ? { namespace: 'functions' } : {};
      const keep = { type: 'custom_tool_call' as const, name: 'shell', input: '#!python3\nprint("v1")\n', call_id: 'call_keep', ...ns };
      const rerun = { type: 'custom_tool_call' as const, name: 'shell', input: '#!script=@shell/call_keep', call_id: 'call_rerun', ...ns };
      const missing = { type: 'custom_tool_call' as const, name: 'shell', input: '#!script=@shell/call_nope\n', call_id: 'call_missing', ...ns };
      upstream = await startScriptedUpstream((req) => {
        if (req.turnIndex === 0) return { items: [keep] };
        if (req.turnIndex === 1) {
          // The stored script is edited between the calls (hpatch will do this; here the file itself).
          const thread = String(req.headers['thread-id'] ?? req.headers['session-id']);
          const file = join(session.runtimeBase, `hpatch-${thread}`, 'scripts', 'call_keep');
          expect(readFileSync(file, 'utf8')).to.equal('#!python3\nprint("v1")\n');
          writeFileSync(file, '#!python3\nprint("v2")\n');
          return { items: [rerun, missing] };
        }
        if (req.turnIndex === 2) return { items: [{ type: 'message', text: 'All done.' }] };
        return { items: [{ type: 'message', text: 'Done.' }] };
      });
      router = await session.startRouter(upstream.url);
      const run = await codex(shape);
      const reqs = upstream.responsesRequests();
      expect(reqs).to.have.length(3);
      const second = reqs[1]!.json['input'] as Json[];
      const kept = resultOf(second.find((i) => i['call_id'] === 'call_keep' && i['type'] === 'custom_tool_call_output'));
      expect(kept.raw.startsWith('retained: true\nscript_ref: @shell/call_keep\n'), kept.raw).to.equal(true);
      expect(kept).to.deep.include({ output: 'v1\n', exit: 0 });
      const third = reqs[2]!.json['input'] as Json[];
      expect(third.find((i) => i['call_id'] === 'call_rerun' && i['type'] === 'custom_tool_call')).to.include({ name: 'shell', input: '#!script=@shell/call_keep' });
      const again = resultOf(third.find((i) => i['call_id'] === 'call_rerun' && i['type'] === 'custom_tool_call_output'));
      expect(again).to.deep.include({ output: 'v2\n', exit: 0 });
      expect(again.raw).to.contain('script_ref: @shell/call_rerun');
      const gone = resultOf(third.find((i) => i['call_id'] === 'call_missing' && i['type'] === 'custom_tool_call_output'));
      expect(gone.raw).to.contain('@shell/call_nope does not exist');
      const cmds = executedCommands(run.codexHome);
      expect(cmds.filter((c) => c.startsWith('shell python3'))).to.deep.equal([`shell python3 $'print("v1")\\n'`, `shell python3 $'print("v2")\\n'`]);
      // Shutdown removes the thread storage this router created (its .runtime link and scripts).
      expect(readdirSync(session.runtimeBase).filter((n) => n.startsWith('hpatch-'))).to.have.length(1);
      await router!.stop();
      router = undefined;
      expect(readdirSync(session.runtimeBase).filter((n) => n.startsWith('hpatch-'))).to.deep.equal([]);
    });
  }

  for (const shape of ['native', 'code_mode'] as const) {
    it(`${shape}: wrapped scripts draw one warning per kind, and Code Mode JavaScript given as shell input is recovered with its warning first; the carrier is unchanged (acceptance 16)`, async () => {
      const wrapped = { id: 'call_wrapped', input: "python3 -c 'print(6 * 7)'\npython3 -c 'print(1)'\nnode -e 'console.log(2)'\npython3 <<'EOF'\nprint(3)\nEOF\n" };
      const js = { id: 'call_js', input: "const r = await tools.exec_command({cmd: \"rtk from-js 'a b'\"});\ntext(r);\n" };
      await start([wrapped, js], shape === 'code_mode' ? 'functions' : undefined);
      const run = await codex(shape);
      const out = outputs([wrapped, js]);
      const w = out.get('call_wrapped')!;
      expect(w).to.deep.include({ output: '42\n1\n2\n3\n', exit: 0 });
      const lines = w.raw.split('\n');
      expect(lines.filter((l) => l.startsWith('warning: ')).map((l) => /`([^`]+)`/.exec(l)![1])).to.deep.equal(['python3 -c', 'node -e', 'python3']);
      const j = out.get('call_js')!;
      expect(j).to.deep.include({ output: 'arg[from-js]\narg[a b]\n', exit: 0 });
      expect(j.raw.startsWith('warning: this input was Code Mode JavaScript calling tools.exec_command'), j.raw).to.equal(true);
      // The recovered command is the direct carrier, exactly as the model wrote it inside cmd.
      expect(executedCommands(run.codexHome)).to.include("rtk from-js 'a b'");
      // The operator's log has every warning too.
      expect(router!.stderrLines.join('\n')).to.match(/shell warning: `python3 -c`.*call=call_wrapped/);
      expect(router!.stderrLines.join('\n')).to.match(/shell warning: this input was Code Mode JavaScript.*call=call_js/);
    });
  }

  /** The continuation handle of a yielded result, in either shape. */
  function sessionOf(item: Json | undefined): number | null {
    const raw = resultOf(item).raw;
    const m = /Process running with session ID (\d+)/.exec(raw) ?? /"session_id":(\d+)/.exec(raw);
    return m ? Number(m[1]) : null;
  }

  /** The model's write_stdin call in the request's shape (Code Mode: through the exec program, as the model would). */
  function writeStdin(shape: 'native' | 'code_mode', callId: string, sessionId: number, chars: string): Json {
    const args = { session_id: sessionId, chars, yield_time_ms: 5000 };
    if (shape === 'native') return { type: 'function_call', name: 'write_stdin', arguments: args, call_id: callId };
    return { type: 'custom_tool_call', name: 'exec', namespace: 'functions', input: `const r = await tools.write_stdin(${JSON.stringify(args)});\ntext(r);\n`, call_id: callId };
  }

  /** A two-step session: the model's shell call, then write_stdin with `chars` once the call has yielded. */
  async function interactive(shape: 'native' | 'code_mode', script: string, chars: string): Promise<{ first: ReturnType<typeof resultOf>; second: ReturnType<typeof resultOf>; run: CodexRunResult }> {
    const ns = shape === 'code_mode' ? { namespace: 'functions' } : {};
    upstream = await startScriptedUpstream((req) => {
      const history = (req.json?.['input'] ?? []) as Json[];
      if (req.turnIndex === 0) return { items: [{ type: 'custom_tool_call', name: 'shell', input: script, call_id: 'call_int', ...ns }] };
      if (req.turnIndex === 1) {
        const id = sessionOf(history.find((i) => i['call_id'] === 'call_int' && i['type'] === 'custom_tool_call_output'));
        if (id === null) return { items: [{ type: 'message', text: 'did not yield' }] };
        return { items: [writeStdin(shape, 'call_w', id, chars) as never] };
      }
      return { items: [{ type: 'message', text: 'All done.' }] };
    });
    router = await session.startRouter(upstream.url);
    const run = await codex(shape);
    const reqs = upstream.responsesRequests();
    expect(reqs.length, 'three model requests').to.equal(3);
    const second = reqs[1]!.json['input'] as Json[];
    const third = reqs[2]!.json['input'] as Json[];
    const first = resultOf(second.find((i) => i['call_id'] === 'call_int' && i['type'] === 'custom_tool_call_output'));
    const out = third.find((i) => i['call_id'] === 'call_w' && (i['type'] === 'function_call_output' || i['type'] === 'custom_tool_call_output'));
    // The router never continues a session itself: the only write_stdin is the model's.
    const calls = second.filter((i) => i['type'] === 'function_call' || i['type'] === 'custom_tool_call');
    expect(calls.filter((i) => i['name'] === 'write_stdin' || String(i['input'] ?? '').includes('write_stdin'))).to.deep.equal([]);
    return { first, second: resultOf(out), run };
  }

  for (const shape of ['native', 'code_mode'] as const) {
    it(`${shape}: an interactive PTY script yields with its session handle and reads the model's write_stdin answer (acceptance 9, 15)`, async () => {
      const { first, second } = await interactive(shape, '#!python3\n#!params={"tty":true,"yield_time_ms":1500}\nimport sys\nname = input("name? ")\nprint("hello", name, sys.stdin.isatty())\n', 'bob\n');
      expect(first.exit, first.raw).to.equal(null);
      expect(first.raw).to.contain('name? ');
      expect(second.output).to.contain('hello bob True');
      expect(second.exit, second.raw).to.equal(0);
    });
  }

  it('native: a piped stage reading /dev/tty in a PTY-backed Bash body gets the model\'s input, without a background-process-group stop (acceptance 9)', async () => {
    const { first, second } = await interactive('native', '#!params={"tty":true,"yield_time_ms":1500}\necho ignored | head -n 1 /dev/tty | tr a-z A-Z\necho "status ${PIPESTATUS[*]}"\n', 'typed line\n');
    expect(first.exit, first.raw).to.equal(null);
    expect(second.output).to.contain('TYPED LINE');
    expect(second.output).to.contain('status 0 0 0');
    expect(second.exit).to.equal(0);
  });

  it('native: a long script yields with its session handle and finishes through write_stdin; the router never polls (acceptance 15)', async () => {
    const { first, second } = await interactive('native', '#!params={"yield_time_ms":800}\nfor i in 1 2 3 4 5 6; do echo "tick $i"; sleep 0.5; done\necho finished\n', '');
    expect(first.exit, first.raw).to.equal(null);
    // Output is split between the yielded result and the continuation, nothing lost or repeated.
    expect(first.output + second.output).to.equal('tick 1\ntick 2\ntick 3\ntick 4\ntick 5\ntick 6\nfinished\n');
    expect(second.exit).to.equal(0);
  });

  it('native: #!params={"workdir":…,"tty":true} runs the worker in that directory on a terminal (acceptance 12)', async () => {
    const dir = join(session.home, 'elsewhere');
    mkdirSync(dir);
    const call = { id: 'call_params', input: `#!python3\n#!params={"workdir":${JSON.stringify(dir)},"tty":true}\nimport os, sys\nprint(os.getcwd(), sys.stdout.isatty())\n` };
    await start([call]);
    const run = await codex('native');
    expect(outputs([call]).get('call_params')!.output).to.contain(`${dir} True`);
    expect(executedCommands(run.codexHome)).to.include(`shell python3 $'import os, sys\\nprint(os.getcwd(), sys.stdout.isatty())\\n'`);
  });

  it("Code Mode: the request offers shell beside exec with the owner's sanitized #!params shape and no tools.exec_command (acceptance 13)", async () => {
    await start([DIRECT], 'functions');
    await codex('code_mode');
    const first = upstream!.responsesRequests()[0]!.json;
    const ns = ((first['input'] as Json[]).flatMap((i) => (i['type'] === 'additional_tools' ? (i['tools'] as Json[]) : [])).find((t) => t['name'] === 'functions'))!;
    const shell = (ns['tools'] as Json[]).find((t) => t['name'] === 'shell')!;
    const exec = (ns['tools'] as Json[]).find((t) => t['name'] === 'exec')!;
    expect(shell).to.include({ type: 'custom' });
    expect(shell['description']).to.contain('#!params fields').and.to.contain('workdir').and.to.not.contain('tools.exec_command');
    expect(exec['description']).to.not.contain('tools.exec_command');
  });

  /** A scripted model whose first turn calls shell wherever the request placed it (app-server: beside exec, or under a namespace). */
  async function startForAppServer(call: { input: string; call_id: string }): Promise<void> {
    upstream = await startScriptedUpstream((req) => {
      if (req.turnIndex !== 0) return { items: [{ type: 'message', text: 'All done.' }] };
      const ns = placementOf(req.json, 'shell');
      return { items: [{ type: 'custom_tool_call', name: 'shell', ...call, ...(ns ? { namespace: ns } : {}) }] };
    });
    router = await session.startRouter(upstream.url);
  }

  it('codex app-server (JSON-RPC over stdio, as the IDE extensions drive it): the scripted model calls shell and Codex runs the worker carrier', async () => {
    const call = { input: '#!/usr/bin/env python3\nprint("from app-server", 6 * 7)\n', call_id: 'call_app' };
    await startForAppServer(call);
    const codexHome = makeCodexHome('shell-app');
    const turn = await runAppServerTurn({
      baseUrl: router!.baseUrl, codexHome, cwd: work, prompt: 'Use the shell tool.',
      env: session.codexEnv(),
    });
    expect(turn.commands).to.have.length(1);
    expect(turn.commands[0]!.output).to.equal('from app-server 42\n');
    expect(executedCommands(codexHome)).to.deep.equal([`shell python3 $'print("from app-server", 6 * 7)\\n'`]);
    const reqs = upstream!.responsesRequests();
    expect(reqs).to.have.length(2);
    const input = reqs[1]!.json['input'] as Json[];
    expect(input.find((i) => i['call_id'] === 'call_app' && i['type'] === 'custom_tool_call')).to.include({ name: 'shell', input: call.input });
    expect(resultOf(input.find((i) => i['call_id'] === 'call_app' && i['type'] === 'custom_tool_call_output'))).to.deep.include({ output: 'from app-server 42\n', exit: 0 });
  });

  it('codex app-server: interrupting the turn cancels a running Bash body, and no descendant keeps holding its streams (acceptance 9)', async () => {
    const marker = `${3000 + Math.floor(Math.random() * 999)}.25`;
    const call = { input: `sleep ${marker} &\nsleep ${marker} | cat &\necho started\nwait\n`, call_id: 'call_cancel' };
    await startForAppServer(call);
    const alive = (): string[] => spawnSync('pgrep', ['-f', `sleep ${marker}`], { encoding: 'utf8' }).stdout.split('\n').filter((l) => l !== '');
    let seen = 0;
    const sampler = setInterval(() => { seen = Math.max(seen, alive().length); }, 100);
    try {
      const turn = await runAppServerTurn({
        baseUrl: router!.baseUrl, codexHome: makeCodexHome('shell-cancel'), cwd: work, prompt: 'Use the shell tool.', model: 'gpt-5.5',
        env: session.codexEnv(),
        // (once the command runs: Codex does not always send an outputDelta for a pipe's early output
        // — it read `started` and sent none in some runs — so the trigger is the item, with time for
        // the body to start its jobs and reach `wait`)
        interrupt: { when: (m) => m['method'] === 'item/started' && m['params']?.['item']?.['type'] === 'commandExecution', afterMs: 1500 },
      });
      clearInterval(sampler);
      const completed = turn.messages.find((m) => m['method'] === 'turn/completed')!;
      expect(completed['params']['turn']['status']).to.equal('interrupted');
      // (the body had started its jobs: there were descendants to cancel)
      expect(seen, 'sleeps seen running before the interrupt').to.be.at.least(2);
      // Bounded: the worker's grace period, then SIGKILL of every group it made.
      for (let i = 0; i < 40 && alive().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(alive(), 'descendants still running').to.deep.equal([]);
    } finally {
      clearInterval(sampler);
      for (const pid of alive()) try { process.kill(Number(pid), 'SIGKILL'); } catch { /* gone */ }
    }
  });
});

/** An absolute python3 that the login PATH also has (a direct-path shebang must name a real file). */
function realPython(): string {
  for (const p of ['/usr/bin/python3', '/usr/local/bin/python3']) if (existsSync(p)) return p;
  return spawnSync('sh', ['-c', 'command -v python3'], { encoding: 'utf8' }).stdout.trim();
}

/** The namespace a tool sits under in a request (top-level tools, additional_tools items), or undefined for none. */
function placementOf(body: Json | undefined, tool: string): string | undefined {
  const lists: Array<{ ns?: string; tools: Json[] }> = [];
  if (Array.isArray(body?.['tools'])) lists.push({ tools: body!['tools'] });
  for (const i of (body?.['input'] ?? []) as Json[]) if (i['type'] === 'additional_tools' && Array.isArray(i['tools'])) lists.push({ tools: i['tools'] });
  for (const { tools } of lists) {
    for (const t of tools) {
      if (t['name'] === tool && t['type'] !== 'namespace') return undefined;
      if (t['type'] === 'namespace' && Array.isArray(t['tools']) && (t['tools'] as Json[]).some((x) => x['name'] === tool)) return String(t['name']);
    }
  }
  return undefined;
}
