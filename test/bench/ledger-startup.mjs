// Startup time to "listening on" (hpatch mode) with an empty ledger vs 10k thread files (half aged 31 d),
// the first retention sweep's duration, and /metrics latency during it. Run: node test/bench/ledger-startup.mjs (after the build).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
const scratchDirs = [];
const ROUTER = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'dist', 'hpatch-router.mjs');
function start(stateDir) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const scratch = (l) => { const d = fs.mkdtempSync(path.join(os.tmpdir(), `hpatch-ledger-bench-${l}-`)); scratchDirs.push(d); return d; };
    const env = { ...process.env, XDG_CONFIG_HOME: scratch('c'), HPATCH_RUNTIME_DIR: scratch('r'), HPATCH_FRONTEND_DIR: scratch('f') };
    const c = spawn(process.execPath, ['--no-node-snapshot', ROUTER, '--listen', '127.0.0.1:0', '--upstream', 'http://127.0.0.1:9/v1', '--state-dir', stateDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let listening, sweep, err = '';
    let url; const lat = [];
    c.stdout.on('data', (d) => { const m = /listening on (\S+)/.exec(String(d)); if (!listening && m) { listening = performance.now() - t0; url = m[1];
      const ping = () => { if (sweep || c.exitCode !== null) return; const s = performance.now(); fetch(url + '/metrics').then((r) => r.text()).then(() => { lat.push(performance.now() - s); setTimeout(ping, 10); }, () => {}); }; ping(); } });
    c.stderr.on('data', (d) => { err += d; const m = /ledger retention: removed .*\((\d+) scanned in (\d+) ms\)/.exec(err); if (m && !sweep) { sweep = { at: performance.now() - t0, ms: +m[2], scanned: +m[1] }; } });
    const poll = setInterval(() => { if (listening && (sweep || !stateDir.includes('many'))) { clearInterval(poll); c.kill('SIGTERM'); c.on('exit', () => resolve({ listening, sweep, pings: lat.length, maxPing: Math.max(0, ...lat), p50: lat.sort((a,b)=>a-b)[lat.length>>1] })); } }, 10);
  });
}
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hpatch-ledger-bench-'));
const empty = path.join(base, 'empty'); const many = path.join(base, 'many');
fs.mkdirSync(path.join(many, 'ledger'), { recursive: true, mode: 0o700 }); fs.chmodSync(many, 0o700);
const N = 10000; const old = (Date.now() - 31 * 86400000) / 1000;
for (let i = 0; i < N; i++) { const f = path.join(many, 'ledger', `t-${i}.ledger`); fs.writeFileSync(f, 'HPL1 2 00000000\n{}\n', { mode: 0o600 }); if (i % 2 === 0) fs.utimesSync(f, old, old); }
const rows = [];
for (let round = 0; round < 3; round++) {
  const e = await start(empty);
  // refill the aged half for every round
  for (let i = 0; i < N; i += 2) { const f = path.join(many, 'ledger', `t-${i}.ledger`); if (!fs.existsSync(f)) { fs.writeFileSync(f, 'HPL1 2 00000000\n{}\n', { mode: 0o600 }); fs.utimesSync(f, old, old); } }
  const m = await start(many);
  rows.push({ empty: Math.round(e.listening), tenK: Math.round(m.listening), sweepDoneAt: Math.round(m.sweep?.at ?? -1), sweepMs: m.sweep?.ms, scanned: m.sweep?.scanned, pingsDuringSweep: m.pings, p50PingMs: m.p50?.toFixed(1), maxPingMs: m.maxPing.toFixed(1), emptyMaxPingMs: e.maxPing.toFixed(1) });
}
console.table(rows);
for (const d of [base, ...scratchDirs]) fs.rmSync(d, { recursive: true, force: true });
