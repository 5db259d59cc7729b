// The `interp` command line: parse errors, --posix, -c NAME ARGS, FILE ARGS, stdio inheritance.
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

const entry = path.resolve('host/interp/launch/main.ts');
function interp(args: string[], input = ''): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', entry, ...args], { input, encoding: 'utf8', timeout: 20000 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

describe('interp CLI', function () {
  this.timeout(30000);
  it('runs -c with $0 and positional parameters', () => {
    const r = interp(['-c', 'echo "$0|$1|$2|$#"', 'myname', 'a', 'b c']);
    expect(r.stdout).to.equal('myname|a|b c|2\n');
    expect(r.status).to.equal(0);
  });
  it('returns the script status', () => {
    expect(interp(['-c', 'exit 42']).status).to.equal(42);
  });
  it('reads as bash does: the commands before a syntax error run, then bash\'s message and status 2', () => {
    const r = interp(['-c', 'echo first\nif true; then echo x']);
    expect(r.status).to.equal(2);
    expect(r.stdout).to.equal('first\n');
    expect(r.stderr).to.equal('bash: -c: line 3: syntax error: unexpected end of file\n');
  });
  it('Bash-only syntax under --posix is a syntax error at that command, after the commands before it ran', () => {
    const r = interp(['--posix', '-c', 'echo ok; a=(1 2)']);
    expect(r.status).to.equal(2);
    expect(r.stdout).to.equal('');
    // (as sh words it; the line with the error is one command list, so nothing of it ran)
    expect(r.stderr).to.equal('bash: 1: Syntax error: "(" unexpected\n');
    const r2 = interp(['--posix', '-c', 'echo ${x//a/b}']);
    expect([r2.status, r2.stderr]).to.deep.equal([2, 'bash: 1: Bad substitution\n']);
    const r4 = interp(['--posix', '-c', 'echo before\na=(1 2)\necho after']);
    expect([r4.stdout, r4.stderr, r4.status]).to.deep.equal(['before\n', 'bash: 2: Syntax error: "(" unexpected\n', 2]);
    const r3 = interp(['--posix', '-c', '[[ -n x ]] && echo yes']);
    expect([r3.stdout, r3.status]).to.deep.equal(['yes\n', 0]); // `bash --posix` parses `[[` too
  });
  it('accepts POSIX scripts under --posix', () => {
    const r = interp(['--posix', '-c', 'x=1; [ "$x" = 1 ] && echo posix-ok']);
    expect(r.stdout).to.equal('posix-ok\n');
  });
  it('runs a FILE with arguments', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'interp-cli-'));
    const f = path.join(dir, 's.sh');
    fs.writeFileSync(f, 'echo "$0 $1"\nexit 3\n');
    const r = interp([f, 'arg']);
    expect(r.stdout).to.equal(`${f} arg\n`);
    expect(r.status).to.equal(3);
    const e = interp([path.join(dir, 'missing.sh')]);
    expect(e.status).to.equal(127);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  it('inherits stdin for builtins and external commands', () => {
    const r = interp(['-c', 'read first; cat'], 'one\ntwo\nthree\n');
    expect(r.stdout).to.equal('two\nthree\n');
  });
  it('applies -e/-u options from the command line', () => {
    const r = interp(['-e', '-c', 'false; echo no']);
    expect(r.status).to.equal(1);
    expect(r.stdout).to.equal('');
  });
  it('runs the trap of a signal the script sends to itself before the next command', () => {
    const r = interp(['-c', "trap 'echo caught TERM $?' TERM; false; kill $$; echo after $?\ntrap '' USR1; kill -USR1 $$; echo ignored\n"]);
    expect(r.stdout).to.equal('caught TERM 0\nafter 0\nignored\n');
    expect(r.status).to.equal(0);
  });
  it('gives FILE scripts bash\'s call stack (main frame, BASH_SOURCE, caller)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'interp-cli-'));
    const file = path.join(dir, 's.sh');
    fs.writeFileSync(file, 'f(){ echo "${BASH_SOURCE[*]##*/}|${BASH_LINENO[*]}|${FUNCNAME[*]}"; caller 0 | sed "s|$D/||"; caller 1; echo $?; }\ng(){ f; }\ng\necho "${#BASH_SOURCE[@]} ${#FUNCNAME[@]} ${BASH_LINENO[*]}"\ncaller\n');
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', entry, file], { encoding: 'utf8', timeout: 20000, env: { ...process.env, D: dir } });
      const b = spawnSync('bash', [file], { encoding: 'utf8', env: { ...process.env, D: dir } });
      expect(r.stdout).to.equal(b.stdout);
      expect(r.stdout).to.contain('s.sh s.sh s.sh|2 3 0|f g main\n');
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });
  it('takes bash\'s invocation options like bash does (-O/+O, -i, -l, -s, -, -r/--restricted, -H, SHELLOPTS from the environment)', function () {
    this.timeout(90000); // ~40 interpreter and bash processes: slow on a loaded machine
    const cases: [string[], string][] = [
      [['-O', 'nullglob', '-c', 'echo a *.none b; shopt -p nullglob'], ''],
      [['+O', 'globskipdots', '-c', 'shopt -p globskipdots'], ''],
      [['--rcfile', '/dev/null', '-i', '-c', 'echo $-; test -o emacs && echo emacs; shopt -p expand_aliases'], ''],
      [['-l', '-c', 'shopt -p login_shell'], ''],
      [['-c', 'echo "$0 $1"', '-', 'x'], ''],
      [['-s', 'p1', 'p2'], 'echo "$# $1 $2"\n'],
      [['-'], 'echo "from stdin $#"\n'],
      [['-O', 'bogus_opt', '-c', 'echo no'], ''],
      [['-oo', 'errexit', 'noglob', '-c', 'echo $-'], ''],
      [['-eo', 'pipefail', '-c', 'false | true; echo no'], ''],
      [['-o', 'bogus_opt', '-c', 'echo no'], ''],
    ];
    for (const [args, input] of cases) {
      const r = interp(args, input);
      const b = spawnSync('bash', args, { input, encoding: 'utf8', env: { ...process.env, HOME: '/nonexistent' } });
      expect(r.stdout, args.join(' ')).to.equal(b.stdout);
      expect(r.status, args.join(' ')).to.equal(b.status);
    }
    const env = { ...process.env, SHELLOPTS: 'xtrace' };
    // restricted mode and history expansion from the command line (stdout, stderr and status as bash's)
    for (const args of [
      ['-r', '-c', 'echo $-; shopt -p restricted_shell; declare -p ENV; cd /; echo "cd=$?"; echo x > f; echo "redir=$?"\n'],
      ['--restricted', '-c', 'set +r; echo "st=$? $-"\n'],
      ['-H', '-c', 'set -o history; echo $-\necho a\n!!\n!nope\necho "st=$?"\n'],
      ['-o', 'history', '-c', 'set -o | grep -w history; echo a\nhistory; echo "HISTCMD=$HISTCMD"\n'],
      ['+H', '-c', 'echo $-\n'],
    ]) {
      const r = interp(args);
      const b = spawnSync('bash', args, { encoding: 'utf8', env: { ...process.env, HOME: '/nonexistent' } });
      expect([r.stdout, r.stderr, r.status], args.join(' ')).to.deep.equal([b.stdout, b.stderr, b.status]);
    }
    const r = spawnSync(process.execPath, ['--import', 'tsx', entry, '-c', 'echo $-; declare -p SHELLOPTS'], { encoding: 'utf8', env });
    expect(r.stdout).to.equal('hxBc\ndeclare -rx SHELLOPTS="braceexpand:hashall:interactive-comments:xtrace"\n');
    // (a restricted shell does not parse SHELLOPTS or BASHOPTS from the environment)
    const renv = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/nonexistent', SHELLOPTS: 'xtrace', BASHOPTS: 'dotglob' };
    const rargs = ['-r', '-c', 'echo $-; shopt -p dotglob; declare -p SHELLOPTS'];
    const ri = spawnSync(process.execPath, ['--import', 'tsx', entry, ...rargs], { encoding: 'utf8', env: renv });
    const rb = spawnSync('bash', rargs, { encoding: 'utf8', env: renv });
    expect([ri.stdout, ri.stderr, ri.status]).to.deep.equal([rb.stdout, rb.stderr, rb.status]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'interp-cli-'));
    try {
      fs.writeFileSync(path.join(dir, 'bin.sh'), 'echo one \0 two\n');
      const e = interp([path.join(dir, 'bin.sh')]);
      expect(e.status).to.equal(126);
      expect(e.stderr).to.contain('cannot execute binary file');
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });
});
