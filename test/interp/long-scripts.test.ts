// Long, real-world-style scripts run as files through bash and `hpatch-router interp FILE`
// (issue 16): stdout, stderr, their interleaving and the exit status must be bash's. Needs `make build`.
import { expect } from 'chai';
import * as path from 'node:path';
import { longScripts, runFile } from './long-scripts.ts';

describe('interp long scripts (vs bash, as files)', function () {
  this.timeout(120_000);
  const files = longScripts();
  it('has scripts', () => expect(files.length).to.be.greaterThan(0));
  for (const f of files) {
    it(path.basename(f), () => {
      const want = runFile('bash', f);
      const got = runFile('interp', f);
      expect(got.stdout, 'stdout').to.equal(want.stdout);
      expect(got.stderr, 'stderr').to.equal(want.stderr);
      expect(got.merged, 'stdout and stderr interleaved').to.equal(want.merged);
      expect(got.status, 'status').to.equal(want.status);
    });
  }
});
