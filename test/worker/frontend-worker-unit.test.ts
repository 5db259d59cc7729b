// The frontend role in process, with a stand-in isolate: what it calls, how often, and what it returns.
import { expect } from 'chai';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startExecutorRuntime, type ExecutorRuntime } from '../../host/runtime/executor-runtime.ts';
import { ENTRY_PATH } from '../../host/runtime/snapshot.ts';
import { EXIT_EXECUTOR_FAILED, EXIT_REFUSED, runFrontendWorker, type ExecutorIsolate } from '../../host/worker/frontend-worker.ts';
import { fakeInstall, plugin, privateArea, type Area } from '../runtime/runtime-fixtures.ts';

describe('frontend worker (in process)', () => {
  let area: Area;
  let runtime: ExecutorRuntime;
  let calls: { tool: string; argv: readonly string[]; cwd: string }[];
  let fds: number[];

  beforeEach(() => {
    area = privateArea('wunit');
    const r = startExecutorRuntime({
      env: { HPATCH_RUNTIME_DIR: area.base, HPATCH_FRONTEND_DIR: area.bin },
      installRoot: fakeInstall(area.root),
      plugins: [plugin(['lint'], 'declaration source')],
    });
    if (!r.ok) throw new Error(r.problems.join('\n'));
    runtime = r.runtime;
    calls = [];
    fds = [];
  });
  afterEach(() => {
    for (const fd of fds) closeSync(fd);
    runtime.release();
    area.cleanup();
  });

  const file = (name: string, text?: string): number => {
    const path = join(area.root, name);
    writeFileSync(path, text ?? '');
    const fd = openSync(path, text === undefined ? 'w' : 'r');
    fds.push(fd);
    return fd;
  };
  const out = (name: string): string => readFileSync(join(area.root, name), 'utf8');

  const isolate = (over: Partial<ExecutorIsolate> & { result?: () => Promise<{ stdout: string; stderr: string; status: number }> } = {}): ExecutorIsolate => ({
    description: { id: 'test.plugin', tools: [{ spec: { name: 'lint' } }] },
    async execute(req) {
      calls.push({ tool: req.tool, argv: req.argv, cwd: req.cwd });
      return over.result ? over.result() : { stdout: `in:${req.readStdin()}`, stderr: 'note\n', status: 5 };
    },
    dispose: over.dispose ?? (() => {}),
    ...(over.description !== undefined ? { description: over.description } : {}),
  });

  const run = (iso: ExecutorIsolate, loaded: { file?: string; source?: string } = {}) =>
    runFrontendWorker({
      invokedAs: join(area.bin, 'lint'),
      argv: ['a', '-b', ''],
      env: { HPATCH_RUNTIME_DIR: area.base },
      cwd: '/some/cwd',
      entryScript: join(runtime.snapshot.dir, ENTRY_PATH),
      stdinFd: file('stdin', 'payload'),
      stdoutFd: file('stdout'),
      stderrFd: file('stderr'),
      loadIsolate: async (o) => {
        Object.assign(loaded, o);
        return iso;
      },
    });

  it('loads the declaration from the snapshot and calls execute exactly once with argv and cwd unchanged', async () => {
    const loaded: { file?: string; source?: string } = {};
    const status = await run(isolate(), loaded);
    expect(loaded).to.deep.equal({ file: '/cfg/hpatch/plugins/p.mjs', source: 'declaration source' });
    expect(calls).to.deep.equal([{ tool: 'lint', argv: ['a', '-b', ''], cwd: '/some/cwd' }]);
    expect(status).to.equal(5);
    expect(out('stdout')).to.equal('in:payload');
    expect(out('stderr')).to.equal('note\n');
  });

  it('REQ-PLUGIN-001 acceptance 10 (executor side): a failure after the executor answered (dispose) does not replace its result', async () => {
    const status = await run(isolate({ dispose: () => { throw new Error('already disposed'); } }));
    expect(status).to.equal(5);
    expect(out('stdout')).to.equal('in:payload');
  });

  it('an executor failure is status 70, attributed, nothing on stdout', async () => {
    const status = await run(isolate({ result: () => Promise.reject(new Error('plugin test.plugin: lint threw: nope')) }));
    expect(status).to.equal(EXIT_EXECUTOR_FAILED);
    expect(out('stdout')).to.equal('');
    expect(out('stderr')).to.equal('lint: executor failed: plugin test.plugin: lint threw: nope\n');
  });

  it('refuses (126) a declaration that does not declare the registered tool', async () => {
    const status = await run(isolate({ description: { id: 'test.plugin', tools: [{ spec: { name: 'other' } }] } }));
    expect(status).to.equal(EXIT_REFUSED);
    expect(calls).to.deep.equal([]);
    expect(out('stderr')).to.match(/^lint: not executed: the snapshot's declaration does not declare lint/);
  });

  it('refuses (126) when the running code is not the snapshot entry', async () => {
    const status = await runFrontendWorker({
      invokedAs: join(area.bin, 'lint'), argv: [], env: { HPATCH_RUNTIME_DIR: area.base }, cwd: '/',
      entryScript: join(area.root, 'install', 'dist', 'hpatch-router.mjs'), stderrFd: file('stderr'),
      loadIsolate: async () => isolate(),
    });
    expect(status).to.equal(EXIT_REFUSED);
    expect(out('stderr')).to.match(/the running hpatch-router is not snapshot/);
    expect(calls).to.deep.equal([]);
  });
});
