// `hpatch-router plugins validate|list|new`: the plugin author's and operator's checks. validate and
// list run the router's own startup assembly (./hpatch-tools.ts) — same loading, same validation,
// same messages — and stop there: no listener, no snapshot, no frontends, nothing written.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatPluginProblem, type PluginProblem } from '../plugins/validate.ts';
import type { CustomToolSpec } from '../registry/contribution.ts';
import { assembleHpatchTools, configuredPluginSource, type HpatchTools, type PluginSource } from './hpatch-tools.ts';
import { PLUGINS_USAGE } from './plugins-usage.ts';
import { versionLine } from './version.ts';

export async function runPluginsCli(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') return print(PLUGINS_USAGE);
  if (command === '--version') return print(versionLine());
  switch (command) {
    case 'validate':
    case 'list':
      return runCheck(command, rest);
    case 'new': {
      const { runPluginsNew } = await import('./plugins-new.ts');
      return runPluginsNew(rest);
    }
    default:
      return usageError(command === undefined ? 'missing subcommand' : `unknown subcommand ${JSON.stringify(command)}`);
  }
}

async function runCheck(command: 'validate' | 'list', args: readonly string[]): Promise<number> {
  let values: { json?: boolean; help?: boolean; version?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } },
      strict: true,
      allowPositionals: true,
    }));
  } catch (e) {
    return usageError((e as Error).message);
  }
  if (values.help) return print(PLUGINS_USAGE);
  if (values.version) return print(versionLine());
  const source = positionals.length === 0 ? () => configuredPluginSource(process.env) : () => namedSource(positionals);
  // No storage: validation never reaches the executor side that would create it.
  const tools = await assembleHpatchTools({ storage: () => null, source });
  try {
    const report = command === 'validate' ? validateReport(tools) : listReport(tools);
    if (values.json) process.stdout.write(`${JSON.stringify(report.json, null, 2)}\n`);
    else {
      process.stdout.write(report.text);
      writeProblems(tools.problems);
    }
    return tools.problems.length === 0 ? 0 : 1;
  } finally {
    tools.dispose();
  }
}

async function namedSource(paths: readonly string[]): Promise<PluginSource> {
  const { discoverPaths } = await import('../plugins/discovery.ts');
  // Absolute, as the plugin directory's entries are: the messages name files as startup would.
  const absolute = paths.map((p) => resolve(p));
  return { label: absolute.join(', '), dir: absolute[0]!, discovered: await discoverPaths(absolute) };
}

interface Report {
  readonly text: string;
  readonly json: unknown;
}

interface ToolRow {
  readonly name: string;
  readonly grammar: 'lark' | 'regex' | 'text';
  /** `built-in` for the router's own tools. */
  readonly plugin: string;
  readonly version: string | null;
  readonly file: string | null;
}

function validateReport(tools: HpatchTools): Report {
  const plugins = tools.plugins.map((p) => ({ file: p.file, id: p.id, version: p.version, tools: p.tools }));
  const text = tools.problems.length === 0
    ? `valid: ${tools.summary}\n${plugins.map((p) => `  ${p.id} ${p.version} (${p.file}): ${p.tools.join(', ')}\n`).join('')}`
    : '';
  return { text, json: { valid: tools.problems.length === 0, plugins, problems: problemsJson(tools) } };
}

function listReport(tools: HpatchTools): Report {
  const byFile = new Map(tools.plugins.map((p) => [p.file, p]));
  const rows: ToolRow[] = tools.problems.length > 0 ? [] : tools.registry.list().map((c) => {
    const spec: CustomToolSpec = c.toolSpec({ shape: 'native', execParamsShape: null });
    const grammar = spec.format?.type === 'grammar' ? spec.format.syntax : 'text';
    if (c.source.kind !== 'plugin') return { name: c.name, grammar, plugin: 'built-in', version: null, file: null };
    return { name: c.name, grammar, plugin: c.source.pluginId, version: byFile.get(c.source.file)?.version ?? null, file: c.source.file };
  });
  const table = [['TOOL', 'GRAMMAR', 'PLUGIN', 'VERSION', 'FILE'], ...rows.map((r) => [r.name, r.grammar, r.plugin, r.version ?? '-', r.file ?? '-'])];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const text = rows.length === 0 ? '' : table.map((row) => `${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}\n`).join('');
  return { text, json: { valid: tools.problems.length === 0, tools: rows, problems: problemsJson(tools) } };
}

/** Plugin problems keep their parts (file, tool, line, column); every problem has its printed `text`. */
function problemsJson(tools: HpatchTools): unknown[] {
  const structured = new Map<string, PluginProblem>();
  // formatPluginProblem made each plugin problem's text; match them back by that text.
  for (const p of tools.pluginProblems) structured.set(formatPluginProblem(p), p);
  return tools.problems.map((text) => ({ text, ...(structured.get(text) ?? {}) }));
}

function writeProblems(problems: readonly string[]): void {
  if (problems.length === 0) return;
  // The startup report's lines, word for word, under a header that does not claim a start failed.
  process.stderr.write(`hpatch-router: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n`);
  for (const p of problems) process.stderr.write(`  - ${p}\n`);
}

function print(text: string): number {
  process.stdout.write(text);
  return 0;
}

function usageError(message: string): number {
  process.stderr.write(`hpatch-router plugins: ${message}\n\n${PLUGINS_USAGE}`);
  return 2;
}
