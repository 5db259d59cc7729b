// Output lines under a row and byte bound, for the commands whose output grows with the tree they
// search (hgrep, hsymbol): once a line would not fit, nothing more is taken and the command ends its
// output with a line that says why and how to narrow it.

export const MAX_OUTPUT_ROWS = 1000;
export const MAX_OUTPUT_BYTES = 64 * 1024;

export class BoundedLines {
  private readonly lines: string[] = [];
  private bytes = 0;
  /** A line was refused: the output is cut. */
  full = false;

  constructor(private readonly maxRows = MAX_OUTPUT_ROWS, private readonly maxBytes = MAX_OUTPUT_BYTES) {}

  /** Takes `line` if it fits; false (and full from then on) if not. */
  push(line: string): boolean {
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (this.full || this.lines.length >= this.maxRows || this.bytes + size > this.maxBytes) {
      this.full = true;
      return false;
    }
    this.lines.push(line);
    this.bytes += size;
    return true;
  }

  /** The lines, newline-terminated, with `cutNote` last when the output was cut; '' when empty. */
  text(cutNote: string): string {
    const lines = this.full ? [...this.lines, cutNote] : this.lines;
    return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  }
}
