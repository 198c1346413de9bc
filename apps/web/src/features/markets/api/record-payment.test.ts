import { afterEach, beforeEach, expect, test } from 'vitest';
import { startTestApi } from '#testing/test-api.ts';
import { mayHavePendingRecords } from './pending-records-key.ts';
import { recordAndForget, savePendingRecord } from './record-payment.ts';

// Issue 3: a paid create or join is kept in the one store of pending payments (lib/pending-payments.ts, tested there).

const TX_HASH = `0x${'12'.repeat(32)}`;

let api: Awaited<ReturnType<typeof startTestApi>> | null = null;
let posted: string[] = [];

beforeEach(async () => {
  window.localStorage.clear();
  posted = [];
  api = await startTestApi((request) => {
    posted.push(request.url ?? '');
    return { status: 202, body: { status: 'pending', txHash: TX_HASH } };
  });
});

afterEach(async () => {
  await api?.close();
  api = null;
});

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
  expect(await recordAndForget(record)).toBe('pending');
  expect(posted).toEqual(['/api/markets/7/bets']);
  expect(mayHavePendingRecords()).toBe(false);
});
