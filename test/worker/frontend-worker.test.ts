// The frontend role end to end, on the built bundle: <bin>/<tool> → <snapshot>/wrappers/<tool> →
// the snapshot's launcher → the worker, which verifies everything and runs the plugin's execute once.
// Needs a current dist/ (`make test` builds first; or `node scripts/build.mjs`).
import { expect } from 'chai';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startExecutorRuntime, type ExecutorRuntime } from '../../host/runtime/executor-runtime.ts';
import { wrapperPath } from '../../host/runtime/snapshot.ts';
import { EXIT_EXECUTOR_FAILED, EXIT_REFUSED } from '../../host/worker/frontend-worker.ts';
import { privateArea, type Area } from '../runtime/runtime-fixtures.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

// A tiny plugin: `upcase` uppercases stdin and echoes argv and cwd; `idle` never reads stdin; `boom` throws.
const PLUGIN = `export default {
  apiVersion: 1,
  id: 'test.upcase',
  version: '1.0.0',
  tools: [
    {
      spec: { type: 'custom', name: 'upcase', description: 'Uppercases stdin.' },
      inputLimit: 1024,
      parse(input) { return { ok: true, value: input.split(' ') }; },
      translate(argv, ctx) { return ctx.exec(argv); },
      execute(ctx) {
        return { stdout: ctx.readStdin().toUpperCase(), stderr: JSON.stringify({ argv: ctx.argv, cwd: ctx.cwd, again: ctx.readStdin().length }) + '\\n', status: 3 };
      },
    },
    {
      spec: { type: 'custom', name: 'idle', description: 'Ignores stdin.' },
      inputLimit: 1024,
      parse(input) { return { ok: true, value: [input] }; },
      translate(argv, ctx) { return ctx.exec(argv); },
      execute(ctx) { return { stdout: 'idle:' + ctx.argv.join('|') + '\\n', status: 0 }; },
    },
    {
      spec: { type: 'custom', name: 'boom', description: 'Throws.' },
      inputLimit: 1024,
      parse(input) { return { ok: true, value: [input] }; },
      translate(argv, ctx) { return ctx.exec(argv); },
      execute() { throw new Error('kaboom'); },
    },
  ],
};
`;

describe('frontend worker (end to end, built bundle)', function () {
  this.timeout(60_000);
  let area: Area;
  let runtime: ExecutorRuntime;
  let env: NodeJS.ProcessEnv;

  before(function () {
    if (!existsSync(join(ROOT, 'dist', 'hpatch-router.mjs'))) spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  });

  beforeEach(() => {
    area = privateArea('worker');
    env = { ...process.env, HPATCH_RUNTIME_DIR: area.base };
    delete env['HPATCH_INVOKED_AS'];
    const r = startExecutorRuntime({
      env: { HPATCH_RUNTIME_DIR: area.base, HPATCH_FRONTEND_DIR: area.bin },
      installRoot: ROOT,
      plugins: [{ origin: '/cfg/hpatch/plugins/upcase.mjs', id: 'test.upcase', source: PLUGIN, tools: ['upcase', 'idle', 'boom'] }],
    });
    if (!r.ok) throw new Error(r.problems.join('\n'));
    runtime = r.runtime;
  });
  afterEach(() => {
    runtime.release();
    area.cleanup();
  });

  const run = (frontend: string, argv: string[], input = ''): SpawnSyncReturns<string> =>
    spawnSync(frontend, argv, { input, env, cwd: area.root, encoding: 'utf8' });
  const refused = (r: SpawnSyncReturns<string>, pattern: RegExp): void => {
    expect(r.status, r.stderr).to.equal(EXIT_REFUSED);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.match(/^upcase: not executed: /);
    expect(r.stderr).to.match(pattern);
  };

  it('REQ-PLUGIN-001 acceptance 7: runs the tool through frontend → snapshot wrapper → hpatch-router with argv, stdin and cwd unchanged', () => {
    const argv = ['src/a.go', 'two words', '', "it's", '--flag', 'line1\nline2'];
    const r = run(join(area.bin, 'upcase'), argv, 'héllo\nworld\n');
    expect(r.stderr.split('\n')[0], r.stderr).to.equal(JSON.stringify({ argv, cwd: area.root, again: 'héllo\nworld\n'.length }));
    expect(r.stdout).to.equal('HÉLLO\nWORLD\n');
    expect(r.status).to.equal(3);
  });

  it('REQ-PLUGIN-001 acceptance 11: one execution, one result (stdout, stderr, status exactly once)', () => {
    const r = run(join(area.bin, 'upcase'), ['x'], 'abc');
    expect(r.stdout).to.equal('ABC');
    expect(r.stderr.trim().split('\n')).to.have.length(1);
  });

  it('reads stdin only when the executor asks: a stdin that never closes does not block', async () => {
    const child = spawn(join(area.bin, 'idle'), ['a', 'b'], { env, cwd: area.root, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.destroy();
    expect(status).to.equal(0);
    expect(out).to.equal('idle:a|b\n');
  });

  it('an executor that throws: status 70 with an attributed message, nothing on stdout', () => {
    const r = run(join(area.bin, 'boom'), []);
    expect(r.status).to.equal(EXIT_EXECUTOR_FAILED);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.match(/^boom: executor failed: .*kaboom/);
  });

  it('refuses a frontend retargeted to a fake wrapper (126)', () => {
    const fake = join(area.root, 'fake', 'wrappers');
    mkdirSync(fake, { recursive: true });
    symlinkSync(join(ROOT, 'bin', 'hpatch-router'), join(fake, 'upcase'));
    unlinkSync(join(area.bin, 'upcase'));
    symlinkSync(join(fake, 'upcase'), join(area.bin, 'upcase'));
    refused(run(join(area.bin, 'upcase'), ['x'], 'abc'), /does not point to its wrapper in an hpatch-router snapshot/);
  });

  it('refuses a copied snapshot under a forged name (126)', () => {
    const forged = join(area.base, 'snapshots', 'e'.repeat(64));
    cpSync(runtime.snapshot.dir, forged, { recursive: true, verbatimSymlinks: true });
    unlinkSync(join(area.bin, 'upcase'));
    symlinkSync(wrapperPath(forged, 'upcase'), join(area.bin, 'upcase'));
    refused(run(join(area.bin, 'upcase'), ['x']), /manifest does not match the snapshot name/);
  });

  it('refuses a tampered snapshot: modified plugin source (126, not executed)', () => {
    const file = join(runtime.snapshot.dir, runtime.snapshot.manifest.plugins[0]!.file);
    chmodSync(file, 0o600);
    writeFileSync(file, readFileSync(file, 'utf8').replace('toUpperCase()', 'toLowerCase()'));
    refused(run(join(area.bin, 'upcase'), ['x'], 'abc'), /was modified/);
  });

  it('refuses a tampered snapshot: modified runtime chunk (126)', () => {
    const chunk = runtime.snapshot.manifest.files.find((f) => f.path.startsWith('runtime/dist/chunks/'))!;
    const file = join(runtime.snapshot.dir, chunk.path);
    chmodSync(file, 0o600);
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n// tampered\n`);
    refused(run(join(area.bin, 'upcase'), ['x']), /was modified/);
  });

  it('refuses a frontend outside the stable frontend directory (126)', () => {
    const elsewhere = join(area.root, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(readlinkSync(join(area.bin, 'upcase')), join(elsewhere, 'upcase'));
    refused(run(join(elsewhere, 'upcase'), []), /not in the stable frontend directory/);
  });

  it('refuses a wrapper invoked directly, and built-in names (126)', () => {
    const direct = run(wrapperPath(runtime.snapshot.dir, 'upcase'), []);
    expect(direct.status).to.equal(EXIT_REFUSED);
    expect(direct.stderr).to.match(/does not point into a snapshot/);
    symlinkSync(wrapperPath(runtime.snapshot.dir, 'upcase'), join(area.bin, 'shell'));
    const shell = run(join(area.bin, 'shell'), []);
    expect(shell.status).to.equal(EXIT_REFUSED);
    expect(shell.stderr).to.match(/^shell: not executed: shell is a built-in name/);
  });

  it('refuses when the runtime base is not private (126)', () => {
    chmodSync(area.base, 0o755);
    try {
      refused(run(join(area.bin, 'upcase'), []), /unsafe runtime directory/);
    } finally {
      chmodSync(area.base, 0o700);
    }
  });

  it('hpatch-router itself still starts as the router (the launcher dispatches by invoked name)', () => {
    const r = spawnSync(join(ROOT, 'bin', 'hpatch-router'), ['--help'], { env, encoding: 'utf8' });
    expect(r.status).to.equal(0);
    expect(r.stdout).to.contain('usage: hpatch-router');
  });

  it('a pruned snapshot leaves a dangling frontend: nothing runs', () => {
    rmSync(runtime.snapshot.dir, { recursive: true, force: true });
    const r = run(join(area.bin, 'upcase'), []);
    expect((r.error as NodeJS.ErrnoException | undefined)?.code).to.equal('ENOENT'); // Bash reports 127
  });
});

describe('frontend worker dependencies', () => {
  // The worker starts once per tool call inside Codex's sandbox: keep the router's HTTP stack out of it.
  it('does not import undici, pino or the router HTTP code', () => {
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)'([^']+)'/g)) {
        const spec = m[1]!;
        expect(['undici', 'pino'], `${file} imports ${spec}`).not.to.include(spec);
        if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      }
    };
    visit(join(ROOT, 'host', 'worker', 'frontend-worker.ts'));
    const hostFiles = [...seen].map((f) => f.slice(join(ROOT, 'host').length + 1));
    expect(hostFiles.filter((f) => /^(proxy|request|translate|responses|history)\//.test(f) || f === 'router.ts')).to.deep.equal([]);
  });
});
