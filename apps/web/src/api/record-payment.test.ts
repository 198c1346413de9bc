import { beforeEach, expect, test } from 'vitest';
import { startRecordingTestApi } from '#testing/test-api.ts';
import { mayHavePendingRecords } from './pending-records-key.ts';
import { recordAndForget, savePendingRecord } from './record-payment.ts';

// A paid create or join is kept in the one store of pending payments (lib/pending-payments.ts, tested there).

const TX_HASH = `0x${'12'.repeat(32)}`;
const PENDING = { status: 202, body: { status: 'pending', txHash: TX_HASH } };

beforeEach(() => window.localStorage.clear());

test('A paid market bet is kept under the key the markets page checks, and posted to its market', async () => {
  const record = {
    kind: 'join' as const,
    marketId: 7,
    body: {
      prediction: 'YES' as const,
      amountWei: '5000000000000000',
      userAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      txHash: TX_HASH,
    },
  };
  savePendingRecord(record);
  expect(mayHavePendingRecords()).toBe(true);
  const api = await startRecordingTestApi(PENDING);
  expect(await recordAndForget(record).finally(api.close)).toBe('pending');
  expect(api.paths).toEqual(['/api/markets/7/bets']);
  expect(mayHavePendingRecords()).toBe(false);
});
