// Startup validation over isolate descriptions (REQ-PLUGIN-001 paragraph 4): every rule, every
// problem collected with file, tool and position. Descriptions are written here in the shape the
// isolate host reports; load-plugins.test.ts runs the same rules on real fixture plugins.
import { expect } from 'chai';
import { grammarProblems } from '../../host/plugins/grammar/index.ts';
import {
  formatPluginProblem,
  validateDeclarations,
  type LoadedDeclaration,
  type PluginProblem,
} from '../../host/plugins/validate.ts';
import { BASH_BUILTINS, BASH_KEYWORDS } from '../../host/plugins/shell-names.ts';

type Json = Record<string, any>;

function tool(name: string, extra: Json = {}, spec: Json = {}): Json {
  return { spec: { type: 'custom', name, description: `Tool ${name}.`, ...spec }, inputLimit: 1024, hasParse: true, hasTranslate: true, hasExecute: true, ...extra };
}
function decl(file: string, description: unknown): LoadedDeclaration {
  return { kind: 'loaded', file, description };
}
function plugin(id: string, tools: Json[], extra: Json = {}): Json {
  return { apiVersion: 1, id, version: '1.0.0', tools, ...extra };
}
function validate(loaded: LoadedDeclaration[], builtinNames: string[] = []): readonly PluginProblem[] {
  return validateDeclarations(loaded, { builtinNames, grammarProblems }).problems;
}
const messages = (ps: readonly PluginProblem[]): string[] => ps.map(formatPluginProblem);

describe('plugin declaration validation', () => {
  it('accepts valid declarations and returns them in order', () => {
    const a = plugin('com.example.a', [tool('a_one'), tool('a_two', {}, { format: { type: 'grammar', syntax: 'regex', definition: '^[a-z]+$' } })]);
    const b = plugin('com.example.b', [tool('b_one', { inputLimit: 131071 }, { format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"+\n' } })]);
    const r = validateDeclarations([decl('/p/a.mjs', a), decl('/p/b.mjs', b)], { builtinNames: ['shell'], grammarProblems });
    expect(r.problems).to.deep.equal([]);
    expect(r.declarations.map((d) => [d.file, d.description.id])).to.deep.equal([['/p/a.mjs', 'com.example.a'], ['/p/b.mjs', 'com.example.b']]);
  });

  it('reports an unsupported API version alone', () => {
    expect(messages(validate([decl('/p/v2.mjs', { apiVersion: 2, id: 'BAD', tools: 'no' })]))).to.deep.equal([
      '/p/v2.mjs: apiVersion 2 is not supported (this router supports 1)',
    ]);
    expect(messages(validate([decl('/p/none.mjs', { id: 'x', version: '1', tools: [tool('t')] })]))).to.deep.equal([
      '/p/none.mjs: the declaration: missing required property "apiVersion"',
    ]);
  });

  it('schema: closed objects, identity, lengths, counts, attributed to the tool with a readable path', () => {
    const d = plugin('Bad_Id', [
      tool('extra', { alias: 'x' }, { strict: true }),
      tool('long', {}, { description: 'd'.repeat(8193) }),
      tool('has-hyphen', {}, { type: 'function' }),
      { spec: { type: 'custom', name: 'nospec_desc' }, inputLimit: 1, hasParse: true, hasTranslate: true, hasExecute: true },
    ], { version: '', homepage: 'https://example.com' });
    expect(messages(validate([decl('/p/s.mjs', d)]))).to.deep.equal([
      '/p/s.mjs: the declaration: unsupported property "homepage"',
      '/p/s.mjs: id "Bad_Id" is invalid: it must match ^[a-z0-9][a-z0-9.-]{0,63}$',
      '/p/s.mjs: version must not be shorter than 1 character',
      '/p/s.mjs: tool "extra": the declaration: unsupported property "alias"',
      '/p/s.mjs: tool "extra": spec: unsupported property "strict" (undocumented custom-tool fields are not supported)',
      '/p/s.mjs: tool "long": spec.description is 8193 characters; the limit is 8192',
      '/p/s.mjs: tool "has-hyphen": spec.type must be "custom" (got "function")',
      '/p/s.mjs: tool "has-hyphen": spec.name "has-hyphen" is invalid: it must match ^[A-Za-z_][A-Za-z0-9_]{0,63}$',
      '/p/s.mjs: tool "nospec_desc": spec: missing required property "description"',
    ]);
    expect(messages(validate([decl('/p/t.mjs', plugin('ok', []))]))).to.deep.equal(['/p/t.mjs: tools must have at least 1 item']);
    const many = Array.from({ length: 65 }, (_, i) => tool(`t${i}`));
    expect(messages(validate([decl('/p/m.mjs', plugin('ok', many))]))).to.deep.equal(['/p/m.mjs: tools has 65 items; the limit is 64']);
    expect(messages(validate([decl('/p/n.mjs', null)]))).to.deep.equal(['/p/n.mjs: the default export must be a plugin declaration object (got null)']);
  });

  it('format: omitted or a Lark/regex grammar; {type:"text"} and other syntaxes are refused clearly', () => {
    const d = plugin('fmt', [
      tool('text_fmt', {}, { format: { type: 'text' } }),
      tool('ebnf_fmt', {}, { format: { type: 'grammar', syntax: 'ebnf', definition: 'x' } }),
      tool('empty_fmt', {}, { format: { type: 'grammar', syntax: 'regex', definition: '' } }),
    ]);
    expect(messages(validate([decl('/p/f.mjs', d)]))).to.deep.equal([
      '/p/f.mjs: tool "text_fmt": format {"type":"text"} is not supported: omit format for unconstrained text',
      '/p/f.mjs: tool "ebnf_fmt": spec.format.syntax must be one of "lark", "regex" (got "ebnf")',
      '/p/f.mjs: tool "empty_fmt": spec.format.definition must not be shorter than 1 character',
    ]);
  });

  it('identity: the same plugin id in two files', () => {
    const ps = validate([decl('/p/a.mjs', plugin('same', [tool('t_a')])), decl('/p/b.mjs', plugin('same', [tool('t_b')]))]);
    expect(messages(ps)).to.deep.equal(['/p/b.mjs: plugin id "same" is also declared by /p/a.mjs']);
  });

  it('duplicate tool names across plugins, within one plugin, and against built-ins', () => {
    const ps = validate([
      decl('/p/a.mjs', plugin('a', [tool('lint'), tool('fmt'), tool('fmt')])),
      decl('/p/b.mjs', plugin('b', [tool('lint'), tool('my_builtin')])),
    ], ['my_builtin']);
    expect(messages(ps)).to.deep.equal([
      '/p/a.mjs: tool "fmt": tool name "fmt" is declared twice in this plugin',
      '/p/b.mjs: tool "lint": tool name "lint" is also declared by plugin "a" (/p/a.mjs)',
      '/p/b.mjs: tool "my_builtin": tool name "my_builtin" is already a built-in tool',
    ]);
  });

  it('tool names that differ only in letter case conflict (one frontend file on case-insensitive file systems)', () => {
    const ps = validate([
      decl('/p/a.mjs', plugin('a', [tool('lint'), tool('LINT')])),
      decl('/p/b.mjs', plugin('b', [tool('Lint'), tool('My_Builtin')])),
    ], ['my_builtin']);
    expect(messages(ps)).to.deep.equal([
      '/p/a.mjs: tool "LINT": tool name "LINT" differs from "lint" declared in this plugin only in letter case; their executor frontends would collide on case-insensitive file systems',
      '/p/b.mjs: tool "Lint": tool name "Lint" differs from "lint" declared by plugin "a" (/p/a.mjs) only in letter case; their executor frontends would collide on case-insensitive file systems',
      '/p/b.mjs: tool "My_Builtin": tool name "My_Builtin" differs from the built-in tool "my_builtin" only in letter case; their executor frontends would collide on case-insensitive file systems',
    ]);
  });

  it('names that are Bash keywords or builtins, or reserved by the router or Codex', () => {
    const names = ['if', 'function', 'cd', 'printf', 'test', 'shell', 'hread', 'inspect_file', 'hpatch', 'exec', 'exec_command', 'write_stdin', 'apply_patch', 'wait'];
    const ps = validate([decl('/p/r.mjs', plugin('r', names.map((n) => tool(n))))]);
    expect(ps.map((p) => p.tool)).to.deep.equal(names);
    expect(messages(ps)).to.include.members([
      '/p/r.mjs: tool "if": tool name "if" is a Bash keyword, so its frontend would never run',
      '/p/r.mjs: tool "cd": tool name "cd" is a Bash builtin, so its frontend would never run',
      '/p/r.mjs: tool "hpatch": tool name "hpatch" is reserved by the router\'s built-in tools',
      '/p/r.mjs: tool "exec_command": tool name "exec_command" is reserved by Codex',
    ]);
    // Every name the shell itself resolves is covered, not a sample (Bash 5.2 `compgen -k`/`compgen -b`).
    expect([...BASH_KEYWORDS]).to.include.members(['coproc', 'select', 'time', 'until', 'in']);
    expect([...BASH_BUILTINS]).to.include.members(['mapfile', 'readarray', 'compopt', 'typeset', 'suspend']);
  });

  it('a built-in declaration loaded through the plugin host may take the router\'s own names, not Codex\'s or the shell\'s', () => {
    const loaded: LoadedDeclaration = { kind: 'loaded', file: '/builtin/shell.mjs', origin: 'builtin', description: plugin('hpatch.shell', [tool('shell'), tool('exec'), tool('cd')]) };
    expect(validate([loaded]).map((p) => p.tool)).to.deep.equal(['exec', 'cd']);
  });

  it('input limits: an integer in 1..131071 (one executor argument)', () => {
    const d = plugin('lim', [tool('zero', { inputLimit: 0 }), tool('huge', { inputLimit: 131072 }), tool('frac', { inputLimit: 1.5 }), tool('str', { inputLimit: '10' })]);
    expect(messages(validate([decl('/p/l.mjs', d)]))).to.deep.equal([
      '/p/l.mjs: tool "zero": inputLimit 0 is out of range: it must be >= 1',
      '/p/l.mjs: tool "huge": inputLimit 131072 is out of range: it must be <= 131071 (the most one executor argument holds is 131071 bytes)',
      '/p/l.mjs: tool "frac": inputLimit must be an integer (got a number)',
      '/p/l.mjs: tool "str": inputLimit must be an integer (got a string)',
    ]);
  });

  it('parser, translator and executor implementation must be present', () => {
    const d = plugin('parts', [tool('no_parse', { hasParse: false }), tool('no_translate', { hasTranslate: false }), tool('nothing', { hasParse: false, hasTranslate: false, hasExecute: false })]);
    expect(messages(validate([decl('/p/x.mjs', d)]))).to.deep.equal([
      '/p/x.mjs: tool "no_parse": has no input parser (parse)',
      '/p/x.mjs: tool "no_translate": has no translator (translate)',
      '/p/x.mjs: tool "nothing": has no input parser (parse)',
      '/p/x.mjs: tool "nothing": has no translator (translate)',
      '/p/x.mjs: tool "nothing": has no executor implementation (execute)',
    ]);
  });

  it('grammar problems carry their line:column inside the definition', () => {
    const lark = 'start: A\nB: "b"\nA.2: "a"\n';
    const d = plugin('g', [
      tool('lark_prio', {}, { format: { type: 'grammar', syntax: 'lark', definition: lark } }),
      tool('regex_lazy', {}, { format: { type: 'grammar', syntax: 'regex', definition: 'a+?' } }),
      tool('regex_look', {}, { format: { type: 'grammar', syntax: 'regex', definition: 'x(?=y)' } }),
    ]);
    const ps = validate([decl('/p/g.mjs', d)]);
    expect(ps.map((p) => p.tool)).to.include.members(['lark_prio', 'regex_lazy', 'regex_look']);
    for (const p of ps) expect(p.message).to.match(/^grammar \d+:\d+: /);
    expect(ps.find((p) => p.tool === 'lark_prio')!.message).to.match(/^grammar 3:\d+: .*priorit/i);
    expect(ps.find((p) => p.line !== undefined)).to.equal(undefined, 'a grammar position is not a file position');
  });

  it('load errors keep their file position and join every other problem', () => {
    const ps = validate([
      { kind: 'load-error', file: '/p/a.mjs', error: { message: 'SyntaxError: Unexpected token', line: 4, column: 27 } },
      decl('/p/b.mjs', plugin('b', [tool('cd')])),
      { kind: 'load-error', file: '/p/c.mjs', error: { message: 'unknown module hpatch:core/v2' } },
    ]);
    expect(messages(ps)).to.deep.equal([
      '/p/a.mjs:4:27: SyntaxError: Unexpected token',
      '/p/b.mjs: tool "cd": tool name "cd" is a Bash builtin, so its frontend would never run',
      '/p/c.mjs: unknown module hpatch:core/v2',
    ]);
  });

  it('a grammar checker failure is a problem, not a crash or a pass', () => {
    const d = plugin('g', [tool('g', {}, { format: { type: 'grammar', syntax: 'regex', definition: 'x' } })]);
    const r = validateDeclarations([decl('/p/g.mjs', d)], { builtinNames: [], grammarProblems: () => { throw new Error('boom'); } });
    expect(messages(r.problems)).to.deep.equal(['/p/g.mjs: tool "g": grammar: could not be checked: boom']);
    expect(r.declarations).to.deep.equal([]);
  });

  it('formats problems as file[:line[:col]]: [tool "name": ]message', () => {
    expect(formatPluginProblem({ file: 'plugins/lint.mjs', tool: 'lint', message: 'grammar 3:14: terminal priorities are not supported' }))
      .to.equal('plugins/lint.mjs: tool "lint": grammar 3:14: terminal priorities are not supported');
    expect(formatPluginProblem({ file: 'a.mjs', message: 'm', line: 2 })).to.equal('a.mjs:2: m');
  });
});
