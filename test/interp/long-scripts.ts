// Long, real-world-style scripts (fixtures/interp/long/*.sh) run as files through real bash and
// through `bin/hpatch-router interp FILE`, as a user or the independent check runs them: each in a
// fresh directory holding a copy of the script, stdin from /dev/null, a clean environment.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const LONG_DIR = path.resolve('fixtures/interp/long');
const LAUNCHER = path.resolve('bin/hpatch-router');

export interface FileOutcome { stdout: string; stderr: string; merged: string; status: number }

/** Runs `file` with `argv0 … args` in a fresh copy; the directory name is replaced by `$TMP`. */
export function runFile(shell: 'bash' | 'interp', file: string): FileOutcome {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'long-script-'));
  const name = path.basename(file);
  fs.copyFileSync(file, path.join(dir, name));
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, TERM: 'dumb', LANG: 'C.UTF-8' };
  const [exe, argv] = shell === 'bash' ? ['bash', [`./${name}`]] : [LAUNCHER, ['interp', `./${name}`]];
  // merged output through one file shows the interleaving of stdout and stderr a terminal would
  const run = (stdio: [string, number | 'pipe', number | 'pipe']): ReturnType<typeof spawnSync> =>
    spawnSync(exe, argv as string[], { cwd: dir, env, stdio: stdio as never, encoding: 'latin1', timeout: 60_000 });
  try {
    const sep = run(['ignore', 'pipe', 'pipe']);
    const mergedPath = path.join(os.tmpdir(), `long-merged-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const fd = fs.openSync(mergedPath, 'w+');
    let merged: string;
    try { run(['ignore', fd, fd]); merged = fs.readFileSync(mergedPath, 'latin1'); } finally { fs.closeSync(fd); fs.rmSync(mergedPath, { force: true }); }
    // the merged run happens in the same directory after the first: scripts must not depend on leftovers
    const norm = (s: string): string => s.split(dir).join('$TMP');
    return { stdout: norm(String(sep.stdout)), stderr: norm(String(sep.stderr)), merged: norm(merged), status: sep.status ?? 128 };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Bash's output lines that the interpreter's output also has in order (a longest common subsequence). */
export function matchedLines(want: string[], got: string[]): number {
  let prev = new Array<number>(got.length + 1).fill(0);
  for (let i = 1; i <= want.length; i++) {
    const cur = new Array<number>(got.length + 1).fill(0);
    for (let j = 1; j <= got.length; j++) {
      cur[j] = want[i - 1] === got[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    }
    prev = cur;
  }
  return prev[got.length]!;
}

export const lines = (s: string): string[] => (s === '' ? [] : s.replace(/\n$/, '').split('\n'));

export function longScripts(): string[] {
  return fs.existsSync(LONG_DIR) ? fs.readdirSync(LONG_DIR).filter((f) => f.endsWith('.sh')).sort().map((f) => path.join(LONG_DIR, f)) : [];
}
