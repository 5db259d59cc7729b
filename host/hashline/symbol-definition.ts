// What every language's definition scanner gives hsymbol (doc/hashline.md): one named definition
// and the lines of its whole range, so the rows can be shown (and later edited) as one unit.

export interface SymbolDefinition {
  readonly name: string;
  /**
   * The enclosing named definition a member belongs to — a Go method's receiver type, a class, an
   * impl's type, a trait, a namespace or module — matched by `Container.name`; absent at the top.
   */
  readonly container?: string;
  /** What the header says, e.g. `method Box.add`, `class Box`, `func Add`. */
  readonly label: string;
  /** 1-based first and last line of the range. */
  readonly line: number;
  readonly endLine: number;
  /** The parser recovered from a syntax error inside the range: the header says so. */
  readonly syntaxError?: boolean;
}

/** Finds the definitions in one file's text; never throws on malformed source. */
export type SymbolScanner = (text: string) => Promise<SymbolDefinition[]>;
