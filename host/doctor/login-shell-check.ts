// What Codex's commands see: Codex runs every command with `bash -lc`, so `shell`, each plugin
// frontend and `node` (the launcher runs `node` from PATH) must be found by a login shell — whose
// PATH comes from /etc/profile and ~/.profile, not from the terminal doctor runs in — and must be
// the ones of this install.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { nodeVersionProblem } from './node-check.ts';
import { fail, pass, type CheckResult } from './check.ts';

type Env = Readonly<Record<string, string | undefined>>;

export const LOGIN_SHELL_TIMEOUT_MS = 10_000;

export interface LoginShellInput {
  readonly env: Env;
  /** Where `shell` must resolve: beside the invoked hpatch-router (null when not started through it). */
  readonly installBin: string | null;
  /** Where plugin frontends must resolve (HPATCH_FRONTEND_DIR, else installBin). */
  readonly frontendDir: string | null;
  /** The configured plugin tools (each has a frontend). */
  readonly tools: readonly string[];
}

// Each answer line starts with RS so that whatever a profile prints to stdout is skipped.
const SCRIPT = `for n in "$@"; do printf '\\036%s\\t%s\\n' "$n" "$(command -v -- "$n")"; done
printf '\\036%s\\t%s\\n' '(node --version)' "$(node --version 2>/dev/null)"`;

/** The profile file bash -l reads for this user: the first of ~/.bash_profile, ~/.bash_login, ~/.profile. */
export function loginProfile(env: Env): string {
  const home = env['HOME'] ?? '~';
  for (const f of ['.bash_profile', '.bash_login']) if (existsSync(join(home, f))) return `~/${f}`;
  return '~/.profile';
}

function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

export function checkLoginShell(input: LoginShellInput): CheckResult[] {
  const names = ['shell', ...input.tools];
  const r = spawnSync('bash', ['-lc', SCRIPT, 'hpatch-router-doctor', ...names], {
    env: input.env as NodeJS.ProcessEnv,
    cwd: input.env['HOME'] && existsSync(input.env['HOME']) ? input.env['HOME'] : '/',
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: LOGIN_SHELL_TIMEOUT_MS,
    maxBuffer: 1024 * 1024,
  });
  const profile = loginProfile(input.env);
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [fail('login PATH', 'bash is not installed', 'install bash: Codex runs every command with bash -lc')];
    if (code === 'ETIMEDOUT') return [fail('login PATH', `bash -lc did not finish within ${LOGIN_SHELL_TIMEOUT_MS / 1000} s`, `make ${profile} finish without waiting for input (Codex runs it before every command)`)];
    return [fail('login PATH', `bash -lc failed: ${r.error.message}`, 'run bash -lc true and fix what it reports')];
  }
  const found = new Map<string, string>();
  for (const line of r.stdout.split('\n')) {
    if (!line.startsWith('\x1e')) continue;
    const tab = line.indexOf('\t');
    found.set(line.slice(1, tab), line.slice(tab + 1));
  }
  const results: CheckResult[] = [];
  const addToPath = (dir: string): string => `add this line to ${profile} (read by bash -lc, as Codex runs commands): export PATH="${dir}:$PATH"`;
  for (const n of names) {
    const label = n === 'shell' ? 'login PATH: shell' : `login PATH: ${n} (plugin frontend)`;
    const dir = n === 'shell' ? input.installBin : input.frontendDir;
    if (dir === null) {
      results.push(fail(label, 'this install is unknown: doctor was not started through the hpatch-router launcher', 'run doctor as the installed hpatch-router (e.g. ~/.local/bin/hpatch-router doctor)'));
      continue;
    }
    const want = join(dir, n);
    if (n !== 'shell' && !lstatExists(want)) {
      results.push(fail(label, `the frontend ${want} does not exist yet`, 'start hpatch-router once: it creates the frontend of every configured plugin tool'));
      continue;
    }
    const got = found.get(n) ?? '';
    if (got === '') results.push(fail(label, `bash -lc finds no ${n}`, addToPath(dir)));
    else if (!got.startsWith('/')) results.push(fail(label, `bash -lc finds ${n} as a shell ${got === n ? 'function or builtin' : `alias (${got})`}`, `remove the ${n} function or alias from the login shell's startup files`));
    else if (!samePath(got, want)) results.push(fail(label, `bash -lc finds ${got}, not this install's ${want}`, `${addToPath(dir)} — or remove ${got} — so that ${dir} comes first`));
    else results.push(pass(label, got));
  }
  const node = found.get('(node --version)') ?? '';
  const nodeProblem = node === '' ? 'bash -lc finds no working node' : nodeVersionProblem(node);
  if (nodeProblem !== null) results.push(fail('login PATH: node', nodeProblem, `put Node.js 20 (>= 20.19) on the login PATH (${profile}): the launcher runs node from PATH`));
  else results.push(pass('login PATH: node', node));
  return results;
}

function lstatExists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
