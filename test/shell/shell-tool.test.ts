// REQ-SHELL-001 through the real built-in declaration: plugins/shell.mjs loaded by the plugin host
// and validated like a configured plugin, wrapped by the router's shell contribution, rendered by the
// canonical exec wrapper. Each describe is one rule of the requirement's text, named after its
// acceptance criterion; the carriers are checked as the exact command Codex would run.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { AvailableCarriers } from '../../host/carriers/carrier.ts';
import { renderDiagnosticCarrier } from '../../host/carriers/exec-wrapper.ts';
import { renderCarrier } from '../../host/carriers/render-carrier.ts';
import { CarrierInputError } from '../../host/carriers/carrier-errors.ts';
import type { Contribution } from '../../host/registry/contribution.ts';
import { loadBuiltinShell } from '../../host/shell/builtin-shell.ts';
import { ShellThreadStorage } from '../../host/shell/thread-storage.ts';
import { seededRandom } from '../support/prng.ts';
import { tempDir } from '../support/temp-dir.ts';

const NATIVE: AvailableCarriers = { exec_command: {}, primary: 'exec_command' };
const WORKER = '/nonexistent/snapshots/0000/runtime/bin/shell-worker';

type Rendered = { kind: 'command'; cmd: string; params: Record<string, unknown> } | { kind: 'diagnostic'; message: string };

describe('REQ-SHELL-001: the built-in shell tool (plugins/shell.mjs through the plugin host)', function () {
  this.timeout(30_000);
  let shell: Contribution;
  let dispose: () => void;
  let tmp: { dir: string; cleanup: () => void };
  let base: string;
  let calls = 0;

  before(async () => {
    tmp = tempDir('shell-tool');
    base = join(tmp.dir, 'base');
    mkdirSync(base, { mode: 0o700 });
    const storage = new ShellThreadStorage(base, WORKER);
    const loaded = await loadBuiltinShell(() => storage);
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    shell = loaded.contribution;
    dispose = loaded.dispose;
  });
  after(() => {
    dispose();
    tmp.cleanup();
  });

  /** The exact command (and params) the call becomes, or its diagnostic — as translateCall renders them. */
  async function render(input: string): Promise<Rendered> {
    const outcome = await shell.translate(input, { threadId: 'thread-1', callId: `call_${++calls}`, carriers: NATIVE });
    if (outcome.kind === 'diagnostic') return { kind: 'diagnostic', message: outcome.message };
    try {
      const carrier = renderCarrier(outcome.request, NATIVE);
      const { cmd, ...params } = JSON.parse((carrier as { arguments: string }).arguments) as { cmd: string };
      return { kind: 'command', cmd, params };
    } catch (e) {
      if (e instanceof CarrierInputError) return { kind: 'diagnostic', message: e.message };
      throw e;
    }
  }
  async function cmd(input: string): Promise<string> {
    const r = await render(input);
    if (r.kind !== 'command') throw new Error(`rejected: ${r.message}`);
    return r.cmd;
  }
  async function diagnostic(input: string): Promise<string> {
    const r = await render(input);
    if (r.kind !== 'diagnostic') throw new Error(`accepted as ${r.cmd}`);
    return r.message;
  }

  describe('the declaration (deliverable 1)', () => {
    it('is one unconstrained custom tool "shell" whose input limit is the executor argv limit', async () => {
      const spec = shell.toolSpec({ shape: 'native', execParamsShape: null });
      expect(spec).to.include({ type: 'custom', name: 'shell' });
      expect(spec).to.not.have.property('format');
      expect(shell.source).to.deep.equal({ kind: 'builtin' });
      const over = 'x'.repeat(131072);
      expect(await diagnostic(over)).to.match(/at most 131071/);
    });
  });

  describe('acceptance 1–3: shebang selector normalization', () => {
    const cases: Array<[string, string]> = [
      ['#!/usr/bin/env python3\nprint(1)\n', "shell python3 $'print(1)\\n'"],
      ['#!python3\nprint(1)\n', "shell python3 $'print(1)\\n'"],
      ['#! python3\nprint(1)\n', "shell python3 $'print(1)\\n'"],
      ['  #!python3 \t\nprint(1)\n', "shell python3 $'print(1)\\n'"],
      ['#!/opt/python/bin/python3\nprint(1)\n', "shell /opt/python/bin/python3 $'print(1)\\n'"],
      ['#!/usr/bin/env -S python3 -u\nprint(1)\n', "shell python3 -u $'print(1)\\n'"],
      ['#!env node\nconsole.log(1)\n', "shell node $'console.log(1)\\n'"],
      ['#!/usr/bin/bash\necho hi\n', "shell /usr/bin/bash $'echo hi\\n'"],
      ['#!sh\necho hi\n', "shell sh $'echo hi\\n'"],
      ['#!BASH.EXE\necho hi\n', "shell BASH.EXE $'echo hi\\n'"],
    ];
    for (const [input, want] of cases) it(`${JSON.stringify(input)} → ${want}`, async () => expect(await cmd(input)).to.equal(want));

    it('the visible command is one physical line with the body\'s line terminators escaped (acceptance 1)', async () => {
      const c = await cmd('#!/usr/bin/env python3\nimport os\n\nprint(os.getcwd())\r\n');
      expect(c).to.not.match(/[\r\n]/);
      expect(c).to.equal("shell python3 $'import os\\n\\nprint(os.getcwd())\\r\\n'");
    });
  });

  describe('acceptance 8: the exact body', () => {
    const bodies = [
      ['\n\n  leading blank lines and indentation\n', 'leading blank lines'],
      ['trailing blanks   \n\n\n', 'trailing blank lines'],
      ['no final newline', 'missing final newline'],
      ['a\r\nb\r\n', 'CRLF lines'],
      ['def f():\n    if True:\n\treturn 1\n', 'Python indentation with spaces and a tab'],
      ['', 'empty body'],
    ];
    for (const [body, label] of bodies) {
      it(`${label}: every byte after the shebang line is the final argv value`, async () => {
        const c = await cmd(`#!python3\n${body}`);
        expect(argvOf(c)).to.deep.equal(['python3', body]);
      });
    }
    it('a CRLF shebang line takes its complete terminator with it', async () => {
      expect(argvOf(await cmd('#!python3\r\nprint(1)\r\n'))).to.deep.equal(['python3', 'print(1)\r\n']);
    });
    it('without a shebang the whole input is the body (implicit bash)', async () => {
      const input = '  x=1\n  echo "$x"\n';
      expect(argvOf(await cmd(input))).to.deep.equal(['bash', input]);
    });
    it('directive-like lines after the first body line stay body (acceptance 6)', async () => {
      const input = '#!python3\nprint(1)\n#!cmd=curl x | {.}\n#!params={"tty":true}\n';
      expect(argvOf(await cmd(input))).to.deep.equal(['python3', 'print(1)\n#!cmd=curl x | {.}\n#!params={"tty":true}\n']);
    });
  });

  describe('acceptance 4–6, 12: the leading directive block', () => {
    it('#!cmd= without a shebang splices the quoted Bash helper into {.} (acceptance 4)', async () => {
      expect(await cmd('#!cmd=curl -fsSL http://127.0.0.1:9/x | {.} | jq .\nread -r a; echo "$a"\n'))
        .to.equal(`curl -fsSL http://127.0.0.1:9/x | shell bash $'read -r a; echo "$a"\\n' | jq .`);
    });
    it('#!python3 before #!cmd= splices the Python helper (acceptance 5)', async () => {
      expect(await cmd('#!python3\n#!cmd=cat data | {.}\nimport sys\n')).to.equal("cat data | shell python3 $'import sys\\n'");
    });
    for (const [input, re] of [
      ['#!cmd=curl x | jq\nbody\n', /exactly one \{\.\} placeholder \(found 0\)/],
      ['#!cmd=\nbody\n', /#!cmd= is empty/],
      ['#!cmd={.} | {.}\nbody\n', /found 2/],
      ['#!cmd=a {.}\n#!cmd=b {.}\nbody\n', /duplicate #!cmd=/],
    ] as const) {
      it(`rejects ${JSON.stringify(input)} (acceptance 6)`, async () => expect(await diagnostic(input)).to.match(re));
    }
    it('#!params= before or after #!cmd= gives the same carrier with those fields beside cmd (acceptance 12)', async () => {
      const a = await render('#!params={"workdir":"/tmp","tty":true}\n#!cmd=cat x | {.}\nbody\n');
      const b = await render('#!cmd=cat x | {.}\n#!params={"workdir":"/tmp","tty":true}\nbody\n');
      expect(a).to.deep.equal(b);
      expect(a).to.deep.equal({ kind: 'command', cmd: "cat x | shell bash $'body\\n'", params: { workdir: '/tmp', tty: true } });
    });
    it('tolerated spellings #!params JSON and # !params JSON normalize to the same carrier (acceptance 12)', async () => {
      const canonical = await render('#!python3\n#!params={"yield_time_ms":500}\nprint(1)\n');
      expect(await render('#!python3\n#!params {"yield_time_ms":500}\nprint(1)\n')).to.deep.equal(canonical);
      expect(await render('#!python3\n# !params {"yield_time_ms":500}\nprint(1)\n')).to.deep.equal(canonical);
      expect(canonical).to.deep.include({ params: { yield_time_ms: 500 } });
    });
    for (const [input, re] of [
      ['#!params={"cmd":"x"}\nbody', /cannot contain "cmd"/],
      ['#!params={"login":true}\nbody', /"login" must be false/],
      ['#!params={"login":"false"}\nbody', /"login" must be false/],
      ['#!params={nope}\nbody', /not valid JSON/],
      ['#!params=[1]\nbody', /must be a JSON object/],
      ['#!params={}\n#!params={}\nbody', /duplicate #!params=/],
      ['#!python3\n#!frob=1\nbody', /unsupported leading directive #!frob=/],
    ] as const) {
      it(`rejects ${JSON.stringify(input)} (acceptance 12)`, async () => expect(await diagnostic(input)).to.match(re));
    }
    it('login:false is accepted and passed through', async () => {
      expect(await render('#!params={"login":false}\nls | wc -l\n')).to.deep.include({ params: { login: false } });
    });
  });

  describe('acceptance 7: direct carrier vs helper, through the tool', () => {
    it("rtk shadowtree test . -run='^$' with one final newline is the direct command, without shell bash", async () => {
      expect(await cmd("rtk shadowtree test . -run='^$'\n")).to.equal("rtk shadowtree test . -run='^$'");
    });
    it('an explicit #!bash shebang or a directive keeps the helper even for a simple command', async () => {
      expect(await cmd('#!bash\nls -l\n')).to.equal("shell bash $'ls -l\\n'");
      expect(await cmd('#!/usr/bin/bash\nls -l')).to.equal("shell /usr/bin/bash 'ls -l'");
      expect(await cmd('#!params={"tty":true}\nls -l\n')).to.equal("shell bash $'ls -l\\n'");
    });
    it('builtins, private commands, substitutions and composed statements keep the helper', async () => {
      for (const body of ['echo hi\n', 'hread a.txt\n', 'ls $(pwd)\n', 'ls | wc -l\n', 'ls )\n']) {
        expect(await cmd(body), body).to.match(/^shell bash /);
      }
    });
    it('a worker carrier binds the thread\'s .runtime link to this router\'s shell wrapper', async () => {
      await cmd('echo bind\n');
      const link = join(base, 'hpatch-thread-1', '.runtime');
      expect(lstatSync(link).isSymbolicLink()).to.equal(true);
      expect(readlinkSync(link)).to.equal(WORKER);
    });
  });

  describe('storage problems', () => {
    it('a thread directory that cannot be used is a diagnostic for a worker carrier, and nothing is retained', async () => {
      symlinkSync(tmp.dir, join(base, 'hpatch-thread-bad'));
      const outcome = await shell.translate('ls | wc -l\n', { threadId: 'thread-bad', callId: 'call_bad_storage', carriers: NATIVE });
      expect(outcome.kind).to.equal('diagnostic');
      expect((outcome as { message: string }).message).to.match(/cannot prepare this thread's shell runtime: .*not a directory/);
      expect(existsSync(join(tmp.dir, 'scripts'))).to.equal(false);
      // A direct carrier needs no runtime: it still runs (and is simply not retained).
      const direct = await shell.translate('ls -l\n', { threadId: 'thread-bad', callId: 'call_bad_direct', carriers: NATIVE });
      expect(direct).to.deep.include({ kind: 'carrier', notes: ['retained: false'] });
    });
  });

  describe('acceptance 10: bounded diagnostics before any interpreter', () => {
    for (const [input, re] of [
      ['#!\nbody', /empty interpreter selector/],
      ['#!   \nbody', /empty interpreter selector/],
      ['#!/usr/bin/env\nbody', /env without an executable/],
      ['#!env -S\nbody', /env without an executable/],
      ['echo a\0b', /NUL/],
      [`#!python3 ${Array.from({ length: 70 }, (_, i) => `-X${i}`).join(' ')}\nbody`, /too many interpreter fields/],
    ] as const) {
      it(`rejects ${JSON.stringify(input.slice(0, 40))}`, async () => {
        const m = await diagnostic(input);
        expect(m).to.match(re);
        expect(m.length).to.be.below(300);
      });
    }
    it('a body whose quoted command would not fit one argv string is a diagnostic, not a routing failure', async () => {
      // 70 000 newlines quote to 140 000 bytes: the input fits the limit, its carrier does not.
      const outcome = await shell.translate(`#!python3\n${'\n'.repeat(70_000)}`, { threadId: 'thread-1', callId: 'call_toolong', carriers: NATIVE });
      expect(outcome).to.deep.include({ kind: 'diagnostic' });
      expect((outcome as { message: string }).message).to.match(/over the 131071-byte limit/);
      // Nothing was retained for it: the verdict comes before anything is written.
      expect(existsSync(join(base, 'hpatch-thread-1', 'scripts', 'call_toolong'))).to.equal(false);
    });
    it('diagnostics render as a failed command with the message on stderr', () => {
      const c = renderDiagnosticCarrier('shell: #!cmd= is empty', NATIVE) as { arguments: string };
      const r = spawnSync('bash', ['-c', (JSON.parse(c.arguments) as { cmd: string }).cmd], { encoding: 'utf8' });
      expect(r.status).to.equal(2);
      expect(r.stderr).to.equal('shell: #!cmd= is empty\n');
    });
  });

  describe('acceptance 13: the Code Mode description gets the sanitized #!params shape', () => {
    it('appends the request\'s shape in Code Mode; native and shapeless owners keep the base description', () => {
      const baseSpec = shell.toolSpec({ shape: 'native', execParamsShape: null });
      expect(shell.toolSpec({ shape: 'native', execParamsShape: '{ workdir?: string }' })).to.equal(baseSpec);
      expect(shell.toolSpec({ shape: 'code_mode', execParamsShape: null })).to.equal(baseSpec);
      const cm = shell.toolSpec({ shape: 'code_mode', execParamsShape: '{ workdir?: string; tty?: boolean }' });
      expect(cm.description!.startsWith(baseSpec.description!)).to.equal(true);
      expect(cm.description).to.contain('#!params').and.to.contain('{ workdir?: string; tty?: boolean }');
      expect(cm.description).to.not.contain('tools.exec_command');
      expect(shell.toolSpec({ shape: 'code_mode', execParamsShape: '{ workdir?: string; tty?: boolean }' })).to.equal(cm);
    });
  });

  describe('quoting round trips through real bash', () => {
    const ALPHABET = ['a', 'Z', '0', ' ', '\t', '\n', '\r', "'", '"', '\\', '$', '`', '!', '*', '?', '[', ']', '{', '}', '~', '#', ';', '&', '|', '<', '>', '(', ')', '%', 'é', '€', '😀', '\x01', '\x1b', '\x7f', '{.}'];
    it('400 random bodies reach the helper argv byte for byte (quotes, $, backslashes, newlines, non-ASCII, controls)', async () => {
      const rnd = seededRandom(14);
      const inputs: Array<{ input: string; argv: string[] }> = [];
      for (let i = 0; i < 400; i++) {
        let body = '';
        const n = Math.floor(rnd() * 40);
        for (let k = 0; k < n; k++) body += ALPHABET[Math.floor(rnd() * ALPHABET.length)];
        inputs.push({ input: `#!python3 -u\n${body}`, argv: ['python3', '-u', body] });
      }
      // One bash process checks them all: `shell` prints its argv NUL-separated, one record per call.
      const lines: string[] = [];
      for (const t of inputs) lines.push(await cmd(t.input), 'printf "\\36"');
      const r = spawnSync('bash', ['-c', `shell() { printf '%s\\0' "$@"; }\n${lines.join('\n')}`], { maxBuffer: 1 << 24 });
      expect(r.status, r.stderr.toString()).to.equal(0);
      const records = r.stdout.toString('utf8').split('\x1e').slice(0, -1);
      expect(records).to.have.length(inputs.length);
      records.forEach((rec, i) => expect(rec.split('\0').slice(0, -1), JSON.stringify(inputs[i]!.input)).to.deep.equal(inputs[i]!.argv));
    });
    it('NUL is rejected with a diagnostic, never carried', async () => {
      expect(await diagnostic('#!python3\nprint("\0")')).to.match(/NUL/);
    });
  });
});

/** The helper argv of a `shell …` command, as real bash parses it. */
function argvOf(command: string): string[] {
  const r = spawnSync('bash', ['-c', `shell() { printf '%s\\0' "$@"; }\n${command}`]);
  if (r.status !== 0) throw new Error(r.stderr.toString());
  return r.stdout.toString('utf8').split('\0').slice(0, -1);
}
