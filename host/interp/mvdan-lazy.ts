// mvdan-sh for the startup snapshot (snapshot.ts): the blob leaves it out — deserializing its
// GopherJS heap was half of every start — and loads it only for a script fast-parser.ts declines,
// from dist/mvdan-sh.js beside the blob through a V8 code cache (dist/mvdan-sh.js.<node>.cache,
// written by the build; rewritten when V8 rejects it, if dist/ is writable). The cache starts with
// a CRC-32 of the rest: V8 checks a cache's header, not its payload, and crashes on a damaged one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';

/** A code cache as written by sealCache, or undefined when it is missing, short or damaged. */
export function openCache(bytes: Buffer | undefined): Buffer | undefined {
  if (!bytes || bytes.length < 4) return undefined;
  const payload = bytes.subarray(4);
  return crc32(payload) === bytes.readUInt32BE(0) ? payload : undefined;
}

export function sealCache(payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(crc32(payload));
  return Buffer.concat([head, payload]);
}

/** The directory of the blob this process started from (`--snapshot-blob PATH`). */
function blobDir(): string {
  const argv = process.execArgv;
  const i = argv.indexOf('--snapshot-blob');
  const blob = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--snapshot-blob='))?.slice('--snapshot-blob='.length);
  if (!blob) throw new Error('mvdan-sh: not started with --snapshot-blob');
  return path.dirname(path.resolve(blob));
}

export function loadMvdanBesideBlob(): unknown {
  const file = path.join(blobDir(), 'mvdan-sh.js');
  const cacheFile = `${file}.${process.version}.cache`;
  let source: string;
  try {
    source = fs.readFileSync(file, 'latin1'); // pure ASCII (checked by the build)
  } catch (e) {
    const msg = `cannot load the shell parser ${file} (${(e as NodeJS.ErrnoException).code ?? e}): the install is incomplete, run make build`;
    throw Object.assign(new Error(msg), { stack: msg });
  }
  let cached: Buffer | undefined;
  try { cached = openCache(fs.readFileSync(cacheFile)); } catch { /* first run: compile, then write it */ }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData: cached });
  if (!cached || script.cachedDataRejected) {
    process.once('exit', () => {
      try {
        const tmp = `${cacheFile}.tmp-${process.pid}`;
        fs.writeFileSync(tmp, sealCache(script.createCachedData()));
        fs.renameSync(tmp, cacheFile);
      } catch { /* a read-only install: compile each time */ }
    });
  }
  const m = { exports: {} as unknown };
  (script.runInThisContext() as (...a: unknown[]) => void)(m.exports, createRequire(file), m, file, path.dirname(file));
  return m.exports;
}
