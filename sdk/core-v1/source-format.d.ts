export type SourceFormat = 'go' | 'gomod' | 'typescript' | 'javascript' | 'python' | 'rust' | 'shell' | 'markdown' | 'json' | 'yaml' | 'toml' | 'c' | 'cpp' | 'java' | 'kotlin' | 'csharp' | 'swift' | 'ruby' | 'php' | 'html' | 'css' | 'xml' | 'sql' | 'makefile' | 'dockerfile' | 'lark' | 'text' | 'binary';
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
export declare const SOURCE_BASENAMES: Readonly<Record<string, SourceFormat>>;
/** Lowercased extensions without the dot (the part after the basename's last dot). */
export declare const SOURCE_EXTENSIONS: Readonly<Record<string, SourceFormat>>;
/**
 * Classifies a file by its path and optionally a content sample.
 * 1. With a sample: a NUL, invalid UTF-8 (bytes) or a lone surrogate (string) → 'binary' (basis content).
 * 2. The lowercased basename table (Makefile, Dockerfile, Dockerfile.*, go.mod, …), then the extension table.
 *    A binary extension with a sample that passed step 1 → 'text' (basis content).
 * 3. No rule matched and the sample starts with a shebang → its interpreter's format (basis content).
 * 4. Otherwise 'text' (basis default).
 * hread and hpatch apply to every format but 'binary'; hsymbol to 'go', 'typescript', 'javascript', 'python' and 'rust'.
 */
export declare function classifySource(path: string, sample?: string | Uint8Array, options?: ClassifyOptions): SourceClass;
