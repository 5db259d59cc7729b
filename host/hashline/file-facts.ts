// What a file is, for the hashline commands (`inspect_file`, the `hread` header and its refusals):
// computed from the exact bytes, never normalized. Pure.
import { contentTag } from '../../isolates/core-v1/rows.ts';
import { logicalLineCount, terminatorStyle, type TerminatorStyle } from '../../isolates/core-v1/lines.ts';
import { classifySource, type SourceClass } from '../../isolates/core-v1/source-format.ts';
import { scanUtf8 } from '../../isolates/core-v1/utf8.ts';
import { decodeUtf8 } from './fast-rows.ts';

const CLASSIFY_SAMPLE = 8192;

export interface FileFacts {
  readonly bytes: number;
  /** 'utf-8' text, or why not: a NUL byte, or bytes that are not UTF-8 (the offset of the first). */
  readonly encoding: { readonly kind: 'utf-8' } | { readonly kind: 'binary'; readonly why: string };
  /** Logical lines (LF or CRLF ends one; a final unterminated line counts); null unless UTF-8. */
  readonly lines: number | null;
  readonly terminators: TerminatorStyle | null;
  readonly finalNewline: boolean | null;
  /** A UTF-8 byte order mark opens the file (it is part of line 1's bytes). */
  readonly bom: boolean;
  /** Lines whose content ends in a space or tab (shown: an edit must keep or change them knowingly). */
  readonly trailingWhitespaceLines: number;
  readonly format: SourceClass;
  /** core/v1 contentTag of the exact bytes. */
  readonly tag: string;
  /** The decoded text when UTF-8. */
  readonly text: string | null;
}

export function fileFacts(path: string, bytes: Uint8Array): FileFacts {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const tag = contentTag(bytes);
  const nul = bytes.indexOf(0);
  // Native decoding first (a 4 MB file in milliseconds); the pure scan only to say where it fails.
  const text = nul >= 0 ? null : decodeUtf8(bytes);
  if (text === null) {
    const why = nul >= 0 ? `a NUL byte at offset ${nul}` : `bytes that are not UTF-8 at offset ${scanUtf8(bytes).validPrefix}`;
    return { bytes: bytes.length, encoding: { kind: 'binary', why }, lines: null, terminators: null, finalNewline: null, bom, trailingWhitespaceLines: 0, format: classifySource(path, bytes), tag, text: null };
  }
  const encoding: FileFacts['encoding'] = { kind: 'utf-8' };
  // (the content rules of classifySource look at the start of the file only)
  const format = classifySource(path, text.length > CLASSIFY_SAMPLE ? text.slice(0, CLASSIFY_SAMPLE) : text);
  let trailing = 0;
  for (const _ of text.matchAll(/[ \t]\r?(?:\n|$)/g)) trailing++;
  return {
    bytes: bytes.length,
    encoding,
    lines: logicalLineCount(text),
    terminators: terminatorStyle(text),
    finalNewline: text.length === 0 ? null : text.endsWith('\n'),
    bom,
    trailingWhitespaceLines: trailing,
    format,
    tag,
    text,
  };
}

/** `inspect_file`'s report: one `key: value` line each, stable order. */
export function renderFacts(displayPath: string, f: FileFacts): string {
  const out = [`path: ${displayPath}`, `bytes: ${f.bytes}`];
  if (f.encoding.kind === 'utf-8') {
    out.push('encoding: utf-8' + (f.bom ? ' with BOM' : ''), `lines: ${f.lines}`, `line ends: ${f.terminators}`);
    out.push(`final newline: ${f.finalNewline === null ? 'n/a (empty)' : f.finalNewline ? 'yes' : 'no'}`);
    out.push(`trailing whitespace: ${f.trailingWhitespaceLines} line${f.trailingWhitespaceLines === 1 ? '' : 's'}`);
  } else {
    out.push(`encoding: binary (${f.encoding.why})`);
  }
  out.push(`format: ${f.format.format} (by ${f.format.basis})`, `tag: ${f.tag}`);
  const yes = (b: boolean): string => (b ? 'yes' : 'no');
  out.push(`hread: ${yes(f.format.hread)}`, `hpatch: ${yes(f.format.hpatch)}`, `hsymbol: ${yes(f.format.hsymbol)}`);
  return `${out.join('\n')}\n`;
}
