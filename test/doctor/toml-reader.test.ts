// The TOML reader doctor uses on Codex's config.toml: real config shapes read right, bad TOML
// refused with its line and column.
import { expect } from 'chai';
import { parseToml, TomlError } from '../../host/doctor/toml-reader.ts';

describe('doctor: TOML reader', () => {
  it('reads a real Codex config: quoted table keys, inline tables, profiles, arrays, comments, every string form', () => {
    const doc = parseToml(`# ~/.codex/config.toml
model = "gpt-5.5"   # trailing comment
model_provider = "hpatch"
profile = 'work'
approval_policy = "on-request"
notify = ["notify-send", "Codex", ]
sandbox_workspace_write.network_access = true

[model_providers."hpatch-router"]
name = "hpatch-router"
base_url = "http://127.0.0.1:8787/v1"
wire_api = "responses"
http_headers = { "X-Trace" = "1", nested = { a = 1 } }
query_params = {}

[model_providers.azure]
base_url = 'https://x.openai.azure.com/openai'
env_key = "AZURE_KEY"

[profiles.work]
model_provider = "hpatch-router"
model_reasoning_effort = "high"

[mcp_servers.docs]
command = "npx"
args = [
  "-y",   # comment inside an array
  "@acme/docs",
]
env = { "API\\u00e9" = """
multi \\
   line""" }

[[projects]]
path = '''C:\\no\\escapes'''
[[projects]]
path = "/srv/a"
trust = 1_000
ratio = -1.5e3
when = 1979-05-27T07:32:00Z
hex = 0xdead_beef
`);
    expect(doc['model_provider']).to.equal('hpatch');
    expect(doc['profile']).to.equal('work');
    expect(doc['notify']).to.deep.equal(['notify-send', 'Codex']);
    expect(doc['sandbox_workspace_write']).to.deep.equal({ network_access: true });
    const providers = doc['model_providers'] as any;
    expect(Object.keys(providers)).to.deep.equal(['hpatch-router', 'azure']);
    expect(providers['hpatch-router']).to.deep.equal({ name: 'hpatch-router', base_url: 'http://127.0.0.1:8787/v1', wire_api: 'responses', http_headers: { 'X-Trace': '1', nested: { a: 1 } }, query_params: {} });
    expect((doc['profiles'] as any).work.model_provider).to.equal('hpatch-router');
    expect((doc['mcp_servers'] as any).docs.args).to.deep.equal(['-y', '@acme/docs']);
    expect((doc['mcp_servers'] as any).docs.env).to.deep.equal({ 'APIé': 'multi line' });
    expect(doc['projects']).to.deep.equal([{ path: 'C:\\no\\escapes' }, { path: '/srv/a', trust: 1000, ratio: -1500, when: '1979-05-27T07:32:00Z', hex: 0xdeadbeef }]);
  });

  it('keys named like Object members are plain data', () => {
    const doc = parseToml('constructor = 1\n__proto__ = { polluted = true }\n[toString]\nx = 2\n');
    expect(doc['constructor']).to.equal(1);
    expect(Object.getPrototypeOf(doc)).to.equal(Object.prototype);
    expect(({} as any).polluted).to.equal(undefined);
    expect(doc['toString']).to.deep.equal({ x: 2 });
  });

  for (const [name, text, line, col, why] of [
    ['an unquoted string value', 'base_url = http://x\n', 1, 12, 'not a TOML value'],
    ['a duplicate key', 'a = 1\n\na = 2\n', 3, 1, 'defined more than once'],
    ['a table defined twice', '[model_providers.x]\na = 1\n[model_providers.x]\n', 3, 1, 'defined more than once'],
    ['an unterminated string', 'x = "abc\n', 1, 5, 'unterminated string'],
    ['an unclosed header', '[model_providers.x\n', 1, 19, 'to close the table header'],
    ['two values on a line', 'a = 1 b = 2\n', 1, 7, 'end of the line'],
    ['a key without a value', 'a =\n', 1, 4, 'expected a value'],
    ['extending an inline table', 'p = { a = 1 }\n[p.b]\n', 2, 1, 'already a value'],
    ['a bad escape', 'x = "\\q"\n', 1, 6, 'invalid escape'],
    ['a multi-line inline table', 'x = { a = 1,\n b = 2 }\n', 1, 5, 'must be on one line'],
  ] as const) {
    it(`refuses ${name} with its line and column`, () => {
      let err: unknown;
      try {
        parseToml(text);
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(TomlError);
      const e = err as TomlError;
      expect([e.line, e.column], e.message).to.deep.equal([line, col]);
      expect(e.message).to.contain(why);
    });
  }
});
