// Durations on the command line (`--shutdown-grace 30s`, `--ledger-retention 30d`): a whole number
// with a unit, so that "30" is never silently read as seconds where days were meant.

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** Far beyond any sensible setting, and well inside what setTimeout and Date arithmetic handle. */
const MAX_MS = 10 * 365 * 86_400_000;

/** Milliseconds, or a problem naming `flag`. "0" (no unit) is zero. */
export function parseDuration(flag: string, text: string): number | string {
  if (text === '0') return 0;
  const m = /^([0-9]{1,12})(ms|s|m|h|d)$/.exec(text);
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  if (!m) return `${flag} must be a whole number with a unit (ms, s, m, h or d), e.g. 30s or 30d, not ${JSON.stringify(shown)}`;
  const ms = Number(m[1]) * UNITS[m[2]!]!;
  if (ms > MAX_MS) return `${flag} ${shown} is more than 10 years`;
  return ms;
}

/** The shortest exact spelling of `ms` (30d, 90s, 1500ms) for messages. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    if (ms >= UNITS[unit]! && ms % UNITS[unit]! === 0) return `${ms / UNITS[unit]!}${unit}`;
  }
  return `${ms}ms`;
}
