// Tilde expansion: the home directory a tilde-prefix (`~`, `~user`, `~+`, `~-`) names, and where
// a word's tilde-prefix ends. Used by the Expander for words and assignments and by parameter
// expansion for the words of `${x-word}`.
import * as os from 'node:os';
import type { Shell } from '../execution/runner.ts';

/** The current user's home directory from the password database (`~` with HOME unset). */
function homeFromPasswd(): string {
  try { return os.userInfo().homedir; } catch { return ''; }
}

/** The directory `~user` names (`~`: HOME, `~+`: PWD, `~-`: OLDPWD); undefined: the prefix stays as written. */
export function tildeHome(sh: Shell, user: string): string | undefined {
  if (user === '') return sh.vars.get('HOME') ?? homeFromPasswd();
  if (user === '+') return sh.vars.get('PWD');
  if (user === '-') return sh.vars.get('OLDPWD');
  if (!/^[a-zA-Z0-9_.-]+$/.test(user)) return undefined;
  return sh.userHome(user);
}

/** The tilde-prefix starting `v` expanded: its home and the text after it; `whole`: `v` is the whole word (no part follows it). */
export function tildePrefix(sh: Shell, v: string, whole: boolean, assign = false): { home: string; rest: string } | undefined {
  let slash = v.indexOf('/');
  const colon = v.indexOf(':'); // bash ends the tilde prefix at ':' too, in any word (`~root:x`)
  if (colon >= 0 && (slash < 0 || colon < slash)) { slash = colon; whole = true; } // `x=~:~/bin`
  const end = slash < 0 ? v.length : slash;
  // `~$x`, `~'/x'`, `~""`: the tilde-prefix runs on into a quoted or expanded part: not expanded
  if (slash < 0 && !whole) return undefined;
  const user = v.slice(1, end);
  const h = tildeHome(sh, user);
  if (h === undefined) return undefined;
  return { home: h, rest: v.slice(end) };
}
