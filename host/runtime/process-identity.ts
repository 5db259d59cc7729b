// Process identity for lock and pin files: a pid alone can be reused after its process dies, so a
// record also carries the process start time (field 22 of /proc/<pid>/stat, clock ticks since boot).
// Where /proc is unavailable (macOS) the start time is null and only pid liveness is compared.
import { readFileSync } from 'node:fs';

export interface ProcessIdentity {
  readonly pid: number;
  /** Start time from /proc/<pid>/stat, or null where the platform has no /proc. */
  readonly start: string | null;
}

interface ProcStat {
  readonly state: string;
  readonly start: string;
}

function procStat(pid: number): ProcStat | null | 'unsupported' {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH') return process.platform === 'linux' ? null : 'unsupported';
    return 'unsupported';
  }
  // The command name (field 2) is parenthesized and may contain spaces or ')': split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const start = fields[19];
  if (state === undefined || start === undefined || !/^\d+$/.test(start)) return 'unsupported';
  return { state, start };
}

export function selfIdentity(): ProcessIdentity {
  const st = procStat(process.pid);
  return { pid: process.pid, start: st !== null && st !== 'unsupported' ? st.start : null };
}

/** Whether the process a record names is still that process (not dead, not a zombie, pid not reused). */
export function isAlive(id: ProcessIdentity): boolean {
  if (!Number.isSafeInteger(id.pid) || id.pid <= 0) return false;
  try {
    process.kill(id.pid, 0);
  } catch (e) {
    // EPERM: the pid exists but belongs to someone else — a different process than the record's.
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
    if ((e as NodeJS.ErrnoException).code === 'EPERM') return false;
  }
  const st = procStat(id.pid);
  if (st === null) return false;
  if (st === 'unsupported') return true;
  // A zombie has released everything it held; 'X' is dead.
  if (st.state === 'Z' || st.state === 'X') return false;
  return id.start === null || id.start === st.start;
}

export function parseIdentity(value: unknown): ProcessIdentity | null {
  if (typeof value !== 'object' || value === null) return null;
  const { pid, start } = value as Record<string, unknown>;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  if (start !== null && (typeof start !== 'string' || !/^\d+$/.test(start))) return null;
  return { pid, start };
}
