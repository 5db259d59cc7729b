/** The module's API version. */
export declare const version = "v1";
export { rowHash, formatRow, parseRow, parseAnchor, looksLikeRowPrefix, xxHash32, contentTag } from './rows.js';
export type { Anchor, Row } from './rows.js';
export { splitLines, logicalLineCount, terminatorStyle, hasFinalNewline } from './lines.js';
export type { LogicalLine, LineTerminator, TerminatorStyle } from './lines.js';
export { utf8Encode, utf8Decode, utf8ByteLength, utf8TruncateToBytes, isWellFormed, isValidUtf8 } from './utf8.js';
export { parsePositiveInt, parseLineRange, decodeQuotedOperand, splitQuotedOperands } from './operands.js';
export type { LineRange } from './operands.js';
export { classifySource, SOURCE_BASENAMES, SOURCE_EXTENSIONS } from './source-format.js';
export type { SourceFormat, SourceClass, ClassifyOptions } from './source-format.js';
export { isGoIdentifier, GO_KEYWORDS, goStringLiteral, goStringLiteralBytes, scanGoDeclarations } from './go-lexical.js';
export type { GoDeclaration, GoDeclarationKind } from './go-lexical.js';
export { parseShellInput, isSafeArtifactId } from './shell-header.js';
export { shellQuote } from './shell-quote.js';
export type { QuotedWord } from './shell-quote.js';
export type { ShellInput, Interpreter, ShellHeaderLimits } from './shell-header.js';
export { interpreterIdentity, parseShebangSelector, DEFAULT_MAX_ARGV_VALUES, DEFAULT_MAX_ARGV_VALUE_BYTES, } from './interpreter.js';
export type { InterpreterIdentity, ArgvLimits, SelectorResult } from './interpreter.js';
