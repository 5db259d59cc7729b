// Property test of history expansion (history.ts): seeded scripts of random event, word
// designator and modifier combinations, quoting and multi-line commands run as script files
// through bash and the interpreter; stdout, stderr and status must match. (No `&` anywhere, `$( )` or
// `${ }` in the words: text they insert makes background jobs or parse errors, which are other
// parts' business.)
import { seededRandom } from '../support/prng.ts';
import { expectSameAsBash, type Case } from './harness.ts';

const EVENTS = ['!!', '!$', '!^', '!*', '!-1', '!-2', '!-9', '!e', '!ec', '!?o?', '!?e?', '!?zz?', '!??', '!#', '!#:1', '!1', '!3', '!0'];
const DESIGNATORS = ['', ':0', ':1', ':3', ':$', ':^', ':*', ':1-2', ':2*', ':-', ':0-$', ':9', '%'];
const MODIFIERS = ['', ':h', ':t', ':r', ':e', ':t:r', ':s/e/E/', ':gs/o/0/', ':Gs/e/3/', ':s/zz/y/', ':q', ':x', ':p', ':s^e^^', ':z', ':s/e'];
const WORDS = ['echo', 'a', 'b.c', '/x/y.z', '"dq !$ q"', "'sq !! s'", '\\!!', 'x=!', '[!a]', '$!', 'o#p', '"a\'b"', '#c'];

function script(seed: number): string {
  const r = seededRandom(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  const lines = ['set -o history -H', 'echo alpha beta.gamma /p/q.r', 'echo one two three'];
  for (let k = 0; k < 6; k++) {
    const x = r();
    if (x < 0.08) { lines.push(pick(['^e^E^', '^zz^y^', '^o^0'])); continue; }
    const words = ['echo'];
    for (let n = 1 + Math.floor(r() * 4); n > 0; n--) words.push(r() < 0.55 ? pick(EVENTS) + pick(DESIGNATORS) + pick(MODIFIERS) : pick(WORDS));
    if (x < 0.2) lines.push('for i in 1; do', '  ' + words.join(' '), 'done');
    else lines.push(words.join(' '));
  }
  lines.push('history');
  return lines.join('\n') + '\n';
}

describe('history expansion (generated scripts vs bash)', function () {
  this.timeout(120000);
  it('expands, prints, records and rejects lines as bash does', async () => {
    for (let seed = 1; seed <= 120; seed++) {
      const c: Case = { name: `seed ${seed}`, script: script(seed), file: 'history-expansion', asFile: true, stderr: true };
      await expectSameAsBash(c).catch((e: Error) => { e.message = `seed ${seed}:\n${c.script}\n${e.message}`; throw e; });
    }
  });
});
