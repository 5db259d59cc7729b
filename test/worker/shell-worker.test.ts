// The executor side of a shell call, started as the locator starts it: the snapshot's wrapper
// (bin/shell-worker) with `INTERPRETER [ARG...] BODY`. REQ-SHELL-001 acceptance 3, 7 and 9 — Bash
// and sh in the in-process interpreter (host/worker/shell-worker.ts, from the startup snapshot or
// its code-cached bundle), other interpreters exec'd in place reading the exact body from an
// anonymous pipe on /dev/fd/3, stdin free, the environment unchanged, the status (or the signal)
// the script ended with, no script file and no echo of the body.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { interpreterIdentity } from '../../isolates/core-v1/interpreter.ts';
import { ODD_ENTRIES, ODD_ENV, RAW_ENTRY, entriesOf, withRawEntry } from '../support/odd-env.ts';
import { installShellWrapper } from '../support/shell-wrapper.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('REQ-SHELL-001: the shell worker', function () {
  this.timeout(30_000);
  let tmp: { dir: string; cleanup: () => void };
  let wrapper: string;

  before(() => {
    tmp = tempDir('shell-worker');
    wrapper = installShellWrapper(tmp.dir);
  });
  after(() => tmp.cleanup());

  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
    const e: NodeJS.ProcessEnv = { ...process.env };
    delete e['NODE_OPTIONS'];
    return { ...e, ...extra };
  };
  const run = (argv: string[], opts: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}) =>
    spawnSync(wrapper, argv, { input: opts.input ?? '', env: opts.env ?? env(), cwd: opts.cwd ?? tmp.dir, encoding: 'utf8' });

  it('starts from the interpreter\'s startup snapshot when its stamp matches this node', () => {
    const r = run(['bash', 'tr "\\0" " " </proc/$$/cmdline']);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/--snapshot-blob \S+\/interp\.blob -- --shell-worker bash /);
  });

  it('runs a Bash body in-process: $0 is the selector, middle fields are shell options, status as the script ends', () => {
    expect(run(['bash', 'echo "$0 ${BASH_VERSION%%.*}"; exit 7'])).to.include({ stdout: 'bash 5\n', status: 7 });
    expect(run(['/usr/bin/bash', '-e', 'false\necho not reached\n'])).to.include({ stdout: '', status: 1 });
    expect(run(['bash', '-o', 'pipefail', 'false | true; echo $?'])).to.include({ stdout: '1\n', status: 0 });
    expect(run(['bash', '-x', 'echo traced'])).to.include({ stdout: 'traced\n', stderr: '+ echo traced\n' });
    // A body that starts with "-" is still the body.
    expect(run(['bash', '-n\necho body\n'])).to.include({ stdout: 'body\n', status: 0 }).and.to.have.property('stderr').that.match(/-n: command not found/);
  });

  it('sh and /bin/sh select POSIX evaluation and reject Bash-only syntax at the command that uses it (acceptance 7; issue 16)', () => {
    for (const bashOnly of ['a=(1 2)', 'echo "${x//a/b}"', 'diff <(ls) <(ls)', 'function f { :; }']) {
      // The lines before it ran, as sh runs them; then the error, status 2.
      const r = run(['sh', `echo first\n${bashOnly}\n`]);
      expect([r.stdout, r.status], bashOnly).to.deep.equal(['first\n', 2]);
      expect(r.stderr, bashOnly).to.match(/^sh: (?:2: (?:Syntax error|Bad substitution)|-c: line 2: syntax error)/);
      expect(run(['/bin/sh', `echo first\n${bashOnly}\n`]).status).to.equal(2);
      expect(run(['bash', `echo first\n${bashOnly}\n`]).stdout, bashOnly).to.match(/^first\n/);
    }
    expect(run(['/bin/sh', 'x=1; echo "${x}"'])).to.include({ stdout: '1\n', status: 0 });
  });

  it('runs another interpreter with the middle fields as its arguments and the exact body on /dev/fd/3; stdin stays program data (acceptance 3, 9)', () => {
    const body = 'import sys, os\nprint(sys.argv, sys.flags.no_site)\nprint(repr(sys.stdin.read()))\nprint(os.readlink("/proc/self/fd/3").startswith("pipe:"))\n';
    const r = run(['python3', '-S', body], { input: 'data on stdin\n' });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.equal("['/dev/fd/3'] 1\n'data on stdin\\n'\nTrue\n");
  });

  it('keeps a large body exact (beyond a pipe buffer) and never echoes it', () => {
    const pad = `# ${'x'.repeat(100)}\n`.repeat(1200);
    const body = `${pad}print("end")\n`;
    expect(body.length).to.be.above(65536);
    const r = run(['python3', body]);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('end\n');
    expect(r.stderr).to.equal('');
  });

  it('node reads its script from the pipe too (--preserve-symlinks-main), and gets its own arguments', () => {
    const r = run(['node', '--no-warnings', 'console.log(process.argv.slice(1), process.execArgv)'], { env: env() });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/\[ '\/dev\/fd\/3' \] \[ '--no-warnings', '--preserve-symlinks-main' \]/);
  });

  it('decides in-process vs exec exactly as core/v1 interpreterIdentity does', () => {
    for (const exe of ['bash', 'BASH', 'Bash.EXE', '/usr/bin/bash', 'C:\\Git\\bin\\bash.exe', 'sh', 'SH.exe', '/bin/sh', 'dash', 'bashx', 'xsh', 'python3']) {
      const r = run([exe, 'tr "\\0" " " </proc/$$/cmdline']);
      const inProcess = r.stdout.includes('--shell-worker');
      expect(inProcess, `${exe}: ${r.stdout}${r.stderr}`).to.equal(interpreterIdentity(exe) !== 'external');
      if (!inProcess) expect(r.stdout, exe).to.not.match(/node/);
    }
  });

  it('an interpreter runs in place: same pid as the wrapper, no node, no leftover child', () => {
    const child = spawnSync(wrapper, ['python3', 'import os\nprint(os.getpid(), open(f"/proc/{os.getpid()}/cmdline").read().split("\\0")[:2])\ntry:\n    print(os.waitpid(-1, os.WNOHANG))\nexcept ChildProcessError:\n    print("no children")\n'], { env: env(), encoding: 'utf8' });
    expect(child.status, child.stderr).to.equal(0);
    const [pidLine, waitLine] = child.stdout.trim().split('\n');
    expect(pidLine).to.match(new RegExp(`^${child.pid} \\['\\S*python3[^']*', '/dev/fd/3'\\]$`));
    expect(waitLine).to.equal('no children');
  });

  it('an inherited descriptor 3 does not get in the way: the body is what /dev/fd/3 holds', () => {
    const r = spawnSync('bash', ['-c', `exec 3</etc/hostname; ${JSON.stringify(wrapper)} python3 'print("the body ran")'`], { env: env(), encoding: 'utf8' });
    expect([r.stdout, r.status], r.stderr).to.deep.equal(['the body ran\n', 0]);
  });

  it('passes the environment through unchanged: exported Bash functions and names that are not identifiers, to Bash children too', () => {
    const e = env({ 'BASH_FUNC_greet%%': '() {  echo hi\n}', 'odd-name': 'v' });
    expect(run(['python3', 'import os\nprint(os.environ["BASH_FUNC_greet%%"], os.environ["odd-name"])'], { env: e })).to.include({ stdout: '() {  echo hi\n} v\n', status: 0 });
    expect(run(['bash', 'bash -c greet; python3 -c \'import os; print(os.environ["odd-name"])\''], { env: e })).to.include({ stdout: 'hi\nv\n', status: 0 });
    // dotted, dashed and odd-byte names too, to the in-process interpreter's commands and a child bash
    const odd = env(ODD_ENV);
    const r = run(['bash', 'bash -c "f; printenv a.b x-y"; env -0'], { env: odd });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.slice(0, 7)).to.equal('hi\n1\n2\n');
    expect(entriesOf(r.stdout.slice(7))).to.include.members([...ODD_ENTRIES]);
    // an interpreter exec'd in place gets every byte, names and values that are not UTF-8 included
    const [file, args] = withRawEntry([wrapper, 'python3', 'import os, sys\nsys.stdout.buffer.write(b"\\0".join(k + b"=" + v for k, v in os.environb.items()))']);
    const p = spawnSync(file, args, { env: odd, cwd: tmp.dir, encoding: 'latin1' });
    expect(p.status, p.stderr).to.equal(0);
    expect(entriesOf(p.stdout)).to.include(RAW_ENTRY).and.include.members(ODD_ENTRIES.map((x) => Buffer.from(x).toString('latin1')));
  });

  it('hands an exec\'d interpreter the body byte for byte under PERL_UNICODE (Perl decoding its arguments)', () => {
    // (a body of characters below 256 only is the one Perl would have printed as Latin-1)
    for (const body of ['é à\n', 'é € \u{1F600} \xa0\n']) {
      for (const pu of ['A', 'SDA', '']) expect(run(['cat', body], { env: env({ PERL_UNICODE: pu }) }), pu).to.include({ stdout: body, stderr: '', status: 0 });
    }
  });

  it('inherits the working directory', () => {
    expect(run(['bash', 'pwd'], { cwd: '/' })).to.include({ stdout: '/\n' });
    expect(run(['python3', 'import os; print(os.getcwd())'], { cwd: '/' })).to.include({ stdout: '/\n' });
  });

  it('a missing interpreter is status 127; one killed by a signal ends the worker by that signal', () => {
    expect(run(['no-such-interpreter-xyz', 'x'])).to.include({ status: 127 }).and.to.have.property('stderr').that.match(/no-such-interpreter-xyz: command not found/);
    const r = run(['python3', 'import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n']);
    expect(r.signal).to.equal('SIGTERM');
  });

  // (That no script file exists is shown above: the interpreter's /dev/fd/3 is a pipe.)
  it('a SIGTERM to the worker reaches the interpreter, which ends the call with its own status', async () => {
    const child = spawn(wrapper, ['python3', 'import time, signal, sys\nsignal.signal(signal.SIGTERM, lambda *a: (print("got TERM", flush=True), sys.exit(3)))\nprint("ready", flush=True)\ntime.sleep(30)\n'], { env: env() });
    let out = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => { out += String(d); if (!sent && out.includes('ready')) { sent = true; child.kill('SIGTERM'); } });
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(out).to.contain('got TERM');
    expect(code).to.equal(3);
  });

  it('without the startup snapshot (NODE_OPTIONS set) it starts from the bundle and behaves the same', () => {
    const r = run(['bash', 'echo "$1-x"; tr "\\0" " " </proc/$$/cmdline'], { env: env({ NODE_OPTIONS: '--no-warnings' }) });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/interp-launch\.cjs --shell-worker bash /);
  });
});
