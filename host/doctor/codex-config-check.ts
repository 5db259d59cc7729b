// Codex's configuration, read only (never written): `$CODEX_HOME/config.toml`, else
// `~/.codex/config.toml`. It must have a model provider whose base_url is this router's listen
// address + /v1 with wire_api = "responses", and that provider must be selected (top-level
// model_provider, or the active profile's, or at least some profile's).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isTable, parseToml, TOML_LIMIT, TomlError, type TomlTable } from './toml-reader.ts';
import { errorText, fail, pass, type CheckResult } from './check.ts';

type Env = Readonly<Record<string, string | undefined>>;

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export function codexConfigPath(env: Env): string | null {
  const home = env['CODEX_HOME'];
  if (home) return join(home, 'config.toml');
  return env['HOME'] ? join(env['HOME'], '.codex', 'config.toml') : null;
}

export function routerBaseUrl(listen: ListenAddress): string {
  return `http://${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${listen.port}/v1`;
}

const tomlKey = (k: string): string => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));

function snippet(id: string, baseUrl: string): string {
  return `model_provider = "${id}"\n\n[model_providers.${tomlKey(id)}]\nname = "hpatch-router"\nbase_url = "${baseUrl}"\nenv_key = "OPENAI_API_KEY"\nwire_api = "responses"`;
}

/** Whether `url` reaches the router at `listen` with Codex's /v1 prefix. */
export function pointsAt(url: unknown, listen: ListenAddress): boolean {
  if (typeof url !== 'string') return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = u.port === '' ? (u.protocol === 'https:' ? 443 : 80) : Number(u.port);
  return u.protocol === 'http:' && host === listen.host && port === listen.port && u.pathname.replace(/\/+$/, '') === '/v1';
}

export function checkCodexConfig(env: Env, listen: ListenAddress): CheckResult[] {
  const file = codexConfigPath(env);
  const baseUrl = routerBaseUrl(listen);
  if (file === null) return [fail('codex config', 'neither CODEX_HOME nor HOME is set', 'set HOME (Codex reads ~/.codex/config.toml)')];
  let text: string;
  try {
    if (statSync(file).size > TOML_LIMIT) return [fail('codex config', `${file} is larger than ${TOML_LIMIT} bytes`, `check ${file}: a Codex config is a few KiB`)];
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [fail('codex config', `${file} does not exist`, `create ${file} with:\n${snippet('hpatch', baseUrl)}`)];
    return [fail('codex config', `cannot read ${file}: ${errorText(e)}`, `make ${file} readable for you`)];
  }
  let doc: TomlTable;
  try {
    doc = parseToml(text);
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    return [fail('codex config', `${file} is not valid TOML: ${e.message}`, `fix line ${e.line} of ${file} (Codex cannot read it either)`)];
  }
  const results: CheckResult[] = [pass('codex config', `${file} reads as TOML`)];
  const providers = isTable(doc['model_providers']) ? doc['model_providers'] : {};
  const ours = Object.keys(providers).filter((id) => isTable(providers[id]) && pointsAt((providers[id] as TomlTable)['base_url'], listen));
  if (ours.length === 0) {
    const others = Object.keys(providers).map((id) => `${id} → ${String((isTable(providers[id]) && (providers[id] as TomlTable)['base_url']) || '(no base_url)')}`);
    const loopback = Object.keys(providers).filter((id) => isTable(providers[id]) && /^https?:\/\/(127\.|localhost|\[::1\])/.test(String((providers[id] as TomlTable)['base_url'] ?? '')));
    const fix = loopback.length === 1
      ? `set base_url = "${baseUrl}" in [model_providers.${tomlKey(loopback[0]!)}] of ${file}`
      : `add to ${file}:\n${snippet('hpatch', baseUrl)}`;
    results.push(fail('codex provider', `no model_providers entry has base_url ${baseUrl}${others.length > 0 ? ` (found: ${others.join(', ')})` : ''}`, fix));
    return results;
  }
  const good = ours.filter((id) => (providers[id] as TomlTable)['wire_api'] === 'responses');
  if (good.length === 0) {
    const id = ours[0]!;
    const wire = (providers[id] as TomlTable)['wire_api'];
    results.push(fail('codex provider', `[model_providers.${tomlKey(id)}] points at the router but has ${wire === undefined ? 'no wire_api' : `wire_api = ${JSON.stringify(wire)}`}`, `set wire_api = "responses" in [model_providers.${tomlKey(id)}] of ${file}`));
    return results;
  }
  results.push(pass('codex provider', `[model_providers.${tomlKey(good[0]!)}] base_url = "${baseUrl}", wire_api = "responses"`));
  results.push(checkSelection(doc, good, file));
  return results;
}

function checkSelection(doc: TomlTable, ours: readonly string[], file: string): CheckResult {
  const name = 'codex selection';
  const profiles = isTable(doc['profiles']) ? doc['profiles'] : {};
  const top = typeof doc['model_provider'] === 'string' ? doc['model_provider'] : 'openai';
  const active = typeof doc['profile'] === 'string' ? doc['profile'] : null;
  const activeProfile = active !== null && isTable(profiles[active]) ? (profiles[active] as TomlTable) : null;
  const selected = activeProfile && typeof activeProfile['model_provider'] === 'string' ? activeProfile['model_provider'] : top;
  if (ours.includes(selected)) return pass(name, active !== null && activeProfile?.['model_provider'] === selected ? `the active profile "${active}" selects "${selected}"` : `model_provider = "${selected}" is the default`);
  const by = Object.keys(profiles).filter((p) => isTable(profiles[p]) && ours.includes(String((profiles[p] as TomlTable)['model_provider'])));
  if (by.length > 0) return pass(name, `not the default ("${selected}"), but profile ${by.map((p) => `"${p}"`).join(', ')} selects it: run codex --profile ${tomlKey(by[0]!)}`);
  return fail(name, `Codex uses "${selected}", and no profile selects ${ours.map((id) => `"${id}"`).join(' or ')}`, `put model_provider = "${ours[0]}" at the top of ${file} (before any [table]), or in a [profiles.NAME] table used with codex --profile NAME`);
}
