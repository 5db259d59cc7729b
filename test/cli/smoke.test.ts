import { expect } from 'chai';
describe('skeleton', () => {
  it('runs typescript tests', () => { expect(1 + 1).to.equal(2); });
});
