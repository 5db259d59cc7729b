// hsymbol's TypeScript and JavaScript definitions (doc/hashline.md), from tree-sitter's trees:
// functions, classes, interfaces, type aliases, enums, namespaces and const/let/var at the top level
// or in a namespace, and class members that are methods (`Class.method`). Locals — anything inside
// a function body or another block — are not definitions. A range starts at `export`/`declare` and
// the decorators; bodiless overload signatures join the implementation that follows them.
import type { SymbolDefinition, SymbolScanner } from './symbol-definition.ts';
import { attachedStart, field, members, parseWith, span, type Grammar, type SyntaxNode } from './tree-sitter.ts';

interface Item extends SymbolDefinition {
  /** A bodiless overload signature: merged into the next item of the same name. */
  readonly overload: boolean;
  /** Position among its container's statements, so only adjacent overloads merge. */
  readonly seq: number;
}

export function typescriptScanner(grammar: Extract<Grammar, 'typescript' | 'tsx' | 'javascript'>): SymbolScanner {
  return (text) => parseWith(grammar, text, (root) => {
    const items: Item[] = [];
    statements(root, undefined, items, { seq: 0 });
    return mergeOverloads(items);
  });
}

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const RECOVERED = new Set(['function_expression', 'generator_function', 'class']);

function statements(body: SyntaxNode, container: string | undefined, out: Item[], counter: { seq: number }): void {
  for (const stmt of members(body)) {
    const seq = counter.seq++;
    if (stmt.type === 'ERROR') {
      // What tree-sitter could not fit into a statement may still hold whole definitions.
      statements(stmt, container, out, counter);
      continue;
    }
    const decl = unwrap(stmt);
    const add = (nameNode: SyntaxNode | null, kind: string, node: SyntaxNode, overload = false): void => {
      const name = nameNode === null ? null : memberName(nameNode);
      if (name === null) return;
      const qualified = container === undefined ? name : `${container}.${name}`;
      out.push({ name, ...(container === undefined ? {} : { container }), label: `${kind} ${qualified}`, ...span(stmt, node), overload, seq });
    };
    switch (decl.type) {
      case 'function_declaration':
      case 'generator_function_declaration':
      case 'function_expression': // (only as a recovered statement, see unwrap)
      case 'generator_function':
        add(field(decl, 'name'), 'function', decl);
        break;
      case 'function_signature':
        add(field(decl, 'name'), 'function', decl, true);
        break;
      case 'class_declaration':
      case 'abstract_class_declaration':
      case 'class': { // `export default class {…}`
        const name = field(decl, 'name');
        add(name, 'class', decl);
        const body = field(decl, 'body');
        if (body !== null) classMembers(body, name?.text ?? 'default', out, { seq: 0 });
        break;
      }
      case 'interface_declaration':
        add(field(decl, 'name'), 'interface', decl);
        break;
      case 'type_alias_declaration':
        add(field(decl, 'name'), 'type', decl);
        break;
      case 'enum_declaration':
        add(field(decl, 'name'), 'enum', decl);
        break;
      case 'internal_module':
      case 'module': {
        // `namespace A.B {}` is named by its last part; `declare module "x" {}` has no usable name.
        let name = field(decl, 'name');
        if (name?.type === 'nested_identifier') name = name.lastNamedChild;
        const named = name !== null && name.type !== 'string';
        if (named) add(name, 'namespace', decl);
        const body = field(decl, 'body');
        if (body !== null) statements(body, named ? name!.text : container, out, { seq: 0 });
        break;
      }
      case 'lexical_declaration':
      case 'variable_declaration': {
        const kind = decl.type === 'variable_declaration' ? 'var' : (field(decl, 'kind')?.text ?? 'let');
        // One item per bound name, each with the whole statement's range (`const a = 1, b = 2`).
        for (const d of members(decl)) {
          if (d.type !== 'variable_declarator') continue;
          const pattern = field(d, 'name');
          if (pattern !== null) for (const id of bindingNames(pattern)) add(id, kind, decl);
        }
        break;
      }
      default:
        break;
    }
  }
}

/**
 * The declaration an `export`, `declare` or expression statement wraps: `namespace` parses as an
 * expression, and so does a function or class whose body tree-sitter could not close.
 */
function unwrap(stmt: SyntaxNode): SyntaxNode {
  let n = stmt;
  for (;;) {
    let inner: SyntaxNode | null = null;
    if (n.type === 'export_statement') inner = field(n, 'declaration') ?? (field(n, 'value')?.type === 'class' ? field(n, 'value') : null);
    else if (n.type === 'ambient_declaration') inner = members(n)[0] ?? null;
    else if (n.type === 'expression_statement') {
      const only = members(n);
      const e = only.length === 1 ? only[0]! : undefined;
      if (e !== undefined && (e.type === 'internal_module' || e.type === 'module')) inner = e;
      else if (e !== undefined && n.hasError && e.startIndex === n.startIndex && RECOVERED.has(e.type)) inner = e;
    }
    if (inner === null) return n;
    n = inner;
  }
}

function classMembers(body: SyntaxNode, className: string, out: Item[], counter: { seq: number }): void {
  for (const m of members(body)) {
    if (m.type === 'decorator') continue; // (TypeScript: a sibling before its member; attached below)
    const seq = counter.seq++;
    if (m.type === 'ERROR') {
      classMembers(m, className, out, counter);
      continue;
    }
    let nameNode: SyntaxNode | null = null;
    let overload = false;
    switch (m.type) {
      case 'method_definition':
      case 'abstract_method_signature':
        nameNode = field(m, 'name');
        break;
      case 'method_signature':
        nameNode = field(m, 'name');
        overload = true;
        break;
      case 'public_field_definition': // TypeScript
      case 'field_definition': { // JavaScript
        // A field holding a function is a method as far as callers and edits are concerned.
        const value = field(m, 'value');
        if (value !== null && FUNCTION_VALUES.has(value.type)) nameNode = field(m, 'name') ?? field(m, 'property');
        break;
      }
      default:
        break;
    }
    const name = nameNode === null ? null : memberName(nameNode);
    if (name === null) continue;
    const start = attachedStart(m, (s) => s.type === 'decorator');
    out.push({ name, container: className, label: `method ${className}.${name}`, ...span(start, m), overload, seq });
  }
}

/** An identifier's text; a string or number key's value; null for a computed key. */
function memberName(n: SyntaxNode): string | null {
  if (n.type === 'computed_property_name') return null;
  if (n.type === 'string') return n.text.slice(1, -1);
  return n.text;
}

/** The identifiers a binding pattern declares (`{ a, b: [c, ...d], e = 1 }` → a, c, d, e). */
function bindingNames(p: SyntaxNode): SyntaxNode[] {
  switch (p.type) {
    case 'identifier':
    case 'shorthand_property_identifier_pattern':
      return [p];
    case 'pair_pattern': {
      const v = field(p, 'value');
      return v === null ? [] : bindingNames(v);
    }
    case 'assignment_pattern':
    case 'object_assignment_pattern': {
      const l = field(p, 'left');
      return l === null ? [] : bindingNames(l);
    }
    case 'object_pattern':
    case 'array_pattern':
    case 'rest_pattern':
      return members(p).flatMap(bindingNames);
    default:
      return [];
  }
}

function mergeOverloads(items: readonly Item[]): SymbolDefinition[] {
  const merged: Item[] = [];
  for (const it of items) {
    const prev = merged[merged.length - 1];
    if (prev !== undefined && prev.overload && prev.name === it.name && prev.container === it.container && it.seq === prev.seq + 1) {
      merged[merged.length - 1] = { ...it, line: prev.line, ...(prev.syntaxError === true ? { syntaxError: true } : {}) };
    } else merged.push(it);
  }
  return merged.map(({ overload: _o, seq: _s, ...d }) => d);
}
