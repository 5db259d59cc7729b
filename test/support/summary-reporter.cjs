'use strict';
// Mocha's spec output plus the closing line CI reads: "N passed, N failed[, N skipped]".
const Mocha = require('mocha');
const { Spec } = Mocha.reporters;
const { EVENT_RUN_END } = Mocha.Runner.constants;

class SummaryReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats;
      const skipped = s.pending ? `, ${s.pending} skipped` : '';
      // Printed after Spec's epilogue so that it is the last line of the run.
      process.nextTick(() => process.stdout.write(`${s.passes} passed, ${s.failures} failed${skipped}\n`));
    });
  }
}
module.exports = SummaryReporter;
