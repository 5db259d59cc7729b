// Entry of dist/interp-launch.cjs, the interpreter's start when its startup snapshot cannot be
// used (bin/hpatch-router): dist/interp.cjs through a V8 code cache.
import * as path from 'node:path';
import { requireCached } from './code-cache.ts';

requireCached(path.join(__dirname, 'interp.cjs'));
