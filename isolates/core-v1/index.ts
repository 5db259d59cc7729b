// hpatch:core/v1 — pure, deterministic helpers shared by the router host and plugin isolates.
// Bundled by esbuild into the virtual module plugins import; it must use ECMAScript only (no Node.js
// modules, Buffer, TextEncoder/TextDecoder, console, timers, clocks or randomness).
// Frozen once shipped: additions go to a new version. Reference: doc/core-v1.md.

/** The module's API version. */
export const version = 'v1';

export { rowHash, formatRow, parseRow, parseAnchor, looksLikeRowPrefix, xxHash32, contentTag } from './rows.ts';
export type { Anchor, Row } from './rows.ts';
export { splitLines, logicalLineCount, terminatorStyle, hasFinalNewline } from './lines.ts';
export type { LogicalLine, LineTerminator, TerminatorStyle } from './lines.ts';
export { utf8Encode, utf8Decode, utf8ByteLength, utf8TruncateToBytes, isWellFormed, isValidUtf8 } from './utf8.ts';
export { parsePositiveInt, parseLineRange, decodeQuotedOperand, splitQuotedOperands } from './operands.ts';
export type { LineRange } from './operands.ts';
export { classifySource, SOURCE_BASENAMES, SOURCE_EXTENSIONS } from './source-format.ts';
export type { SourceFormat, SourceClass, ClassifyOptions } from './source-format.ts';
export { isGoIdentifier, GO_KEYWORDS, goStringLiteral, goStringLiteralBytes, scanGoDeclarations } from './go-lexical.ts';
export type { GoDeclaration, GoDeclarationKind } from './go-lexical.ts';
export { parseShellInput, isSafeArtifactId } from './shell-header.ts';
export { shellQuote } from './shell-quote.ts';
export type { QuotedWord } from './shell-quote.ts';
export type { ShellInput, Interpreter, ShellHeaderLimits } from './shell-header.ts';
export {
  interpreterIdentity,
  parseShebangSelector,
  DEFAULT_MAX_ARGV_VALUES,
  DEFAULT_MAX_ARGV_VALUE_BYTES,
} from './interpreter.ts';
export type { InterpreterIdentity, ArgvLimits, SelectorResult } from './interpreter.ts';
