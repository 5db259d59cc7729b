// Scores the interpreter against bash on script files, as the independent check does: the share of
// bash's output lines (stdout and stderr merged) that the interpreter's output has, in order.
//   node --import=tsx scripts/long-script-score.ts [FILE.sh|DIR …]   (default fixtures/interp/long)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LONG_DIR, lines, matchedLines, runFile } from '../test/interp/long-scripts.ts';

const args = process.argv.slice(2);
const files = (args.length ? args : [LONG_DIR]).flatMap((a) =>
  fs.statSync(a).isDirectory() ? fs.readdirSync(a).filter((f) => f.endsWith('.sh')).sort().map((f) => path.join(a, f)) : [a]);
let total = 0, matched = 0, exact = 0;
for (const f of files) {
  const want = runFile('bash', f), got = runFile('interp', f);
  const w = lines(want.merged), m = matchedLines(w, lines(got.merged));
  const same = want.merged === got.merged && want.status === got.status;
  total += w.length; matched += m; if (same) exact++;
  console.log(`${same ? 'same' : 'DIFF'} ${m}/${w.length} ${path.basename(f)}${want.status === got.status ? '' : ` status ${got.status} (bash ${want.status})`}`);
}
console.log(`${matched}/${total} lines (${total ? ((100 * matched) / total).toFixed(1) : '100'}%), ${exact}/${files.length} files exact`);
