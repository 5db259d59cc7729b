// The router's two directories: the runtime base (private: snapshots, pins, the frontend lock) and
// the state dir (the history ledger). Each must be, or be creatable as, what startup accepts —
// owner, mode, writable — with room to grow. Read-only: doctor creates nothing.
import { accessSync, constants, lstatSync, statfsSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { currentHost, privateDirProblem, RUNTIME_DIR_ENV, runtimeBasePath, type RuntimeBaseHost } from '../runtime/runtime-base.ts';
import { ledgerDirProblem } from '../history/ledger.ts';
import { errorText, fail, pass, type CheckResult } from './check.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Below this much free space the next snapshot (~10 MB) or ledger growth may not fit. */
export const MIN_FREE_BYTES = 64 * 1024 * 1024;

const mib = (n: number): string => `${Math.floor(n / (1024 * 1024))} MiB`;
const mode = (st: Stats): string => (st.mode & 0o777).toString(8).padStart(4, '0');

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/** The nearest existing ancestor of `p` (itself included). */
function existingAncestor(p: string): string {
  let d = p;
  while (lstatOrNull(d) === null && dirname(d) !== d) d = dirname(d);
  return d;
}

function freeSpaceProblem(name: string, dir: string): CheckResult | null {
  let free: number;
  try {
    const s = statfsSync(dir);
    free = s.bavail * s.bsize;
  } catch (e) {
    return fail(name, `cannot read the free space of ${dir}: ${errorText(e)}`, `make ${dir} readable`);
  }
  if (free < MIN_FREE_BYTES) return fail(name, `${dir} has ${mib(free)} free, less than ${mib(MIN_FREE_BYTES)}`, `free space on the file system of ${dir}`);
  return null;
}

function freeText(dir: string): string {
  try {
    const s = statfsSync(dir);
    return `${mib(s.bavail * s.bsize)} free`;
  } catch {
    return 'free space unknown';
  }
}

function writableProblem(dir: string): string | null {
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    return null;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? errorText(e);
  }
}

export function checkRuntimeBase(env: Env, host: RuntimeBaseHost = currentHost()): CheckResult {
  const name = 'runtime dir';
  let dir: string;
  try {
    dir = runtimeBasePath(env, host);
  } catch (e) {
    return fail(name, errorText(e), `set $${RUNTIME_DIR_ENV} to an absolute path, or unset it`);
  }
  const st = lstatOrNull(dir);
  if (st === null) {
    // The router creates the base itself, but not its parent (a missing parent means a wrong location).
    const parent = dirname(dir);
    const pst = lstatOrNull(parent);
    if (pst === null || !pst.isDirectory()) return fail(name, `${dir} is missing and so is its parent ${parent}`, `create ${parent}, or set $${RUNTIME_DIR_ENV} to a directory whose parent exists`);
    const w = writableProblem(parent);
    if (w !== null) return fail(name, `${dir} is missing and ${parent} is not writable (${w})`, `make ${parent} writable for you, or set $${RUNTIME_DIR_ENV} elsewhere`);
    return freeSpaceProblem(name, parent) ?? pass(name, `${dir} will be created (mode 0700) at the router's start; ${freeText(parent)}`);
  }
  const problem = privateDirProblem(dir, host.uid);
  if (problem !== null) {
    let fix: string;
    if (st.isSymbolicLink()) fix = `remove the symlink (rm ${dir}); the router creates a private directory there`;
    else if (!st.isDirectory()) fix = `move ${dir} away; the router creates a private directory there`;
    else if (st.uid !== host.uid) fix = `${dir} belongs to another user: remove it as that user, or set $${RUNTIME_DIR_ENV} to a directory of your own`;
    else fix = `chmod 700 ${dir}`;
    return fail(name, problem, fix);
  }
  const w = writableProblem(dir);
  if (w !== null) return fail(name, `${dir} is not writable (${w})`, `chmod 700 ${dir}`);
  return freeSpaceProblem(name, dir) ?? pass(name, `${dir}: yours, mode ${mode(st)}, writable, ${freeText(dir)}`);
}

/** The state dir as Ledger.open accepts it: `<state>/ledger` yours, a directory, not writable by group or others. */
export function checkStateDir(stateDir: string, uid: number = currentHost().uid): CheckResult {
  const name = 'state dir';
  const ledger = join(stateDir, 'ledger');
  const st = lstatOrNull(ledger);
  if (st === null) {
    const ancestor = existingAncestor(ledger);
    const ast = lstatOrNull(ancestor);
    if (ast === null || !ast.isDirectory()) return fail(name, `${ledger} is missing and ${ancestor} is not a directory`, `move ${ancestor} away, or pass --state-dir DIR`);
    const w = writableProblem(ancestor);
    if (w !== null) return fail(name, `${ledger} is missing and ${ancestor} is not writable (${w})`, `make ${ancestor} writable for you, or pass --state-dir DIR`);
    return freeSpaceProblem(name, ancestor) ?? pass(name, `${ledger} will be created (mode 0700) at the router's start; ${freeText(ancestor)}`);
  }
  // (the ledger's own rule, so that doctor and Ledger.open never disagree)
  const problem = ledgerDirProblem(st, uid);
  if (problem) {
    const fix = { symlink: `replace it with a directory: rm ${ledger} (the router creates it)`, 'not-dir': `move ${ledger} away; the router creates it`, owner: `chown -R ${uid} ${ledger}, or pass --state-dir DIR`, mode: `chmod 700 ${ledger}` }[problem.kind];
    return fail(name, `${ledger} ${problem.text}`, fix);
  }
  const w = writableProblem(ledger);
  if (w !== null) return fail(name, `${ledger} is not writable (${w})`, `chmod 700 ${ledger}`);
  return freeSpaceProblem(name, ledger) ?? pass(name, `${ledger}: yours, mode ${mode(st)}, writable, ${freeText(ledger)}`);
}
