// The file walk hgrep and hsymbol share (doc/hashline.md): operands relative to the shell's cwd;
// directories recursively in byte order of names, skipping `.git`, symlinks met in the walk (not
// followed: no loops, no escapes) and what `.gitignore`/`.ignore` files exclude (the deepest rule
// wins); a file named as an operand is always visited. Only regular UTF-8 text files under the size
// bound reach the visitor, with their decoded text.
import { lstatSync, readdirSync, readFileSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { readRegularFile } from '../shell/confined-dir.ts';
import { decodeUtf8 } from './fast-rows.ts';
import { ignoredBy, parseIgnoreFile, type IgnoreRule } from './ignore-rules.ts';

/** Files larger than this are skipped (a search should not read a 1 GB log whole). */
export const WALK_MAX_FILE_BYTES = 16 * 1024 * 1024;

/** Called for each text file as `shown` (the path as the model would write it); false stops the walk. */
export type FileVisitor = (shown: string, text: string) => boolean;

export interface TextFile {
  /** The path as the model would write it. */
  readonly shown: string;
  readonly text: string;
}

/** A test on a file's raw bytes before it is decoded: false skips the file (hgrep's literal prefilter). */
export type BytesFilter = (bytes: Buffer) => boolean;

/** Walks every operand; returns the problems with operands (missing paths, unreadable directories). */
export function walkTextFiles(operands: readonly string[], cwd: string, visit: FileVisitor, accept?: BytesFilter): string[] {
  const problems: string[] = [];
  for (const f of textFiles(operands, cwd, problems, accept)) if (!visit(f.shown, f.text)) break;
  return problems;
}

/**
 * The same walk as a generator, for a visitor that awaits between files (hsymbol loads a parser on
 * first use); problems are appended to `problems` as they are met. Leaving the loop stops the walk.
 */
export function* textFiles(operands: readonly string[], cwd: string, problems: string[], accept?: BytesFilter): Generator<TextFile, void, undefined> {
  for (const p of operands) {
    const abs = resolve(cwd, p);
    let isDir: boolean;
    try {
      isDir = statSync(abs).isDirectory();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      problems.push(`${p}: ${code === 'ENOENT' ? 'No such file or directory' : code}`);
      continue;
    }
    if (isDir) yield* walkDir(abs, p === '.' ? '' : p.replace(/\/+$/, ''), [], problems, accept);
    else yield* visitFile(abs, p, accept);
  }
}

interface Layer {
  /** The rules of one directory's ignore files, and that directory relative to the walk's root. */
  readonly rules: readonly IgnoreRule[];
  readonly dir: string;
}

function* walkDir(abs: string, shown: string, layers: readonly Layer[], problems: string[], accept: BytesFilter | undefined): Generator<TextFile, void, undefined> {
  let entries: Dirent[];
  try {
    // The entry types come with the names (no lstat per entry, unless the file system does not say).
    entries = readdirSync(abs, { withFileTypes: true });
  } catch (e) {
    problems.push(`${shown || '.'}: ${(e as NodeJS.ErrnoException).code}`);
    return;
  }
  const rules = [...readIgnoreFile(join(abs, '.gitignore')), ...readIgnoreFile(join(abs, '.ignore'))];
  const here = rules.length > 0 ? [...layers, { rules, dir: shown }] : layers;
  // Byte order of names: the same tree gives the same output everywhere.
  const sorted = entries.map((d) => ({ d, key: Buffer.from(d.name) })).sort((a, b) => Buffer.compare(a.key, b.key));
  for (const { d } of sorted) {
    const name = d.name;
    if (name === '.git') continue;
    const childAbs = join(abs, name);
    const childShown = shown === '' ? name : `${shown}/${name}`;
    let kind: Dirent | Stats = d;
    if (!d.isFile() && !d.isDirectory() && !d.isSymbolicLink()) {
      try {
        kind = lstatSync(childAbs);
      } catch {
        continue; // gone meanwhile
      }
    }
    if (kind.isSymbolicLink()) continue;
    const isDir = kind.isDirectory();
    if (isIgnored(here, childShown, isDir)) continue;
    if (isDir) yield* walkDir(childAbs, childShown, here, problems, accept);
    else if (kind.isFile()) yield* visitFile(childAbs, childShown, accept);
  }
}

function isIgnored(layers: readonly Layer[], shown: string, isDir: boolean): boolean {
  let verdict = false;
  for (const l of layers) {
    const v = ignoredBy(l.rules, l.dir === '' ? shown : shown.slice(l.dir.length + 1), isDir);
    if (v !== null) verdict = v;
  }
  return verdict;
}

function readIgnoreFile(path: string): IgnoreRule[] {
  try {
    return parseIgnoreFile(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
}

function* visitFile(abs: string, shown: string, accept: BytesFilter | undefined): Generator<TextFile, void, undefined> {
  const r = readRegularFile(abs, WALK_MAX_FILE_BYTES);
  if (!r.ok || (accept !== undefined && !accept(r.bytes)) || r.bytes.includes(0)) return;
  const text = decodeUtf8(r.bytes);
  if (text !== null) yield { shown, text };
}
