// Source-format capability classification: which private commands apply to a file. A fixed table,
// so inspect_file in the worker and a plugin reach the same answer for the same path and bytes.
import { parseShebangSelector } from './interpreter.ts';
import { isWellFormed, scanUtf8, utf8Decode } from './utf8.ts';

export type SourceFormat =
  | 'go' | 'gomod' | 'typescript' | 'javascript' | 'python' | 'rust' | 'shell' | 'markdown' | 'json'
  | 'yaml' | 'toml' | 'c' | 'cpp' | 'java' | 'kotlin' | 'csharp' | 'swift' | 'ruby' | 'php' | 'html'
  | 'css' | 'xml' | 'sql' | 'makefile' | 'dockerfile' | 'lark' | 'text' | 'binary';

export interface SourceClass {
  readonly format: SourceFormat;
  /** Rows can be read (any UTF-8 text). */
  readonly hread: boolean;
  /** Rows can be edited (any UTF-8 text). */
  readonly hpatch: boolean;
  /** Symbol definitions can be looked up (`hsymbol`: Go, TypeScript, JavaScript, Python, Rust). */
  readonly hsymbol: boolean;
  /** What decided the format. */
  readonly basis: 'basename' | 'extension' | 'content' | 'default';
}

export interface ClassifyOptions {
  /** The byte sample is a prefix of the file: an incomplete UTF-8 sequence at its very end is not evidence of binary. */
  readonly samplePrefix?: boolean;
}

/** Lowercased whole basenames. Checked before extensions. */
export const SOURCE_BASENAMES: Readonly<Record<string, SourceFormat>> = Object.freeze({
  'makefile': 'makefile', 'gnumakefile': 'makefile',
  'dockerfile': 'dockerfile', 'containerfile': 'dockerfile',
  'go.mod': 'gomod', 'go.work': 'gomod',
  'gemfile': 'ruby', 'rakefile': 'ruby',
  'cargo.lock': 'toml', 'pipfile': 'toml',
  '.bashrc': 'shell', '.bash_profile': 'shell', '.bash_login': 'shell', '.bash_logout': 'shell',
  '.profile': 'shell', '.zshrc': 'shell', '.zprofile': 'shell', '.zshenv': 'shell', '.envrc': 'shell',
});

/** Lowercased extensions without the dot (the part after the basename's last dot). */
export const SOURCE_EXTENSIONS: Readonly<Record<string, SourceFormat>> = Object.freeze({
  go: 'go',
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  py: 'python', pyi: 'python', pyw: 'python',
  rs: 'rust',
  sh: 'shell', bash: 'shell', zsh: 'shell', ksh: 'shell',
  md: 'markdown', markdown: 'markdown', mdx: 'markdown',
  json: 'json', jsonc: 'json',
  yaml: 'yaml', yml: 'yaml',
  toml: 'toml',
  c: 'c', h: 'c',
  cc: 'cpp', cpp: 'cpp', cxx: 'cpp', 'c++': 'cpp', hh: 'cpp', hpp: 'cpp', hxx: 'cpp', 'h++': 'cpp',
  java: 'java',
  kt: 'kotlin', kts: 'kotlin',
  cs: 'csharp',
  swift: 'swift',
  rb: 'ruby',
  php: 'php',
  html: 'html', htm: 'html',
  css: 'css', scss: 'css', less: 'css',
  xml: 'xml', svg: 'xml', xsd: 'xml', xsl: 'xml',
  sql: 'sql',
  mk: 'makefile', mak: 'makefile',
  dockerfile: 'dockerfile',
  lark: 'lark',
  txt: 'text', text: 'text', log: 'text', csv: 'text', tsv: 'text', ini: 'text', cfg: 'text', conf: 'text',
  // Binary by extension; a sample that is valid text overrides these (as 'text').
  png: 'binary', jpg: 'binary', jpeg: 'binary', gif: 'binary', bmp: 'binary', ico: 'binary', webp: 'binary',
  tif: 'binary', tiff: 'binary', psd: 'binary', pdf: 'binary',
  zip: 'binary', gz: 'binary', tgz: 'binary', bz2: 'binary', xz: 'binary', zst: 'binary', '7z': 'binary',
  rar: 'binary', tar: 'binary', jar: 'binary', war: 'binary', whl: 'binary',
  class: 'binary', exe: 'binary', dll: 'binary', so: 'binary', dylib: 'binary', o: 'binary', a: 'binary',
  obj: 'binary', lib: 'binary', wasm: 'binary', node: 'binary', pyc: 'binary', pyo: 'binary',
  woff: 'binary', woff2: 'binary', ttf: 'binary', otf: 'binary', eot: 'binary',
  mp3: 'binary', mp4: 'binary', mov: 'binary', avi: 'binary', mkv: 'binary', webm: 'binary', wav: 'binary',
  flac: 'binary', ogg: 'binary',
  db: 'binary', sqlite: 'binary', sqlite3: 'binary', iso: 'binary', dmg: 'binary', deb: 'binary', rpm: 'binary',
});

/** Interpreter basenames (after version suffixes like `python3.12` are cut) → format, for shebang sniffing. */
const SHEBANG_FORMATS: Readonly<Record<string, SourceFormat>> = {
  bash: 'shell', sh: 'shell', zsh: 'shell', ksh: 'shell', dash: 'shell', ash: 'shell', mksh: 'shell',
  python: 'python', pypy: 'python',
  node: 'javascript', nodejs: 'javascript', bun: 'javascript',
  deno: 'typescript', 'ts-node': 'typescript', tsx: 'typescript',
  ruby: 'ruby', php: 'php',
};

function lower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** The formats whose definitions hsymbol finds. */
const SYMBOL_FORMATS: ReadonlySet<SourceFormat> = new Set<SourceFormat>(['go', 'typescript', 'javascript', 'python', 'rust']);

function result(format: SourceFormat, basis: SourceClass['basis']): SourceClass {
  const text = format !== 'binary';
  return { format, hread: text, hpatch: text, hsymbol: SYMBOL_FORMATS.has(format), basis };
}

function byName(path: string): { format: SourceFormat; basis: 'basename' | 'extension' } | null {
  const base = lower(path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1));
  const named = SOURCE_BASENAMES[base];
  if (named !== undefined) return { format: named, basis: 'basename' };
  if (base.startsWith('dockerfile.') || base.startsWith('containerfile.')) return { format: 'dockerfile', basis: 'basename' };
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null; // no extension, or a dotfile such as `.gitignore`
  const ext = SOURCE_EXTENSIONS[base.slice(dot + 1)];
  return ext === undefined ? null : { format: ext, basis: 'extension' };
}

function byShebang(text: string): SourceFormat | null {
  const nl = text.indexOf('\n');
  const first = (nl < 0 ? text : text.slice(0, nl)).replace(/^[ \t]+|[ \t\r]+$/g, '');
  if (!first.startsWith('#!')) return null;
  const sel = parseShebangSelector(first.slice(2));
  if (!sel.ok) return null;
  const exe = sel.fields[0]!;
  const base = lower(exe.slice(Math.max(exe.lastIndexOf('/'), exe.lastIndexOf('\\')) + 1)).replace(/\.exe$/, '');
  return SHEBANG_FORMATS[base] ?? SHEBANG_FORMATS[base.replace(/[0-9.]+$/, '')] ?? null;
}

/**
 * Classifies a file by its path and optionally a content sample.
 * 1. With a sample: a NUL, invalid UTF-8 (bytes) or a lone surrogate (string) → 'binary' (basis content).
 * 2. The lowercased basename table (Makefile, Dockerfile, Dockerfile.*, go.mod, …), then the extension table.
 *    A binary extension with a sample that passed step 1 → 'text' (basis content).
 * 3. No rule matched and the sample starts with a shebang → its interpreter's format (basis content).
 * 4. Otherwise 'text' (basis default).
 * hread and hpatch apply to every format but 'binary'; hsymbol to 'go', 'typescript', 'javascript', 'python' and 'rust'.
 */
export function classifySource(path: string, sample?: string | Uint8Array, options: ClassifyOptions = {}): SourceClass {
  let text: string | undefined;
  if (typeof sample === 'string') {
    if (sample.includes('\0') || !isWellFormed(sample)) return result('binary', 'content');
    text = sample;
  } else if (sample !== undefined) {
    if (sample.includes(0)) return result('binary', 'content');
    const scan = scanUtf8(sample);
    if (scan.validPrefix !== sample.length && !(options.samplePrefix === true && scan.incompleteTail)) return result('binary', 'content');
    text = utf8Decode(sample.subarray(0, scan.validPrefix));
  }
  const named = byName(path);
  if (named !== null) {
    if (named.format === 'binary' && text !== undefined) return result('text', 'content');
    return result(named.format, named.basis);
  }
  if (text !== undefined) {
    const sniffed = byShebang(text);
    if (sniffed !== null) return result(sniffed, 'content');
  }
  return result('text', 'default');
}
