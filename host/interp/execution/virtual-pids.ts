// Process ids for what runs in-process but is a process in bash: subshells ($BASHPID) and
// background jobs that started no external command ($!, `jobs -p`). They are numbered from
// Linux's PID_MAX_LIMIT (2^22) up, where no pid of a real process can ever be, so `kill` with
// one never reaches an unrelated process: it is delivered to the job it names, or fails (ESRCH).

/** Linux's PID_MAX_LIMIT on 64-bit: /proc/sys/kernel/pid_max is at most this, pids are below it. */
const FIRST_VIRTUAL_PID = 4194304;
let next = FIRST_VIRTUAL_PID;

export function virtualPid(): number {
  return ++next;
}

/**
 * One sequence for `Job.id` (jobs.ts, subshells.ts: `%N` falls back to it) and the names of
 * here-document temp files (redirections.ts), in the order they are made.
 */
let jobSeq = 0;
export function nextJobSeq(): number {
  return ++jobSeq;
}

export function isVirtualPid(pid: number): boolean {
  return pid > FIRST_VIRTUAL_PID;
}

/**
 * Signals whose default action does not end a process (ignore, stop, continue): delivered to an
 * in-process job without a trap, they change nothing (stopping cannot be emulated in-process).
 */
const NOT_TERMINATING = new Set([0, 17, 18, 19, 20, 21, 22, 23, 28]); // 0 CHLD CONT STOP TSTP TTIN TTOU URG WINCH

export function endsProcess(sig: number): boolean {
  return !NOT_TERMINATING.has(sig);
}
