import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { findNestedToolSection } from '../../host/request/code-mode-description.ts';
import {
  execParamsShapeFromDeclaration,
  execParamsShapeFromSchema,
  renderExecParamsShape,
  type ExecParamsShape,
} from '../../host/request/exec-params-shape.ts';

const DIR = new URL('../../fixtures/codex/exec-descriptions/', import.meta.url);
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.exec-description.md')).sort();
const read = (name: string): string => readFileSync(new URL(name, DIR), 'utf8');
const readTool = (name: string): { description: string; parameters: unknown } =>
  JSON.parse(read(name)) as { description: string; parameters: unknown };

// The native function tool from codex-protocol README §4 (identical in every non-Code-Mode capture).
const NATIVE = readTool('native-exec_command.tool.json');
// In `code_mode` (without _only) the top-level exec_command keeps its schema, and Codex appends the
// Code Mode declaration to its description.
const CODE_MODE_TOP_LEVEL = readTool('f1-tools-gpt55-code_mode.exec_command.tool.json');

// Checked by eye against the captured declaration and README §4 schema.
const RENDERED = `{
  // User-facing approval question for \`require_escalated\`; omit otherwise.
  justification?: string;
  // Request login-shell startup. Omit to inherit.
  login?: boolean;
  // Output token budget. Defaults to 10000 tokens; larger requests may be capped by policy.
  max_output_tokens?: number;
  // Reusable approval prefix for \`cmd\`, only with \`sandbox_permissions: "require_escalated"\`; for example ["git", "pull"].
  prefix_rule?: Array<string>;
  // Per-command sandbox override. Defaults to \`use_default\`; use \`require_escalated\` for unsandboxed execution.
  sandbox_permissions?: "use_default" | "require_escalated";
  // Shell binary to launch. Defaults to the user's default shell.
  shell?: string;
  // True allocates a PTY for the command; false or omitted uses plain pipes.
  tty?: boolean;
  // Working directory for the command. Defaults to the turn cwd.
  workdir?: string;
  // Wait before yielding output. Defaults to 10000 ms; effective range is 250-30000 ms.
  yield_time_ms?: number;
}`;

describe('exec-params-shape', () => {
  const native = execParamsShapeFromSchema(NATIVE.parameters);

  it('reads the native exec_command schema without cmd', () => {
    expect(native).to.not.equal(null);
    expect(native!.fields.map((f) => f.name)).to.deep.equal([
      'justification', 'login', 'max_output_tokens', 'prefix_rule', 'sandbox_permissions', 'shell', 'tty', 'workdir', 'yield_time_ms',
    ]);
    expect(native!.fields.every((f) => f.optional)).to.equal(true);
    expect(native!.fields.find((f) => f.name === 'sandbox_permissions')).to.deep.equal({
      name: 'sandbox_permissions',
      type: '"use_default" | "require_escalated"',
      optional: true,
      doc: 'Per-command sandbox override. Defaults to `use_default`; use `require_escalated` for unsandboxed execution.',
    });
    expect(native!.fields.find((f) => f.name === 'prefix_rule')?.type).to.equal('Array<string>');
  });

  it('renders the captured exec_command shape', () => {
    expect(renderExecParamsShape(native!)).to.equal(RENDERED);
  });

  for (const file of FILES) {
    it(`${file}: declaration shape ${read(file).includes('### `exec_command`') ? 'equals the schema shape' : 'is null'}`, () => {
      const text = read(file);
      const shape = execParamsShapeFromDeclaration(text);
      if (text.includes('### `exec_command`')) {
        expect(shape).to.deep.equal(native);
        // The section alone gives the same.
        expect(execParamsShapeFromDeclaration(findNestedToolSection(text, 'exec_command')!.text)).to.deep.equal(native);
        expect(renderExecParamsShape(shape!)).to.equal(RENDERED);
      } else {
        // code_mode without _only: no nested sections, so nothing to recognize.
        expect(shape).to.equal(null);
      }
    });
  }

  it('reads the declaration Codex appends to the top-level exec_command in code_mode', () => {
    expect(CODE_MODE_TOP_LEVEL.description).to.include('exec tool declaration:');
    expect(execParamsShapeFromDeclaration(CODE_MODE_TOP_LEVEL.description)).to.deep.equal(native);
    expect(execParamsShapeFromSchema(CODE_MODE_TOP_LEVEL.parameters)).to.deep.equal(native);
    // The plain native description has no declaration.
    expect(execParamsShapeFromDeclaration(NATIVE.description as string)).to.equal(null);
  });

  describe('declaration parsing', () => {
    const decl = (body: string, tail = '}): Promise<unknown>; };'): string =>
      `declare const tools: { exec_command(args: {\n${body}\n${tail}`;

    it('keeps nested, union and array types as text and joins multi-line docs', () => {
      const shape = execParamsShapeFromDeclaration(decl([
        '  cmd: string;',
        '  // First line.',
        '  // Second line with a brace } and a quote \' in it.',
        '  items?: Array<{',
        '  // Nested doc with the user\'s apostrophe; and a semicolon.',
        '  path?: string;',
        '  kind: "a;b" | { x: number; };',
        '}>;',
        '  mode: "x" | "y" | null;',
        '  cb?: (n: number) => Promise<void>;',
        '  map?: { [key: string]: Array<string>; };',
      ].join('\n')));
      expect(shape).to.deep.equal({
        fields: [
          {
            name: 'items',
            type: 'Array<{\n  // Nested doc with the user\'s apostrophe; and a semicolon.\n  path?: string;\n  kind: "a;b" | { x: number; };\n}>',
            optional: true,
            doc: 'First line.\nSecond line with a brace } and a quote \' in it.',
          },
          { name: 'mode', type: '"x" | "y" | null', optional: false },
          { name: 'cb', type: '(n: number) => Promise<void>', optional: true },
          { name: 'map', type: '{ [key: string]: Array<string>; }', optional: true },
        ],
      } satisfies ExecParamsShape);
      expect(renderExecParamsShape(shape!).split('\n').slice(0, 4)).to.deep.equal([
        '{', '  // First line.', '  // Second line with a brace } and a quote \' in it.', '  items?: Array<{',
      ]);
    });

    it('returns null for anything it does not recognize', () => {
      const bad = [
        '',
        'no declaration here',
        decl('  // only a comment'), // no cmd
        decl('  cmd?: number;'), // cmd not a string
        decl('  cmd: string;\n  /* block */ x: string;'),
        decl('  cmd: string;\n  "quoted": string;'),
        decl('  cmd: string;\n  x string;'),
        decl('  cmd: string;\n  x: ;'),
        decl('  cmd: string;\n  x: Array<string;'), // unbalanced, runs off the end
        decl('  cmd: string;\n  x: string'), // missing ;
        decl('  cmd: string;\n  cmd: string;'), // duplicate
        decl('  cmd: string;\n  // dangling comment'),
        decl('  cmd: string;', '}, extra: number): Promise<unknown>; };'),
        decl('  cmd: string;') + '\n' + decl('  cmd: string;'), // two declarations
        'declare const tools: { exec_command(args: {\n  cmd: string;', // truncated
      ];
      for (const text of bad) {
        expect(() => execParamsShapeFromDeclaration(text), text).to.not.throw();
        expect(execParamsShapeFromDeclaration(text), text).to.equal(null);
      }
    });

    it('accepts an exec_command without extra fields', () => {
      const shape = execParamsShapeFromDeclaration(decl('  // Shell command to execute.\n  cmd: string;'));
      expect(shape).to.deep.equal({ fields: [] });
      expect(renderExecParamsShape(shape!)).to.equal('{}');
    });
  });

  describe('schema mapping', () => {
    const schema = (properties: Record<string, unknown>, required: unknown = ['cmd']): unknown => ({
      type: 'object',
      properties: { cmd: { type: 'string' }, ...properties },
      required,
    });

    it('maps JSON-schema types to TS-like text', () => {
      const shape = execParamsShapeFromSchema(schema(
        {
          s: { type: 'string' },
          i: { type: 'integer', description: 'An int.' },
          n: { type: 'number' },
          b: { type: 'boolean' },
          e: { type: 'string', enum: ['a', 'b"c'] },
          bare: { enum: ['only'] },
          arr: { type: 'array', items: { type: 'array', items: { enum: ['x', 'y'] } } },
          nullable: { type: ['string', 'null'] },
        },
        ['cmd', 'b'],
      ));
      expect(shape).to.deep.equal({
        fields: [
          { name: 's', type: 'string', optional: true },
          { name: 'i', type: 'number', optional: true, doc: 'An int.' },
          { name: 'n', type: 'number', optional: true },
          { name: 'b', type: 'boolean', optional: false },
          { name: 'e', type: '"a" | "b\\"c"', optional: true },
          { name: 'bare', type: '"only"', optional: true },
          { name: 'arr', type: 'Array<Array<"x" | "y">>', optional: true },
          { name: 'nullable', type: 'string | null', optional: true },
        ],
      });
    });

    it('returns null for anything it does not recognize', () => {
      const bad: unknown[] = [
        null,
        'object',
        [],
        { type: 'object' },
        { type: 'array', properties: {} },
        { type: 'object', properties: {} }, // no cmd
        { type: 'object', properties: { cmd: { type: 'number' } } },
        schema({ o: { type: 'object', properties: {} } }),
        schema({ a: { anyOf: [{ type: 'string' }] } }),
        schema({ a: { type: 'array' } }),
        schema({ a: { enum: [1, 2] } }),
        schema({ a: { type: 'number', enum: ['x'] } }),
        schema({ a: { type: 'string', description: 7 } }),
        schema({ a: 'string' }),
        schema({}, 'cmd'),
        schema({}, ['cmd', 'missing']),
      ];
      for (const p of bad) {
        expect(() => execParamsShapeFromSchema(p), JSON.stringify(p)).to.not.throw();
        expect(execParamsShapeFromSchema(p), JSON.stringify(p)).to.equal(null);
      }
    });
  });
});
