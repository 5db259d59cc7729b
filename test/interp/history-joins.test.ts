// Property test of how history records multi-line commands (history-reader.ts): seeded scripts of
// nested if/while/for/case/functions/groups/subshells, pipes and `&&` across lines, multi-line
// strings, array assignments, comments and blank lines, run as script files with `set -o history`
// through bash and the interpreter; the `history` listing (stdout), stderr and status must match.
import { seededRandom } from '../support/prng.ts';
import { expectSameAsBash, type Case } from './harness.ts';

const SIMPLE = ['echo a', 'true', 'x=1', 'echo "q"', 'echo b # c', 'printf "%s\\n" z', ': ${x:=1}', 'echo $(echo s)', '[[ -n x ]]', '(( 1 ))', 'echo a#b'];

function script(seed: number): string {
  const r = seededRandom(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  const ind = (ls: string[]): string[] => {
    const out: string[] = [];
    for (const l of ls) { out.push((r() < 0.2 ? '' : '  ') + l); if (r() < 0.08) out.push(''); }
    return out;
  };
  const block = (d: number): string[] => {
    const x = r();
    if (d > 2 || x < 0.3) return [pick(SIMPLE)];
    if (x < 0.4) return ['if ' + pick(SIMPLE), 'then', ...ind(block(d + 1)), 'else', ...ind(block(d + 1)), 'fi'];
    if (x < 0.5) return ['if ' + pick(SIMPLE) + '; then', ...ind(block(d + 1)), 'fi'];
    if (x < 0.55) return ['while false', 'do', ...ind(block(d + 1)), 'done'];
    if (x < 0.6) return ['for i in 1 2; do', ...ind(block(d + 1)), 'done'];
    if (x < 0.65) return ['case x in', '  x)', ...ind(block(d + 1)), '    ;;', '  *) echo o;;', 'esac'];
    if (x < 0.7) return ['f() {', ...ind(block(d + 1)), '}'];
    if (x < 0.75) return ['{', ...ind(block(d + 1)), '}'];
    if (x < 0.8) return ['(', ...ind(block(d + 1)), ')'];
    if (x < 0.85) return [pick(SIMPLE) + ' |', '  cat'];
    if (x < 0.88) return [pick(SIMPLE) + ' &&', '  ' + pick(SIMPLE)];
    if (x < 0.91) return ['echo "multi', 'line"'];
    if (x < 0.95) return ['a=(', '  1', '  2', ')'];
    return ['  # a comment', pick(SIMPLE)];
  };
  const lines = ['set -o history'];
  for (let k = 0; k < 4; k++) lines.push(...block(0));
  lines.push('history');
  return lines.join('\n') + '\n';
}

describe('history of multi-line commands (generated scripts vs bash)', function () {
  this.timeout(120000);
  it('joins the lines of each command into one entry as bash does', async () => {
    for (let seed = 1; seed <= 80; seed++) {
      const c: Case = { name: `seed ${seed}`, script: script(seed), file: 'history-joins', asFile: true, stderr: true };
      await expectSameAsBash(c).catch((e: Error) => { e.message = `seed ${seed}:\n${c.script}\n${e.message}`; throw e; });
    }
  });
});
