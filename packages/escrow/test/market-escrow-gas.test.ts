import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMarketEscrowWorld, type MarketEscrowWorld } from './market-escrow-world.ts';
import { formatMarketGasReport, measureMarketEscrowGas } from './measure-market-escrow-gas.ts';

// MarketEscrow's gas against its targets (measure-market-escrow-gas.ts): bets and claims at most 80k, a
// price settlement at most 150k, and settlements that do not grow with the number of bettors.

let world: MarketEscrowWorld;
beforeAll(async () => {
  world = await createMarketEscrowWorld();
});
afterAll(() => world?.stop());

test('bets and claims cost at most 80k gas, a price settlement at most 150k, settlements the same for 2 bettors or 60', async () => {
  const report = await measureMarketEscrowGas(world);
  console.log(formatMarketGasReport(report));
  for (const row of report.rows) if (row.most) expect(row.gas, row.name).toBeLessThanOrEqual(row.most);
  for (const row of report.flat) expect(row.many, row.name).toBe(row.few);
}, 300_000);
