// Redirections: applying `>`, `<`, `>>`, `<>`, `&>`, `>&`, `<&`, here-documents and here-strings and
// `{var}` fds to a copy of the fd table (withRedirs: for one command, then put back), the paths
// they open (/dev/fd/N and /dev/std* name the shell's own fds), and which fd each one sets.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Shell } from './runner.ts';
import { Tok, type Redirect } from '../syntax/ast.ts';
import { hardArith } from '../words/arith.ts';
import { ShellError } from './errors.ts';
import { FdTable, OsFd, makePipe, openFile, writeAll } from './io.ts';
import { errnoMsg } from './errno-message.ts';
import { wordSource } from '../syntax/word-range.ts';
import { redirectError } from './restricted.ts';
import { nextJobSeq } from './virtual-pids.ts';
import { releaseProcSubst } from './subshells.ts';

export function pathBuf(sh: Shell, p: string): Buffer { return Buffer.from(path.resolve(sh.cwd, p), 'latin1'); }

/**
 * pathBuf for a file to open: /dev/stdin, /dev/stdout, /dev/stderr and /dev/fd/N name this
 * shell's fds (`t`: the table being redirected), not the process's, which an in-process
 * subshell or pipeline stage does not share. Opened again through /proc, as bash's are.
 */
export function openBuf(sh: Shell, p: string, t: FdTable = sh.fds): Buffer {
  const m = /^\/dev\/(?:(stdin)|(stdout)|(stderr)|fd\/(\d+))$/.exec(p);
  if (!m) return pathBuf(sh, p);
  const f = t.get(m[1] ? 0 : m[2] ? 1 : m[3] ? 2 : Number(m[4]));
  // (never the process's own fd of that number: one of Node's, or another job's)
  if (!f) throw Object.assign(new Error(`${p}: no such fd`), { code: 'ENOENT' });
  return Buffer.from(`/proc/self/fd/${f.fd}`);
}

export async function withRedirs<T extends number>(sh: Shell, redirs: Redirect[], fn: () => Promise<T>, noCmd = false): Promise<number> {
  const saved = sh.fds;
  const t = saved.clone();
  try {
    await applyRedirs(sh, redirs, t);
  } catch (e) {
    t.releaseAll();
    if (e instanceof ShellError) { await sh.err(e.message); return e.status; }
    throw e;
  }
  sh.fds = t;
  const psf = sh.procSubstCleanups.length;
  try {
    return noCmd ? 0 : await fn();
  } finally {
    sh.fds = saved;
    t.releaseAll();
    releaseProcSubst(sh, psf);
  }
}

/** The variable of a `{var}` redirection: a name, or an array element (`{a[1]}`). */
function setFdVar(sh: Shell, v: string, n: string): void {
  const m = /^([^[]+)\[(.*)\]$/.exec(v);
  if (m) sh.vars.setElem(m[1]!, sh.vars.resolve(m[1]!)?.assoc ? m[2]! : String(hardArith(() => sh.arith.evalString(m[2]!))), n);
  else sh.vars.set(v, n);
}

function getFdVar(sh: Shell, v: string): string | undefined {
  const m = /^([^[]+)\[(.*)\]$/.exec(v);
  if (m) return sh.vars.getElem(m[1]!, sh.vars.resolve(m[1]!)?.assoc ? m[2]! : String(hardArith(() => sh.arith.evalString(m[2]!))));
  return sh.vars.get(v);
}

export async function applyRedirs(sh: Shell, redirs: Redirect[], t: FdTable): Promise<void> {
  for (const r of redirs) {
    sh.curPos = r.OpPos;
    let fdn: number;
    let varName: string | undefined;
    if (r.N) {
      if (/^\{.*\}$/.test(r.N.Value)) varName = r.N.Value.slice(1, -1);
      fdn = varName ? -1 : Number(r.N.Value);
    } else {
      fdn = defaultRedirFd(r.Op);
    }
    const alloc = (): number => { let n = 10; while (t.get(n)) n++; return n; };
    const target = async (): Promise<string> => {
      const fields = await sh.ex.fields([r.Word!]);
      if (fields.length !== 1) {
        const w = wordSource(sh.source.src, r.Word!) ?? await sh.ex.literal(r.Word!);
        throw new ShellError(`${w}: ambiguous redirect`, 1);
      }
      return fields[0]!;
    };
    const C = fs.constants;
    const open = async (flags: number): Promise<OsFd> => {
      const p = await target();
      // (restricted: every open for writing, `>&FILE` included, is refused)
      // (bash names a `{var}>FILE` redirection by its variable here)
      if ((flags & (C.O_WRONLY | C.O_RDWR)) !== 0) { const re = redirectError(sh, varName ?? p); if (re) throw new ShellError(re, 1); }
      if (sh.opts.noclobber && (r.Op === Tok.rdrOut || r.Op === Tok.rdrAll)) {
        try { if (fs.statSync(pathBuf(sh, p)).isFile()) throw new ShellError(`${p}: cannot overwrite existing file`, 1); } catch (e) { if (e instanceof ShellError) throw e; }
      }
      sh.applyUmask();
      if (p === '') throw new ShellError(': No such file or directory', 1); // (open(2) of "")
      try { return await sh.handlers.open(openBuf(sh, p, t), flags); } catch (e: any) {
        throw new ShellError(`${p}: ${errnoMsg(e)}`, 1);
      }
    };
    const place = (f: OsFd): void => {
      if (varName) { const n = alloc(); t.set(n, f); setFdVar(sh, varName, String(n)); }
      else t.set(fdn, f);
    };
    switch (r.Op) {
      case Tok.rdrOut: case Tok.clbOut: place(await open(C.O_WRONLY | C.O_CREAT | C.O_TRUNC)); break;
      case Tok.appOut: place(await open(C.O_WRONLY | C.O_CREAT | C.O_APPEND)); break;
      case Tok.rdrIn: place(await open(C.O_RDONLY)); break;
      case Tok.rdrInOut: place(await open(C.O_RDWR | C.O_CREAT)); break;
      case Tok.rdrAll: case Tok.appAll: {
        const f = await open(C.O_WRONLY | C.O_CREAT | (r.Op === Tok.appAll ? C.O_APPEND : C.O_TRUNC));
        t.set(1, f); t.set(2, f);
        break;
      }
      case Tok.dplIn: case Tok.dplOut: {
        const w = await target(); // (globbed and split like a file name: one word or an ambiguous redirect)
        if (w === '-') { if (varName) { const n = Number(getFdVar(sh, varName)); t.set(n, undefined); } else t.set(fdn, undefined); break; }
        const m = /^(\d+)(-?)$/.exec(w);
        if (!m) {
          if (r.Op === Tok.dplOut && (!r.N || r.N.Value === '1')) { // (`>&FILE` and `1>&FILE`: stdout and stderr)
            const f = await open(C.O_WRONLY | C.O_CREAT | C.O_TRUNC);
            t.set(1, f); t.set(2, f);
            break;
          }
          throw new ShellError(`${w}: ambiguous redirect`, 1);
        }
        const src = t.get(Number(m[1]));
        if (!src) {
          // (bash's redirection_error guesses which fd is bad: the target of a literal `<&5`
          // or `5-`; for an expanded word, the word as written when it is dup'd onto the
          // default fd, else the fd being set)
          const p0 = r.Word!.Parts[0];
          const lit = r.Word!.Parts.length === 1 && p0?.type === 'Lit' && /^\d+-?$/.test(p0.Value);
          const which = lit || varName ? m[1]! : !m[2] && fdn === defaultRedirFd(r.Op) ? (wordSource(sh.source.src, r.Word!) ?? m[1]!) : String(fdn);
          throw new ShellError(`${which}: Bad file descriptor`, 1);
        }
        place(src);
        if (m[2]) t.set(Number(m[1]), undefined);
        break;
      }
      case Tok.hdoc: case Tok.dashHdoc: case Tok.wordHdoc: {
        let body: string;
        if (r.Op === Tok.wordHdoc) body = (await sh.ex.literal(r.Word)) + '\n';
        else {
          const quoted = r.Word!.Parts.some((p) => p.type !== 'Lit') || r.Word!.Parts.some((p) => p.type === 'Lit' && p.Value.includes('\\'));
          if (quoted) body = r.Hdoc ? r.Hdoc.Parts.map((p) => (p.type === 'Lit' ? p.Value : '')).join('') : '';
          else body = await sh.ex.heredoc(r.Hdoc);
          if (r.Op === Tok.dashHdoc) body = body.replace(/^\t+/gm, '');
        }
        place(await hereDocFd(sh, body));
        break;
      }
      default:
        throw new ShellError('unsupported redirection', 2);
    }
  }
}

async function hereDocFd(sh: Shell, body: string): Promise<OsFd> {
  const buf = Buffer.from(body, 'latin1');
  if (buf.length < 60000) {
    const p = makePipe();
    p.w.retain();
    await writeAll(p.w, buf);
    p.w.release();
    return p.r;
  }
  const tmp = path.join(os.tmpdir(), `hpatch-hdoc-${process.pid}-${nextJobSeq()}`);
  fs.writeFileSync(tmp, buf, { mode: 0o600 });
  const f = openFile(tmp, fs.constants.O_RDONLY);
  fs.unlinkSync(tmp);
  return f;
}

/** Whether a redirection's target is fd 0. */
export function redirectsStdin(r: Redirect): boolean {
  return r.N ? r.N.Value === '0' : defaultRedirFd(r.Op) === 0;
}

/** The fd a redirection without a number applies to: 0 for input ones, else 1. */
function defaultRedirFd(op: number): number {
  return op === Tok.rdrIn || op === Tok.rdrInOut || op === Tok.dplIn || op === Tok.hdoc || op === Tok.dashHdoc || op === Tok.wordHdoc ? 0 : 1;
}
