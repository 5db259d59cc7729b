// What a file is, for the hashline commands (`inspect_file`, the `hread` header and its refusals):
// computed from the exact bytes, never normalized. Pure.
import { contentTag } from '../../isolates/core-v1/rows.ts';
import { isUtf8 } from 'node:buffer';
import type { TerminatorStyle } from '../../isolates/core-v1/lines.ts';
import { classifySource, type SourceClass } from '../../isolates/core-v1/source-format.ts';
import { scanUtf8 } from '../../isolates/core-v1/utf8.ts';

const CLASSIFY_SAMPLE = 8192;
// ignoreBOM: the sample is the file's text as core/v1 decodes it (a BOM is line 1's content).
const sampleDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

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
}

export function fileFacts(path: string, bytes: Uint8Array): FileFacts {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const tag = contentTag(bytes);
  const nul = bytes.indexOf(0);
  // Native validation (a 4 MB file in a millisecond); the pure scan only to say where it fails.
  if (nul >= 0 || !isUtf8(bytes)) {
    const why = nul >= 0 ? `a NUL byte at offset ${nul}` : `bytes that are not UTF-8 at offset ${scanUtf8(bytes).validPrefix}`;
    return { bytes: bytes.length, encoding: { kind: 'binary', why }, lines: null, terminators: null, finalNewline: null, bom, trailingWhitespaceLines: 0, format: classifySource(path, bytes), tag };
  }
  // One pass over the line ends, on the bytes (no decoded copy of the file): the same counts as
  // core/v1's logicalLineCount and terminatorStyle on the text.
  let lines = 0;
  let lf = false;
  let crlf = false;
  let trailing = 0;
  let start = 0;
  const len = bytes.length;
  const blank = (b: number | undefined): boolean => b === 0x20 || b === 0x09;
  for (;;) {
    const nl = bytes.indexOf(0x0a, start);
    if (nl < 0) break;
    lines++;
    let end = nl;
    if (end > start && bytes[end - 1] === 0x0d) { crlf = true; end--; } else lf = true;
    if (end > start && blank(bytes[end - 1])) trailing++;
    start = nl + 1;
  }
  if (start < len) {
    lines++;
    // (a lone CR ending the file is content, but what precedes it still counts as trailing)
    const last = bytes[len - 1] === 0x0d && len - 1 > start ? len - 1 : len;
    if (blank(bytes[last - 1])) trailing++;
  }
  // (the content rules of classifySource look at the start of the file only)
  const sample = sampleDecoder.decode(bytes.subarray(0, CLASSIFY_SAMPLE * 4));
  return {
    bytes: len,
    encoding: { kind: 'utf-8' },
    lines,
    terminators: crlf && lf ? 'mixed' : crlf ? 'crlf' : lf ? 'lf' : 'none',
    finalNewline: len === 0 ? null : bytes[len - 1] === 0x0a,
    bom,
    trailingWhitespaceLines: trailing,
    format: classifySource(path, sample.length > CLASSIFY_SAMPLE ? sample.slice(0, CLASSIFY_SAMPLE) : sample),
    tag,
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
