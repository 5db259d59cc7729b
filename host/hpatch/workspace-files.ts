// Reading files for hpatch inside the request's workspace only (doc/hashline.md, "read
// confinement"): a path is resolved lexically from the request's cwd, must lie inside one of the
// workspace roots the sandbox lets commands read, and is then walked component by component through
// directory descriptors (/proc/self/fd/<fd>/<name>) with O_NOFOLLOW, so no symlink below a root is
// ever followed, and one swapped in during the walk cannot redirect it.
import { closeSync, constants as C, openSync } from 'node:fs';
import { normalize, within, type Workspace } from '../request/environment-context.ts';
import { readRegularFile } from '../shell/confined-dir.ts';

/** Largest file hpatch edits (bigger files are refused with a clear message). */
export const HPATCH_MAX_FILE_BYTES = 16 * 1024 * 1024;

const DIR_FLAGS = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;

export type Located =
  | { readonly ok: true; readonly abs: string }
  | { readonly ok: false; readonly error: string };

/** The absolute path `modelPath` names, if it is inside a workspace root. */
export function locate(ws: Workspace, modelPath: string): Located {
  if (modelPath.includes('\0')) return { ok: false, error: 'the path contains NUL' };
  const abs = normalize(modelPath.startsWith('/') ? modelPath : `${ws.cwd}/${modelPath}`);
  if (!ws.roots.some((r) => within(r, abs) && abs !== r)) {
    return { ok: false, error: `${abs} is outside the workspace (${ws.roots.join(', ') || 'no readable root'}); hpatch edits files inside the workspace roots only` };
  }
  return { ok: true, abs };
}

export type FileState =
  | { readonly kind: 'file'; readonly bytes: Buffer }
  | { readonly kind: 'missing' }
  | { readonly kind: 'refused'; readonly why: string };

/** What is at `abs` (inside a root of `ws`), never following a symlink below the root. */
export function readWorkspaceFile(ws: Workspace, abs: string, max = HPATCH_MAX_FILE_BYTES): FileState {
  const root = ws.roots.filter((r) => within(r, abs)).sort((a, b) => b.length - a.length)[0];
  if (root === undefined) return { kind: 'refused', why: `${abs} is outside the workspace` };
  const parts = abs.slice(root === '/' ? 1 : root.length + 1).split('/');
  let fd: number;
  try {
    // The root itself is Codex's own statement of the workspace: it may be reached through a symlink.
    fd = openSync(root, C.O_RDONLY | C.O_DIRECTORY);
  } catch (e) {
    return { kind: 'refused', why: `the workspace root ${root} cannot be opened (${errno(e)})` };
  }
  try {
    let at = root;
    for (const name of parts.slice(0, -1)) {
      at = `${at === '/' ? '' : at}/${name}`;
      let next: number;
      try {
        next = openSync(`/proc/self/fd/${fd}/${name}`, DIR_FLAGS);
      } catch (e) {
        const c = errno(e);
        if (c === 'ENOENT') return { kind: 'missing' };
        if (c === 'ELOOP' || c === 'ENOTDIR') return { kind: 'refused', why: `${at} is a symlink or not a directory; hpatch does not follow symlinks inside the workspace` };
        return { kind: 'refused', why: `${at} cannot be opened (${c})` };
      }
      closeSync(fd);
      fd = next;
    }
    const r = readRegularFile(`/proc/self/fd/${fd}/${parts[parts.length - 1]!}`, max, { noFollow: true });
    if (r.ok) return { kind: 'file', bytes: r.bytes };
    switch (r.why) {
      case 'missing': return { kind: 'missing' };
      case 'directory': return { kind: 'refused', why: `${abs} is a directory` };
      case 'not-regular': return { kind: 'refused', why: `${abs} is a symlink or not a regular file; hpatch does not follow symlinks` };
      case 'too-large': return { kind: 'refused', why: `${abs} is ${r.size} bytes, over hpatch's ${max}-byte limit` };
      default: return { kind: 'refused', why: `${abs} cannot be read (${r.code ?? 'error'})` };
    }
  } finally {
    closeSync(fd);
  }
}

function errno(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? String(e);
}
