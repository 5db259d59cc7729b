// Runs the real Codex CLI (the pinned npm package) non-interactively against a Responses base URL.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CODEX_BIN = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'codex');
/** Scratch space for CODEX_HOMEs. Not under /tmp: Codex refuses to create its helper aliases there. Gitignored. */
export const TEST_TMP = path.join(PROJECT_ROOT, '.test-tmp');
export const MOCK_KEY = 'sk-mock-not-a-real-key';

export interface CodexRunOptions {
  /** Provider base URL, e.g. `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  prompt: string;
  /** Omit to let Codex pick its default model (gpt-6.2-sol in 0.171.0: responses-lite + code mode). */
  model?: string;
  /** Working directory of the session (see makeWorkDir). */
  cwd: string;
  /** Extra `codex exec` options, placed before the prompt (e.g. ['--enable', 'code_mode_only']). */
  extraArgs?: string[];
  /** Extra provider-table keys, e.g. `{ stream_max_retries: 1, request_max_retries: 0 }`. */
  provider?: Record<string, string | number | boolean>;
  /** Default true: `--dangerously-bypass-approvals-and-sandbox` (no approvals, no sandbox). */
  bypassSandbox?: boolean;
  /** Extra environment (applied last; `undefined` deletes a variable). */
  env?: Record<string, string | undefined>;
  /** Hard limit; the whole process group is killed when it passes. Default 60 s. */
  timeoutMs?: number;
  /** Reuse this CODEX_HOME instead of a fresh one. */
  codexHome?: string;
}

export interface CodexRunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  codexHome: string;
  timedOut: boolean;
  durationMs: number;
  /** argv after the codex binary, for failure messages. */
  args: string[];
}

/** A fresh, empty CODEX_HOME under `.test-tmp/`. */
export function makeCodexHome(label = 'codex-home'): string {
  fs.mkdirSync(TEST_TMP, { recursive: true });
  return fs.mkdtempSync(path.join(TEST_TMP, `${label}-`));
}

/**
 * A fresh working directory for a session, outside the project's git repository (so Codex does not pick up
 * the repository's root, AGENTS.md or .git into its context). /tmp is fine for the cwd, only not for CODEX_HOME.
 */
export function makeWorkDir(label = 'codex-work'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `hpatch-${label}-`));
}

/** Removes a directory created by makeCodexHome/makeWorkDir unless KEEP_TEST_TMP is set (for post-mortems). */
export function removeDir(dir: string): void {
  if (process.env.KEEP_TEST_TMP) return;
  fs.rmSync(dir, { recursive: true, force: true });
}

function tomlValue(v: string | number | boolean): string {
  // JSON string escapes are valid TOML basic-string escapes for the ASCII values used here.
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/** The `-c` arguments that select a custom Responses provider at `baseUrl`. */
export function providerArgs(baseUrl: string, extra: Record<string, string | number | boolean> = {}, model?: string): string[] {
  const table = { name: 'mock', base_url: baseUrl, env_key: 'MOCK_KEY', wire_api: 'responses', ...extra };
  const inline = `{${Object.entries(table)
    .map(([k, v]) => `${k}=${tomlValue(v)}`)
    .join(',')}}`;
  const args = ['-c', 'model_provider=mock', '-c', `model_providers.mock=${inline}`];
  if (model !== undefined) args.push('-c', `model=${tomlValue(model)}`);
  return args;
}

/**
 * The HOME Codex's commands see unless a test gives its own: Codex runs every command with `bash -lc`,
 * and the machine's own login profile is not the test's business — on a development machine it may
 * run slow or lock-taking setup (pyenv rehash), and a command Codex kills mid-profile can leave such
 * a lock behind for every later command. This profile only puts the test process's PATH back (a
 * login shell resets PATH from /etc/profile).
 */
export function testHome(): string {
  const home = path.join(TEST_TMP, 'home');
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(home, '.profile'), `export PATH=${JSON.stringify(process.env.PATH ?? '/usr/bin:/bin')}\n`);
  return home;
}

/** Environment for Codex: the parent's, minus anything that would leak a real session or CA setup into it. */
export function codexEnv(codexHome: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: testHome() };
  for (const key of Object.keys(env)) {
    // A test run from inside a Codex session would otherwise pass its thread/session ids and home down.
    if (key.startsWith('CODEX_') || key === 'OPENAI_API_KEY' || key === 'OPENAI_BASE_URL') delete env[key];
  }
  delete env.NODE_EXTRA_CA_CERTS;
  env.CODEX_HOME = codexHome;
  env.MOCK_KEY = MOCK_KEY;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

function spawnCodex(args: string[], opts: CodexRunOptions, codexHome: string): Promise<CodexRunResult> {
  const started = Date.now();
  const timeoutMs = opts.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    // Own process group, so a timeout kills codex.js, the native binary and the commands it started.
    const child = spawn(CODEX_BIN, args, {
      cwd: opts.cwd,
      env: codexEnv(codexHome, opts.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const verbose = !!process.env.CODEX_E2E_VERBOSE;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (verbose) process.stderr.write(d);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      if (verbose) process.stderr.write(d);
    });
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* group already gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(); // stray descendants (e.g. a still-running command session)
      resolve({ code, signal, stdout, stderr, codexHome, timedOut, durationMs: Date.now() - started, args });
    });
  });
}

function commonArgs(opts: CodexRunOptions): string[] {
  const args = ['exec', '--skip-git-repo-check', ...providerArgs(opts.baseUrl, opts.provider, opts.model)];
  if (opts.bypassSandbox ?? true) args.push('--dangerously-bypass-approvals-and-sandbox');
  args.push(...(opts.extraArgs ?? []));
  return args;
}

/** `codex exec … <prompt>` with stdin = /dev/null and a fresh CODEX_HOME (unless `codexHome` is given). */
export function runCodex(opts: CodexRunOptions): Promise<CodexRunResult> {
  const codexHome = opts.codexHome ?? makeCodexHome();
  return spawnCodex([...commonArgs(opts), opts.prompt], opts, codexHome);
}

/** `codex exec … resume --last <prompt>`: the next user turn of the newest session in `codexHome`. */
export function resumeCodex(opts: CodexRunOptions & { codexHome: string }): Promise<CodexRunResult> {
  return spawnCodex([...commonArgs(opts), 'resume', '--last', opts.prompt], opts, opts.codexHome);
}

/** A readable dump for assertion messages. */
export function describeRun(r: CodexRunResult): string {
  return `codex exited ${r.code}${r.signal ? ` (${r.signal})` : ''}${r.timedOut ? ' after TIMEOUT' : ''} in ${r.durationMs} ms\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
}
