// The code that runs inside plugin isolates, as bundled ES-module text: the virtual `hpatch:core/v1`
// module and the plugin bootstrap. The production bundle reads the artifacts that scripts/build.mjs
// writes next to it (dist/core-v1.mjs, dist/bootstrap.mjs). When this file runs from TypeScript
// sources (tests under tsx) it bundles isolates/*.ts itself with esbuild, so tests never run a stale
// dist/; esbuild is a devDependency and production never reaches that branch.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

type ArtifactName = 'core-v1' | 'bootstrap';

const SOURCES: Record<ArtifactName, string> = {
  'core-v1': 'isolates/core-v1/index.ts',
  bootstrap: 'isolates/bootstrap.ts',
};

const cache = new Map<ArtifactName, Promise<string>>();

/** The bundled text of hpatch:core/v1. Cached per process. */
export function coreModuleSource(): Promise<string> {
  return artifact('core-v1');
}

/** The bundled text of the in-isolate plugin bootstrap (isolates/bootstrap.ts). Cached per process. */
export function bootstrapModuleSource(): Promise<string> {
  return artifact('bootstrap');
}

function artifact(name: ArtifactName): Promise<string> {
  let p = cache.get(name);
  if (p === undefined) {
    p = load(name);
    // A failed read is not cached: the caller reports it, and a later attempt may succeed.
    p.catch(() => cache.delete(name));
    cache.set(name, p);
  }
  return p;
}

async function load(name: ArtifactName): Promise<string> {
  // Inside the bundle import.meta.url is dist/<entry>.mjs or, with code splitting, dist/chunks/<chunk>.mjs;
  // from sources it is this .ts file.
  if (!import.meta.url.endsWith('.ts')) {
    const dist = /\/chunks\/[^/]*$/.test(new URL(import.meta.url).pathname) ? '../' : './';
    return readFile(new URL(`${dist}${name}.mjs`, import.meta.url), 'utf8');
  }
  const root = new URL('../../', import.meta.url);
  const esbuild = await loadEsbuild();
  if (esbuild === undefined) return readFile(new URL(`dist/${name}.mjs`, root), 'utf8');
  return bundleIsolateSource(esbuild, new URL(SOURCES[name], root));
}

interface EsbuildLike {
  build(options: Record<string, unknown>): Promise<{ outputFiles?: { text: string }[] }>;
}

async function loadEsbuild(): Promise<EsbuildLike | undefined> {
  // A computed specifier keeps the router bundle from pulling esbuild in.
  const specifier = ['es', 'build'].join('');
  try {
    return (await import(specifier)) as EsbuildLike;
  } catch {
    return undefined;
  }
}

// Keep these options in sync with the isolate bundles in scripts/build.mjs.
async function bundleIsolateSource(esbuild: EsbuildLike, entry: URL): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const text = result.outputFiles?.[0]?.text;
  if (text === undefined) throw new Error(`esbuild produced no output for ${fileURLToPath(entry)}`);
  return text;
}
