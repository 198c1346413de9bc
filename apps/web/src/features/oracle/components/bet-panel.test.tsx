import type { Round } from '@pm/core/contract/oracle';
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test } from 'vitest';
import { renderWithApp, TEST_ACCOUNT } from '#testing/test-app.tsx';
import { dismissToast, getToasts } from '#ui/toast.ts';
import { BetPanel } from './bet-panel.tsx';

// docs/product.md §5 oracle bet validation, in the spec's words, before any payment is attempted.

afterEach(cleanup);

const START = Date.parse('2025-06-01T12:00:00Z') / 1000;
const liveRound: Round = {
  epoch: 2_914_632,
  status: 'live',
  startTime: new Date(START * 1000).toISOString(),
  lockTime: new Date((START + 300) * 1000).toISOString(),
  closeTime: new Date((START + 600) * 1000).toISOString(),
  lockPrice: null,
  closePrice: null,
  totalUpWei: '0',
  totalDownWei: '0',
  upCount: 0,
  downCount: 0,
  result: null,
  cancelReason: null,
  priceSource: null,
  lockPriceAt: null,
  lockFeedRoundId: null,
  closePriceAt: null,
  closeFeedRoundId: null,
};

async function renderPanel(options: { connected: boolean; round?: Round; nowS?: number }) {
  await renderWithApp(<BetPanel round={options.round ?? liveRound} nowS={options.nowS ?? START + 60} />, {
    ...(options.connected ? { connectedAs: TEST_ACCOUNT } : {}),
    config: { aiConfigured: false },
  });
}

describe('BetPanel', () => {
  test('UP is chosen and 0.01 BNB is the amount by default, in steps of 0.01', async () => {
    await renderPanel({ connected: false });
    expect(screen.getByRole('button', { name: 'UP' }).getAttribute('aria-pressed')).toBe('true');
    const amount = screen.getByLabelText('Amount (BNB)');
    expect(amount).toHaveProperty('value', '0.01');
    expect(amount.getAttribute('step')).toBe('0.01');
    expect(amount.getAttribute('min')).toBe('0.01');
    await userEvent.click(screen.getByRole('button', { name: 'DOWN' }));
    expect(screen.getByRole('button', { name: 'Bet DOWN' })).toBeVisible();
  });

  test('Without a wallet: "Please connect your wallet to place a bet"', async () => {
    await renderPanel({ connected: false });
    await userEvent.click(screen.getByRole('button', { name: 'Bet UP' }));
    expect(await screen.findByText('Please connect your wallet to place a bet')).toBeVisible();
  });

  test('Below 0.01 BNB, or not a number: "Minimum bet is 0.01 BNB"', async () => {
    await renderPanel({ connected: true });
    const amount = screen.getByLabelText('Amount (BNB)');
    await userEvent.clear(amount);
    await userEvent.type(amount, '0.009');
    await userEvent.click(screen.getByRole('button', { name: 'Bet UP' }));
    expect(await screen.findByText('Minimum bet is 0.01 BNB')).toBeVisible();
  });

  test('A locked round, or a live one past its lock: "You can only bet on live rounds"', async () => {
    await renderPanel({ connected: true, round: { ...liveRound, status: 'locked', lockPrice: '600' } });
    await userEvent.click(screen.getByRole('button', { name: 'Bet UP' }));
    expect(await screen.findByText('You can only bet on live rounds')).toBeVisible();
    cleanup();
    // Toasts live in one store for the page: clear the first one, then expect it anew.
    act(() => {
      for (const shown of getToasts()) dismissToast(shown.id);
    });
    await renderPanel({ connected: true, nowS: START + 300 });
    expect(screen.queryByText('You can only bet on live rounds')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Bet UP' }));
    expect(await screen.findByText('You can only bet on live rounds')).toBeVisible();
  });
});
