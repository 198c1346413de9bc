import { SolvencyResponseSchema } from '@pm/core/contract/solvency';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import pino from 'pino';
import { getAddress, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ReservesReading } from '../src/solvency/read-reserves.ts';
import { escrowOf } from './support/escrow-market-helpers.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Decision 026, docs/architecture.md "Proof of reserves": GET /api/solvency is the escrow
// contract's own balance against its own liabilities(), both at the block it names; nothing the
// database says enters it. BNB forced in is excess, never a bettor's; an escrow short of what it owes
// (a state the contract cannot reach, forced onto the node here) reads as short and every check logs
// an error with the figures.

let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
const logLines: string[] = [];
const readings: ReservesReading[] = [];

beforeAll(async () => {
  t = await startTestApp(
    { PAYMENT_WAIT_MS: '1500' },
    {
      logger: pino({ level: 'warn' }, { write: (line: string) => void logLines.push(line) }),
      onReserves: (reading) => void readings.push(reading),
    },
  );
  m = marketHelpers(t);
});
afterAll(async () => {
  await t?.close();
});

/** What the endpoint serves after a reserves check: the job's last reading, never a read of its own. */
async function solvency() {
  await t.job('reserves-check').run();
  const response = await t.app.inject({ method: 'GET', url: '/api/solvency' });
  if (response.statusCode !== 200) throw new Error(`/api/solvency answered ${response.statusCode}`);
  return SolvencyResponseSchema.parse(response.json());
}

/** The contract's own figures at a block, as anyone can read them. */
async function onChain(blockNumber: bigint) {
  const address = escrowOf(t);
  const [balance, liabilities] = await Promise.all([
    t.chain.publicClient.getBalance({ address, blockNumber }),
    t.chain.publicClient.readContract({
      address,
      abi: predictionEscrowAbi,
      functionName: 'liabilities',
      blockNumber,
    }),
  ]);
  return { balance, liabilities };
}

describe('GET /api/solvency', () => {
  test("is the escrow's balance against its own liabilities, both at the block it names", async () => {
    const { market } = await m.createMarket(
      { title: 'reserves' },
      { player: 0, amountWei: parseEther('0.02') },
    );
    await m.joinMarket(market.id, { player: 1, prediction: 'NO', amountWei: parseEther('0.03') });
    const reading = await solvency();
    const block = BigInt(reading.blockNumber);
    const chain = await onChain(block);
    expect(reading).toMatchObject({
      escrowAddress: getAddress(escrowOf(t)),
      balanceWei: chain.balance.toString(),
      liabilitiesWei: chain.liabilities.toString(),
      covered: true,
      shortfallWei: '0',
      excessWei: (chain.balance - chain.liabilities).toString(),
    });
    // Both stakes are owed (the pool of an open market), and nothing else is in the contract.
    expect(chain.liabilities).toBeGreaterThanOrEqual(parseEther('0.05'));
    expect(reading.reserveRatioBps).toBe(((chain.balance * 10_000n) / chain.liabilities).toString());
    // The operator key's gas is read with it, and never counted as reserves.
    expect(readings.at(-1)?.operatorBalanceWei).toBeGreaterThan(0n);
    expect(logLines.filter((line) => line.includes('ALERT: the escrow holds less'))).toEqual([]);
  });

  test('BNB forced into the contract is excess: the liabilities do not move', async () => {
    const before = await solvency();
    const forced = parseEther('1');
    await t.chain.testClient.setBalance({ address: escrowOf(t), value: BigInt(before.balanceWei) + forced });
    await t.chain.testClient.mine({ blocks: 1 });
    const after = await solvency();
    expect(after.liabilitiesWei).toBe(before.liabilitiesWei);
    expect(BigInt(after.excessWei) - BigInt(before.excessWei)).toBe(forced);
    expect(after.covered).toBe(true);
  });

  test('an escrow short of what it owes: the ratio falls under 1 and every check logs an error with the figures', async () => {
    const before = await solvency();
    const owed = BigInt(before.liabilitiesWei);
    await t.chain.testClient.setBalance({ address: escrowOf(t), value: owed / 2n });
    await t.chain.testClient.mine({ blocks: 1 });
    try {
      const short = await solvency();
      expect(short).toMatchObject({
        covered: false,
        balanceWei: (owed / 2n).toString(),
        liabilitiesWei: owed.toString(),
        shortfallWei: (owed - owed / 2n).toString(),
        excessWei: '0',
      });
      expect(BigInt(short.reserveRatioBps ?? '10000')).toBeLessThan(10_000n);

      logLines.length = 0;
      readings.length = 0;
      await t.job('reserves-check').run();
      await t.job('reserves-check').run();
      const alerts = logLines
        .map((line) => JSON.parse(line))
        .filter((entry) => String(entry.msg).startsWith('ALERT: the escrow holds less'));
      expect(alerts).toHaveLength(2);
      expect(alerts[0]).toMatchObject({
        level: 50,
        escrowAddress: escrowOf(t),
        balanceWei: (owed / 2n).toString(),
        liabilitiesWei: owed.toString(),
        shortfallWei: (owed - owed / 2n).toString(),
      });
      expect(readings).toHaveLength(2);
      expect(readings[1]?.report).toMatchObject({
        balanceWei: owed / 2n,
        liabilitiesWei: owed,
        covered: false,
      });
    } finally {
      await t.chain.testClient.setBalance({ address: escrowOf(t), value: BigInt(before.balanceWei) });
      await t.chain.testClient.mine({ blocks: 1 });
    }
  });

  test('the endpoint is in the OpenAPI document', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.json().paths['/api/solvency']?.get?.responses?.['200']).toBeDefined();
  });
});
