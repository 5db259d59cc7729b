// Differential suite: every case in fixtures/interp/*.cases runs through real bash and the
// interpreter; stdout, status and (unless `nostderr`) stderr must match.
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadCases, runBash, runInterp, freshDir } from './harness.ts';

const dir = path.resolve('fixtures/interp');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cases')).sort();

describe('interp differential (vs bash)', function () {
  this.timeout(20000);
  for (const f of files) {
    describe(f, () => {
      for (const c of loadCases(path.join(dir, f))) {
        it(c.name, async () => {
          const d1 = freshDir();
          const d2 = freshDir();
          try {
            const want = runBash(c, d1);
            const got = await runInterp(c, d2);
            const norm = (s: string, d: string): string => s.split(d).join('$TMP');
            expect(norm(got.stdout, d2), 'stdout').to.equal(norm(want.stdout, d1));
            expect(got.status, 'status').to.equal(want.status);
            if (c.stderr) expect(norm(got.stderr, d2), 'stderr').to.equal(norm(want.stderr, d1));
          } finally {
            fs.rmSync(d1, { recursive: true, force: true });
            fs.rmSync(d2, { recursive: true, force: true });
          }
        });
      }
    });
  }
});
