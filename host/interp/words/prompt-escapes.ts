// The backslash escapes of a prompt string (`\u`, `\w`, `\t`, `\$`…), as bash's
// decode_prompt_string: the first step of promptString (PS4, `${x@P}`), a table of its own.
import * as os from 'node:os';
import type { Shell } from '../execution/runner.ts';

/** The backslash escapes of a prompt (`${x@P}`, PS4), promptString's first step; `quote`: their results quoted for the expansions after. */
export function promptEscapes(sh: Shell, v: string, quote = false): string {
  if (!v.includes('\\')) return v;
  // (`quote`: what an escape gives is kept from the expansions that follow)
  const q = (r: string): string => (quote ? r.replace(/[\\$`]/g, '\\$&') : r);
  const pwd = sh.vars.get('PWD') ?? sh.cwd;
  const home = sh.vars.get('HOME');
  const host = os.hostname();
  const pad = (n: number): string => String(n).padStart(2, '0');
  return v.replace(/\\([0-7]{1,3}|.)/gs, (m, c: string) => {
    const r = one(m, c);
    // (bash gives `\\` a backslash that the expansions then see)
    return r === m || c === '\\' ? r : q(r);
  });
  function one(m: string, c: string): string {
    const d = new Date();
    switch (c) {
      case 'a': return '\x07';
      case 'e': return '\x1b';
      case 'n': return '\n';
      case 'r': return '\r';
      case '\\': return '\\';
      case '[': case ']': return '';
      case '$': return (process.getuid?.() ?? 1) === 0 ? '#' : '$';
      case 'h': return host.split('.')[0]!;
      case 'H': return host;
      case 'u': try { return os.userInfo().username; } catch { return sh.vars.get('USER') ?? ''; }
      case 's': return sh.arg0.replace(/^.*\//, '');
      case 'v': return '5.2';
      case 'V': return '5.2.15';
      case 'w': return home && home !== '/' && (pwd === home || pwd.startsWith(home + '/')) ? '~' + pwd.slice(home.length) : pwd;
      case 'W': return home && pwd === home ? '~' : pwd === '/' ? '/' : pwd.replace(/^.*\//, '');
      case 't': return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
      case 'A': return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
      case 'j': return String(sh.jobs?.length ?? 0);
      default:
        if (/^[0-7]+$/.test(c)) return String.fromCharCode(parseInt(c, 8) & 255);
        return m;
    }
  }
}
