// REQ-SHELL-001 acceptance 7, the direct-carrier rule: a table of bodies, each judged against the
// rule's text (implicit Bash without directives; at most one final line terminator; one
// non-background, non-negated simple call; a static command that is neither a builtin nor a private
// command; no command or process substitution). Every decision comes from the worker's own parser.
import { expect } from 'chai';
import { decideDirect } from '../../host/shell/direct-carrier.ts';

/** [body, direct?, why] — `why` names the clause of the rule the body tests. */
const TABLE: ReadonlyArray<readonly [string, boolean, string]> = [
  ["rtk shadowtree test . -run='^$'", true, 'the acceptance example'],
  ["rtk shadowtree test . -run='^$'\n", true, 'one final LF'],
  ['head -n 5 notes.txt\r\n', true, 'one final CRLF'],
  ['ls -la', true, 'plain external command'],
  ['git status --short', true, 'subcommand and option'],
  ['grep -rn foo src', true, 'arguments'],
  ['rg -n "foo bar" src/', true, 'double-quoted argument'],
  ['npm test', true, 'npm'],
  ['make -j4 build', true, 'make'],
  ['LC_ALL=C sort file.txt', true, 'prefix assignment'],
  ['python3 script.py --flag', true, 'a script file'],
  ['cargo test -- --nocapture', true, 'double dash'],
  ["go test ./... -run 'TestX$'", true, 'single-quoted dollar'],
  ['ls $HOME', true, 'parameter expansion in an argument'],
  ['cat "$FILE"', true, 'quoted parameter expansion'],
  ['grep foo file > out.txt', true, 'output redirection'],
  ['wc -l < input.txt', true, 'input redirection'],
  ['diff a b 2>&1', true, 'descriptor duplication'],
  ['/usr/bin/env', true, 'absolute path'],
  ['./run.sh arg', true, 'relative path'],
  ["'ls' -l", true, 'single-quoted static command'],
  ['"git" log', true, 'double-quoted static command'],
  ["find . -name '*.ts'", true, 'quoted glob argument'],
  ['ls *.ts', true, 'glob in an argument'],
  ['curl -fsSL http://127.0.0.1:8080/x -o out', true, 'URL argument'],
  ['git commit -m "msg with spaces"', true, 'message argument'],
  ['tar -czf a.tgz dir', true, 'tar'],
  ["sed -n '1,5p' file", true, 'sed script'],
  ['echo2 hi', true, 'a command named like a builtin, but not one'],
  ['ls # list', true, 'trailing comment'],
  ['ls $((1 + 2))', true, 'arithmetic expansion is no substitution'],
  ['  ls -l  ', true, 'surrounding blanks'],
  ['echo hi', false, 'echo is a builtin'],
  ['cd /tmp', false, 'cd is a builtin'],
  ['export A=1', false, 'export is a builtin'],
  ['printf %s x', false, 'printf is a builtin'],
  ['test -f x', false, 'test is a builtin'],
  ['command ls', false, 'command is a builtin'],
  ['exec ls', false, 'exec is a builtin'],
  ['source env.sh', false, 'source is a builtin'],
  ['. env.sh', false, '. is a builtin'],
  ['hread notes.txt', false, 'hread is a private command'],
  ['hgrep foo src', false, 'hgrep is a private command'],
  ['inspect_file a.go', false, 'inspect_file is a private command'],
  ['shell python3 x', false, 'the helper itself is reserved'],
  ['ls | wc -l', false, 'pipeline: composed'],
  ['ls && echo ok', false, 'and-list: composed'],
  ['ls; pwd', false, 'two statements'],
  ['sleep 10 &', false, 'background'],
  ['! grep foo file', false, 'negated'],
  ['ls $(pwd)', false, 'command substitution'],
  ['ls `pwd`', false, 'backquote substitution'],
  ['diff <(ls a) <(ls b)', false, 'process substitution'],
  ['ls > "$(mktemp)"', false, 'substitution in a redirection'],
  ['X=$(date) make', false, 'substitution in an assignment'],
  ['A=1', false, 'only an assignment'],
  ['for i in 1 2; do ls; done', false, 'a loop'],
  ['if true; then ls; fi', false, 'an if clause'],
  ['{ ls; }', false, 'a block'],
  ['(ls)', false, 'a subshell'],
  ['[[ -f x ]]', false, 'a test clause'],
  ['time ls', false, 'a time clause'],
  ['f() { ls; }', false, 'a function definition'],
  ['coproc ls', false, 'a coprocess'],
  ['$CMD arg', false, 'command name from a parameter'],
  ['~/bin/tool', false, 'command name with a tilde'],
  ['*.sh', false, 'command name with a glob'],
  ['ls\nls', false, 'two lines'],
  ['ls\n\n', false, 'two final terminators'],
  ['ls \\\n-la', false, 'a continuation line'],
  ['cat <<EOF\nx\nEOF\n', false, 'a here-document'],
  ["ls 'unterminated", false, 'malformed syntax'],
  ['ls )', false, 'malformed syntax'],
  ['', false, 'empty'],
  ['# only a comment', false, 'no command'],
];

describe('REQ-SHELL-001 acceptance 7: direct vs helper carrier', () => {
  it(`the table has at least 60 bodies (${TABLE.length})`, () => expect(TABLE.length).to.be.at.least(60));
  for (const [body, direct, why] of TABLE) {
    it(`${JSON.stringify(body)} → ${direct ? 'direct' : 'helper'} (${why})`, () => {
      const d = decideDirect(body);
      expect(d.direct, d.direct ? 'direct' : d.reason).to.equal(direct);
      if (d.direct) expect(d.command).to.equal(body.replace(/\r?\n$/, ''));
    });
  }
});
