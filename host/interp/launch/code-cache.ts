// Runs a CommonJS file through vm.Script with a V8 code cache beside it (FILE.<node version>.cache):
// the interpreter's fallback launcher (launch.ts: dist/interp.cjs) and the startup snapshot's
// mvdan-sh (mvdan-lazy.ts: dist/mvdan-sh.js). A missing or rejected cache is written at exit, if
// the directory is writable, through a temporary file of this process's own. The cache starts
// with a CRC-32 of the rest: V8 checks a cache's header, not its payload, and crashes on a
// damaged one, which is then compiled afresh and rewritten instead.
import * as fs from 'node:fs';
import * as path from 'node:path';

// (vm, zlib and module load on first use: the startup snapshot would otherwise carry them into every start)
const vm = (): typeof import('node:vm') => process.getBuiltinModule('node:vm');
const crc32 = (b: Buffer): number => process.getBuiltinModule('node:zlib').crc32(b);

/** The module's exports. Throws what reading `file` throws (ENOENT…). */
export function requireCached(file: string): unknown {
  const source = fs.readFileSync(file, 'utf8');
  const cacheFile = `${file}.${process.version}.cache`;
  let cached: Buffer | undefined;
  try { cached = openCache(fs.readFileSync(cacheFile)); } catch { /* first run: compile, then write it */ }
  const script = new (vm().Script)(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file, cachedData: cached, importModuleDynamically: undefined,
  });
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
  (script.runInThisContext() as (...a: unknown[]) => void).call(m.exports, m.exports, process.getBuiltinModule('node:module').createRequire(file), m, file, path.dirname(file));
  return m.exports;
}

/** The payload of a cache written by sealCache, or undefined when it is short or damaged. */
function openCache(bytes: Buffer): Buffer | undefined {
  if (bytes.length < 4) return undefined;
  const payload = bytes.subarray(4);
  return crc32(payload) === bytes.readUInt32BE(0) ? payload : undefined;
}

function sealCache(payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(crc32(payload));
  return Buffer.concat([head, payload]);
}
