// Environment entries whose names are not shell identifiers — what dash drops when it execs — for
// the tests that bin/hpatch-router, the shell locator and the shell worker hand the environment on
// unchanged (REQ-SHELL-001 9).

/** An exported Bash function, dotted and dashed names, and one of odd bytes (no `=`, valid UTF-8). */
export const ODD_ENV: Readonly<Record<string, string>> = {
  'BASH_FUNC_f%%': '() {  echo hi\n}',
  'a.b': '1',
  'x-y': '2',
  ' odd\x01\tna\nme\u00e9[%]:*': 'v=w \n',
};

/** `NAME=VALUE` of every ODD_ENV entry. */
export const ODD_ENTRIES: readonly string[] = Object.entries(ODD_ENV).map(([k, v]) => `${k}=${v}`);

/**
 * An entry whose name and value are not UTF-8 (bytes FF and FE), as read with `latin1`: node's
 * spawn cannot pass it (its env is strings), so `withRawEntry` adds it with env(1).
 */
export const RAW_ENTRY = 'raw\xffname=v\xfe';

/** `[file, args]` that run `argv` with RAW_ENTRY added to the environment it is given. */
export function withRawEntry(argv: readonly string[]): [string, string[]] {
  return ['bash', ['-c', 'exec env "$(printf "raw\\377name=v\\376")" "$@"', 'bash', ...argv]];
}

/** The entries of an `env -0` or /proc/PID/environ dump. */
export function entriesOf(dump: string): string[] {
  return dump.split('\0').filter((e) => e !== '');
}
