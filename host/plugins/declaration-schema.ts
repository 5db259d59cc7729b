// The apiVersion 1 declaration schema (ajv, strict). It checks the description an isolate reports
// for a loaded declaration: every object is closed (`additionalProperties: false`) because arbitrary
// undocumented specification fields are not supported (REQ-PLUGIN-001).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { EXEC_CMD_MAX_BYTES } from '../carriers/exec-wrapper.ts';

export const SUPPORTED_API_VERSION = 1;
/** The largest input limit: model input never outgrows one executor argv string. */
export const MAX_INPUT_LIMIT = EXEC_CMD_MAX_BYTES;

export const PLUGIN_ID_PATTERN = '^[a-z0-9][a-z0-9.-]{0,63}$';
export { TOOL_NAME_PATTERN } from '../registry/tool-names.ts';
import { TOOL_NAME_PATTERN } from '../registry/tool-names.ts';

export interface DeclaredGrammarFormat {
  readonly type: 'grammar';
  readonly syntax: 'lark' | 'regex';
  readonly definition: string;
}

/** A plugin tool's custom-tool specification as declared; `format` omitted means unconstrained text. */
export interface DeclaredToolSpec {
  readonly type: 'custom';
  readonly name: string;
  readonly description: string;
  readonly format?: DeclaredGrammarFormat;
}

export interface DeclaredTool {
  readonly spec: DeclaredToolSpec;
  readonly inputLimit: number;
  readonly hasParse: boolean;
  readonly hasTranslate: boolean;
  readonly hasExecute: boolean;
}

/** A description that passed the schema (semantic checks are validate.ts's). */
export interface DeclarationDescription {
  readonly apiVersion: 1;
  readonly id: string;
  readonly version: string;
  readonly tools: readonly DeclaredTool[];
}

export const DECLARATION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['apiVersion', 'id', 'version', 'tools'],
  properties: {
    apiVersion: { const: SUPPORTED_API_VERSION },
    id: { type: 'string', pattern: PLUGIN_ID_PATTERN },
    version: { type: 'string', minLength: 1, maxLength: 64 },
    tools: {
      type: 'array',
      minItems: 1,
      maxItems: 64,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['spec', 'inputLimit', 'hasParse', 'hasTranslate', 'hasExecute'],
        properties: {
          spec: {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'name', 'description'],
            properties: {
              type: { const: 'custom' },
              name: { type: 'string', pattern: TOOL_NAME_PATTERN },
              description: { type: 'string', minLength: 1, maxLength: 8192 },
              format: {
                type: 'object',
                additionalProperties: false,
                required: ['type', 'syntax', 'definition'],
                properties: {
                  type: { const: 'grammar' },
                  syntax: { enum: ['lark', 'regex'] },
                  definition: { type: 'string', minLength: 1, maxLength: 65536 },
                },
              },
            },
          },
          inputLimit: { type: 'integer', minimum: 1, maximum: MAX_INPUT_LIMIT },
          // Presence flags: `false` is schema-valid so validate.ts can say which part is missing.
          hasParse: { type: 'boolean' },
          hasTranslate: { type: 'boolean' },
          hasExecute: { type: 'boolean' },
        },
      },
    },
  },
} as const;

let compiled: ValidateFunction<DeclarationDescription> | undefined;

/** The compiled validator; compiled on first use so that passthrough never pays for it. */
export function declarationValidator(): ValidateFunction<DeclarationDescription> {
  compiled ??= new Ajv({ strict: true, allErrors: true }).compile<DeclarationDescription>(DECLARATION_SCHEMA);
  return compiled;
}

/** Schema errors for a description (empty when it is valid). */
export function schemaErrors(description: unknown): readonly ErrorObject[] {
  const validate = declarationValidator();
  return validate(description) ? [] : [...(validate.errors ?? [])];
}
