import type { ClaimableResponse } from '@pm/core/contract/users';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startTestApi } from '#testing/test-api.ts';
import { TEST_ACCOUNT } from '#testing/test-app.tsx';
import { TestI18n } from '#testing/test-i18n.tsx';
import { MyWinnings } from './my-winnings.tsx';

// The market page's "your winnings" line: core's marketWinningsWei over the wallet's claimable bets.

let api: Awaited<ReturnType<typeof startTestApi>>;
let claimable: ClaimableResponse;

beforeAll(async () => {
  api = await startTestApi(() => ({ body: claimable }));
});
afterAll(() => api.close());
afterEach(cleanup);

const bet = (
  id: number,
  marketId: number,
  status: 'won' | 'refunded',
  amountWei: string,
  returnWei: string,
) => ({
  id,
  marketId,
  userAddress: TEST_ACCOUNT.toLowerCase(),
  prediction: 'YES' as const,
  amountWei,
  potentialPayoutWei: String(BigInt(amountWei) * 2n),
  returnWei,
  profitWei: String(BigInt(returnWei) - BigInt(amountWei)),
  status,
  isCreator: false,
  txHash: `0x${String(id).padStart(64, '0')}`,
  createdAt: '2026-11-25T12:00:00.000Z',
  market: {
    title: 'Will it rain?',
    status: 'settled' as const,
    result: status === 'won' ? ('YES' as const) : ('VOID' as const),
    category: 'crypto' as const,
    deadline: '2026-11-25T12:00:00.000Z',
  },
  escrowClaim: null,
});

function renderWinnings(marketId: number) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <TestI18n>
        <MyWinnings marketId={marketId} address={TEST_ACCOUNT} />
      </TestI18n>
    </QueryClientProvider>,
  );
}

describe('MyWinnings', () => {
  test("adds up stake and profit of the wallet's winning bets on this market only", async () => {
    claimable = {
      markets: {
        totalWei: '0',
        count: 3,
        bets: [
          bet(1, 7, 'won', '500000000000000000', '750000000000000000'),
          bet(2, 7, 'won', '100000000000000000', '150000000000000000'),
          bet(3, 8, 'refunded', '2000000000000000000', '2000000000000000000'),
        ],
      },
      oracle: { totalWei: '0', count: 0, bets: [] },
      bonds: { totalWei: '0', count: 0, bonds: [] },
    };
    renderWinnings(7);
    expect(await screen.findByText('Your winnings: 0.9000 BNB')).toBeVisible();
  });

  test('shows nothing when the wallet has nothing to claim on this market', async () => {
    renderWinnings(9);
    // Rendered once the claimable read answered: the other market's line would have shown by now.
    renderWinnings(8);
    expect(await screen.findByText('Your winnings: 2.0000 BNB')).toBeVisible();
    expect(screen.getAllByText(/Your winnings/)).toHaveLength(1);
  });
});
