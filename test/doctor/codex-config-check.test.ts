// The Codex-config rules doctor applies, on real config files in a temp CODEX_HOME: which
// base_url reaches the router, and which provider Codex selects (default, active profile, any profile).
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkCodexConfig, codexConfigPath, pointsAt } from '../../host/doctor/codex-config-check.ts';
import { nodeVersionProblem } from '../../host/doctor/node-check.ts';
import { tempDir } from '../support/temp-dir.ts';

const LISTEN = { host: '127.0.0.1', port: 8787 };
const PROVIDER = '[model_providers."hpatch router"]\nbase_url = "http://127.0.0.1:8787/v1/"\nwire_api = "responses"\n';

describe('doctor: Codex config rules', () => {
  const dir = tempDir('codex-home');
  after(() => dir.cleanup());
  function check(text: string): Array<[string, string, string]> {
    writeFileSync(join(dir.dir, 'config.toml'), text);
    return checkCodexConfig({ CODEX_HOME: dir.dir }, LISTEN).map((r) => [r.name, r.status, r.detail]);
  }

  it('CODEX_HOME wins over HOME', () => {
    expect(codexConfigPath({ CODEX_HOME: '/c', HOME: '/h' })).to.equal('/c/config.toml');
    expect(codexConfigPath({ HOME: '/h' })).to.equal('/h/.codex/config.toml');
    expect(codexConfigPath({})).to.equal(null);
  });

  it('a base_url reaches the router only with its host, port, http and the /v1 prefix', () => {
    for (const ok of ['http://127.0.0.1:8787/v1', 'http://127.0.0.1:8787/v1/']) expect(pointsAt(ok, LISTEN), ok).to.equal(true);
    for (const bad of ['http://127.0.0.1:8787', 'http://127.0.0.1:8787/v2', 'https://127.0.0.1:8787/v1', 'http://localhost:8787/v1', 'http://127.0.0.1:8788/v1', 'http://127.0.0.1/v1', 42, 'not a url']) expect(pointsAt(bad, LISTEN), String(bad)).to.equal(false);
    expect(pointsAt('http://[::1]:8787/v1', { host: '::1', port: 8787 })).to.equal(true);
    expect(pointsAt('http://127.0.0.1/v1', { host: '127.0.0.1', port: 80 })).to.equal(true);
  });

  it('selection: the default provider, the active profile, only some profile, or none', () => {
    expect(check(`model_provider = "hpatch router"\n${PROVIDER}`).at(-1)).to.deep.equal(['codex selection', 'pass', 'model_provider = "hpatch router" is the default']);
    expect(check(`model_provider = "openai"\nprofile = "r"\n${PROVIDER}[profiles.r]\nmodel_provider = "hpatch router"\n`).at(-1)).to.deep.equal(['codex selection', 'pass', 'the active profile "r" selects "hpatch router"']);
    expect(check(`${PROVIDER}[profiles.work]\nmodel_provider = "hpatch router"\n`).at(-1)).to.deep.equal(['codex selection', 'pass', 'not the default ("openai"), but profile "work" selects it: run codex --profile work']);
    // An active profile without its own model_provider falls back to the top-level one.
    expect(check(`profile = "p"\n${PROVIDER}[profiles.p]\nmodel = "x"\n`).at(-1)!.slice(0, 2)).to.deep.equal(['codex selection', 'fail']);
  });

  it('a provider given as an inline table counts the same', () => {
    const r = check('model_provider = "h"\nmodel_providers = { h = { base_url = "http://127.0.0.1:8787/v1", wire_api = "responses" } }\n');
    expect(r.map((x) => x[1])).to.deep.equal(['pass', 'pass', 'pass']);
  });

  it('node versions: 20.19 and later 20.x only', () => {
    expect(nodeVersionProblem('v20.19.0')).to.equal(null);
    expect(nodeVersionProblem('v20.20.2')).to.equal(null);
    expect(nodeVersionProblem('v20.18.3')).to.contain('older than 20.19.0');
    expect(nodeVersionProblem('v22.1.0')).to.contain('newer than the supported 20.x line');
    expect(nodeVersionProblem('garbage')).to.contain('cannot read');
  });
});
