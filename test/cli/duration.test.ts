import { expect } from 'chai';
import { formatDuration, parseDuration } from '../../host/cli/duration.ts';
import { parseRouterArgs } from '../../host/cli/router-options.ts';

describe('command-line durations', () => {
  it('reads a whole number with a unit, and 0', () => {
    expect(parseDuration('--x', '30d')).to.equal(30 * 86_400_000);
    expect(parseDuration('--x', '1500ms')).to.equal(1500);
    expect(parseDuration('--x', '2h')).to.equal(7_200_000);
    expect(parseDuration('--x', '0')).to.equal(0);
    expect(formatDuration(30 * 86_400_000)).to.equal('30d');
    expect(formatDuration(90_000)).to.equal('90s');
    expect(formatDuration(1500)).to.equal('1500ms');
  });

  it('refuses a bare number, fractions, negatives, other units and absurd sizes, naming the flag', () => {
    for (const bad of ['30', '1.5s', '-1s', '10w', '', ' 1s', '1s ', '99999999999d', 'x'.repeat(500)]) {
      const r = parseDuration('--ledger-retention', bad);
      expect(r, bad).to.be.a('string').and.contain('--ledger-retention');
      expect((r as string).length, bad).to.be.below(200);
    }
  });

  it('router options: defaults, and every problem reported together', () => {
    const ok = parseRouterArgs([], { HOME: '/home/x' });
    expect(ok.kind === 'run' && [ok.options.shutdownGraceMs, ok.options.ledgerRetentionMs]).to.deep.equal([30_000, 30 * 86_400_000]);
    const bad = parseRouterArgs(['--shutdown-grace', '5', '--ledger-retention', 'forever'], { HOME: '/home/x' });
    expect(bad.kind === 'invalid' && bad.problems.length).to.equal(2);
  });
});
