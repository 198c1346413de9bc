import { afterAll, beforeAll, expect, test } from 'vitest';
import { createEscrowWorld, type EscrowWorld } from './escrow-fixture.ts';
import { formatGasReport, GAS_TARGET, gasRowMet, measureEscrowGas } from './measure-gas.ts';

// The gas of each money call (decision 025's targets: a deposit, a dispute included, and a claim at most
// 80k each; a settlement that does not grow with the number of bettors). `npm run bench -- --only gas`
// prints the same figures (measure-gas.ts).

let world: EscrowWorld;
beforeAll(async () => {
  world = await createEscrowWorld();
});
afterAll(() => world?.stop());

test('a deposit (a dispute too) and a claim cost at most 80k gas, and a settlement the same for 2 bettors or 100', async () => {
  const report = await measureEscrowGas(world);
  console.log(formatGasReport(report));
  for (const row of report.rows.filter((row) => row.target === 'max')) {
    expect(row.gas, row.name).toBeLessThanOrEqual(GAS_TARGET);
  }
  // The settlement posts a root and a total: its gas does not depend on how many bettors there are
  // (beyond the calldata's bytes, which differ by chance from one root to another).
  expect(report.settleExecution.large).toBe(report.settleExecution.small);
  expect(report.rows.every((row) => gasRowMet(row, report))).toBe(true);
}, 300_000);
