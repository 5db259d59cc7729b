// Our own discriminated-union types over the plain JSON produced from mvdan-sh@0.10.1
// (mvdan/sh v3.5.1 syntax package) by the raw adapter in parser.ts. Positions are byte
// offsets into the UTF-8 source. Strings (Lit.Value etc.) are byte strings: one JS char
// per byte (latin1 view of the UTF-8 bytes).

export type Pos = number;
/** Comments: always empty (the parser is created without KeepComments). */
export type NoComments = never[];

// Every field of the raw JSON is declared, in mvdan's order, so that fast-parser.ts builds
// exactly these shapes; an unset position is 0, an unset node null, an empty list [].
export interface File { type: 'File'; Name: string; Stmts: Stmt[]; Last: NoComments }
export interface Stmt {
  type: 'Stmt'; Comments: NoComments; Cmd: Command | null; Position: Pos; Semicolon: Pos;
  Negated: boolean; Background: boolean; Coprocess: boolean; Redirs: Redirect[];
}
export interface Assign {
  type: 'Assign'; Append: boolean; Naked: boolean; Name: Lit | null;
  Index: ArithmExpr | null; Value: Word | null; Array: ArrayExpr | null;
}
export interface Redirect { type: 'Redirect'; OpPos: Pos; Op: number; N: Lit | null; Word: Word | null; Hdoc: Word | null }
export interface CallExpr { type: 'CallExpr'; Assigns: Assign[]; Args: Word[] }
export interface Subshell { type: 'Subshell'; Lparen: Pos; Rparen: Pos; Stmts: Stmt[]; Last: NoComments }
export interface Block { type: 'Block'; Lbrace: Pos; Rbrace: Pos; Stmts: Stmt[]; Last: NoComments }
export interface IfClause {
  type: 'IfClause'; Position: Pos; ThenPos: Pos; FiPos: Pos; Cond: Stmt[]; CondLast: NoComments;
  Then: Stmt[]; ThenLast: NoComments; Else: IfClause | null; Last: NoComments;
}
export interface WhileClause {
  type: 'WhileClause'; WhilePos: Pos; DoPos: Pos; DonePos: Pos; Until: boolean;
  Cond: Stmt[]; CondLast: NoComments; Do: Stmt[]; DoLast: NoComments;
}
export interface ForClause {
  type: 'ForClause'; ForPos: Pos; DoPos: Pos; DonePos: Pos; Select: boolean; Braces: boolean;
  Loop: WordIter | CStyleLoop; Do: Stmt[]; DoLast: NoComments;
}
export interface WordIter { type: 'WordIter'; Name: Lit; InPos: Pos; Items: Word[] }
export interface CStyleLoop { type: 'CStyleLoop'; Lparen: Pos; Rparen: Pos; Init: ArithmExpr | null; Cond: ArithmExpr | null; Post: ArithmExpr | null }
export interface BinaryCmd { type: 'BinaryCmd'; OpPos: Pos; Op: number; X: Stmt; Y: Stmt }
export interface FuncDecl { type: 'FuncDecl'; Position: Pos; RsrvWord: boolean; Parens: boolean; Name: Lit; Body: Stmt }
export interface CaseClause {
  type: 'CaseClause'; Case: Pos; In: Pos; Esac: Pos; Braces: boolean; Word: Word; Items: CaseItem[]; Last: NoComments;
}
export interface CaseItem { type: 'CaseItem'; Op: number; OpPos: Pos; Comments: NoComments; Patterns: Word[]; Stmts: Stmt[]; Last: NoComments }
export interface ArithmCmd { type: 'ArithmCmd'; Left: Pos; Right: Pos; Unsigned: boolean; X: ArithmExpr }
export interface TestClause { type: 'TestClause'; Left: Pos; Right: Pos; X: TestExpr }
export interface DeclClause { type: 'DeclClause'; Variant: Lit; Args: Assign[] }
export interface LetClause { type: 'LetClause'; Let: Pos; Exprs: ArithmExpr[] }
export interface TimeClause { type: 'TimeClause'; Time: Pos; PosixFormat: boolean; Stmt: Stmt | null }
export interface CoprocClause { type: 'CoprocClause'; Coproc: Pos; Name: Word | null; Stmt: Stmt }
export interface TestDecl { type: 'TestDecl'; Position: Pos }

export type Command = CallExpr | Subshell | Block | IfClause | WhileClause | ForClause | BinaryCmd | FuncDecl
  | CaseClause | ArithmCmd | TestClause | DeclClause | LetClause | TimeClause | CoprocClause | TestDecl;

export interface Word { type: 'Word'; Parts: WordPart[] }
export interface Lit { type: 'Lit'; ValuePos: Pos; ValueEnd: Pos; Value: string }
export interface SglQuoted { type: 'SglQuoted'; Left: Pos; Right: Pos; Dollar: boolean; Value: string }
export interface DblQuoted { type: 'DblQuoted'; Left: Pos; Right: Pos; Dollar: boolean; Parts: WordPart[] }
export interface CmdSubst {
  type: 'CmdSubst'; Left: Pos; Right: Pos; Stmts: Stmt[]; Last: NoComments; Backquotes: boolean; TempFile: boolean; ReplyVar: boolean;
}
export interface ParamExp {
  type: 'ParamExp'; Dollar: Pos; Rbrace: Pos; Short: boolean; Excl: boolean; Length: boolean; Width: boolean;
  Param: Lit; Index: ArithmExpr | null; Slice: Slice | null; Repl: Replace | null; Names: number; Exp: Expansion | null;
}
export interface Slice { type: 'Slice'; Offset: ArithmExpr | null; Length: ArithmExpr | null }
export interface Replace { type: 'Replace'; All: boolean; Orig: Word | null; With: Word | null }
export interface Expansion { type: 'Expansion'; Op: number; Word: Word | null }
export interface ArithmExp { type: 'ArithmExp'; Left: Pos; Right: Pos; Bracket: boolean; Unsigned: boolean; X: ArithmExpr | null }
export interface ExtGlob { type: 'ExtGlob'; OpPos: Pos; Op: number; Pattern: Lit }
export interface ProcSubst { type: 'ProcSubst'; OpPos: Pos; Rparen: Pos; Op: number; Stmts: Stmt[]; Last: NoComments }
export interface BraceExp { type: 'BraceExp'; Sequence: boolean; Elems: Word[] }
export type WordPart = Lit | SglQuoted | DblQuoted | CmdSubst | ParamExp | ArithmExp | ExtGlob | ProcSubst | BraceExp;

export interface BinaryArithm { type: 'BinaryArithm'; OpPos: Pos; Op: number; X: ArithmExpr; Y: ArithmExpr }
export interface UnaryArithm { type: 'UnaryArithm'; OpPos: Pos; Op: number; Post: boolean; X: ArithmExpr }
export interface ParenArithm { type: 'ParenArithm'; Lparen: Pos; Rparen: Pos; X: ArithmExpr }
export type ArithmExpr = BinaryArithm | UnaryArithm | ParenArithm | Word;

export interface BinaryTest { type: 'BinaryTest'; OpPos: Pos; Op: number; X: TestExpr; Y: TestExpr }
export interface UnaryTest { type: 'UnaryTest'; OpPos: Pos; Op: number; X: TestExpr }
export interface ParenTest { type: 'ParenTest'; Lparen: Pos; Rparen: Pos; X: TestExpr }
export type TestExpr = BinaryTest | UnaryTest | ParenTest | Word;

export interface ArrayExpr { type: 'ArrayExpr'; Lparen: Pos; Rparen: Pos; Elems: ArrayElem[]; Last: NoComments }
export interface ArrayElem { type: 'ArrayElem'; Index: ArithmExpr | null; Value: Word | null; Comments: NoComments }

/** Token values of mvdan/sh v3.5.1 (syntax/tokens.go), as found in the raw JSON. */
export const Tok = {
  and: 9, andAnd: 10, orOr: 11, or: 12, orAnd: 13,
  dblSemicolon: 30, semiAnd: 31, dblSemiAnd: 32, semiOr: 33,
  exclMark: 34, tilde: 35, addAdd: 36, subSub: 37, star: 38, power: 39, equal: 40, nequal: 41, lequal: 42, gequal: 43,
  addAssgn: 44, subAssgn: 45, mulAssgn: 46, quoAssgn: 47, remAssgn: 48, andAssgn: 49, orAssgn: 50, xorAssgn: 51, shlAssgn: 52, shrAssgn: 53,
  rdrOut: 54, appOut: 55, rdrIn: 56, rdrInOut: 57, dplIn: 58, dplOut: 59, clbOut: 60, hdoc: 61, dashHdoc: 62, wordHdoc: 63, rdrAll: 64, appAll: 65,
  cmdIn: 66, cmdOut: 67,
  plus: 68, colPlus: 69, minus: 70, colMinus: 71, quest: 72, colQuest: 73, assgn: 74, colAssgn: 75,
  perc: 76, dblPerc: 77, hash: 78, dblHash: 79, caret: 80, dblCaret: 81, comma: 82, dblComma: 83, at: 84, slash: 85, dblSlash: 86, colon: 87,
  tsExists: 88, tsRegFile: 89, tsDirect: 90, tsCharSp: 91, tsBlckSp: 92, tsNmPipe: 93, tsSocket: 94, tsSmbLink: 95, tsSticky: 96,
  tsGIDSet: 97, tsUIDSet: 98, tsGrpOwn: 99, tsUsrOwn: 100, tsModif: 101, tsRead: 102, tsWrite: 103, tsExec: 104, tsNoEmpty: 105,
  tsFdTerm: 106, tsEmpStr: 107, tsNempStr: 108, tsOptSet: 109, tsVarSet: 110, tsRefVar: 111,
  tsReMatch: 112, tsNewer: 113, tsOlder: 114, tsDevIno: 115, tsEql: 116, tsNeq: 117, tsLeq: 118, tsGeq: 119, tsLss: 120, tsGtr: 121,
  globQuest: 122, globStar: 123, globPlus: 124, globAt: 125, globExcl: 126,
} as const;
