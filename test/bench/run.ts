// `make bench`: every benchmark prints ratios against a baseline measured in the same run.
import { benchProxyLatency } from './proxy-latency.ts';
import { benchRewrite } from './rewrite-cost.ts';
import { benchStartup, benchTranslate } from './plugin-host.ts';
import { benchInterpColdStart, benchInterpThroughput } from './interp.ts';
import { benchShellCall, benchShellTranslate } from './shell.ts';
import { benchHashline } from './hashline.ts';

const quick = process.argv.includes('--quick');
console.log(`# hpatch-router benchmarks — ${new Date().toISOString()}, node ${process.version}\n`);
console.log(await benchProxyLatency(quick ? 50 : 300));
console.log('');
console.log(await benchRewrite(quick ? 50 : 300));
console.log('');
console.log(await benchTranslate(quick ? 200 : 2000));
console.log('');
console.log(await benchStartup(quick ? 2 : 5));
console.log('');
console.log(benchInterpColdStart(quick ? 5 : 20));
console.log('');
console.log(benchInterpThroughput(quick ? 2 : 5));
console.log('');
console.log(await benchShellCall(quick ? 5 : 20));
console.log('');
console.log(await benchShellTranslate(quick ? 200 : 2000));
console.log('');
console.log(benchHashline(quick ? 2 : 5));
