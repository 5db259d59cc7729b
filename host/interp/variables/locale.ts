// The locale the variables set: bash follows LANG and the LC_ variables as they are assigned
// (its sv_locale: setlocale, and a warning for a locale that does not exist), and characters are
// counted, cut and matched by the character type locale they name.
import { hasUtf8Codeset, isUtf8LocaleName, localeExists, localeFallbacks } from '../words/utf8-chars.ts';
import type { VarHost } from './host.ts';
import type { VarStore } from './store.ts';

/** The variables bash's sv_locale watches. */
export const LOCALE_VARS = new Set(['LANG', 'LC_ALL', 'LC_CTYPE', 'LC_COLLATE', 'LC_MESSAGES', 'LC_NUMERIC', 'LC_TIME']);

/**
 * bash's sv_locale after `name` changed: setlocale for its category (LC_ALL: all of them;
 * another LC_ only when LC_ALL is empty, with LANG as the fallback; LANG and an empty LC_ALL
 * never warn) and a warning when the locale does not exist. glibc remembers a failed name per
 * category: the next failure has no errno, and bash leaves out its text.
 */
export function localeChanged(vars: VarStore, host: VarHost, name: string): void {
  const all = vars.get('LC_ALL') ?? '';
  if (name === 'LANG' || (name === 'LC_ALL' ? all === '' : all !== '')) return;
  const value = name === 'LC_ALL' ? all : vars.get(name) || vars.get('LANG') || '';
  if (localeExists(value)) return;
  const cat = name === 'LC_ALL' ? 'LC_CTYPE' : name;
  const tried = (vars.localeTried ??= new Set());
  const first = !tried.has(`${cat}:${value}`);
  for (const f of localeFallbacks(value)) tried.add(`${cat}:${f}`);
  host.writeErrNow(host.errLine(`warning: setlocale: ${name}: cannot change locale (${value})${first ? ': No such file or directory' : ''}`));
}

/**
 * bash's start (set_default_locale): an LC_ALL from the environment naming a locale that does not
 * exist gets one warning, before any line is read (no line number, no errno text); glibc then
 * remembers the name as failed, so a later assignment of it warns without the errno text.
 */
export function startupLocale(vars: VarStore, host: VarHost): void {
  const all = vars.get('LC_ALL') ?? '';
  if (all === '' || localeExists(all)) return;
  const tried = (vars.localeTried ??= new Set());
  for (const f of localeFallbacks(all)) tried.add(`LC_CTYPE:${f}`);
  tried.add(`LC_CTYPE:${all}`);
  host.writeErrNow(`bash: warning: setlocale: LC_ALL: cannot change locale (${all})\n`);
}

/**
 * Whether the shell's character type locale (LC_ALL, else LC_CTYPE, else LANG) is UTF-8 and
 * exists: characters are counted, cut and matched by it. Read when used: bash follows
 * assignments at once.
 */
export function utf8Locale(vars: VarStore): boolean {
  return isUtf8LocaleName(ctypeName(vars));
}

/** Whether that locale's name has a UTF-8 codeset, installed or not: `\u` escapes go by it, like bash's. */
export function utf8Escapes(vars: VarStore): boolean {
  return hasUtf8Codeset(ctypeName(vars));
}

function ctypeName(vars: VarStore): string {
  return vars.get('LC_ALL') || vars.get('LC_CTYPE') || vars.get('LANG') || '';
}
