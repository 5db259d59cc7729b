// hsymbol's Python definitions (doc/hashline.md), from tree-sitter's tree: `def` and `class` at
// module level or in a class (methods as `Class.method`, nested classes as `Outer.Inner`), module
// variables (assignments and annotations) and `type` aliases. `if`/`try`/`with`/`for`/`while`
// blocks open no scope, so definitions in them count (`if TYPE_CHECKING:`); a function body does,
// so its locals do not. A range starts at the first decorator and ends at the body's last
// statement (a comment after it is not part of the definition).
import type { SymbolDefinition, SymbolScanner } from './symbol-definition.ts';
import { field, span, members, parseWith, type SyntaxNode } from './tree-sitter.ts';

export const pythonScanner: SymbolScanner = (text) => parseWith('python', text, (root) => {
  const out: SymbolDefinition[] = [];
  block(root, undefined, out);
  return out;
});

/** Statements that run in the enclosing scope: their blocks are searched as if inline. */
const SCOPELESS = new Set([
  'if_statement', 'elif_clause', 'else_clause', 'try_statement', 'except_clause', 'except_group_clause',
  'finally_clause', 'with_statement', 'for_statement', 'while_statement', 'block', 'ERROR',
]);

function block(node: SyntaxNode, cls: string | undefined, out: SymbolDefinition[]): void {
  for (const stmt of members(node)) {
    const def = stmt.type === 'decorated_definition' ? field(stmt, 'definition') : stmt;
    if (def === null) continue;
    const add = (nameNode: SyntaxNode | null, kind: string): void => {
      if (nameNode === null) return;
      const name = nameNode.text;
      out.push({ name, ...(cls === undefined ? {} : { container: cls }), label: `${kind} ${cls === undefined ? '' : `${cls}.`}${name}`, ...span(stmt, def) });
    };
    if (def.type === 'function_definition') add(field(def, 'name'), cls === undefined ? 'function' : 'method');
    else if (def.type === 'class_definition') {
      const name = field(def, 'name');
      add(name, 'class');
      const body = field(def, 'body');
      if (body !== null && name !== null) block(body, name.text, out);
    } else if (cls === undefined && def.type === 'expression_statement') {
      // Class attributes are part of their class, like a struct's fields; module variables are definitions.
      for (const a of members(def)) if (a.type === 'assignment') for (const id of assigned(a)) add(id, 'variable');
    } else if (cls === undefined && def.type === 'type_alias_statement') {
      const left = field(def, 'left');
      add(left?.type === 'type' ? (members(left)[0] ?? null) : left, 'type');
    } else if (SCOPELESS.has(def.type)) block(def, cls, out);
  }
}

/** The names an assignment binds: `a = b = 1`, `a, (b, c) = …`, `x: int = 3`, `x: int`. */
function assigned(a: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const targets = (t: SyntaxNode | null): void => {
    if (t === null) return;
    if (t.type === 'identifier') out.push(t);
    else if (t.type === 'pattern_list' || t.type === 'tuple_pattern' || t.type === 'list_pattern') members(t).forEach(targets);
  };
  targets(field(a, 'left'));
  const right = field(a, 'right');
  if (right?.type === 'assignment') out.push(...assigned(right));
  return out;
}
