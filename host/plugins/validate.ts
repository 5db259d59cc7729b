// Startup validation of the complete plugin registry (REQ-PLUGIN-001): every problem of every
// declaration is collected — load errors, API version, schema, identity, duplicate and reserved
// names, input limits, missing parts, grammars — so that the operator sees them all at once.
// Nothing here decides what to expose: any problem means no plugin is exposed.
import type { ErrorObject } from 'ajv';
import {
  MAX_INPUT_LIMIT,
  PLUGIN_ID_PATTERN,
  SUPPORTED_API_VERSION,
  TOOL_NAME_PATTERN,
  schemaErrors,
  type DeclarationDescription,
  type DeclaredGrammarFormat,
} from './declaration-schema.ts';
import { describeReservedReason, reservedNameReason } from './shell-names.ts';
import { isJsonObject, type JsonObject } from '../json/json-object.ts';

/** One startup problem. `line`/`column` are a position in the declaration file (load errors); a grammar position is part of `message`. */
export interface PluginProblem {
  readonly file: string;
  readonly tool?: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/** `plugins/lint.mjs: tool "lint": grammar 3:14: terminal priorities are not supported` */
export function formatPluginProblem(p: PluginProblem): string {
  const at = p.line === undefined ? '' : `:${p.line}${p.column === undefined ? '' : `:${p.column}`}`;
  const tool = p.tool === undefined ? '' : `tool ${JSON.stringify(p.tool)}: `;
  return `${p.file}${at}: ${tool}${p.message}`;
}

export interface GrammarProblem {
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}
export type GrammarChecker = (format: DeclaredGrammarFormat) => readonly GrammarProblem[];

/** What loading produced for one discovered file. */
export type LoadedDeclaration =
  | {
      readonly kind: 'loaded';
      readonly file: string;
      /** The isolate's raw, unvalidated description of the declaration. */
      readonly description: unknown;
      /** Built-in declarations loaded through the plugin host may use the router's reserved names. Default 'configured'. */
      readonly origin?: 'configured' | 'builtin';
    }
  | { readonly kind: 'load-error'; readonly file: string; readonly error: { readonly message: string; readonly line?: number; readonly column?: number } };

export interface ValidateOptions {
  /** Names of the tools the router registers itself; a plugin tool cannot take them. */
  readonly builtinNames: readonly string[];
  /** Lark/regex syntax and supported-subset check. */
  readonly grammarProblems: GrammarChecker;
}

export interface ValidatedDeclaration {
  readonly file: string;
  readonly description: DeclarationDescription;
}

export type ValidationResult =
  | { readonly problems: readonly []; readonly declarations: readonly ValidatedDeclaration[] }
  | { readonly problems: readonly PluginProblem[]; readonly declarations: readonly [] };

const ID_RE = new RegExp(PLUGIN_ID_PATTERN);
const COLLIDE = '; their executor frontends would collide on case-insensitive file systems';
const NAME_RE = new RegExp(TOOL_NAME_PATTERN);

export function validateDeclarations(loaded: readonly LoadedDeclaration[], opts: ValidateOptions): ValidationResult {
  const problems: PluginProblem[] = [];
  const valid: ValidatedDeclaration[] = [];
  const builtins = new Map(opts.builtinNames.map((n) => [n.toLowerCase(), n]));
  // First claimant of each plugin id and tool name, across files in discovery order.
  const ids = new Map<string, string>();
  const names = new Map<string, { file: string; id: string | undefined; name: string }>();

  for (const decl of loaded) {
    if (decl.kind === 'load-error') {
      const { message, line, column } = decl.error;
      problems.push({ file: decl.file, message, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}) });
      continue;
    }
    const fileProblems = validateOne(decl, { builtins, ids, names, grammarProblems: opts.grammarProblems });
    if (fileProblems.length === 0) valid.push({ file: decl.file, description: decl.description as DeclarationDescription });
    problems.push(...fileProblems);
  }
  return problems.length === 0 ? { problems: [], declarations: valid } : { problems, declarations: [] };
}

interface CrossFile {
  /** Built-in names by their lower case. */
  readonly builtins: ReadonlyMap<string, string>;
  readonly ids: Map<string, string>;
  /** First claimant of each tool name, by its lower case. */
  readonly names: Map<string, { file: string; id: string | undefined; name: string }>;
  readonly grammarProblems: GrammarChecker;
}

type Json = JsonObject;

function validateOne(decl: Extract<LoadedDeclaration, { kind: 'loaded' }>, cross: CrossFile): PluginProblem[] {
  const { file, description } = decl;
  const problems: PluginProblem[] = [];
  if (!isObject(description)) {
    return [{ file, message: `the default export must be a plugin declaration object (got ${jsonType(description)})` }];
  }
  // Another API version's schema is unknown here: report the version alone.
  const apiVersion = description['apiVersion'];
  if (apiVersion !== undefined && apiVersion !== SUPPORTED_API_VERSION) {
    return [{ file, message: `apiVersion ${JSON.stringify(apiVersion)} is not supported (this router supports ${SUPPORTED_API_VERSION})` }];
  }

  const tools = Array.isArray(description['tools']) ? (description['tools'] as unknown[]) : [];
  const toolName = (i: number): string | undefined => {
    const spec = isObject(tools[i]) ? (tools[i] as Json)['spec'] : undefined;
    const name = isObject(spec) ? spec['name'] : undefined;
    return typeof name === 'string' ? name : undefined;
  };

  // `{ type: 'text' }` is the API's explicit spelling of what the declaration says by omitting format.
  const textFormats = new Set<string>();
  tools.forEach((t, i) => {
    const format = isObject(t) && isObject(t['spec']) ? (t['spec'] as Json)['format'] : undefined;
    if (isObject(format) && format['type'] === 'text') {
      textFormats.add(`/tools/${i}/spec/format`);
      problems.push(withTool({ file, message: 'format {"type":"text"} is not supported: omit format for unconstrained text' }, toolName(i)));
    }
  });

  for (const err of schemaErrors(description)) {
    if ([...textFormats].some((p) => err.instancePath === p || err.instancePath.startsWith(`${p}/`))) continue;
    problems.push(schemaProblem(file, err, description, toolName));
  }

  const id = typeof description['id'] === 'string' && ID_RE.test(description['id']) ? description['id'] : undefined;
  if (id !== undefined) {
    const prior = cross.ids.get(id);
    if (prior !== undefined) problems.push({ file, message: `plugin id "${id}" is also declared by ${prior}` });
    else cross.ids.set(id, file);
  }

  tools.forEach((t, i) => {
    if (!isObject(t)) return;
    const name = toolName(i);
    const problem = (message: string): void => {
      problems.push(withTool({ file, message }, name ?? `#${i + 1}`));
    };
    if (t['hasParse'] === false) problem('has no input parser (parse)');
    if (t['hasTranslate'] === false) problem('has no translator (translate)');
    // A built-in tool executes through the router's own worker (the shell worker), not its isolate.
    if (t['hasExecute'] === false && decl.origin !== 'builtin') problem('has no executor implementation (execute)');

    if (name !== undefined && NAME_RE.test(name)) {
      // Keyed by lower case: each executor-backed tool gets a frontend file named after it, and
      // `Lint` and `lint` would be one file on a case-insensitive file system (macOS, Windows).
      const key = name.toLowerCase();
      const reason = reservedNameReason(name);
      const builtin = cross.builtins.get(key);
      const prior = cross.names.get(key);
      if (builtin === name) problem(`tool name "${name}" is already a built-in tool`);
      else if (builtin !== undefined) problem(`tool name "${name}" differs from the built-in tool "${builtin}" only in letter case${COLLIDE}`);
      else if (reason !== null && !(reason === 'router' && decl.origin === 'builtin')) problem(`tool name "${name}" ${describeReservedReason(reason)}`);
      else if (prior !== undefined) {
        const where = prior.file === file ? 'in this plugin' : `by ${prior.id ? `plugin "${prior.id}" ` : ''}(${prior.file})`;
        problem(prior.name === name
          ? (prior.file === file ? `tool name "${name}" is declared twice in this plugin` : `tool name "${name}" is also declared ${where}`)
          : `tool name "${name}" differs from "${prior.name}" declared ${where} only in letter case${COLLIDE}`);
      } else cross.names.set(key, { file, id, name });
    }

    const spec = t['spec'];
    const format = isObject(spec) ? spec['format'] : undefined;
    if (isCheckableGrammar(format)) {
      for (const g of checkGrammar(cross.grammarProblems, format)) {
        const at = g.line === undefined ? '' : ` ${g.line}${g.column === undefined ? '' : `:${g.column}`}`;
        problem(`grammar${at}: ${g.message}`);
      }
    }
  });
  return problems;
}

function checkGrammar(check: GrammarChecker, format: DeclaredGrammarFormat): readonly GrammarProblem[] {
  try {
    return check(format);
  } catch (e) {
    // A checker bug must not hide the other problems or pass the grammar.
    return [{ message: `could not be checked: ${e instanceof Error ? e.message : String(e)}` }];
  }
}

// Only a well-formed format reaches the grammar checker; the schema reports the rest.
function isCheckableGrammar(format: unknown): format is DeclaredGrammarFormat {
  return isObject(format)
    && format['type'] === 'grammar'
    && (format['syntax'] === 'lark' || format['syntax'] === 'regex')
    && typeof format['definition'] === 'string'
    && format['definition'].length > 0
    && format['definition'].length <= 65536;
}

function schemaProblem(file: string, err: ErrorObject, description: Json, toolName: (i: number) => string | undefined): PluginProblem {
  const segments = err.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let tool: string | undefined;
  let shown = segments;
  if (segments[0] === 'tools' && segments.length >= 2) {
    tool = toolName(Number(segments[1]));
    if (tool !== undefined) shown = segments.slice(2);
  }
  const path = displayPath(shown);
  const value = valueAt(description, segments);
  return withTool({ file, message: describeSchemaError(err, path, value) }, tool);
}

function describeSchemaError(err: ErrorObject, path: string, value: unknown): string {
  const subject = path === '' ? 'the declaration' : path;
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'required':
      return `${subject}: missing required property "${String(p['missingProperty'])}"`;
    case 'additionalProperties':
      return `${subject}: unsupported property "${String(p['additionalProperty'])}"${path === 'spec' ? ' (undocumented custom-tool fields are not supported)' : ''}`;
    case 'type':
      return `${subject} must be ${article(String(p['type']))} (got ${jsonType(value)})`;
    case 'const':
      return `${subject} must be ${JSON.stringify(p['allowedValue'])} (got ${preview(value)})`;
    case 'enum':
      return `${subject} must be one of ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')} (got ${preview(value)})`;
    case 'pattern':
      return `${subject} ${preview(value)} is invalid: it must match ${String(p['pattern'])}`;
    case 'minLength':
      return `${subject} must not be shorter than ${String(p['limit'])} character${p['limit'] === 1 ? '' : 's'}`;
    case 'maxLength':
      return `${subject} is ${typeof value === 'string' ? [...value].length : '?'} characters; the limit is ${String(p['limit'])}`;
    case 'minItems':
      return `${subject} must have at least ${String(p['limit'])} item${p['limit'] === 1 ? '' : 's'}`;
    case 'maxItems':
      return `${subject} has ${Array.isArray(value) ? value.length : '?'} items; the limit is ${String(p['limit'])}`;
    case 'minimum':
    case 'maximum': {
      const hint = path === 'inputLimit' && err.keyword === 'maximum' ? ` (the most one executor argument holds is ${MAX_INPUT_LIMIT} bytes)` : '';
      return `${subject} ${preview(value)} is out of range: it must be ${String(p['comparison'])} ${String(p['limit'])}${hint}`;
    }
    default:
      return `${subject} ${err.message ?? 'is invalid'}`;
  }
}

/** `["spec","format","definition"]` → `spec.format.definition`; indices as `[0]`. */
function displayPath(segments: readonly string[]): string {
  let out = '';
  for (const s of segments) out += /^\d+$/.test(s) ? `[${s}]` : out === '' ? s : `.${s}`;
  return out;
}

function valueAt(root: unknown, segments: readonly string[]): unknown {
  let v: unknown = root;
  for (const s of segments) v = isObject(v) || Array.isArray(v) ? (v as Json)[s] : undefined;
  return v;
}

function withTool(p: PluginProblem, tool: string | undefined): PluginProblem {
  return tool === undefined ? p : { ...p, tool };
}

const isObject = isJsonObject;

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number';
  if (typeof v === 'object') return 'an object';
  return typeof v === 'undefined' ? 'nothing' : article(typeof v);
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function preview(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
