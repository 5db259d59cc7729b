import { expect } from 'chai';
import {
  interpreterIdentity,
  isSafeArtifactId,
  parseShebangSelector,
  parseShellInput,
  type ShellInput,
} from '../../../isolates/core-v1/index.ts';

type Script = Extract<ShellInput, { kind: 'script' }>;

function script(input: string, limits?: Parameters<typeof parseShellInput>[1]): Script {
  const r = parseShellInput(input, limits);
  if (!r.ok) expect.fail(`rejected ${JSON.stringify(input)}: ${r.error}`);
  if (r.kind !== 'script') expect.fail(`not a script: ${JSON.stringify(r)}`);
  return r;
}

function rejects(input: string, pattern: RegExp, limits?: Parameters<typeof parseShellInput>[1]): void {
  const r = parseShellInput(input, limits);
  expect(r.ok, `${JSON.stringify(input)} should reject`).to.equal(false);
  if (!r.ok) expect(r.error).to.match(pattern);
}

describe('core-v1 shell header (REQ-SHELL-001)', () => {
  describe('interpreterIdentity', () => {
    const table: [string, string][] = [
      ['bash', 'bash'], ['BASH', 'bash'], ['bash.exe', 'bash'], ['Bash.EXE', 'bash'], ['/usr/bin/bash', 'bash'],
      ['/bin/bash', 'bash'], ['C:\\Program Files\\Git\\bin\\bash.exe', 'bash'],
      ['sh', 'posix'], ['/bin/sh', 'posix'], ['SH.exe', 'posix'], ['C:\\msys\\sh.exe', 'posix'],
      ['python3', 'external'], ['/usr/bin/env', 'external'], ['zsh', 'external'], ['dash', 'external'], ['bash5', 'external'],
      ['/usr/bin/bash/', 'external'], ['', 'external'], ['bashx', 'external'], ['sh.exe.bak', 'external'],
    ];
    for (const [sel, id] of table) it(`${JSON.stringify(sel)} → ${id}`, () => expect(interpreterIdentity(sel)).to.equal(id));
  });

  describe('parseShebangSelector', () => {
    const ok: [string, string[]][] = [
      ['python3', ['python3']],
      ['  python3 \t', ['python3']],
      ['/usr/bin/env python3', ['python3']],
      ['env python3', ['python3']],
      ['/usr/bin/env -S python3 -u', ['python3', '-u']],
      ['/usr/bin/env\t-S\tpython3\t\t-u  -X dev', ['python3', '-u', '-X', 'dev']],
      ['/opt/python/bin/python3', ['/opt/python/bin/python3']],
      ['/bin/env python3', ['/bin/env', 'python3']], // only env and /usr/bin/env are unwrapped
      ['bash -e -o pipefail', ['bash', '-e', '-o', 'pipefail']],
    ];
    for (const [sel, fields] of ok) {
      it(`${JSON.stringify(sel)} → ${JSON.stringify(fields)}`, () => {
        const r = parseShebangSelector(sel);
        expect(r).to.deep.equal({ ok: true, fields, identity: interpreterIdentity(fields[0]!) });
      });
    }
    const bad: [string, RegExp][] = [
      ['', /empty/], [' \t ', /empty/], ['env', /env without/], ['/usr/bin/env -S', /env without/], ['env  ', /env without/],
      ['env -i python3', /unsupported env option/], ['env FOO=1 python3', /assignment/], ['py\0thon', /NUL/],
    ];
    for (const [sel, re] of bad) {
      it(`${JSON.stringify(sel)} rejects (${re.source})`, () => {
        const r = parseShebangSelector(sel);
        expect(r.ok).to.equal(false);
        if (!r.ok) expect(r.error).to.match(re);
      });
    }
  });

  it('REQ-SHELL-001 acceptance 1: #!/usr/bin/env python3 selects python3 with the exact body after the first line', () => {
    const r = script('#!/usr/bin/env python3\nimport sys\nprint(sys.argv)\n');
    expect(r.interpreter).to.deep.equal({ fields: ['python3'], identity: 'external', implicit: false });
    expect(r.body).to.equal('import sys\nprint(sys.argv)\n');
  });

  it('REQ-SHELL-001 acceptance 2: #!python3, #! python3 and #!/usr/bin/env python3 select python3; a direct path stays unchanged', () => {
    for (const line of ['#!python3', '#! python3', '#!/usr/bin/env python3', '  #!python3  ', '\t#!  python3\t', '#!env python3']) {
      expect(script(`${line}\nprint(1)\n`).interpreter.fields, line).to.deep.equal(['python3']);
    }
    expect(script('#!/opt/python/bin/python3\nprint(1)').interpreter).to.deep.equal({ fields: ['/opt/python/bin/python3'], identity: 'external', implicit: false });
  });

  it('REQ-SHELL-001 acceptance 3: #!/usr/bin/env -S python3 -u runs python3 with -u and the exact body', () => {
    const r = script('#!/usr/bin/env -S python3 -u\nprint(1)\n');
    expect(r.interpreter.fields).to.deep.equal(['python3', '-u']);
    expect(r.body).to.equal('print(1)\n');
  });

  it('REQ-SHELL-001 acceptance 4: #!cmd= without a shebang selects implicit Bash and keeps the remaining body exactly', () => {
    const r = script('#!cmd=curl -fsSL URL | {.} | jq\nread x\necho "$x"\n');
    expect(r.interpreter).to.deep.equal({ fields: ['bash'], identity: 'bash', implicit: true });
    expect(r.command).to.equal('curl -fsSL URL | {.} | jq');
    expect(r.body).to.equal('read x\necho "$x"\n');
    expect(r).not.to.have.property('params');
  });

  it('REQ-SHELL-001 acceptance 5: #!python3 before the command directive selects Python', () => {
    const r = script('#!python3\n#!cmd=curl -fsSL URL | {.} | jq\nimport sys\n');
    expect(r.interpreter).to.deep.equal({ fields: ['python3'], identity: 'external', implicit: false });
    expect(r.command).to.equal('curl -fsSL URL | {.} | jq');
    expect(r.body).to.equal('import sys\n');
  });

  it('REQ-SHELL-001 acceptance 6: a missing, empty or repeated {.} rejects; a later command directive is body text', () => {
    rejects('#!cmd=curl URL | jq\necho', /exactly one \{\.\}.*found 0/);
    rejects('#!cmd=\necho', /empty/);
    rejects('#!cmd=  \t \necho', /empty/);
    rejects('#!cmd={.} | {.}\necho', /exactly one \{\.\}.*found 2/);
    rejects('#!cmd={.}{.}\necho', /found 2/);
    const r = script('echo hi\n#!cmd=curl | {.}\n');
    expect(r.command).to.equal(undefined);
    expect(r.body).to.equal('echo hi\n#!cmd=curl | {.}\n');
    const p = script('#!python3\nx = 1\n#!cmd=a | {.}\n#!params={"cmd":1}\n#!foo=bar\n');
    expect(p.body).to.equal('x = 1\n#!cmd=a | {.}\n#!params={"cmd":1}\n#!foo=bar\n');
  });

  it('REQ-SHELL-001 acceptance 7: no shebang or directive selects Bash; bash and /usr/bin/bash share Bash identity, sh and /bin/sh POSIX', () => {
    expect(script("rtk shadowtree test . -run='^$'\n").interpreter).to.deep.equal({ fields: ['bash'], identity: 'bash', implicit: true });
    expect(script('#!bash\necho').interpreter.identity).to.equal('bash');
    expect(script('#!/usr/bin/bash\necho').interpreter).to.deep.equal({ fields: ['/usr/bin/bash'], identity: 'bash', implicit: false });
    expect(script('#!/usr/bin/env bash\necho').interpreter.identity).to.equal('bash');
    expect(script('#!sh\necho').interpreter.identity).to.equal('posix');
    expect(script('#!/bin/sh -e\necho').interpreter).to.deep.equal({ fields: ['/bin/sh', '-e'], identity: 'posix', implicit: false });
  });

  it('REQ-SHELL-001 acceptance 8: indentation and all leading/trailing body whitespace stay byte-exact after directive removal', () => {
    const body = '\n  \n    if True:\n\tprint("x")  \n\n\n  ';
    expect(script(`#!python3\n#!cmd=cat | {.}\n${body}`).body).to.equal(body);
    expect(script(`#!python3\r\n#!params={"tty":true}\r\n${body}`).body).to.equal(body);
    expect(script(body).body).to.equal(body);
    // Absent or present final terminator, exactly as given.
    expect(script('#!python3\nprint(1)').body).to.equal('print(1)');
    expect(script('#!python3\nprint(1)\r\n').body).to.equal('print(1)\r\n');
    // The shebang takes only its own LF; the following empty CRLF line is body.
    expect(script('#!python3\n\r\nx').body).to.equal('\r\nx');
  });

  it('REQ-SHELL-001 acceptance 10: malformed selectors and oversized argv reject with a concise diagnostic', () => {
    rejects('#!\necho', /empty interpreter selector/);
    rejects('#!   \t\necho', /empty interpreter selector/);
    rejects('#!/usr/bin/env\necho', /env without an executable/);
    rejects('#!env -S\necho', /env without an executable/);
    rejects('#!python3\nprint("\0")', /NUL/);
    rejects('#!py\0thon\n', /NUL/);
    rejects('echo \ud800', /lone surrogate/);
    rejects(`#!python3 ${Array.from({ length: 10 }, (_, i) => `-${i}`).join(' ')}\nx`, /too many/, { maxArgvValues: 8 });
    rejects('#!python3 -X abcdefghijk\nx', /exceeds 10 bytes/, { maxArgvValueBytes: 10 });
    rejects('#!python3\nxxxxxxxxxxx', /body exceeds 10 bytes/, { maxArgvValueBytes: 10 });
    rejects('é'.repeat(6), /body exceeds 10 bytes/, { maxArgvValueBytes: 10 }); // bytes, not UTF-16 units
    expect(script('#!python3\nxxxxxxxxxx', { maxArgvValueBytes: 10 }).body).to.have.length(10);
    expect(script('#!a b c\nx', { maxArgvValues: 4 }).interpreter.fields).to.deep.equal(['a', 'b', 'c']);
    rejects('#!a b c d\nx', /too many/, { maxArgvValues: 4 });
    const long = 'x'.repeat(5000);
    for (const input of ['#!\necho', '#!env -i sh\n', '#!cmd={.}{.}\n', `#!env -${long} sh\n`, `#!env A=${long} sh\n`, `#!python3\n#!/${long}\n`, `#!${long}=1\n`]) {
      const r = parseShellInput(input);
      expect(r.ok, input.slice(0, 30)).to.equal(false);
      if (!r.ok) expect(r.error.length).to.be.below(120);
    }
  });

  it('REQ-SHELL-001 acceptance 12: #!params= before or after #!cmd=, tolerated spellings normalize to the same params', () => {
    const expected = { workdir: '/tmp', tty: true };
    const variants = [
      '#!params={"workdir":"/tmp","tty":true}\n#!cmd=time {.}\necho\n',
      '#!cmd=time {.}\n#!params={"workdir":"/tmp","tty":true}\necho\n',
      '#!cmd=time {.}\n#!params {"workdir":"/tmp","tty":true}\necho\n',
      '#!cmd=time {.}\n# !params {"workdir":"/tmp","tty":true}\necho\n',
      '  #!cmd=time {.}  \n\t# !params   {"workdir":"/tmp","tty":true}\t\necho\n',
    ];
    for (const v of variants) {
      const r = script(v);
      expect(r.params, v).to.deep.equal(expected);
      expect(r.command, v).to.equal('time {.}');
      expect(r.body, v).to.equal('echo\n');
    }
    expect(script('#!params={"login":false}\necho').params).to.deep.equal({ login: false });
    rejects('#!params={"cmd":"ls"}\necho', /cannot contain "cmd"/);
    rejects('#!params {"cmd":"ls"}\necho', /cannot contain "cmd"/);
    rejects('#!params={"login":true}\necho', /login.*false/);
    rejects('#!params={"login":"false"}\necho', /login.*false/);
    rejects('#!params={"login":null}\necho', /login.*false/);
  });

  it('params: malformed and non-object JSON reject', () => {
    for (const v of ['{', '{"a":1,}', "{'a':1}", '', 'nope']) rejects(`#!params=${v}\necho`, /not valid JSON/);
    for (const v of ['[]', '[1]', 'null', '1', '"x"', 'true']) rejects(`#!params=${v}\necho`, /must be a JSON object/);
    rejects('# !params\necho', /not valid JSON/);
  });

  it('directives: duplicates and unsupported leading directives reject; a shebang must be first', () => {
    rejects('#!cmd=a {.}\n#!cmd=b {.}\n', /duplicate #!cmd=/);
    rejects('#!params={}\n# !params {}\n', /duplicate #!params=/);
    rejects('#!foo=bar\necho', /unsupported leading directive #!foo=/);
    rejects('#!python3\n#!foo=bar\nx', /unsupported leading directive #!foo=/);
    rejects('#!python3\n#!/bin/bash\nx', /unsupported leading directive/);
    rejects('#!cmd=a {.}\n#!python3\nx', /shebang must be the first line/);
    rejects('#!cmd curl | {.}\n', /malformed directive: write #!cmd=/);
    rejects('#! cmd=curl | {.}\n', /malformed directive/);
  });

  it('the directive block ends at the first other line, including a blank line or a plain comment', () => {
    expect(script('#!python3\n\n#!cmd=a {.}\n').body).to.equal('\n#!cmd=a {.}\n');
    expect(script('# comment\n#!cmd=a {.}\n').body).to.equal('# comment\n#!cmd=a {.}\n');
    expect(script('# !foo bar\n').body).to.equal('# !foo bar\n');
  });

  it('directive lines and their complete terminators are removed; a last directive without terminator leaves an empty body', () => {
    expect(script('#!cmd=a {.}').body).to.equal('');
    expect(script('#!python3').body).to.equal('');
    expect(script('#!python3\r\n#!cmd=a {.}\r\n').body).to.equal('');
    expect(script('#!python3\n#!cmd=a {.}\n\n').body).to.equal('\n');
    expect(script('').body).to.equal('');
  });

  it('a lone CR is content: it belongs to the trimmed line, not to its terminator', () => {
    // "#!python3\r" + LF is CRLF: complete terminator. A CR in the middle stays in the selector field.
    expect(script('#!python3\r\nx').interpreter.fields).to.deep.equal(['python3']);
    expect(script('#!python3\rfoo\nx').interpreter.fields).to.deep.equal(['python3\rfoo']);
  });

  it('#!script=@shell/<id> is accepted only as the sole line', () => {
    expect(parseShellInput('#!script=@shell/abc-123')).to.deep.equal({ ok: true, kind: 'scriptRef', scriptRef: '@shell/abc-123', artifactId: 'abc-123' });
    expect(parseShellInput('  #!script=@shell/x \n')).to.deep.equal({ ok: true, kind: 'scriptRef', scriptRef: '@shell/x', artifactId: 'x' });
    expect(parseShellInput('#!script=@shell/x\r\n')).to.deep.include({ ok: true, kind: 'scriptRef' });
    rejects('#!script=@shell/x\necho', /only line/);
    rejects('#!script=@shell/x\n\n', /only line/);
    rejects('#!python3\n#!script=@shell/x', /only line/);
    rejects('#!cmd=a {.}\n#!script=@shell/x', /only line/);
    for (const ref of ['@shell/', '@shell/.', '@shell/..', '@shell/.runtime', '@shell/a/b', '@shell/a\\b', '/etc/passwd', '@other/x', 'shell/x']) {
      rejects(`#!script=${ref}`, /expects @shell/);
    }
  });

  it('isSafeArtifactId', () => {
    for (const id of ['a', 'abc-123', '.hidden', '..x', 'x..']) expect(isSafeArtifactId(id), id).to.equal(true);
    for (const id of ['', '.', '..', '.runtime', 'a/b', 'a\\b', 'a\0b']) expect(isSafeArtifactId(id), id).to.equal(false);
  });
});
