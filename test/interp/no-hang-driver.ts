// Child process of test/interp/no-hang.test.ts: runs scripts through the interpreter in-process,
// one at a time, as the differential harness does (runScript with the fds on files, a fresh
// temporary directory, a clean environment). A script that spins synchronously cannot be timed out
// from inside the process that runs it, so the test runs this driver as a child and kills it
// (SIGKILL) when a script runs past its limit. Requests and replies go through the IPC channel
// (fd 3); fds 0-2 of the driver are /dev/null.
//   request: { id, script }   reply: { id, status, stderr, ms }   (and { ready: true } at start)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runScript } from '../../host/interp/launch/cli.ts';
import { findSpawnAddon, setSpawnAddon } from '../../host/interp/execution/native-spawn.ts';

setSpawnAddon(findSpawnAddon([path.resolve('dist')]));

interface Request { id: number; script: string }

const queue: Request[] = [];
let busy = false;

async function runOne(r: Request): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'interp-nohang-'));
  const errPath = path.join(os.tmpdir(), `interp-nohang-err-${process.pid}-${r.id}`);
  const fin = fs.openSync('/dev/null', 'r');
  const fout = fs.openSync('/dev/null', 'w');
  const ferr = fs.openSync(errPath, 'w+');
  const t0 = Date.now();
  const umask = process.umask(); // (`umask` sets the process's: the next script gets it back)
  let status: number;
  try {
    status = await runScript(Buffer.from(r.script, 'utf8'), {
      posix: false, name: 'bash', fds: { 0: fin, 1: fout, 2: ferr }, cwd: dir,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, TERM: 'dumb' }, procGroups: true,
    });
  } catch (e) {
    status = -1;
    fs.writeSync(ferr, `driver: runScript threw: ${(e as Error)?.stack ?? String(e)}\n`);
  }
  const ms = Date.now() - t0;
  process.umask(umask);
  for (const fd of [fin, fout, ferr]) fs.closeSync(fd);
  // (stderr is kept short: only the start of it goes into the report of a failure)
  const buf = Buffer.alloc(2000);
  const fd = fs.openSync(errPath, 'r');
  const n = fs.readSync(fd, buf, 0, buf.length, 0);
  fs.closeSync(fd);
  fs.rmSync(errPath, { force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  process.send!({ id: r.id, status, stderr: buf.subarray(0, n).toString('latin1'), ms });
}

async function pump(): Promise<void> {
  if (busy) return;
  busy = true;
  try { while (queue.length) await runOne(queue.shift()!); } finally { busy = false; }
}

process.on('message', (m: Request) => { queue.push(m); void pump(); });
process.on('disconnect', () => process.exit(0));
process.send!({ ready: true });
