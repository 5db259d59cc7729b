// The Node.js running the router: the version package.json's engines allow, and --no-node-snapshot
// (isolated-vm shares V8's read-only heap otherwise; the launcher passes it).
import { fail, pass, type CheckResult } from './check.ts';

export const NODE_RANGE = { min: [20, 19, 0], belowMajor: 21 } as const;

/** Why `version` (e.g. "20.20.2") is outside the supported range, or null. */
export function nodeVersionProblem(version: string): string | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m) return `cannot read the version "${version}"`;
  const [maj, min, pat] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [a, b, c] = NODE_RANGE.min;
  if (maj >= NODE_RANGE.belowMajor) return `Node ${version} is newer than the supported 20.x line (isolated-vm 5 builds for Node 20 only)`;
  if (maj < a || (maj === a && (min < b || (min === b && pat < c)))) return `Node ${version} is older than ${a}.${b}.${c}`;
  return null;
}

export function checkNode(version: string = process.version, execArgv: readonly string[] = process.execArgv): CheckResult {
  const name = 'node';
  const problem = nodeVersionProblem(version);
  if (problem !== null) return fail(name, problem, `install Node.js 20 (>= 20.19) and run make install again (native modules are built for one Node)`);
  if (!execArgv.includes('--no-node-snapshot')) {
    return fail(name, `${version} without --no-node-snapshot`, 'start hpatch-router through its launcher (bin/hpatch-router or the installed $PREFIX/bin/hpatch-router), which passes --no-node-snapshot');
  }
  return pass(name, `${version} with --no-node-snapshot`);
}
