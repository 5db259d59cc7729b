// Plugin discovery (REQ-PLUGIN-001): the direct regular files of the plugin directory whose names
// end in .js or .mjs, in lexical filename order, each read once into memory. Nothing else is a
// declaration; nothing is watched or re-read (the registry is fixed for the process lifetime).
import { constants, type Stats } from 'node:fs';
import { lstat, open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { PluginProblem } from './validate.ts';

export interface DiscoveredDeclaration {
  /** Absolute path (the plugin directory joined with the entry name). */
  readonly file: string;
  readonly source: string;
}

/** An entry that is not a declaration; reported only for debug logging. */
export interface SkippedEntry {
  readonly name: string;
  readonly kind: 'directory' | 'symlink' | 'other';
}

export type DiscoveryResult =
  | { readonly ok: true; readonly declarations: readonly DiscoveredDeclaration[]; readonly skipped: readonly SkippedEntry[] }
  | { readonly ok: false; readonly problems: readonly PluginProblem[] };

const DECLARATION_NAME = /\.m?js$/;
// O_NOFOLLOW closes the lstat→open race (an entry swapped for a symlink); O_NONBLOCK keeps a
// FIFO swapped in at that moment from blocking startup. Neither exists on Windows.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export async function discoverPlugins(dir: string): Promise<DiscoveryResult> {
  let dirStat: Stats;
  try {
    dirStat = await stat(dir);
  } catch (e) {
    // A missing directory contributes no plugins.
    if (errno(e) === 'ENOENT') return { ok: true, declarations: [], skipped: [] };
    return { ok: false, problems: [{ file: dir, message: `plugin directory cannot be read: ${describeError(e)}` }] };
  }
  if (!dirStat.isDirectory()) return { ok: false, problems: [{ file: dir, message: 'plugin directory exists but is not a directory' }] };

  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    return { ok: false, problems: [{ file: dir, message: `plugin directory cannot be read: ${describeError(e)}` }] };
  }
  // Default sort compares UTF-16 code units: the lexical order the requirement asks for, independent of locale.
  names.sort();

  const declarations: DiscoveredDeclaration[] = [];
  const skipped: SkippedEntry[] = [];
  const problems: PluginProblem[] = [];
  for (const name of names) {
    if (!DECLARATION_NAME.test(name)) continue;
    const file = join(dir, name);
    const read = await readDeclaration(file);
    if (read.kind === 'source') declarations.push({ file, source: read.source });
    else if (read.kind === 'skip') skipped.push({ name, kind: read.entry });
    else problems.push({ file, message: read.message });
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, declarations, skipped };
}

/**
 * Declarations named on a command line (`plugins validate FILE|DIR…`): a directory is discovered as
 * the plugin directory is; a file is read as a plugin-directory entry would be, and a name the
 * router would skip there (not .js/.mjs, a symlink, not a regular file) is a problem, not a pass.
 */
export async function discoverPaths(paths: readonly string[]): Promise<DiscoveryResult> {
  const declarations: DiscoveredDeclaration[] = [];
  const skipped: SkippedEntry[] = [];
  const problems: PluginProblem[] = [];
  for (const path of paths) {
    let st: Stats;
    try {
      st = await lstat(path);
    } catch (e) {
      problems.push({ file: path, message: errno(e) === 'ENOENT' ? 'does not exist' : `cannot be read: ${describeError(e)}` });
      continue;
    }
    // A symlink to a directory names that directory; only entries inside it are not followed.
    if (st.isDirectory() || (st.isSymbolicLink() && (await stat(path).catch(() => null))?.isDirectory())) {
      const found = await discoverPlugins(path);
      if (found.ok) {
        declarations.push(...found.declarations);
        skipped.push(...found.skipped);
      } else problems.push(...found.problems);
      continue;
    }
    if (!DECLARATION_NAME.test(path)) {
      problems.push({ file: path, message: 'is not a declaration: the router loads only files named *.js or *.mjs' });
      continue;
    }
    const read = await readDeclaration(path);
    if (read.kind === 'source') declarations.push({ file: path, source: read.source });
    else if (read.kind === 'skip') problems.push({ file: path, message: `is a ${read.entry === 'other' ? 'special file' : read.entry}; the router loads only regular files from its plugin directory` });
    else problems.push({ file: path, message: read.message });
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, declarations, skipped };
}

type ReadOutcome =
  | { readonly kind: 'source'; readonly source: string }
  | { readonly kind: 'skip'; readonly entry: SkippedEntry['kind'] }
  | { readonly kind: 'problem'; readonly message: string };

async function readDeclaration(file: string): Promise<ReadOutcome> {
  let st: Stats;
  try {
    st = await lstat(file);
  } catch (e) {
    // Removed between readdir and lstat: it is not there, so it is not a declaration.
    if (errno(e) === 'ENOENT') return { kind: 'skip', entry: 'other' };
    return { kind: 'problem', message: `cannot be read: ${describeError(e)}` };
  }
  const kind = entryKind(st);
  if (kind !== 'file') return { kind: 'skip', entry: kind };

  let handle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (e) {
    const code = errno(e);
    if (code === 'ELOOP' || code === 'ENOENT') return { kind: 'skip', entry: code === 'ELOOP' ? 'symlink' : 'other' };
    return { kind: 'problem', message: `cannot be read: ${describeError(e)}` };
  }
  try {
    const opened = entryKind(await handle.stat());
    if (opened !== 'file') return { kind: 'skip', entry: opened };
    const bytes = await handle.readFile();
    try {
      return { kind: 'source', source: utf8.decode(bytes) };
    } catch {
      return { kind: 'problem', message: 'is not valid UTF-8' };
    }
  } catch (e) {
    return { kind: 'problem', message: `cannot be read: ${describeError(e)}` };
  } finally {
    await handle.close();
  }
}

function entryKind(st: Stats): 'file' | SkippedEntry['kind'] {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  if (st.isSymbolicLink()) return 'symlink';
  return 'other';
}

function errno(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | null)?.code;
}

function describeError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err?.code ? `${err.code} (${err.message})` : String(e);
}
