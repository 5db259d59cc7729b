// The handlers a shell is given (host/interp/execution/handlers.ts): an embedder's exec, open and
// privateCommand are what the shell uses — in the shell itself, in its subshells, pipelines and
// substitutions, and in the builtins that run or look up commands (exec, command, type) — and a
// shell built without them does not see what they provide.
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultHandlers } from '../../../host/interp/execution/default-handlers.ts';
import type { Handlers } from '../../../host/interp/execution/handlers.ts';
import type { PrivateContext } from '../../../host/interp/private/registry.ts';
import { freshDir, runInterp } from '../harness.ts';

async function run(script: string, handlers?: Handlers): Promise<{ stdout: string; stderr: string; status: number; dir: string }> {
  const dir = freshDir();
  const r = await runInterp({ name: 't', script, file: 't' }, dir, handlers);
  return { ...r, dir };
}

describe('interp handlers', () => {
  const dirs: string[] = [];
  afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

  it('runs external programs through the exec handler, in the shell and its subshells', async () => {
    const calls: string[][] = [];
    const exec: Handlers['exec'] = async (_sh, file, args) => { calls.push([path.basename(file), ...args]); return args.length + 40; };
    const r = await run('ls -d /; echo "st=$?"; (cat x); echo "st=$?"; v=$(env a b c); echo "$v" | tr x y; exec true 1 2', { ...defaultHandlers, exec });
    dirs.push(r.dir);
    expect(calls).to.deep.equal([['ls', 'ls', '-d', '/'], ['cat', 'cat', 'x'], ['env', 'env', 'a', 'b', 'c'], ['tr', 'tr', 'x', 'y'], ['true', 'true', '1', '2']]);
    expect(r.stdout).to.equal('st=43\nst=42\n');
    expect(r.status).to.equal(43); // (exec's status is the program's)
  });

  it('opens redirection targets through the open handler', async () => {
    const opened: string[] = [];
    const open: Handlers['open'] = (p, flags) => {
      opened.push(`${path.basename(p.toString('latin1'))}:${(flags & fs.constants.O_CREAT) !== 0 ? 'create' : 'read'}`);
      // (every write lands in one file of the handler's choosing)
      return defaultHandlers.open((flags & fs.constants.O_CREAT) !== 0 ? Buffer.from(path.join(path.dirname(p.toString('latin1')), 'elsewhere')) : p, flags);
    };
    const r = await run('echo one > a.txt; echo two >> b.txt; cat < elsewhere; ls', { ...defaultHandlers, open });
    dirs.push(r.dir);
    expect(opened).to.deep.equal(['a.txt:create', 'b.txt:create', 'elsewhere:read']);
    expect(r.stdout).to.equal('one\ntwo\nelsewhere\n');
  });

  it('finds private commands through the privateCommand handler only', async () => {
    const greet = async (ctx: PrivateContext): Promise<number> => { await ctx.stdout(`hello ${ctx.argv.slice(1).join(' ')}\n`); return 3; };
    const privateCommand: Handlers['privateCommand'] = (name) => (name === 'greet_only_here' ? greet : undefined);
    const script = 'greet_only_here a b; echo "st=$?"; greet_only_here c | tr a-z A-Z; echo "$(greet_only_here d)"; type -t greet_only_here; command -v greet_only_here';
    const given = await run(script, { ...defaultHandlers, privateCommand });
    dirs.push(given.dir);
    expect(given.stdout).to.equal('hello a b\nst=3\nHELLO C\nhello d\nbuiltin\ngreet_only_here\n');
    const without = await run(script);
    dirs.push(without.dir);
    expect(without.stdout).to.equal('st=127\n\n');
    expect(without.stderr).to.include('greet_only_here: command not found');
  });
});
