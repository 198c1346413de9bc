import type { PlaceOracleBetBody } from '@pm/core/contract/oracle';
import { beforeEach, expect, test } from 'vitest';
import { startRecordingTestApi } from '#testing/test-api.ts';
import { loadPendingOracleBets, recordOracleBet, savePendingOracleBet } from './pending-oracle-bets.ts';
import { mayHavePendingOracleBets } from './pending-oracle-bets-key.ts';

// A paid round bet is kept in the one store of pending payments (lib/pending-payments.ts, tested there).

const TX_HASH = `0x${'12'.repeat(32)}`;
const PENDING = { status: 202, body: { status: 'pending', txHash: TX_HASH } };

beforeEach(() => window.localStorage.clear());

test('A paid round bet is kept under the key the oracle page checks, and posted to /api/oracle/bets', async () => {
  const bet: PlaceOracleBetBody = {
    epoch: 42,
    position: 'bull',
    amountWei: '10000000000000000',
    userAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    txHash: TX_HASH,
  };
  savePendingOracleBet(bet);
  expect(mayHavePendingOracleBets()).toBe(true);
  const api = await startRecordingTestApi(PENDING);
  await recordOracleBet(bet).finally(api.close);
  expect(api.paths).toEqual(['/api/oracle/bets']);
  expect(loadPendingOracleBets()).toEqual([]);
  expect(mayHavePendingOracleBets()).toBe(false);
});
