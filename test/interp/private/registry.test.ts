// Private-command registry: in-process commands dispatched after expansion, taking part in
// pipelines, redirections, cwd, environment and status like any other command.
import { expect } from 'chai';
import { registerPrivateCommand, unregisterPrivateCommand, listPrivateCommands } from '../../../host/interp/private/registry.ts';
import * as fs from 'node:fs';
import { runInterp, freshDir, type Case } from '../harness.ts';

async function run(script: string, stdin = ''): Promise<{ stdout: string; stderr: string; status: number }> {
  const c: Case = { name: 't', script, stdin, file: 't' };
  const dir = freshDir();
  try { return await runInterp(c, dir); } finally { fs.rmSync(dir, { recursive: true, force: true }); }
}

describe('interp private commands', () => {
  before(() => {
    registerPrivateCommand('t_upper', async (ctx) => {
      const input = (await ctx.readAll()).toString('utf8');
      await ctx.stdout(input.toUpperCase() + ctx.argv.slice(1).join(',') + '\n');
      return 0;
    });
    registerPrivateCommand('t_info', async (ctx) => {
      await ctx.stdout(`${ctx.argv.length - 1}|${ctx.cwd.endsWith(ctx.env['MARK'] ?? '?') ? 'cwd-ok' : ctx.cwd}|${ctx.env['FOO'] ?? 'unset'}\n`);
      await ctx.stderr('to-stderr\n');
      return Number(ctx.argv[1] ?? '0');
    });
    registerPrivateCommand('t_spew', async (ctx) => {
      for (let i = 0; i < 100000; i++) await ctx.stdout(`line ${i}\n`);
      return 0;
    });
    registerPrivateCommand('t_throw', async () => { throw new Error('boom'); });
  });
  after(() => { for (const n of ['t_upper', 't_info', 't_spew', 't_throw']) unregisterPrivateCommand(n); });

  it('is listed', () => { expect(listPrivateCommands()).to.include('t_upper'); });
  it('receives expanded argv and takes part in pipelines', async () => {
    const r = await run('x="a b"; echo hello | t_upper $x "c d" | cat');
    expect(r.stdout).to.equal('HELLO\na,b,c d\n');
  });
  it('sees cwd, exported environment and returns its status', async () => {
    const r = await run('mkdir sub; cd sub; export MARK=sub FOO=bar; t_info 7 2>/dev/null; echo "st=$?"');
    expect(r.stdout).to.equal('1|cwd-ok|bar\nst=7\n');
  });
  it('honours redirections', async () => {
    const r = await run('t_info 0 > out.txt 2> err.txt; cat out.txt err.txt | wc -l; FOO=tmp t_info 2>&1 | tail -1');
    expect(r.stdout).to.equal('2\nto-stderr\n');
  });
  it('reads stdin from redirections and here-strings', async () => {
    const r = await run('t_upper <<< "from herestring"');
    expect(r.stdout).to.equal('FROM HERESTRING\n\n');
  });
  it('can be captured by command substitution', async () => {
    const r = await run('x=$(echo abc | t_upper); echo "[$x]"');
    expect(r.stdout).to.equal('[ABC]\n');
  });
  it('stops on SIGPIPE when the reader exits (status 141)', async () => {
    const r = await run('t_spew | head -2; echo "${PIPESTATUS[0]}"');
    expect(r.stderr).to.equal(''); expect(r.stdout).to.equal('line 0\nline 1\n141\n');
  });
  it('reports a thrown error as status 1', async () => {
    const r = await run('t_throw; echo "st=$?"');
    expect(r.stdout).to.equal('st=1\n');
    expect(r.stderr).to.equal('t_throw: boom\n');
  });
  it('is shadowed by functions and found by type/command -v', async () => {
    const r = await run('type -t t_upper; t_upper() { echo fn; }; t_upper; command t_upper </dev/null');
    expect(r.stdout).to.equal('builtin\nfn\n\n');
  });
});
