// REQ-PLUGIN-001 acceptance criteria 1, 2, 3, 4, 5, 9 and 12: discovery, startup validation and
// translation of configured plugins, through the BUILT router (`make build`) where startup is
// concerned and through the in-process router with real isolates where translation is. The only
// test double is the scripted upstream.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import { formatRow, interpreterIdentity, logicalLineCount } from '../../isolates/core-v1/index.ts';
import { disposeAll, loadPlugins } from '../../host/plugins/load-plugins.ts';
import { formatPluginProblem } from '../../host/plugins/validate.ts';
import type { PluginIsolate } from '../../host/plugins/isolate.ts';
import type { Contribution } from '../../host/registry/contribution.ts';
import { TEST_TMP } from '../support/codex-cli.ts';
import { FIXTURES, capturedRequest } from '../support/fixtures.ts';
import { startTestRouter, type TestRouter } from '../support/in-process-router.ts';
import { ROUTER_DIST, startRouterProcess, type RouterProcess } from '../support/router-process.ts';
import { startScriptedUpstream, type ScriptedUpstream, type Script, type Turn } from '../support/scripted-upstream.ts';
import { parseSse } from '../support/sse-script.ts';
import { argvEcho } from '../support/test-contributions.ts';
import { tempDir } from '../support/temp-dir.ts';

type Json = Record<string, any>;
const THREAD = '01a22898-aaaa-7bbb-8ccc-0000000000p1';
const VALID = join(FIXTURES, 'plugins', 'valid');
const BROKEN = (name: string): string => join(FIXTURES, 'plugins', 'broken', name);
const NATIVE_REQUEST = 'a-default-gpt55-001';
const CODE_MODE_REQUEST = 'a-default-modeldefault-gpt62sol-001';
const FIXTURE_TOOL_NAMES = ['text_echo', 'templated_echo', 'lark_sum', 'ticket_open', 'core_rows', 'raw_carrier', 'two_placeholders', 'long_reject', 'throws_always'];

/** A user config dir whose hpatch/plugins holds copies of `sources` (directories' *.mjs/*.js, or files). */
function configHome(...sources: string[]): { xdg: string; pluginDir: string; cleanup: () => void } {
  const tmp = tempDir('plugin-home');
  const pluginDir = join(tmp.dir, 'hpatch', 'plugins');
  mkdirSync(pluginDir, { recursive: true });
  for (const src of sources) {
    const files = src.endsWith('.mjs') || src.endsWith('.js') ? [src] : readdirSync(src).filter((f) => /\.m?js$/.test(f)).map((f) => join(src, f));
    for (const f of files) cpSync(f, join(pluginDir, f.slice(f.lastIndexOf('/') + 1)));
  }
  return { xdg: tmp.dir, pluginDir, cleanup: tmp.cleanup };
}

/** Runs the built router to completion (it must fail to start). */
function runBuilt(args: string[], env: Record<string, string | undefined>): { status: number | null; stdout: string; stderr: string } {
  const full: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete full[k];
    else full[k] = v;
  }
  const r = spawnSync(process.execPath, ['--no-node-snapshot', ROUTER_DIST, '--listen', '127.0.0.1:0', ...args], { encoding: 'utf8', env: full, timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every custom tool object with one of `names`, wherever the request carries it. */
function customTools(body: unknown, names: readonly string[]): Json[] {
  const found: Json[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      const o = v as Json;
      if (o['type'] === 'custom' && names.includes(o['name'])) found.push(o);
      Object.values(o).forEach(walk);
    }
  };
  walk(body);
  return found;
}

async function post(url: string, body: unknown): Promise<{ status: number; text: string; events: Json[] }> {
  const res = await request(`${url}/v1/responses`, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', 'thread-id': THREAD } });
  const text = await res.body.text();
  const events = res.headers['content-type']?.includes('event-stream') ? parseSse(text).map((f) => JSON.parse(f.data) as Json) : [];
  return { status: res.statusCode, text, events };
}

const doneItems = (events: Json[]): Json[] => events.filter((e) => e['type'] === 'response.output_item.done').map((e) => e['item']);
const message = (text = 'ok'): Turn => ({ items: [{ type: 'message', text }] });

/** The declared spec of a fixture plugin tool, read by importing the fixture module itself. */
async function declaredSpec(file: string, tool: string): Promise<Json> {
  const mod = (await import(pathToFileURL(join(VALID, file)).href)) as { default: { tools: { spec: Json }[] } };
  return mod.default.tools.find((t) => t.spec['name'] === tool)!.spec;
}

describe('REQ-PLUGIN-001 router-local tool plugins', function () {
  this.timeout(90_000);
  const cleanups: (() => void | Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function upstreamWith(script: Script): Promise<ScriptedUpstream> {
    const u = await startScriptedUpstream(script);
    cleanups.push(() => u.close());
    return u;
  }
  function home(...sources: string[]): ReturnType<typeof configHome> {
    const h = configHome(...sources);
    cleanups.push(h.cleanup);
    return h;
  }
  function stateDir(): string {
    const s = tempDir('plugin-state');
    cleanups.push(s.cleanup);
    return s.dir;
  }
  async function builtRouter(opts: { xdg: string; upstream: string; mode?: 'hpatch' | 'passthrough'; entry?: string }): Promise<RouterProcess> {
    const r = await startRouterProcess({
      args: ['--mode', opts.mode ?? 'hpatch', '--upstream', opts.upstream, '--state-dir', stateDir()],
      env: { XDG_CONFIG_HOME: opts.xdg },
      startTimeoutMs: 30_000,
      ...(opts.entry ? { entry: opts.entry } : {}),
    });
    cleanups.push(() => r.stop());
    return r;
  }
  /** In-process router whose contributions come from loading `dir` through the real plugin host. */
  async function pluginRouter(dir: string, upstream: ScriptedUpstream, builtins: Contribution[] = []): Promise<TestRouter> {
    const loaded = await loadPlugins({ dir, reservedNames: builtins.map((b) => b.name) });
    if (!loaded.ok) expect.fail(loaded.problems.map(formatPluginProblem).join('\n'));
    const isolates: readonly PluginIsolate[] = loaded.isolates;
    cleanups.push(() => disposeAll(isolates));
    const router = await startTestRouter({ upstream: upstream.url, contributions: [...builtins, ...loaded.contributions] });
    cleanups.push(() => router.stop());
    return router;
  }

  it('REQ-PLUGIN-001 acceptance 1: a valid discovered JavaScript declaration contributes its exact unconstrained, Lark, or regex custom-tool object to hpatch-mode Responses requests without a plugin flag', async () => {
    const upstream = await upstreamWith([message(), message()]);
    const h = home(VALID);
    // Only the documented flags: discovery needs no plugin option.
    const router = await builtRouter({ xdg: h.xdg, upstream: upstream.url });
    expect(router.stderrLines).to.include(`hpatch-router: 5 plugins with 9 tools loaded from ${h.pluginDir}`);

    const expected = [
      await declaredSpec('10-text-echo.mjs', 'text_echo'),
      await declaredSpec('20-lark-sum.mjs', 'lark_sum'),
      await declaredSpec('30-regex-ticket.mjs', 'ticket_open'),
    ];
    expect(expected.map((s) => s['format']?.['syntax'] ?? 'unconstrained')).to.deep.equal(['unconstrained', 'lark', 'regex']);

    for (const name of [NATIVE_REQUEST, CODE_MODE_REQUEST]) {
      expect((await post(router.url, capturedRequest(name).body)).status).to.equal(200);
    }
    const [native, codeMode] = upstream.responsesRequests();
    for (const sent of [native!, codeMode!]) {
      const text = sent.body.toString('utf8');
      for (const spec of expected) {
        // Byte-exact: the declared object, serialized in its declared key order, nothing added.
        expect(text).to.contain(JSON.stringify(spec));
        expect(customTools(sent.json, [spec['name']])).to.deep.equal([spec]);
      }
      expect(customTools(sent.json, FIXTURE_TOOL_NAMES).map((t) => t['name'])).to.have.members(FIXTURE_TOOL_NAMES);
    }
  });

  it('REQ-PLUGIN-001 acceptance 2: a missing or empty plugin directory preserves the built-in hpatch-mode behavior, while passthrough mode loads and exposes no contributed tools', async () => {
    const upstream = await upstreamWith({ turns: [], after: message() });
    const body = JSON.stringify(capturedRequest(NATIVE_REQUEST).body);

    // Missing (no hpatch/plugins at all), empty, and holding only entries that are not declarations.
    const missing = tempDir('plugin-home-missing');
    cleanups.push(missing.cleanup);
    const empty = home();
    const nonDeclarations = home();
    mkdirSync(join(nonDeclarations.pluginDir, 'sub.mjs'));
    writeFileSync(join(nonDeclarations.pluginDir, 'sub.mjs', 'inner.mjs'), 'export default 1;\n');
    writeFileSync(join(nonDeclarations.pluginDir, 'README.txt'), 'not a declaration\n');
    symlinkSync(join(VALID, '10-text-echo.mjs'), join(nonDeclarations.pluginDir, 'linked.mjs'));

    const forwarded: string[] = [];
    for (const xdg of [missing.dir, empty.xdg, nonDeclarations.xdg]) {
      const router = await builtRouter({ xdg, upstream: upstream.url });
      expect(router.stderrLines.join('\n')).to.contain('0 plugins with 0 tools');
      expect((await post(router.url, body)).status).to.equal(200);
      forwarded.push(upstream.responsesRequests().at(-1)!.body.toString('utf8'));
      await router.stop();
    }
    expect(forwarded[1]).to.equal(forwarded[0]);
    expect(forwarded[2]).to.equal(forwarded[0]);
    expect(customTools(JSON.parse(forwarded[0]!), FIXTURE_TOOL_NAMES)).to.deep.equal([]);

    // Passthrough with valid plugins installed: nothing loaded, the request forwarded byte for byte.
    const withPlugins = home(VALID);
    const passthrough = await builtRouter({ xdg: withPlugins.xdg, upstream: upstream.url, mode: 'passthrough' });
    expect((await post(passthrough.url, body)).status).to.equal(200);
    // The startup line follows `listening on`; after a full exchange it has long arrived.
    expect(passthrough.stderrLines.join('\n')).to.not.contain('plugins with');
    expect(passthrough.stderrLines.join('\n')).to.contain('passthrough mode').and.contain('0 contributed tool(s)');

    // Passthrough does not even look for the plugin directory: no config directory is needed.
    const noConfig = await startRouterProcess({
      args: ['--mode', 'passthrough', '--upstream', upstream.url, '--state-dir', stateDir()],
      env: { XDG_CONFIG_HOME: undefined, HOME: undefined },
    });
    cleanups.push(() => noConfig.stop());
    expect((await post(noConfig.url, body)).status).to.equal(200);
    expect(upstream.responsesRequests().at(-1)!.body.toString('utf8')).to.equal(body);
    expect(upstream.responsesRequests().at(-1)!.body.toString('utf8')).to.equal(body);
  });

  it('REQ-PLUGIN-001 acceptance 3: one invalid declaration prevents the listener from opening; independent problems are reported together and no valid subset is exposed', async () => {
    const upstream = await upstreamWith({ turns: [], after: message() });

    // A directory with one valid and five broken declarations, broken in seven independent ways.
    const h = home(BROKEN('many'));
    const r = runBuilt(['--upstream', upstream.url, '--state-dir', stateDir()], { XDG_CONFIG_HOME: h.xdg });
    expect(r.status).to.equal(2);
    expect(r.stdout).to.equal('', 'the listener never opened');
    const f = (name: string): string => join(h.pluginDir, name);
    const expectedLines = [
      `${f('20-grammar-and-limit.mjs')}: tool "lazy_regex": inputLimit 500000 is out of range: it must be <= 131071 (the most one executor argument holds is 131071 bytes)`,
      `${f('20-grammar-and-limit.mjs')}: tool "lazy_regex": grammar 1:3: lazy quantifier \`*?\` is not supported (OpenAI grammars support greedy quantifiers only)`,
      `${f('30-duplicate.mjs')}: tool "text_echo": tool name "text_echo" is also declared by plugin "test.text-echo" (${f('10-valid-text-echo.mjs')})`,
      `${f('30-duplicate.mjs')}: tool "echo": tool name "echo" is a Bash builtin, so its frontend would never run`,
      `${f('40-load-error.mjs')}:2:25: unknown hpatch: module "hpatch:nothing"; this router provides hpatch:core/v1`,
      `${f('50-api-version.mjs')}: apiVersion 2 is not supported (this router supports 1)`,
      `${f('60-missing-translator.mjs')}: tool "untranslated": spec: unsupported property "defer_loading" (undocumented custom-tool fields are not supported)`,
      `${f('60-missing-translator.mjs')}: tool "untranslated": has no translator (translate)`,
    ];
    expect(r.stderr).to.contain('cannot start (8 problems)');
    for (const line of expectedLines) expect(r.stderr).to.contain(`  - ${line}\n`);
    expect(upstream.requests, 'nothing was forwarded').to.have.length(0);

    // Four valid plugins and ONE broken declaration: still no listener, and only that problem.
    const one = home(join(VALID, '10-text-echo.mjs'), join(VALID, '20-lark-sum.mjs'), join(VALID, '30-regex-ticket.mjs'), join(VALID, '40-core-rows.mjs'), join(BROKEN('missing-parts'), 'missing.mjs'));
    const r1 = runBuilt(['--upstream', upstream.url, '--state-dir', stateDir()], { XDG_CONFIG_HOME: one.xdg });
    expect([r1.status, r1.stdout]).to.deep.equal([2, '']);
    expect(r1.stderr).to.contain('cannot start (3 problems)').and.contain('has no translator (translate)');
    expect(r1.stderr).to.not.contain('plugins with');

    // Plugin problems and the router's own startup problems (an unsafe ledger directory) in one report.
    const state = stateDir();
    mkdirSync(join(state, 'ledger'), { recursive: true });
    chmodSync(join(state, 'ledger'), 0o777);
    const both = runBuilt(['--upstream', upstream.url, '--state-dir', state], { XDG_CONFIG_HOME: home(BROKEN('api-version')).xdg });
    expect([both.status, both.stdout]).to.deep.equal([2, '']);
    expect(both.stderr).to.contain('cannot start (3 problems)').and.contain('apiVersion 2 is not supported').and.contain('missing required property "apiVersion"').and.contain('  - ledger: ');

    // A plugin directory that is not a directory is a startup problem too.
    const notDir = tempDir('plugin-home-file');
    cleanups.push(notDir.cleanup);
    mkdirSync(join(notDir.dir, 'hpatch'));
    writeFileSync(join(notDir.dir, 'hpatch', 'plugins'), '');
    const r2 = runBuilt(['--upstream', upstream.url, '--state-dir', stateDir()], { XDG_CONFIG_HOME: notDir.dir });
    expect([r2.status, r2.stdout]).to.deep.equal([2, '']);
    expect(r2.stderr).to.contain(`${join(notDir.dir, 'hpatch', 'plugins')}: plugin directory exists but is not a directory`);

    // So is a user config directory that cannot be determined.
    const r3 = runBuilt(['--upstream', upstream.url, '--state-dir', stateDir()], { XDG_CONFIG_HOME: undefined, HOME: undefined });
    expect([r3.status, r3.stdout]).to.deep.equal([2, '']);
    expect(r3.stderr).to.contain('plugin directory: neither $XDG_CONFIG_HOME nor $HOME is set');
  });

  it('REQ-PLUGIN-001 acceptance 4: duplicate tool names across plugins or built-ins fail startup, and the registry does not change until process restart', async () => {
    const upstream = await upstreamWith({ turns: [], after: message() });
    // Across plugins (and twice within one), through the built router.
    const dup = home(BROKEN('duplicate-names'));
    const r = runBuilt(['--upstream', upstream.url, '--state-dir', stateDir()], { XDG_CONFIG_HOME: dup.xdg });
    expect([r.status, r.stdout]).to.deep.equal([2, '']);
    expect(r.stderr).to.contain('tool "fmt": tool name "fmt" is declared twice in this plugin');
    expect(r.stderr).to.contain(`tool "lint": tool name "lint" is also declared by plugin "broken.dup-first" (${join(dup.pluginDir, 'a-first.mjs')})`);

    // Against a built-in contribution: the names the CLI passes are the built-ins' own.
    const clash = home();
    writeFileSync(join(clash.pluginDir, 'argv.mjs'), `export default { apiVersion: 1, id: 'clash', version: '1', tools: [{
      spec: { type: 'custom', name: 'argv_echo', description: 'Clashes with a built-in.' }, inputLimit: 10,
      parse: (i) => ({ ok: true, value: i }), translate: (v, ctx) => ctx.exec([v]), execute: () => ({ status: 0 }) }] };\n`);
    const loaded = await loadPlugins({ dir: clash.pluginDir, reservedNames: [argvEcho().name] });
    expect(loaded.ok).to.equal(false);
    if (!loaded.ok) expect(loaded.problems.map(formatPluginProblem)).to.deep.equal([`${join(clash.pluginDir, 'argv.mjs')}: tool "argv_echo": tool name "argv_echo" is already a built-in tool`]);

    // Immutable for the process lifetime: editing, adding and removing declarations changes nothing...
    const h = home(VALID);
    const router = await builtRouter({ xdg: h.xdg, upstream: upstream.url });
    const body = capturedRequest(NATIVE_REQUEST).body;
    await post(router.url, body);
    const before = upstream.responsesRequests().at(-1)!.body.toString('utf8');
    rmSync(join(h.pluginDir, '30-regex-ticket.mjs'));
    writeFileSync(join(h.pluginDir, '10-text-echo.mjs'), 'export default { apiVersion: 1, id: "changed", version: "9", tools: [] };\n');
    cpSync(join(BROKEN('many'), '10-valid-text-echo.mjs'), join(h.pluginDir, '05-late.mjs'));
    await post(router.url, body);
    expect(upstream.responsesRequests().at(-1)!.body.toString('utf8')).to.equal(before);
    expect(customTools(JSON.parse(before), ['ticket_open'])).to.have.length(1);
    await router.stop();

    // ...until a restart reads the directory again (which now has problems, so it refuses to start).
    const restarted = runBuilt(['--upstream', upstream.url, '--state-dir', stateDir()], { XDG_CONFIG_HOME: h.xdg });
    expect(restarted.status).to.equal(2);
    expect(restarted.stderr).to.contain('10-text-echo.mjs: tools must have at least 1 item');
  });

  it('REQ-PLUGIN-001 acceptance 5: a plugin translates to the compatible executor carrier available in the request; a wrong-kind or malformed carrier rejects before upstream execution', async () => {
    const upstream = await upstreamWith([
      { items: [{ type: 'custom_tool_call', name: 'text_echo', input: 'a b\nc', call_id: 'n1' }, { type: 'custom_tool_call', name: 'templated_echo', input: 'x', call_id: 'n2' }] },
      { items: [{ type: 'custom_tool_call', name: 'lark_sum', namespace: 'functions', input: '1 + 2', call_id: 'cm1' }] },
      { items: [{ type: 'custom_tool_call', name: 'raw_carrier', input: 'rm -rf ~', call_id: 'w1' }, { type: 'message', text: 'AFTER_THE_FAILURE' }] },
      { items: [{ type: 'custom_tool_call', name: 'two_placeholders', input: 'x', call_id: 'w2' }, { type: 'message', text: 'AFTER_THE_FAILURE' }] },
    ]);
    const router = await pluginRouter(VALID, upstream);

    // Native request: the exec_command function carrier, the worker command being the basename frontend.
    const native = doneItems((await post(router.url, capturedRequest(NATIVE_REQUEST).body)).events);
    expect(native.map((i) => [i['type'], i['name'], i['call_id']])).to.deep.equal([['function_call', 'exec_command', 'n1'], ['function_call', 'exec_command', 'n2']]);
    expect(JSON.parse(native[0]!['arguments'])).to.deep.equal({ cmd: "text_echo 'a b' c" });
    expect(JSON.parse(native[1]!['arguments'])).to.deep.equal({ cmd: 'cd /tmp && templated_echo x', yield_time_ms: 1000 });

    // Code Mode request: the same translator's answer rendered as the custom exec carrier.
    const [cm] = doneItems((await post(router.url, capturedRequest(CODE_MODE_REQUEST).body)).events);
    expect(cm).to.include({ type: 'custom_tool_call', name: 'exec', namespace: 'functions', call_id: 'cm1' });
    expect(cm!['input']).to.contain('await tools.exec_command(').and.contain('lark_sum 1 2');

    // A carrier the plugin built itself, and a template the exec wrapper refuses: routing failures, no carrier.
    for (const [tool, why] of [['raw_carrier', 'ctx.exec did not make'], ['two_placeholders', 'exactly one {.}']] as const) {
      const r = await post(router.url, capturedRequest(NATIVE_REQUEST).body);
      const last = r.events.at(-1)!;
      expect(last['type']).to.equal('response.failed');
      expect(last['response']['error']['message']).to.contain(`translator of "${tool}"`).and.contain('plugin:test.misbehaving').and.contain(why);
      if (tool === 'raw_carrier') expect(last['response']['error']['message']).to.contain(join(VALID, '90-misbehaving.mjs'));
      expect(doneItems(r.events), 'nothing reaches Codex to execute').to.deep.equal([]);
      expect(r.text).to.not.contain('AFTER_THE_FAILURE');
    }
    expect(upstream.responsesRequests()).to.have.length(4);
  });

  it('REQ-PLUGIN-001 acceptance 9: a model-input diagnostic is bounded and recoverable, while an invalid translator result cannot be returned or counted as a successful tool call', async () => {
    const upstream = await upstreamWith([
      { items: [{ type: 'custom_tool_call', name: 'ticket_open', input: 'nope', call_id: 'd1' }] },
      { items: [{ type: 'custom_tool_call', name: 'ticket_open', input: 'HP-42', call_id: 'd2' }] },
      { items: [{ type: 'custom_tool_call', name: 'long_reject', input: 'short', call_id: 'd3' }, { type: 'custom_tool_call', name: 'long_reject', input: 'x'.repeat(17), call_id: 'd4' }] },
      { items: [{ type: 'custom_tool_call', name: 'throws_always', input: 'x', call_id: 'f1' }] },
    ]);
    const router = await pluginRouter(VALID, upstream);
    const body = structuredClone(capturedRequest(NATIVE_REQUEST).body) as Json;

    // The model's input is rejected: a failing command that prints the plugin's message, never a success.
    const [diag] = doneItems((await post(router.url, body)).events);
    expect(diag).to.include({ type: 'function_call', name: 'exec_command', call_id: 'd1' });
    const cmd = JSON.parse(diag!['arguments'])['cmd'] as string;
    expect(cmd).to.contain('ticket_open: expected a ticket key like HP-42').and.match(/exit 2$/);

    // Recoverable: Codex runs it, the model sees the message as its tool output and calls again correctly.
    const output = { type: 'function_call_output', call_id: 'd1', output: 'Process exited with code 2\nOutput:\nticket_open: expected a ticket key like HP-42\n' };
    body['input'].push(diag, output);
    const [retry] = doneItems((await post(router.url, body)).events);
    expect(JSON.parse(retry!['arguments'])).to.deep.equal({ cmd: 'ticket_open HP 42' });
    const history = upstream.responsesRequests()[1]!.json['input'] as Json[];
    expect(history.at(-2)).to.include({ type: 'custom_tool_call', name: 'ticket_open', input: 'nope', call_id: 'd1' });
    expect(history.at(-1)).to.include({ type: 'custom_tool_call_output', call_id: 'd1', output: output.output });

    // Bounded: a 20000-character rejection and an over-limit input both arrive as short diagnostics.
    const [long, over] = doneItems((await post(router.url, capturedRequest(NATIVE_REQUEST).body)).events);
    expect(Buffer.byteLength(long!['arguments'])).to.be.below(5000);
    expect(JSON.parse(over!['arguments'])['cmd']).to.contain('input is 17 bytes of UTF-8; this tool accepts at most 16');

    // An invalid translator result: a routing failure, counted as one, never as a carrier or diagnostic.
    const failed = await post(router.url, capturedRequest(NATIVE_REQUEST).body);
    expect(failed.events.at(-1)!['type']).to.equal('response.failed');
    expect(failed.events.at(-1)!['response']['error']['message']).to.contain(join(VALID, '90-misbehaving.mjs')).and.contain('translator exploded');
    const metrics = await (await request(`${router.url}/metrics`)).body.text();
    expect(metrics).to.contain('hpatch_router_translated_calls_total{tool="ticket_open",carrier="exec_command",outcome="diagnostic"} 1');
    expect(metrics).to.contain('hpatch_router_translated_calls_total{tool="ticket_open",carrier="exec_command",outcome="carrier"} 1');
    expect(metrics).to.contain('hpatch_router_translated_calls_total{tool="long_reject",carrier="exec_command",outcome="diagnostic"} 2');
    expect(metrics).to.match(/hpatch_router_translated_calls_total\{tool="throws_always",carrier="none",outcome="routing_failure"\} 1/);
    expect(metrics).to.not.match(/tool="throws_always",carrier="exec_command"/);
  });

  it('REQ-PLUGIN-001 acceptance 12: a configured plugin imports hpatch:core/v1 with the built-in semantics; an unavailable core version rejects startup, and passthrough mode loads no core artifact', async () => {
    // Same results in the plugin's isolate as the host's own core functions.
    const loaded = await loadPlugins({ dir: VALID, reservedNames: [] });
    if (!loaded.ok) expect.fail(loaded.problems.map(formatPluginProblem).join('\n'));
    cleanups.push(() => disposeAll(loaded.isolates));
    const coreRows = loaded.contributions.find((c) => c.name === 'core_rows')!;
    const text = '/usr/bin/bash\r\nlet x = "héllo 🌍";\n\tindented\n\nlast';
    const out = await coreRows.translate(text, { threadId: 't', callId: 'c', carriers: { exec_command: {}, primary: 'exec_command' } });
    const lines = text.split('\n');
    expect(out).to.deep.equal({
      kind: 'carrier',
      request: {
        kind: 'exec',
        command: { argv: ['core_rows', ...lines.map((l, i) => formatRow(i + 1, l)), `lines=${logicalLineCount(text)}`, `identity=${interpreterIdentity(lines[0]!)}`] },
      },
    });

    // hpatch:core/v2 does not exist: the built router refuses to start, naming the import and its position.
    const upstream = await upstreamWith({ turns: [], after: message() });
    const v2 = home(join(BROKEN('load-errors'), 'c-unknown-core-version.mjs'));
    const r = runBuilt(['--upstream', upstream.url, '--state-dir', stateDir()], { XDG_CONFIG_HOME: v2.xdg });
    expect([r.status, r.stdout]).to.deep.equal([2, '']);
    expect(r.stderr).to.contain(`${join(v2.pluginDir, 'c-unknown-core-version.mjs')}:2:27: unknown hpatch: module "hpatch:core/v2"`);

    // Passthrough never loads the core artifact: a build without it starts in passthrough, while
    // hpatch mode with a configured plugin needs it and refuses to start.
    const nocore = join(TEST_TMP, `dist-nocore-${process.pid}`);
    rmSync(nocore, { recursive: true, force: true });
    cpSync(join(ROUTER_DIST, '..'), join(nocore, 'dist'), { recursive: true });
    cleanups.push(() => rmSync(nocore, { recursive: true, force: true }));
    for (const artifact of ['core-v1.mjs', 'bootstrap.mjs']) rmSync(join(nocore, 'dist', artifact), { force: true });
    const entry = join(nocore, 'dist', 'hpatch-router.mjs');
    const body = JSON.stringify(capturedRequest(NATIVE_REQUEST).body);
    for (const xdg of [home(VALID).xdg, v2.xdg]) {
      const passthrough = await builtRouter({ xdg, upstream: upstream.url, mode: 'passthrough', entry });
      expect((await post(passthrough.url, body)).status).to.equal(200);
      expect(upstream.responsesRequests().at(-1)!.body.toString('utf8')).to.equal(body);
      await passthrough.stop();
    }
    const hpatch = spawnSync(process.execPath, ['--no-node-snapshot', entry, '--listen', '127.0.0.1:0', '--upstream', upstream.url, '--state-dir', stateDir()], {
      encoding: 'utf8',
      env: { ...process.env, XDG_CONFIG_HOME: home(join(VALID, '40-core-rows.mjs')).xdg },
      timeout: 30_000,
    });
    expect([hpatch.status, hpatch.stdout]).to.deep.equal([2, '']);
    expect(hpatch.stderr).to.contain('40-core-rows.mjs').and.contain('hpatch:core/v1');
  });
});
