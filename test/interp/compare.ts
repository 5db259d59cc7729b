// Developer tool: node --import tsx test/interp/compare.ts 'SCRIPT' [--posix] [--stdin TEXT]
// Runs SCRIPT through bash and the interpreter (like the differential suite) and prints both.
import { runBash, runInterp, freshDir } from './harness.ts';

const argv = process.argv.slice(2);
const script = argv[0] ?? 'echo hi';
const c = { name: 'cli', script: script + '\n', file: 'cli', stderr: true, posix: argv.includes('--posix'), stdin: argv.includes('--stdin') ? argv[argv.indexOf('--stdin') + 1] : undefined };
import * as fs from 'node:fs';
const d1 = freshDir(), d2 = freshDir();
const want = runBash(c, d1);
const got = await runInterp(c, d2);
for (const d of [d1, d2]) fs.rmSync(d, { recursive: true, force: true });
const show = (o: { stdout: string; stderr: string; status: number }): string => `status=${o.status}\n--stdout--\n${o.stdout}--stderr--\n${o.stderr}`;
console.log('===== bash =====\n' + show(want));
console.log('===== interp =====\n' + show(got));
console.log(want.stdout === got.stdout && want.status === got.status && want.stderr === got.stderr ? 'SAME' : 'DIFFERENT');
