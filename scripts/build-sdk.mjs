// Generates the SDK's typings of hpatch:core/v1 from its one TypeScript source
// (isolates/core-v1/*.ts → sdk/core-v1/*.d.ts). `node scripts/build-sdk.mjs [OUTDIR]`.
import ts from 'typescript';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const outDir = resolve(process.argv[2] ?? 'sdk/core-v1');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const program = ts.createProgram(['isolates/core-v1/index.ts'], {
  declaration: true,
  emitDeclarationOnly: true,
  outDir,
  rootDir: 'isolates/core-v1',
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowImportingTsExtensions: true,
  rewriteRelativeImportExtensions: true,
  strict: true,
  skipLibCheck: true,
  lib: ['lib.es2023.d.ts'],
  types: [],
});
const result = program.emit();
const errors = ts.getPreEmitDiagnostics(program).concat(result.diagnostics).filter((d) => d.category === ts.DiagnosticCategory.Error);
if (errors.length > 0) {
  console.error(ts.formatDiagnostics(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' }));
  process.exit(1);
}
// Declarations keep the source's `.ts` specifiers; plugin projects resolve the `.d.ts` through `.js`.
for (const f of readdirSync(outDir)) {
  const p = join(outDir, f);
  writeFileSync(p, readFileSync(p, 'utf8').replace(/(from '\.\/[^']+)\.ts'/g, "$1.js'"));
}
