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
export declare function splitLines(text: string): LogicalLine[];
/** Number of logical lines: every LF ends one, and a final unterminated line counts. '' → 0. */
export declare function logicalLineCount(text: string): number;
/** 'lf' / 'crlf' when every terminator is that kind, 'mixed' when both occur, 'none' without any. */
export type TerminatorStyle = 'lf' | 'crlf' | 'mixed' | 'none';
export declare function terminatorStyle(text: string): TerminatorStyle;
/** True when the last logical line has a terminator (text ends with LF, which covers CRLF). '' → false. */
export declare function hasFinalNewline(text: string): boolean;
