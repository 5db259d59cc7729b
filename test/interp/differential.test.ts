// Differential suite: every case in fixtures/interp/*.cases runs through real bash and the
// interpreter; stdout, status and (unless `nostderr`) stderr must match.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expectSameAsBash, loadCases } from './harness.ts';

const dir = path.resolve('fixtures/interp');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cases')).sort();

describe('interp differential (vs bash)', function () {
  this.timeout(20000);
  for (const f of files) {
    describe(f, () => {
      for (const c of loadCases(path.join(dir, f))) {
        it(c.name, () => expectSameAsBash(c));
      }
    });
  }
});
