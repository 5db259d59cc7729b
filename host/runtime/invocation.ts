// How the launcher (bin/hpatch-router) was invoked. It exports HPATCH_INVOKED_AS="$0"; the entry takes
// it out of the environment at once, so no child process of the router or a worker inherits a stale
// value, and keeps it here for the role that needs it (dispatch, frontend directory). No imports: the
// entry loads this before it knows its role.

export const INVOKED_AS_ENV = 'HPATCH_INVOKED_AS';

let taken = false;
let invoked: string | undefined;

/** Reads and removes HPATCH_INVOKED_AS from `env` (once per process; later calls return the same value). */
export function takeInvokedAs(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!taken) {
    taken = true;
    const v = env[INVOKED_AS_ENV];
    invoked = v === undefined || v === '' ? undefined : v;
    delete env[INVOKED_AS_ENV];
  }
  return invoked;
}

/** The path the launcher was invoked as, if the process was started through it. */
export function invokedAs(): string | undefined {
  return takeInvokedAs();
}

/** The last path component, without importing node:path. */
export function invokedName(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}
