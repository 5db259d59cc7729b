// End to end, the built-in hpatch tool: the REAL Codex CLI → the BUILT router → a scripted model.
// The model reads rows with `hread` in a shell body, edits with the anchors it read, chains a second
// edit from the report (plus an anchor read before the first edit: recovery ancestry), hits a stale
// anchor after the test edits the file behind its back, then edits two files at once. Codex applies
// every patch with its own applier (intercepted apply_patch in both shapes); the files are checked
// byte for byte and every later request shows the model its original hpatch calls with the reports.
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rowHash } from '../../isolates/core-v1/rows.ts';
import { describeRun, makeCodexHome, runCodex, type CodexRunResult } from '../support/codex-cli.ts';
import type { RouterProcess } from '../support/router-process.ts';
import { startScriptedUpstream, type RecordedRequest, type ScriptedUpstream, type Turn } from '../support/scripted-upstream.ts';
import { createShellSession, type ShellSession } from '../support/shell-session.ts';

type Json = Record<string, any>;

const NOTES = Array.from({ length: 12 }, (_, i) => `note ${i + 1}`);
const OTHER = ['alpha', 'beta', 'gamma'];
const anchor = (n: number, text: string): string => `${n}:${rowHash(text)}`;
const patch = (body: string): string => `*** Begin Patch\n${body}*** End Patch\n`;

/** The text the model read as the output of call `id` in this request (string or content items). */
function outputOf(req: RecordedRequest, id: string): string {
  const item = (req.json['input'] as Json[]).find((i) => i['call_id'] === id && String(i['type']).endsWith('_output'));
  if (!item) return '';
  const o = item['output'];
  return typeof o === 'string' ? o : (o as Json[]).map((p) => String(p['text'])).join('\n');
}

/** The anchor of the row for `text` in a report or refusal (the model copies it from there). */
function anchorIn(output: string, text: string): string {
  const row = output.split('\n').find((l) => l.endsWith(`|${text}`));
  if (!row) throw new Error(`no row ${JSON.stringify(text)} in:\n${output}`);
  return row.slice(0, row.indexOf('|'));
}

describe('end to end: hpatch with the real Codex CLI', function () {
  this.timeout(240_000);
  let upstream: ScriptedUpstream | undefined;
  let router: RouterProcess | undefined;
  let session: ShellSession;
  let work: string;

  beforeEach(() => {
    session = createShellSession('hpatch-e2e');
    work = session.work;
    writeFileSync(join(work, 'notes.txt'), `${NOTES.join('\n')}\n`);
    writeFileSync(join(work, 'other.txt'), `${OTHER.join('\n')}\n`);
  });
  afterEach(async () => {
    await router?.stop();
    await upstream?.close();
    router = undefined;
    upstream = undefined;
    session.cleanup();
  });

  async function start(turns: Array<(req: RecordedRequest) => Turn>): Promise<void> {
    upstream = await startScriptedUpstream((req, i) => (i < turns.length ? turns[i]!(req) : { items: [{ type: 'message', text: 'Done.' }] }));
    router = await session.startRouter(upstream.url);
  }

  async function codex(shape: 'native' | 'code_mode', extra: { sandbox?: string } = {}): Promise<CodexRunResult> {
    const run = await runCodex({
      baseUrl: router!.baseUrl,
      prompt: 'Edit the notes.',
      ...(shape === 'native' ? { model: 'gpt-5.5' } : {}),
      cwd: work,
      codexHome: makeCodexHome('hpatch-e2e'),
      ...(extra.sandbox ? { bypassSandbox: false, extraArgs: ['-s', extra.sandbox] } : {}),
      env: session.codexEnv(),
      timeoutMs: 120_000,
    });
    expect(run.code, describeRun(run)).to.equal(0);
    return run;
  }

  /** The patches Codex's own applier ran, from its session rollout. */
  function appliedByCodex(codexHome: string): string[] {
    const out: string[] = [];
    const walk = (d: string): void => {
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (n.endsWith('.jsonl')) out.push(readFileSync(p, 'utf8'));
      }
    };
    walk(join(codexHome, 'sessions'));
    return out;
  }

  for (const shape of ['native', 'code_mode'] as const) {
    it(`${shape}: hread, hpatch, a chained edit, a stale anchor refused, two files at once — every byte as reported`, async () => {
      const ns = shape === 'code_mode' ? { namespace: 'functions' } : {};
      const hpatchCall = (id: string, input: string): Turn => ({ items: [{ type: 'custom_tool_call', name: 'hpatch', input, call_id: id, ...ns }] });
      let refusal = '';
      await start([
        () => ({ items: [{ type: 'custom_tool_call', name: 'shell', input: 'hread notes.txt 1-12\n', call_id: 'call_read', ...ns }] }),
        // Edit 1, with the anchors hread showed: line 3 becomes two lines (everything below moves down).
        () => hpatchCall('call_e1', patch(`*** Update File: notes.txt\n@@ replace ${anchor(3, 'note 3')}\n+note 3a\n+note 3b\n`)),
        // Edit 2 chains from edit 1's report (no re-read) and uses line 10 as hread showed it before edit 1.
        (req) => hpatchCall('call_e2', patch(`*** Update File: notes.txt\n@@ insert after ${anchorIn(outputOf(req, 'call_e1'), 'note 3b')}\n+note 3c\n@@ delete ${anchor(10, 'note 10')}\n`)),
        // The user edits the file behind the model's back: the anchor from edit 2's report is stale now.
        (req) => {
          const a = anchorIn(outputOf(req, 'call_e2'), 'note 3c');
          writeFileSync(join(work, 'notes.txt'), `inserted by the user\n${readFileSync(join(work, 'notes.txt'), 'utf8')}`);
          return hpatchCall('call_e3', patch(`*** Update File: notes.txt\n@@ replace ${a}\n+never written\n`));
        },
        // From the current rows in the refusal, and a second file in the same patch.
        (req) => {
          refusal = outputOf(req, 'call_e3');
          return hpatchCall('call_e4', patch(`*** Update File: notes.txt\n@@ replace ${anchorIn(refusal, 'note 3c')}\n+note 3C\n*** Update File: other.txt\n@@ replace ${anchor(2, 'beta')}\n+BETA\n*** Add File: added/new.txt\n+fresh\n`));
        },
      ]);
      const run = await codex(shape);

      expect(readFileSync(join(work, 'notes.txt'), 'utf8')).to.equal(
        ['inserted by the user', 'note 1', 'note 2', 'note 3a', 'note 3b', 'note 3C', 'note 4', 'note 5', 'note 6', 'note 7', 'note 8', 'note 9', 'note 11', 'note 12', ''].join('\n'));
      expect(readFileSync(join(work, 'other.txt'), 'utf8')).to.equal('alpha\nBETA\ngamma\n');
      expect(readFileSync(join(work, 'added', 'new.txt'), 'utf8')).to.equal('fresh\n');

      const reqs = upstream!.responsesRequests();
      expect(reqs.length).to.be.greaterThanOrEqual(6);
      // The model is offered hpatch, never apply_patch.
      const offered = JSON.stringify(reqs[0]!.json);
      expect(offered).to.contain('"name":"hpatch"');
      if (shape === 'native') expect((reqs[0]!.json['tools'] as Json[]).map((t) => t['name'])).to.not.include('apply_patch');
      else expect(offered).to.not.contain('### `apply_patch`');

      expect(outputOf(reqs[1]!, 'call_read')).to.contain('# notes.txt: 12 lines').and.contain(`3:${rowHash('note 3')}|note 3`);
      const e1 = outputOf(reqs[2]!, 'call_e1');
      expect(e1).to.match(/^hpatch: applied to 1 file\.\n\*\*\* notes\.txt: 13 lines, tag /);
      expect(e1).to.contain(`4:${rowHash('note 3b')}|note 3b`);
      const e2 = outputOf(reqs[3]!, 'call_e2');
      expect(e2).to.match(/^hpatch: applied to 1 file\./).and.match(/rebased: "@@ delete 10:[0-9a-f]{4}" in notes\.txt/);
      expect(refusal).to.match(/^hpatch: patch refused, nothing was written: 1 anchor does not hold/);
      expect(refusal).to.contain(`6:${rowHash('note 3c')}|note 3c`);
      expect(outputOf(reqs[5]!, 'call_e4')).to.match(/^hpatch: applied to 3 files\./);

      // The last request holds every original hpatch call, with its report, and no carrier.
      const last = reqs[reqs.length - 1]!.json['input'] as Json[];
      for (const id of ['call_e1', 'call_e2', 'call_e3', 'call_e4']) {
        const c = last.find((i) => i['call_id'] === id && i['type'] === 'custom_tool_call');
        expect(c, id).to.include({ name: 'hpatch' });
        expect(last.find((i) => i['call_id'] === id && i['type'] === 'custom_tool_call_output'), id).to.not.equal(undefined);
      }
      expect(JSON.stringify(last)).to.not.contain("apply_patch <<'EOF'").and.not.contain('tools.apply_patch(');
      // Codex's own applier ran the patches (its rollout records them), no shell ran them.
      const rollout = appliedByCodex(run.codexHome).join('\n');
      expect(rollout).to.contain('note 3C');
    });
  }

  it('native, read-only sandbox: Codex refuses the write; the model reads its answer and the rows as verified', async () => {
    await start([
      () => ({ items: [{ type: 'custom_tool_call', name: 'hpatch', input: patch(`*** Update File: notes.txt\n@@ replace ${anchor(1, 'note 1')}\n+NOTE 1\n`), call_id: 'call_ro' }] }),
    ]);
    await codex('native', { sandbox: 'read-only' });
    expect(readFileSync(join(work, 'notes.txt'), 'utf8')).to.equal(`${NOTES.join('\n')}\n`);
    const out = outputOf(upstream!.responsesRequests()[1]!, 'call_ro');
    expect(out).to.match(/^hpatch: Codex did not apply the patch; it answered:\n/);
    expect(out).to.contain(`1:${rowHash('note 1')}|note 1`);
  });
});
