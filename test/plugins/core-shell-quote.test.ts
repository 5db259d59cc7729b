// hpatch:core/v1's shellQuote, called by a real plugin inside its isolate: the word it splices into
// a template is the exec wrapper's own quoting of the same word (identical text in one rendered
// command; a `{.}` inside the word is split, since a template holds the placeholder once), and real bash reads it back to exactly the word's UTF-8 bytes. Words that no command
// argument can carry (NUL, lone surrogates: JavaScript's only non-UTF-8 strings) come back as
// { ok: false, error }, which the plugin turns into a diagnostic for the model.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderExecCarrier } from '../../host/carriers/exec-wrapper.ts';
import { disposeAll, loadPlugins, type LoadPluginsResult } from '../../host/plugins/load-plugins.ts';
import type { TranslateContext } from '../../host/registry/contribution.ts';
import { tempDir } from '../support/temp-dir.ts';

const NATIVE: TranslateContext = { threadId: 't-1', callId: 'c-1', carriers: { exec_command: {}, primary: 'exec_command' } };

// The plugin quotes every word itself into `printf '%s\0' …` and passes the same words as argv, which
// the wrapper quotes: `: quote_probe …` does nothing when bash runs it.
const PROBE = `import { shellQuote } from 'hpatch:core/v1';
export default {
  apiVersion: 1, id: 'test.quote-probe', version: '1.0.0',
  tools: [{
    spec: { type: 'custom', name: 'quote_probe', description: 'JSON array of words' },
    inputLimit: 131071,
    parse(input) { return { ok: true, value: JSON.parse(input) }; },
    translate(words, ctx) {
      const quoted = words.map(shellQuote);
      const bad = quoted.find((q) => !q.ok);
      if (bad) return { reject: bad.error };
      return ctx.exec(words, { template: "printf '%s\\\\0' " + quoted.map((q) => q.quoted).join(' ') + '; : {.}' });
    },
    execute() { return { status: 0 }; },
  }],
};
`;

const HOSTILE = [
  '', ' ', 'plain', 'if', 'time', '-n', '--', '~', '~root', '*', '?', '[a]', '{a,b}', '{.}', '#x', 'a=b', '!!', '^x',
  "'", "it's", "''", '"', '\\', '\\\'', '`id`', '$(echo pwned)', '${HOME}', '$HOME', "$'x'", '$&', '$$', '%s',
  'a\nb', '\n', '\r\n', 'tab\there', '\x01a', '\x1b[31mred', '\x7f', '\x0b\x0c\x08\x07',
  'é', '日本語', '😀', '👩‍👩‍👧', 'e\u0301', '\u2028', '\u00a0', '\u0085', '\ufeff', '\ufffd',
  '{.}{.}', "{'.}", 'a{.}\n{.}b',
  "x'$(rm -rf /)'\n`y`; echo \"$z\" | cat >&2 {.} $'\\x41'",
];

describe('hpatch:core/v1 shellQuote through a real plugin, the exec wrapper and real bash', function () {
  this.timeout(60_000);
  let loaded: Extract<LoadPluginsResult, { ok: true }>;
  let dir: { dir: string; cleanup: () => void };

  before(async () => {
    dir = tempDir('core-shell-quote');
    writeFileSync(join(dir.dir, 'quote-probe.mjs'), PROBE);
    const r = await loadPlugins({ dir: dir.dir, reservedNames: [] });
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    loaded = r;
  });
  after(() => {
    disposeAll(loaded?.isolates ?? []);
    dir.cleanup();
  });

  async function commandFor(words: readonly string[]): Promise<string> {
    const outcome = await loaded.contributions[0]!.translate(JSON.stringify(words), NATIVE);
    if (outcome.kind !== 'carrier' || outcome.request.kind !== 'exec') expect.fail(JSON.stringify(outcome));
    const carrier = renderExecCarrier(outcome.request, NATIVE.carriers);
    if (carrier.kind !== 'exec_command') expect.fail(carrier.kind);
    return (JSON.parse(carrier.arguments) as { cmd: string }).cmd;
  }

  it('quotes each word exactly as the exec wrapper quotes it in argv (a {.} in the word split, so the template keeps one)', async () => {
    for (const word of HOSTILE) {
      const cmd = await commandFor([word]);
      const m = /^printf '%s\\0' (.*); : quote_probe (.*)$/s.exec(cmd);
      expect(m, cmd).to.not.equal(null);
      if (!word.includes('{.}')) expect(m![1], JSON.stringify(word)).to.equal(m![2]);
      else expect(m![1], JSON.stringify(word)).to.not.include('{.}').and.not.equal(m![2]);
      // One physical line whatever the word holds: the carrier never spans lines.
      expect(cmd, JSON.stringify(word)).to.not.match(/[\n\r]/);
    }
  });

  for (const locale of ['C', 'C.UTF-8']) {
    it(`bash (LC_ALL=${locale}) reads every quoted word back to its exact UTF-8 bytes`, async () => {
      const cmd = await commandFor(HOSTILE);
      // stdin /dev/null: on a socketpair stdin Debian's bash would source ~/.bashrc.
      const r = spawnSync('bash', ['-c', cmd], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'], LC_ALL: locale } });
      expect(r.stderr.toString()).to.equal('');
      expect(r.status).to.equal(0);
      const expected = Buffer.concat(HOSTILE.map((w) => Buffer.concat([Buffer.from(w, 'utf8'), Buffer.from([0])])));
      expect(r.stdout.equals(expected), r.stdout.toString('latin1')).to.equal(true);
    });
  }

  it('answers { ok: false, error } for NUL and lone surrogates, which the plugin rejects to the model', async () => {
    const cases: [string, RegExp][] = [
      ['ab\0c', /^value contains NUL \(U\+0000\) at offset 2; a NUL byte cannot be passed in a command argument$/],
      ['x\ud800y', /^value contains a lone surrogate \(U\+D800\) at offset 1; it is not valid Unicode/],
      ['\udc00', /^value contains a lone surrogate \(U\+DC00\) at offset 0/],
    ];
    for (const [word, message] of cases) {
      const outcome = await loaded.contributions[0]!.translate(JSON.stringify([word]), NATIVE);
      expect(outcome.kind, JSON.stringify(word)).to.equal('diagnostic');
      expect((outcome as { message: string }).message).to.match(message);
    }
  });
});
