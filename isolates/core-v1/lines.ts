// Logical lines. LF and CRLF terminate a line; a lone CR is content (old Mac files are text with one
// long line, and a CR inside a line must survive a read/edit round trip byte for byte).

/** A line terminator as found in the text; '' only for a final line without one. */
export type LineTerminator = '\n' | '\r\n' | '';

export interface LogicalLine {
  /** The line's content without its terminator. */
  readonly text: string;
  readonly terminator: LineTerminator;
}

/**
 * Splits `text` into logical lines. Concatenating every `text + terminator` gives back `text`.
 * '' → []; 'a\n' → one line; 'a\nb' → two lines, the last with terminator ''.
 */
export function splitLines(text: string): LogicalLine[] {
  const lines: LogicalLine[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    const crlf = nl > start && text.charCodeAt(nl - 1) === 0x0d;
    lines.push(crlf ? { text: text.slice(start, nl - 1), terminator: '\r\n' } : { text: text.slice(start, nl), terminator: '\n' });
    start = nl + 1;
  }
  if (start < text.length) lines.push({ text: text.slice(start), terminator: '' });
  return lines;
}

/** Number of logical lines: every LF ends one, and a final unterminated line counts. '' → 0. */
export function logicalLineCount(text: string): number {
  let n = 0;
  let at = text.indexOf('\n');
  while (at >= 0) {
    n++;
    at = text.indexOf('\n', at + 1);
  }
  return text.length > 0 && text.charCodeAt(text.length - 1) !== 0x0a ? n + 1 : n;
}

/** 'lf' / 'crlf' when every terminator is that kind, 'mixed' when both occur, 'none' without any. */
export type TerminatorStyle = 'lf' | 'crlf' | 'mixed' | 'none';

export function terminatorStyle(text: string): TerminatorStyle {
  let lf = false;
  let crlf = false;
  let at = text.indexOf('\n');
  while (at >= 0) {
    if (at > 0 && text.charCodeAt(at - 1) === 0x0d) crlf = true;
    else lf = true;
    if (lf && crlf) return 'mixed';
    at = text.indexOf('\n', at + 1);
  }
  return crlf ? 'crlf' : lf ? 'lf' : 'none';
}

/** True when the last logical line has a terminator (text ends with LF, which covers CRLF). '' → false. */
export function hasFinalNewline(text: string): boolean {
  return text.length > 0 && text.charCodeAt(text.length - 1) === 0x0a;
}
