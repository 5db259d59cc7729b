// `hpatch-router doctor`: checks a machine the way the router and Codex will use it, prints one line
// per check with the fix for each failure, and exits 0 only when every check passes (warnings
// allowed). Read-only: it creates no directory, takes no lock and never writes Codex's config.
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fail, type CheckResult } from '../doctor/check.ts';
import { checkCodexConfig, routerBaseUrl } from '../doctor/codex-config-check.ts';
import { checkRuntimeBase, checkStateDir } from '../doctor/directory-checks.ts';
import { checkLoginShell } from '../doctor/login-shell-check.ts';
import { checkRouter, checkUpstream } from '../doctor/network-checks.ts';
import { checkNode } from '../doctor/node-check.ts';
import { checkPlugins } from '../doctor/plugins-check.ts';
import { doctorOk, renderJson, renderText } from '../doctor/report.ts';
import { frontendDirectory } from '../runtime/frontends.ts';
import { invokedAs } from '../runtime/invocation.ts';
import { parseRouterArgs } from './router-options.ts';

export const DOCTOR_USAGE = `usage: hpatch-router doctor [--json] [--listen HOST:PORT] [--upstream URL] [--state-dir DIR]
       hpatch-router doctor --help | --version

Checks this machine the way the router and Codex use it, one line per check (✓ passed,
✗ failed, with the fix, ! warning), and exits 0 only when no check failed:
  node            the Node.js version and --no-node-snapshot
  runtime dir     the private runtime base: owner, mode 0700, writable, free space
  state dir       <state dir>/ledger: owner, not group/other-writable, writable, free space
  plugins         every configured plugin, validated exactly as at router startup
  frontends       no file in the way of a plugin tool's frontend
  login PATH      bash -lc (as Codex runs commands) finds shell, each frontend and node of this install
  codex config    $CODEX_HOME/config.toml or ~/.codex/config.toml (read only): valid TOML,
                  a provider with base_url http://HOST:PORT/v1 and wire_api = "responses", selected
  router          a router answers on HOST:PORT
  upstream        the upstream answers (a warning only: the router starts without it)

  --json       one JSON object {ok, checks: [{name, status, detail, fix?}]} instead of lines
  --listen     the router's address, as given to the router (default 127.0.0.1:8787)
  --upstream   the router's upstream (default https://api.openai.com/v1)
  --state-dir  the router's state dir (default $XDG_STATE_HOME/hpatch-router or ~/.local/state/hpatch-router)
`;

export async function runDoctorCli(argv: readonly string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { json: { type: 'boolean' }, listen: { type: 'string' }, upstream: { type: 'string' }, 'state-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    process.stderr.write(`hpatch-router doctor: ${(e as Error).message}\n\n${DOCTOR_USAGE}`);
    return 2;
  }
  if (values['help']) {
    process.stdout.write(DOCTOR_USAGE);
    return 0;
  }
  if (values['version']) {
    const { versionLine } = await import('./version.ts');
    process.stdout.write(versionLine());
    return 0;
  }
  // The router's own parser gives the same defaults and the same errors for the shared flags.
  const shared = (['listen', 'upstream', 'state-dir'] as const).flatMap((k) => (typeof values[k] === 'string' ? [`--${k}`, values[k] as string] : []));
  const parsed = parseRouterArgs(shared, process.env);
  const problems = parsed.kind === 'invalid' ? [...parsed.problems] : [];
  if (parsed.kind === 'run' && parsed.options.port === 0) problems.push('--listen needs the port the router listens on, not 0');
  if (parsed.kind !== 'run' || problems.length > 0) {
    process.stderr.write(`hpatch-router doctor: ${problems.join('; ')}\n`);
    return 2;
  }
  const { options } = parsed;
  const env = process.env;
  const launcher = invokedAs();
  const installBin = launcher === undefined ? null : dirname(resolve(launcher));

  const results: CheckResult[] = [];
  const node = checkNode();
  results.push(node, checkRuntimeBase(env), checkStateDir(options.stateDir));
  let tools: string[] = [];
  if (node.status === 'pass') {
    // isolated-vm needs --no-node-snapshot: without it, loading plugins could crash doctor itself.
    const plugins = await checkPlugins(env, launcher);
    results.push(...plugins.results);
    tools = plugins.tools;
  } else {
    results.push(fail('plugins', 'not checked (the node check failed)', 'fix the node check first'));
  }
  results.push(...checkLoginShell({ env, installBin, frontendDir: frontendDirectory(env, launcher), tools }));
  results.push(...checkCodexConfig(env, options));
  const listenArg = `${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`;
  const [router, upstream] = await Promise.all([checkRouter(routerBaseUrl(options).replace(/\/v1$/, ''), listenArg), checkUpstream(options.upstream)]);
  results.push(router, upstream);

  process.stdout.write(values['json'] ? renderJson(results) : renderText(results));
  return doctorOk(results) ? 0 : 1;
}
