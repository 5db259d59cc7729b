// Differential harness: runs a script through real bash (spawnSync) and through the
// interpreter in-process (fds 0/1/2 redirected to temp files), in a fresh temp directory
// with a clean environment.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { runScript } from '../../host/interp/launch/cli.ts';
import type { Handlers } from '../../host/interp/execution/handlers.ts';
import { findSpawnAddon, setSpawnAddon } from '../../host/interp/execution/native-spawn.ts';

// external commands start as they do from the CLI: through the posix_spawn addon `make build` made
setSpawnAddon(findSpawnAddon([path.resolve('dist')]));

export interface Case { name: string; script: string; stdin?: string; posix?: boolean; stderr?: boolean; file: string; restricted?: boolean; asFile?: boolean }
export interface Outcome { stdout: string; stderr: string; status: number }

/**
 * Parses a fixture file: cases start with `### name [flags]`; flags: nostderr, posix, stdin=TEXT
 * (\n escapes), @restricted (`bash -r`), @file (run as `bash script.sh`, the script saved in
 * the case's directory, instead of `bash -c`).
 */
export function loadCases(file: string): Case[] {
  const text = fs.readFileSync(file, 'utf8');
  const cases: Case[] = [];
  let cur: Case | undefined;
  const lines: string[] = [];
  const flush = (): void => { if (cur) { cur.script = lines.join('\n') + '\n'; cases.push(cur); } lines.length = 0; };
  for (const line of text.split('\n')) {
    const m = /^### (.*)$/.exec(line);
    if (m) {
      flush();
      let spec = m[1]!;
      const c: Case = { name: '', script: '', stderr: true, file: path.basename(file) };
      const sm = /\bstdin=(.*)$/.exec(spec);
      if (sm) { c.stdin = sm[1]!.replace(/\\n/g, '\n').replace(/\\t/g, '\t'); spec = spec.slice(0, sm.index); }
      if (/\bnostderr\b/.test(spec)) { c.stderr = false; spec = spec.replace(/\bnostderr\b/, ''); }
      if (/\bposix\b/.test(spec)) { c.posix = true; spec = spec.replace(/\bposix\b/, ''); }
      // (`@`-words: names say "file" and "restricted" often)
      if (/(^|\s)@restricted\b/.test(spec)) { c.restricted = true; spec = spec.replace(/(^|\s)@restricted\b/, ''); }
      if (/(^|\s)@file\b/.test(spec)) { c.asFile = true; spec = spec.replace(/(^|\s)@file\b/, ''); }
      c.name = spec.trim();
      cur = c;
      continue;
    }
    if (cur) lines.push(line);
  }
  flush();
  // drop the trailing empty line of each case body
  for (const c of cases) c.script = c.script.replace(/\n+$/, '\n');
  return cases;
}

/** The name a `file` case is saved and run under. */
const SCRIPT = 'script.sh';

export function cleanEnv(home: string): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, TERM: 'dumb' };
}

/** The reference shell: bash, or for POSIX cases `bash --posix` (what `interp --posix` is held to). */
export function runBash(c: Case, dir: string): Outcome {
  const pre = c.restricted ? ['-r'] : [];
  if (c.asFile) fs.writeFileSync(path.join(dir, SCRIPT), c.script);
  const run = c.asFile ? [SCRIPT] : ['-c', c.script, c.posix ? 'sh' : 'bash'];
  const [exe, argv] = ['bash', [...(c.posix ? ['--posix'] : []), ...pre, ...run]];
  // stdin from a regular file, as for the interpreter: Node's stdio pipes are sockets, and a bash
  // whose stdin is a socket believes it runs under rshd and reads the system bashrc first
  const inPath = path.join(os.tmpdir(), `bash-in-${process.pid}-${Math.random().toString(36).slice(2)}`);
  fs.writeFileSync(inPath, c.stdin ?? '');
  const fin = fs.openSync(inPath, 'r');
  fs.unlinkSync(inPath);
  try {
    const r = spawnSync(exe, argv as string[], { cwd: dir, env: cleanEnv(dir), stdio: [fin, 'pipe', 'pipe'], encoding: 'latin1', timeout: 10000 });
    return { stdout: r.stdout, stderr: r.stderr, status: r.status ?? 128 };
  } finally { fs.closeSync(fin); }
}

/** `handlers`: what the shell is given instead of the defaults (execution/handlers.ts). */
export async function runInterp(c: Case, dir: string, handlers?: Handlers): Promise<Outcome> {
  const inPath = path.join(dir, '.stdin');
  fs.writeFileSync(inPath, c.stdin ?? '');
  const outPath = path.join(os.tmpdir(), `interp-out-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const errPath = outPath + '.err';
  const fin = fs.openSync(inPath, 'r');
  fs.unlinkSync(inPath);
  const fout = fs.openSync(outPath, 'w+');
  const ferr = fs.openSync(errPath, 'w+');
  try {
    if (c.asFile) fs.writeFileSync(path.join(dir, SCRIPT), c.script);
    const status = await runScript(Buffer.from(c.script, 'utf8'), {
      posix: !!c.posix, name: c.asFile ? SCRIPT : c.posix ? 'sh' : 'bash', fds: { 0: fin, 1: fout, 2: ferr }, cwd: dir, env: cleanEnv(dir), procGroups: true,
      restricted: c.restricted, cMode: !c.asFile, handlers,
    });
    return { stdout: fs.readFileSync(outPath, 'latin1'), stderr: fs.readFileSync(errPath, 'latin1'), status };
  } finally {
    for (const fd of [fin, fout, ferr]) fs.closeSync(fd);
    fs.rmSync(outPath, { force: true }); fs.rmSync(errPath, { force: true });
  }
}

export function freshDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'interp-case-'));
}

/** Runs `c` through bash and the interpreter, each in a fresh directory: stdout, status and (unless `nostderr`) stderr must match. */
export async function expectSameAsBash(c: Case): Promise<void> {
  const d1 = freshDir(), d2 = freshDir();
  try {
    const want = runBash(c, d1);
    const got = await runInterp(c, d2);
    const norm = (s: string, d: string): string => s.split(d).join('$TMP');
    expect(norm(got.stdout, d2), 'stdout').to.equal(norm(want.stdout, d1));
    expect(got.status, 'status').to.equal(want.status);
    if (c.stderr) expect(norm(got.stderr, d2), 'stderr').to.equal(norm(want.stderr, d1));
  } finally {
    fs.rmSync(d1, { recursive: true, force: true });
    fs.rmSync(d2, { recursive: true, force: true });
  }
}
