// The exec_command argument shape (minus `cmd`) this request's Codex accepts, so the shell tool can
// document `#!params={…}` with exactly those fields. Two sources: the TypeScript declaration Codex
// prints in Code Mode descriptions, and the JSON-schema `parameters` of a function tool. Anything
// not recognized gives null (the shell keeps its base description) instead of a guessed shape.
import { findNestedToolSection } from './code-mode-description.ts';
import { isJsonObject } from '../json/json-object.ts';

export interface ExecParamField {
  readonly name: string;
  /** TypeScript-like type text, e.g. `string`, `Array<string>`, `"a" | "b"`. */
  readonly type: string;
  readonly optional: boolean;
  /** Field documentation; lines joined with `\n`. Absent when the source has none. */
  readonly doc?: string;
}

/** `cmd` is never included: the router supplies it. */
export interface ExecParamsShape {
  readonly fields: readonly ExecParamField[];
}

const DECLARATION = 'declare const tools: { exec_command(args: {';
const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/y;

function field(name: string, type: string, optional: boolean, doc: string | undefined): ExecParamField {
  // `doc` only when present, so both sources compare deep-equal.
  return doc === undefined ? { name, type, optional } : { name, type, optional, doc };
}

/** Drops `cmd` and requires it was there as a string: without it this is not the command runner we drive. */
function withoutCmd(fields: ExecParamField[]): ExecParamsShape | null {
  const names = new Set<string>();
  for (const f of fields) {
    if (names.has(f.name)) return null;
    names.add(f.name);
  }
  const cmd = fields.find((f) => f.name === 'cmd');
  if (!cmd || cmd.type !== 'string') return null;
  return { fields: fields.filter((f) => f.name !== 'cmd') };
}

/**
 * Reads one type up to its terminating `;` at nesting depth 0. Returns the end index (at `;`) or -1.
 * Strings and `//` comments (nested object types carry doc comments) are skipped so their
 * punctuation never counts as nesting.
 */
function scanType(src: string, from: number): number {
  const stack: string[] = [];
  const closer: Record<string, string> = { '{': '}', '(': ')', '[': ']', '<': '>' };
  let i = from;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '/' && src[i + 1] === '/') {
      const nl = src.indexOf('\n', i);
      if (nl === -1) return -1;
      i = nl + 1;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') return -1;
    if (c === '"' || c === "'" || c === '`') {
      i++;
      while (i < src.length && src[i] !== c) {
        if (src[i] === '\\') i++;
        else if (src[i] === '\n' || (c === '`' && src[i] === '$' && src[i + 1] === '{')) return -1;
        i++;
      }
      if (i >= src.length) return -1;
      i++;
      continue;
    }
    if (c === '=' && src[i + 1] === '>') {
      i += 2; // arrow, not a closing angle bracket
      continue;
    }
    if (c in closer) stack.push(closer[c]!);
    else if (c === '}' || c === ')' || c === ']' || c === '>') {
      if (stack.pop() !== c) return -1;
    } else if (c === ';' && stack.length === 0) return i;
    i++;
  }
  return -1;
}

/** Parses the `{ … }` argument object whose body starts at `from`; returns fields and the index after `}`. */
function parseArgsObject(src: string, from: number): { fields: ExecParamField[]; end: number } | null {
  const fields: ExecParamField[] = [];
  let doc: string[] = [];
  let i = from;
  for (;;) {
    while (i < src.length && /\s/.test(src[i]!)) i++;
    if (i >= src.length) return null;
    if (src[i] === '}') {
      // A comment not followed by a field is not a structure we know.
      return doc.length === 0 ? { fields, end: i + 1 } : null;
    }
    if (src.startsWith('//', i)) {
      const nl = src.indexOf('\n', i);
      if (nl === -1) return null;
      doc.push(src.slice(i + 2, nl).replace(/^ /, '').trimEnd());
      i = nl + 1;
      continue;
    }
    IDENT.lastIndex = i;
    const m = IDENT.exec(src);
    if (!m) return null;
    const name = m[0];
    i += name.length;
    let optional = false;
    if (src[i] === '?') {
      optional = true;
      i++;
    }
    while (src[i] === ' ' || src[i] === '\t') i++;
    if (src[i] !== ':') return null;
    const semi = scanType(src, i + 1);
    if (semi === -1) return null;
    const type = src.slice(i + 1, semi).trim();
    if (type === '') return null;
    fields.push(field(name, type, optional, doc.length > 0 ? doc.join('\n') : undefined));
    doc = [];
    i = semi + 1;
  }
}

/**
 * From the CLI form: the TypeScript `exec_command(args: {...})` declaration, inside the description's
 * `### \`exec_command\`` section when there is one, otherwise anywhere in the given text (a section,
 * or a native exec_command description with an appended declaration). null when not recognizable.
 */
export function execParamsShapeFromDeclaration(sectionOrDescription: string): ExecParamsShape | null {
  const section = findNestedToolSection(sectionOrDescription, 'exec_command');
  const scope = section ? section.text : sectionOrDescription;
  const at = scope.indexOf(DECLARATION);
  if (at === -1 || scope.indexOf(DECLARATION, at + 1) !== -1) return null;
  const parsed = parseArgsObject(scope, at + DECLARATION.length);
  if (!parsed || scope[parsed.end] !== ')') return null;
  return withoutCmd(parsed.fields);
}

const isRecord = isJsonObject;

const PRIMITIVES: Readonly<Record<string, string>> = {
  string: 'string',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
  null: 'null',
};

/** JSON-schema → TS-like text for the subset Codex uses; null for anything else (objects, anyOf, …). */
function schemaTypeText(schema: unknown): string | null {
  if (!isRecord(schema)) return null;
  if (schema.anyOf !== undefined || schema.oneOf !== undefined || schema.allOf !== undefined) return null;
  if (schema.enum !== undefined) {
    const values = schema.enum;
    if (!Array.isArray(values) || values.length === 0) return null;
    if (!values.every((v): v is string => typeof v === 'string')) return null;
    if (schema.type !== undefined && schema.type !== 'string') return null;
    return values.map((v) => JSON.stringify(v)).join(' | ');
  }
  const t = schema.type;
  if (t === 'array') {
    const item = schemaTypeText(schema.items);
    return item === null ? null : `Array<${item}>`;
  }
  if (typeof t === 'string') return PRIMITIVES[t] ?? null;
  if (Array.isArray(t) && t.length > 0) {
    const parts = t.map((x) => (typeof x === 'string' ? PRIMITIVES[x] ?? null : null));
    return parts.every((p): p is string => p !== null) ? parts.join(' | ') : null;
  }
  return null;
}

/**
 * From an app-style declaration: the JSON-schema `parameters` object of an exec_command function
 * tool ({type:'object', properties, required}). Property order is kept. null when not recognizable.
 */
export function execParamsShapeFromSchema(parameters: unknown): ExecParamsShape | null {
  if (!isRecord(parameters) || parameters.type !== 'object' || !isRecord(parameters.properties)) return null;
  const properties = parameters.properties;
  const required = parameters.required ?? [];
  if (!Array.isArray(required) || !required.every((r): r is string => typeof r === 'string')) return null;
  if (!required.every((r) => Object.hasOwn(properties, r))) return null;
  const fields: ExecParamField[] = [];
  for (const [name, prop] of Object.entries(properties)) {
    const type = schemaTypeText(prop);
    if (type === null || !isRecord(prop)) return null;
    const description = prop.description;
    if (description !== undefined && typeof description !== 'string') return null;
    fields.push(field(name, type, !required.includes(name), description));
  }
  return withoutCmd(fields);
}

/** A TypeScript object type, one field per line with its doc as `//` comments (Codex's own style). */
export function renderExecParamsShape(shape: ExecParamsShape): string {
  if (shape.fields.length === 0) return '{}';
  const lines = ['{'];
  for (const f of shape.fields) {
    if (f.doc !== undefined) for (const d of f.doc.split('\n')) lines.push(d === '' ? '  //' : `  // ${d}`);
    lines.push(`  ${f.name}${f.optional ? '?' : ''}: ${f.type};`);
  }
  lines.push('}');
  return lines.join('\n');
}
