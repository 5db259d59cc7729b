// The hashline private commands of the shell worker (issue 15, first part): `hread`, `hgrep`,
// `hsymbol` and `inspect_file`, the private commands the worker gives its interpreter (its handlers'
// privateCommand: host/interp/execution/handlers.ts), so they run inside a Bash or sh body with its pipes, redirections, cwd and status like any command — and exist nowhere
// else (no PATH entry, no frontend). They read files as the shell does, under Codex's sandbox;
// `hread @shell/<id>` reads the thread's retained script through the confined storage.
import { isAbsolute, resolve } from 'node:path';
import { parseLineRange, type LineRange } from '../../isolates/core-v1/operands.ts';
import type { PrivateCommand, PrivateContext } from '../interp/private/registry.ts';
import { runtimeBasePath, verifyRuntimeBase } from '../runtime/runtime-base.ts';
import { readRegularFile } from '../shell/confined-dir.ts';
import { readRetainedScript } from '../shell/thread-storage.ts';
import { fileFacts, renderFacts, type FileFacts } from './file-facts.ts';
import { hgrep, parseHgrepArgs } from './hgrep.ts';
import { renderHread } from './hread.ts';
import { hsymbol } from './hsymbol.ts';
import { SYMBOL_LANGUAGES } from './symbol-languages.ts';

/** Files larger than this are not read whole (hread and inspect_file say so). */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

type Source = { ok: true; display: string; bytes: Uint8Array } | { ok: false; error: string; status: number };

const HASHLINE_COMMANDS: ReadonlyMap<string, PrivateCommand> = new Map([
  ['hread', hread], ['hgrep', hgrepCommand], ['hsymbol', hsymbolCommand], ['inspect_file', inspectFile],
]);

/** The hashline command called `name`, if any (the worker's privateCommand handler). */
export function hashlineCommand(name: string): PrivateCommand | undefined { return HASHLINE_COMMANDS.get(name); }

/** Status 0 when a definition was found, 1 when none, 2 for a bad name or path. */
async function hsymbolCommand(ctx: PrivateContext): Promise<number> {
  const args = ctx.argv.slice(1);
  if (args.length < 1) return fail(ctx, 'hsymbol', 'usage: hsymbol NAME|Type.Method [PATH...]', 2);
  const r = await hsymbol(args[0]!, args.length > 1 ? args.slice(1) : ['.'], ctx.cwd);
  if ('error' in r) return fail(ctx, 'hsymbol', r.error, 2);
  if (r.text !== '') await ctx.stdout(r.text);
  for (const p of r.problems) await ctx.stderr(`hsymbol: ${p}\n`);
  if (r.definitions === 0 && r.problems.length === 0) await ctx.stderr(`hsymbol: no definition of ${args[0]} (${SYMBOL_LANGUAGES} files are searched)\n`);
  return r.problems.length > 0 ? 2 : r.definitions > 0 ? 0 : 1;
}

/** grep's statuses: 0 a match, 1 none, 2 trouble (a bad pattern or operand, even with matches elsewhere). */
async function hgrepCommand(ctx: PrivateContext): Promise<number> {
  const parsed = parseHgrepArgs(ctx.argv.slice(1));
  if (!parsed.ok) return fail(ctx, 'hgrep', parsed.error, 2);
  let r;
  try {
    r = hgrep(parsed.options, ctx.cwd);
  } catch (e) {
    return fail(ctx, 'hgrep', e instanceof Error ? e.message : String(e), 2);
  }
  if ('error' in r) return fail(ctx, 'hgrep', r.error, 2);
  if (r.text !== '') await ctx.stdout(r.text);
  for (const p of r.problems) await ctx.stderr(`hgrep: ${p}\n`);
  return r.problems.length > 0 ? 2 : r.matches > 0 ? 0 : 1;
}

async function hread(ctx: PrivateContext): Promise<number> {
  const args = ctx.argv.slice(1);
  if (args.length < 1 || args.length > 2) return fail(ctx, 'hread', 'usage: hread PATH|@shell/ID [N|N-M|N-]', 2);
  let range: LineRange | null = null;
  if (args.length === 2) {
    range = parseLineRange(args[1]!);
    if (range === null) return fail(ctx, 'hread', `bad line range ${JSON.stringify(args[1])}: use N, N-M or N-`, 2);
  }
  const src = readSource(ctx, args[0]!);
  if (!src.ok) return fail(ctx, 'hread', src.error, src.status);
  const facts = fileFacts(src.display, src.bytes);
  if (facts.encoding.kind !== 'utf-8') {
    return fail(ctx, 'hread', `${src.display} is not text: ${facts.encoding.why} (inspect_file ${src.display} says what it is)`, 1);
  }
  const r = renderHread(src.display, facts, src.bytes, range);
  if (!r.ok) return fail(ctx, 'hread', `${src.display}: ${r.error}`, 1);
  await ctx.stdout(r.bytes);
  return 0;
}

async function inspectFile(ctx: PrivateContext): Promise<number> {
  const args = ctx.argv.slice(1);
  if (args.length !== 1) return fail(ctx, 'inspect_file', 'usage: inspect_file PATH|@shell/ID', 2);
  const src = readSource(ctx, args[0]!);
  if (!src.ok) return fail(ctx, 'inspect_file', src.error, src.status);
  const facts: FileFacts = fileFacts(src.display, src.bytes);
  await ctx.stdout(renderFacts(src.display, facts));
  return 0;
}

/** A path relative to the shell's cwd, or a retained script of this thread. */
function readSource(ctx: PrivateContext, operand: string): Source {
  if (operand.startsWith('@shell/')) {
    const threadId = ctx.env['CODEX_THREAD_ID'];
    if (threadId === undefined || threadId === '') return { ok: false, error: `${operand}: no thread (CODEX_THREAD_ID is not set)`, status: 1 };
    let base: string;
    try {
      base = verifyRuntimeBase(runtimeBasePath(ctx.env));
    } catch (e) {
      return { ok: false, error: `${operand}: ${(e as Error).message}`, status: 1 };
    }
    const r = readRetainedScript(base, process.getuid!(), threadId, operand.slice('@shell/'.length));
    return r.ok ? { ok: true, display: operand, bytes: Buffer.from(r.content, 'utf8') } : { ok: false, error: r.error, status: 1 };
  }
  // Regular files only: a FIFO, socket or device could block a whole-file read for ever.
  const r = readRegularFile(isAbsolute(operand) ? operand : resolve(ctx.cwd, operand), MAX_FILE_BYTES);
  if (r.ok) return { ok: true, display: operand, bytes: r.bytes };
  const why = r.why === 'missing' ? 'No such file or directory'
    : r.why === 'directory' ? 'is a directory'
    : r.why === 'not-regular' ? 'not a regular file'
    : r.why === 'too-large' ? `${r.size} bytes, over the ${MAX_FILE_BYTES}-byte limit`
    : r.code === 'EACCES' ? 'Permission denied' : String(r.code);
  return { ok: false, error: `${operand}: ${why}`, status: 1 };
}

async function fail(ctx: PrivateContext, cmd: string, message: string, status: number): Promise<number> {
  await ctx.stderr(`${cmd}: ${message}\n`);
  return status;
}
