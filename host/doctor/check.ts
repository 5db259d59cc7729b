// One doctor check's result: what was found, and for anything wrong, the fix in words an operator
// can follow. `warn` is reported but does not fail doctor (the upstream may be down for a moment).
export type CheckStatus = 'pass' | 'fail' | 'warn';

export interface CheckResult {
  readonly name: string;
  readonly status: CheckStatus;
  readonly detail: string;
  /** What to do; present exactly when the status is not pass. */
  readonly fix?: string;
}

export const pass = (name: string, detail: string): CheckResult => ({ name, status: 'pass', detail });
export const fail = (name: string, detail: string, fix: string): CheckResult => ({ name, status: 'fail', detail, fix });
export const warn = (name: string, detail: string, fix: string): CheckResult => ({ name, status: 'warn', detail, fix });

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
