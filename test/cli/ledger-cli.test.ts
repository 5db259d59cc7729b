// `hpatch-router ledger stats|gc|show` run as processes of the BUILT router (issue 18.5), and the
// router's own retention at startup; files are aged with utimes.
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { Ledger, type LedgerEntry } from '../../host/history/ledger.ts';
import { encodeRecord } from '../../host/history/ledger-log.ts';
import { capturedRequest } from '../support/fixtures.ts';
import { ROUTER_DIST, startRouterProcess } from '../support/router-process.ts';
import { startScriptedUpstream } from '../support/scripted-upstream.ts';
import { tempDir } from '../support/temp-dir.ts';

const DAY = 86_400_000;
const T1 = '019ab3c4-0000-7000-8000-000000000001';
const T2 = '019ab3c4-0000-7000-8000-000000000002';
const OLD = '019ab3c4-0000-7000-8000-0000000000a1';

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--no-node-snapshot', ROUTER_DIST, 'ledger', ...args], { encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function shellEntry(threadId: string, callId: string, script: string): LedgerEntry {
  return {
    threadId,
    callId,
    contribution: 'builtin:shell',
    tool: 'shell',
    original: JSON.stringify({ type: 'function_call', call_id: callId, name: 'shell', arguments: JSON.stringify({ script }) }),
    carrier: { kind: 'exec_command', namespace: 'functions', arguments: JSON.stringify({ cmd: `shell --run ${callId}` }) },
  };
}

function age(file: string, ms: number): void {
  const t = (Date.now() - ms) / 1000;
  utimesSync(file, t, t);
}

describe('hpatch-router ledger (process)', function () {
  this.timeout(60_000);
  let state: { dir: string; cleanup: () => void };
  let ledgerDir: string;
  beforeEach(async () => {
    state = tempDir('ledger-cli');
    ledgerDir = join(state.dir, 'ledger');
    const ledger = await Ledger.open(ledgerDir);
    await ledger.record(shellEntry(T1, 'call_a', 'ls -la'));
    await ledger.record({ ...shellEntry(T1, 'call_b', 'cat x'), notes: ['retained: @shell/abc'], reply: { kind: 'refused', text: 'no such script' } });
    await ledger.record({
      threadId: T1, callId: 'call_c', contribution: 'builtin:hpatch', tool: 'hpatch',
      original: JSON.stringify({ type: 'custom_tool_call', call_id: 'call_c', name: 'hpatch', input: '*** edit a.txt\n+line' }),
      carrier: { kind: 'code_mode_exec', namespace: 'functions', input: 'await tools.apply_patch("…")' },
    });
    await ledger.record({
      threadId: T2, callId: 'call_z', contribution: 'plugin:acme:lint', tool: 'lint',
      original: JSON.stringify({ type: 'custom_tool_call', call_id: 'call_z', name: 'lint', input: 'x\u001b[31mred\u0007\u009b' }),
      carrier: { kind: 'exec_command', arguments: JSON.stringify({ cmd: 'lint' }) },
    });
    await ledger.record(shellEntry(OLD, 'call_o', 'echo old'));
    await ledger.close();
    age(join(ledgerDir, `${OLD}.ledger`), 40 * DAY);
  });
  afterEach(() => state.cleanup());

  it('--help for the group and each command; usage errors exit 2', () => {
    for (const args of [['--help'], ['stats', '--help'], ['gc', '-h'], ['show', '--help']]) {
      const r = run(args);
      expect(r.status, args.join(' ')).to.equal(0);
      expect(r.stdout).to.contain('hpatch-router ledger stats').and.contain('hpatch-router ledger show');
    }
    const bad: Array<[string[], string]> = [
      [[], 'usage:'],
      [['frobnicate'], 'unknown ledger command "frobnicate"'],
      [['show'], 'exactly one THREAD'],
      [['show', T1, T2], 'exactly one THREAD'],
      [['stats', 'extra'], 'takes no arguments'],
      [['gc', '--json'], 'ledger gc takes no --json'],
      [['stats', '--ledger-retention', '30'], '--ledger-retention must be a whole number with a unit'],
      [['gc', '--state-dir', state.dir, '--ledger-retention', '10m'], 'at least 1h'],
      [['stats', '--bogus'], "Unknown option '--bogus'"],
    ];
    for (const [args, text] of bad) {
      const r = run(args);
      expect(r.status, args.join(' ')).to.equal(2);
      expect(r.stderr, args.join(' ')).to.contain(text);
      expect(r.stdout).to.equal('');
    }
  });

  it('stats: counts, bytes, last use, what retention would remove, and entries that are not thread files', () => {
    writeFileSync(join(ledgerDir, 'notes.txt'), 'x');
    const r = run(['stats', '--state-dir', state.dir]);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.contain(`ledger directory: ${ledgerDir}`).and.contain('threads: 3 file(s)');
    expect(r.stdout).to.contain('idle longer than 30d: 1 file(s)').and.contain('(40d ago)');
    expect(r.stdout).to.contain('other entries (never used or removed): 1').and.contain('"notes.txt": not named <thread id>.ledger');
    const j = JSON.parse(run(['stats', '--state-dir', state.dir, '--json', '--ledger-retention', '50d']).stdout);
    expect(j).to.include({ threads: 3, expired: 0, others: 1, exists: true, retentionMs: 50 * DAY });
    const total = readdirSync(ledgerDir).filter((f) => f.endsWith('.ledger')).reduce((n, f) => n + statSync(join(ledgerDir, f)).size, 0);
    expect(j.bytes).to.equal(total);
    const none = run(['stats', '--state-dir', join(state.dir, 'nowhere')]);
    expect(none.status).to.equal(0);
    expect(none.stdout).to.contain('does not exist yet');
    expect(existsSync(join(state.dir, 'nowhere')), 'stats creates nothing').to.equal(false);
  });

  it('gc: --dry-run lists, gc removes only threads idle longer than the period', () => {
    const dry = run(['gc', '--state-dir', state.dir, '--dry-run']);
    expect(dry.status, dry.stderr).to.equal(0);
    expect(dry.stdout).to.equal(`would remove ${OLD}\nwould remove 1 of 3 thread file(s), ${statSync(join(ledgerDir, `${OLD}.ledger`)).size} bytes, idle longer than 30d\n`);
    expect(existsSync(join(ledgerDir, `${OLD}.ledger`))).to.equal(true);
    const keep = run(['gc', '--state-dir', state.dir, '--ledger-retention', '41d']);
    expect(keep.stdout).to.contain('removed 0 of 3');
    const r = run(['gc', '--state-dir', state.dir]);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.contain(`removed ${OLD}\n`).and.contain('removed 1 of 3 thread file(s)');
    expect(readdirSync(ledgerDir).sort()).to.deep.equal([`${T1}.ledger`, `${T2}.ledger`]);
    // An unsafe directory is refused before anything is removed.
    execFileSync('chmod', ['777', ledgerDir]);
    age(join(ledgerDir, `${T1}.ledger`), 99 * DAY);
    const unsafe = run(['gc', '--state-dir', state.dir]);
    expect(unsafe.status).to.equal(1);
    expect(unsafe.stderr).to.contain('writable by group or others');
    expect(existsSync(join(ledgerDir, `${T1}.ledger`))).to.equal(true);
  });

  it('show: each translation with its tool, what the model asked for and the carrier Codex ran', () => {
    const r = run(['show', '--state-dir', state.dir, T1]);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.contain(`thread ${T1}: 3 translation(s) in ${join(ledgerDir, `${T1}.ledger`)}`);
    expect(r.stdout).to.contain('[1] call call_a  tool shell  (builtin:shell, byte 0)');
    expect(r.stdout).to.contain('    model asked for (function_call arguments):\n      {"script":"ls -la"}\n');
    expect(r.stdout).to.contain('    Codex ran (exec_command, namespace functions arguments):\n      {"cmd":"shell --run call_a"}\n');
    expect(r.stdout).to.contain('    notes:\n      retained: @shell/abc\n    router reply (refused):\n      no such script');
    expect(r.stdout).to.contain('[3] call call_c  tool hpatch  (builtin:hpatch');
    expect(r.stdout).to.contain('    model asked for (custom_tool_call input):\n      *** edit a.txt\n      +line\n');
    expect(r.stdout).to.contain('    Codex ran (Code Mode exec, namespace functions input):\n      await tools.apply_patch("…")');
    const lines = run(['show', '--state-dir', state.dir, '--json', T1]).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.n, l.callId, l.tool])).to.deep.equal([[1, 'call_a', 'shell'], [2, 'call_b', 'shell'], [3, 'call_c', 'hpatch']]);
    expect(JSON.parse(lines[0].original).arguments).to.equal('{"script":"ls -la"}');
    expect(lines[1].reply).to.deep.equal({ kind: 'refused', text: 'no such script' });
  });

  it('show escapes control characters, so a model cannot send escape sequences to the terminal', () => {
    // A custom tool's input is raw text: ESC, BEL and the C1 CSI arrive unescaped.
    const r = run(['show', '--state-dir', state.dir, T2]);
    expect(r.status).to.equal(0);
    expect(r.stdout).to.not.match(/[\u001b\u0007\u009b]/);
    expect(r.stdout).to.contain('      x\\u001b[31mred\\u0007\\u009b\n');
  });

  it('show: a torn tail is reported and skipped (exit 0); the records before it are shown', () => {
    const file = join(ledgerDir, `${T1}.ledger`);
    const rec = encodeRecord(JSON.stringify({ v: 1, threadId: T1 }));
    appendFileSync(file, rec.subarray(0, rec.length - 5));
    const r = run(['show', '--state-dir', state.dir, T1]);
    expect(r.status).to.equal(0);
    expect(r.stdout).to.contain('3 translation(s)').and.contain('[3] call call_c');
    expect(r.stderr).to.match(/torn tail: \d+ byte\(s\) at offset \d+ \(an interrupted append, never acknowledged\); skipped/);
  });

  it('show: damage in the middle and an invalid record are reported and skipped, every surviving record is shown (exit 1)', () => {
    const file = join(ledgerDir, `${T1}.ledger`);
    const buf = readFileSync(file);
    // A flipped byte inside the first record's payload: checksum mismatch, valid records follow.
    buf[buf.indexOf('ls -la')] = 'L'.charCodeAt(0);
    writeFileSync(file, Buffer.concat([buf, encodeRecord(JSON.stringify({ v: 1, threadId: 'someone-else' }))]));
    const r = run(['show', '--state-dir', state.dir, T1]);
    expect(r.status).to.equal(1);
    expect(r.stdout).to.contain('2 translation(s)').and.contain('call call_b').and.contain('call call_c').and.not.contain('call_a');
    expect(r.stderr).to.contain('damage: ').and.contain('checksum mismatch').and.contain('the router refuses this thread until it is repaired');
    expect(r.stderr).to.contain('invalid record at offset').and.contain('record fields are v, threadId');
  });

  it('show refuses hostile thread ids before touching the filesystem, and planted symlinks and FIFOs', () => {
    writeFileSync(join(state.dir, 'x.ledger'), encodeRecord(JSON.stringify({ secret: true })));
    for (const id of ['../x', '..', '.', `../ledger/${T1}`, '/etc/passwd', 'a/b', '.hidden', '', 'a\nb', 'x'.repeat(129), 'ü', '*']) {
      const r = run(['show', '--state-dir', state.dir, id]);
      expect(r.status, JSON.stringify(id)).to.equal(2);
      expect(r.stderr, JSON.stringify(id)).to.contain('unsafe thread id');
      expect(r.stdout).to.equal('');
    }
    symlinkSync(join(state.dir, 'x.ledger'), join(ledgerDir, 'evil.ledger'));
    const link = run(['show', '--state-dir', state.dir, 'evil']);
    expect(link.status).to.equal(1);
    expect(link.stderr).to.contain('is a symbolic link; refusing to follow it');
    execFileSync('mkfifo', [join(ledgerDir, 'pipe.ledger')]);
    const fifo = run(['show', '--state-dir', state.dir, 'pipe']);
    expect(fifo.status).to.equal(1);
    expect(fifo.stderr).to.contain('not a regular file');
    const missing = run(['show', '--state-dir', state.dir, 'never-seen']);
    expect(missing.status).to.equal(1);
    expect(missing.stderr).to.contain('no ledger file for thread never-seen');
  });

  it('beside a running router: show and stats read, gc keeps a thread the router uses although its file had aged', async () => {
    // T1's file aged past the period, as if idle; a router (not sweeping: retention 0) then serves a request on it.
    age(join(ledgerDir, `${T1}.ledger`), 40 * DAY);
    const upstream = await startScriptedUpstream([{ items: [{ type: 'message', text: 'hi' }] }]);
    const router = await startRouterProcess({ args: ['--upstream', upstream.url, '--state-dir', state.dir, '--ledger-retention', '0'] });
    try {
      await new Promise<void>((resolve, reject) => {
        const req = http.request(`${router.url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json', 'thread-id': T1 } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end(JSON.stringify(capturedRequest('a-default-gpt55-001').body));
      });
      for (let i = 0; i < 100 && Date.now() - statSync(join(ledgerDir, `${T1}.ledger`)).mtimeMs > DAY; i++) await new Promise((r) => setTimeout(r, 20));
      expect(Date.now() - statSync(join(ledgerDir, `${T1}.ledger`)).mtimeMs, 'the router refreshed the mtime').to.be.below(60_000);
      expect(run(['stats', '--state-dir', state.dir]).stdout).to.contain('idle longer than 30d: 1 file(s)');
      const gc = run(['gc', '--state-dir', state.dir]);
      expect(gc.stdout).to.equal(`removed ${OLD}\nremoved 1 of 3 thread file(s), ${gc.stdout.match(/, (\d+) bytes/)![1]} bytes, idle longer than 30d\n`);
      expect(run(['show', '--state-dir', state.dir, T1]).stdout).to.contain('3 translation(s)');
    } finally {
      expect(await router.stop()).to.equal(0);
      await upstream.close();
    }
  });

  it('the router removes idle thread files itself once it is listening', async () => {
    const many = 2000;
    for (let i = 0; i < many; i++) {
      const f = join(ledgerDir, `bulk-${i}.ledger`);
      writeFileSync(f, encodeRecord(JSON.stringify({ v: 1, threadId: `bulk-${i}` })), { mode: 0o600 });
      if (i % 2 === 0) age(f, 31 * DAY);
    }
    const upstream = await startScriptedUpstream([]);
    const router = await startRouterProcess({ args: ['--upstream', upstream.url, '--state-dir', state.dir] });
    try {
      for (let i = 0; i < 200 && !router.stderrLines.some((l) => l.includes('ledger retention: removed')); i++) await new Promise((r) => setTimeout(r, 25));
      const line = router.stderrLines.find((l) => l.includes('ledger retention: removed'));
      expect(line).to.match(new RegExp(`removed ${many / 2 + 1} thread file\\(s\\), \\d+ bytes, idle longer than 30d \\(${many + 3} scanned in \\d+ ms\\)`));
      const left = readdirSync(ledgerDir);
      expect(left).to.have.length(many / 2 + 2);
      expect(left).to.include(`${T1}.ledger`).and.include('bulk-1.ledger').and.not.include('bulk-0.ledger').and.not.include(`${OLD}.ledger`);
    } finally {
      await router.stop();
      await upstream.close();
    }
  });
});
