// hsymbol's Rust definitions (doc/hashline.md), from tree-sitter's tree: items at the crate level
// or in a `mod` (`module.item`) — fn, struct, enum, union, trait, type, const, static,
// macro_rules!, mod — and the fns, consts and types of `impl` and `trait` blocks as members of the
// type or trait (`Type.method`; `impl Trait for Type` counts for Type). Items inside a fn body are
// locals. A range starts at the first outer attribute (`#[derive…]`) before the item; doc
// comments before that are not part of it.
import type { SymbolDefinition, SymbolScanner } from './symbol-definition.ts';
import { attachedStart, field, span, members, parseWith, type SyntaxNode } from './tree-sitter.ts';

export const rustScanner: SymbolScanner = (text) => parseWith('rust', text, (root) => {
  const out: SymbolDefinition[] = [];
  items(root, undefined, false, out);
  return out;
});

const ITEM_KINDS: Readonly<Record<string, string>> = {
  function_item: 'fn', function_signature_item: 'fn', struct_item: 'struct', enum_item: 'enum',
  union_item: 'union', trait_item: 'trait', type_item: 'type', associated_type: 'type', const_item: 'const',
  static_item: 'static', macro_definition: 'macro', mod_item: 'mod',
};

/** `inImpl`: the container is an impl's type or a trait, whose fns are methods. */
function items(node: SyntaxNode, container: string | undefined, inImpl: boolean, out: SymbolDefinition[]): void {
  for (const item of members(node)) {
    if (item.type === 'ERROR' || item.type === 'foreign_mod_item' || item.type === 'declaration_list') {
      // (an `extern "C" {}` block declares its fns in the enclosing module)
      const body = item.type === 'foreign_mod_item' ? field(item, 'body') : item;
      if (body !== null) items(body, container, inImpl, out);
      continue;
    }
    if (item.type === 'impl_item') {
      const body = field(item, 'body');
      if (body !== null) items(body, implTypeName(field(item, 'type')), true, out);
      continue;
    }
    let kind = ITEM_KINDS[item.type];
    if (kind === undefined) continue;
    const nameNode = field(item, 'name');
    if (nameNode === null) continue;
    const name = nameNode.text.replace(/^r#/, ''); // a raw identifier names the same item
    if (kind === 'fn' && inImpl) kind = 'method';
    const start = attachedStart(item, (s) => s.type === 'attribute_item');
    out.push({ name, ...(container === undefined ? {} : { container }), label: `${kind} ${container === undefined ? '' : `${container}.`}${name}`, ...span(start, item) });
    if (item.type === 'trait_item' || item.type === 'mod_item') {
      const body = field(item, 'body');
      if (body !== null) items(body, name, item.type === 'trait_item', out);
    }
  }
}

/** The base name of an impl's self type: `Point` for `Point<T>`, `a::Point`, `&'a Point`; else its text. */
function implTypeName(t: SyntaxNode | null): string | undefined {
  for (let n = t; n !== null; ) {
    switch (n.type) {
      case 'type_identifier':
      case 'primitive_type':
        return n.text;
      case 'generic_type':
      case 'reference_type':
      case 'pointer_type':
        n = field(n, 'type');
        break;
      case 'scoped_type_identifier':
        n = field(n, 'name');
        break;
      default:
        return n.text;
    }
  }
  return undefined;
}
