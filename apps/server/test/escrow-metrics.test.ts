import { CHAIN_ID } from '@pm/core/constants';
import { deployEscrow } from '@pm/escrow/deploy';
import { marketKey } from '@pm/escrow/market-key';
import { buildPayoutTree } from '@pm/escrow/payout-tree';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { getAddress, getContractAddress, keccak256, parseEther, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createChainClient, createChainWallet } from '../src/chain/chain-client.ts';
import { DEV_ESCROW_ROLES } from '../src/config/dev-accounts.ts';
import { DEV_ESCROW_DEPLOYMENT } from '../src/dev/dev-escrow.ts';
import type { MetricsListener } from '../src/metrics/metrics-server.ts';
import { listenForMetrics, startTestApp, type TestApp } from './support/test-app.ts';

// Decision 026, docs/operations.md "Metrics": with ESCROW_ADDRESS set, the reserves-check job reads the
// contract's balance, liabilities, settlement bucket and pause at one block, and a scrape over real
// HTTP shows them, after real deposits, a settlement and a pause on the local chain.

/** Where the dev admin's first contract on a fresh chain lands (npm start's escrow is there too). */
const ESCROW = getContractAddress({ from: getAddress(DEV_ESCROW_ROLES.admin.address), nonce: 0n });
const local = (rpcUrl: string) => ({ id: CHAIN_ID.local, rpcUrl });

let t: TestApp;
let listener: MetricsListener;

beforeAll(async () => {
  t = await startTestApp({ ESCROW_ADDRESS: ESCROW });
  // The dev roles with a bucket that refills slowly, so a settlement shows in it.
  const deployed = await deployEscrow(
    createChainWallet(local(t.chain.rpcUrl), DEV_ESCROW_ROLES.admin.privateKey),
    createChainClient(local(t.chain.rpcUrl)),
    {
      ...DEV_ESCROW_DEPLOYMENT,
      settlementCapacity: parseEther('100'),
      settlementRefillPerHour: parseEther('1'),
    },
  );
  expect(deployed.address).toBe(ESCROW);
  listener = await listenForMetrics(t);
});
afterAll(async () => {
  await listener?.close();
  await t?.close();
});

/** The value of each sample without labels, by name, from the Prometheus text. */
async function scrape(): Promise<Map<string, number>> {
  const response = await fetch(listener.url);
  expect(response.status).toBe(200);
  const values = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    const match = /^(bnbpredict_escrow_[a-z_]+) (\S+)$/.exec(line);
    if (match?.[1] && match[2]) values.set(match[1], Number(match[2]));
  }
  return values;
}

const watch = async () => {
  const job = t.features.jobs.find((each) => each.name === 'reserves-check');
  if (!job) throw new Error('no reserves-check job with ESCROW_ADDRESS set');
  await job.run();
};

describe('the escrow gauges', () => {
  test('balance, liabilities, settlement bucket and pause, as the contract has them', async () => {
    await watch();
    expect(Object.fromEntries(await scrape())).toEqual({
      bnbpredict_escrow_balance_wei: 0,
      bnbpredict_escrow_liabilities_wei: 0,
      bnbpredict_escrow_settlement_allowance_wei: Number(parseEther('100')),
      bnbpredict_escrow_paused: 0,
      // Read from the database at the scrape (no settlement waits here).
      bnbpredict_escrow_settlements_oldest_pending_age_seconds: 0,
    });

    // Two stakes on one market: the contract holds and owes 1.5 BNB.
    const id = keccak256(toHex('metrics market'));
    const closesAt = Number((await t.chain.publicClient.getBlock()).timestamp) + 3600;
    for (const [index, amount] of [
      [0, parseEther('1')],
      [1, parseEther('0.5')],
    ] as const) {
      const player = t.chain.players[index];
      if (!player) throw new Error('no player');
      const hash = await player.writeContract({
        address: ESCROW,
        abi: predictionEscrowAbi,
        functionName: 'deposit',
        args: [id, closesAt, 2, 1, toHex(0, { size: 32 }), toHex(index, { size: 32 })],
        value: amount,
      });
      await t.chain.publicClient.waitForTransactionReceipt({ hash });
    }
    // Closed and settled by the operator (the server's key): all 1.5 BNB to the first stake, drawn
    // from the bucket; then the guardian pauses.
    await t.advanceTime(3601);
    const tree = buildPayoutTree([{ stakeId: 1n, amount: parseEther('1.5') }]);
    const settled = await t.chain.operator.writeContract({
      address: ESCROW,
      abi: predictionEscrowAbi,
      functionName: 'settle',
      args: [marketKey(id, closesAt), 1, keccak256(toHex('verdict')), tree.root, tree.total, 0n, 60],
    });
    await t.chain.publicClient.waitForTransactionReceipt({ hash: settled });
    const guardian = createChainWallet(local(t.chain.rpcUrl), DEV_ESCROW_ROLES.guardian.privateKey);
    const paused = await guardian.writeContract({
      address: ESCROW,
      abi: predictionEscrowAbi,
      functionName: 'pause',
    });
    await t.chain.publicClient.waitForTransactionReceipt({ hash: paused });

    await watch();
    const after = await scrape();
    expect(after.get('bnbpredict_escrow_balance_wei')).toBe(Number(parseEther('1.5')));
    expect(after.get('bnbpredict_escrow_liabilities_wei')).toBe(Number(parseEther('1.5')));
    expect(after.get('bnbpredict_escrow_paused')).toBe(1);
    // 98.5 BNB left after the settlement, and a second or two of a 1 BNB-an-hour refill since.
    const allowance = await t.chain.publicClient.readContract({
      address: ESCROW,
      abi: predictionEscrowAbi,
      functionName: 'settlementAllowance',
    });
    expect(allowance).toBeGreaterThanOrEqual(parseEther('98.5'));
    expect(allowance).toBeLessThan(parseEther('98.51'));
    expect(after.get('bnbpredict_escrow_settlement_allowance_wei')).toBe(Number(allowance));
  });
});
