// REQ-SHELL-001 acceptance 16: one warning per distinct interpreter-wrapper or heredoc kind in a
// shell body, recovered Code Mode JavaScript warned about first; the carrier itself never changes.
import { expect } from 'chai';
import { recoverCodeModeCommand, RECOVERY_WARNING } from '../../host/shell/code-mode-recovery.ts';
import { shellWarnings } from '../../host/shell/warnings.ts';

const kinds = (body: string, posix = false): string[] => shellWarnings(body, posix).map((w) => /`([^`]+)`/.exec(w)![1]!);

describe('REQ-SHELL-001 acceptance 16: warnings for wrapped scripts', () => {
  it('names every distinct wrapper kind once, in order, not stopping after the first', () => {
    const body = [
      "python3 -c 'print(1)'",
      "python3 -c 'print(2)'",
      "node -e 'console.log(1)' | perl -ne 'print if /1/'",
      "for f in *.txt; do bash -c 'wc -l \"$1\"' _ \"$f\"; done",
      "sh -ec 'true'",
      "ruby -e 'p 1'; php -r 'echo 1;'",
    ].join('\n');
    expect(kinds(body)).to.deep.equal(['python3 -c', 'node -e', 'perl -ne', 'bash -c', 'sh -ec', 'ruby -e', 'php -r']);
  });
  it('finds wrappers inside functions, subshells, substitutions and through env', () => {
    expect(kinds('f() { x=$(python3 -c "print(1)"); }\n( /usr/bin/env node --eval 1 )\n')).to.deep.equal(['python3 -c', 'node --eval']);
  });
  it('heredocs into interpreters are their own kinds; a heredoc into another program is not a wrapped script', () => {
    const body = "python3 <<'EOF'\nprint(1)\nEOF\nbash <<-X\n\techo\n\tX\ncat <<EOF\nplain text\nEOF\npsql <<SQL\nselect 1;\nSQL\n";
    expect(kinds(body)).to.deep.equal(['python3', 'bash']);
    expect(shellWarnings(body, false)[0]).to.match(/^warning: a heredoc into `python3` wraps a script.*#!python3/);
  });
  it('each warning says how to write it with a shebang instead', () => {
    expect(shellWarnings("python3 -c 'print(1)'", false)).to.deep.equal([
      'warning: `python3 -c` wraps a script in a quoted string. Give the script to shell directly instead: first line `#!python3`, the code unquoted below it.',
    ]);
  });
  it('options after the script or module are not wrappers; ordinary commands draw nothing', () => {
    expect(kinds('python3 -m pytest -c setup.cfg\npython3 script.py -c x\nls -la | grep -c foo\nnode app.js -e\n')).to.deep.equal([]);
  });
  it('POSIX bodies are checked with the POSIX parser', () => {
    expect(kinds("sh -c 'echo hi'\n", true)).to.deep.equal(['sh -c']);
  });
  it('a body that does not parse draws no warning (and no error)', () => {
    expect(shellWarnings("python3 -c 'unterminated", false)).to.deep.equal([]);
  });
});

describe('REQ-SHELL-001 acceptance 16: Code Mode JavaScript submitted as shell input', () => {
  it('recovers the command of one tools.exec_command call, with its other fields as parameters', () => {
    expect(recoverCodeModeCommand('const r = await tools.exec_command({cmd: "ls -la", workdir: \'/tmp\', yield_time_ms: 500});\ntext(r);\n'))
      .to.deep.equal({ cmd: 'ls -la', params: { workdir: '/tmp', yield_time_ms: 500 } });
    expect(recoverCodeModeCommand('await tools.exec_command({"cmd":"echo \\"hi\\"\\nexit 3"})')).to.deep.equal({ cmd: 'echo "hi"\nexit 3', params: {} });
    expect(recoverCodeModeCommand("let out = await tools.exec_command({ cmd: `python3 -c 'print(1)'`, });\nconsole.log(out.output);\nreturn out;"))
      .to.deep.equal({ cmd: "python3 -c 'print(1)'", params: {} });
  });
  it('leaves anything else alone: other statements, interpolation, computed values, login other than false', () => {
    for (const input of [
      'const r = await tools.exec_command({cmd: "ls"});\nawait tools.exec_command({cmd: "pwd"});',
      'const r = await tools.exec_command({cmd: `ls ${dir}`});',
      'const r = await tools.exec_command({cmd: base + "ls"});',
      'const r = await tools.exec_command({cmd: "ls", login: true});',
      'const r = await tools.exec_command({workdir: "/tmp"});',
      'echo await tools.exec_command',
      'ls -la',
    ]) expect(recoverCodeModeCommand(input), input).to.equal(null);
  });
  it('the recovery warning is a warning line the operator log picks up', () => {
    expect(RECOVERY_WARNING.startsWith('warning: ')).to.equal(true);
  });
});
