import type { Round } from '@pm/core/contract/oracle';
import { depositCall } from '@pm/escrow/deposit-call';
import { roundDepositTerms } from '@pm/escrow/deposit-terms';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getAddress } from 'viem';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { renderWithApp, TEST_ACCOUNT, testAppConfig } from '#testing/test-app.tsx';
import type { Payment } from '#wallet/utils/send-payment.ts';
import { BetPanel } from './bet-panel.tsx';

// Decision 026: a round's stake is a deposit into the escrow contract GET /api/config names, never a
// transfer to the vault. The wallet's send is replaced here to see what the panel asks it to send.

const sent = vi.hoisted(() => [] as Payment[]);
vi.mock('#wallet/utils/send-payment.ts', () => ({
  sendPayment: async (_config: unknown, request: { payment: Payment }) => {
    sent.push(request.payment);
    throw new Error('User rejected the request.');
  },
}));

afterEach(() => {
  cleanup();
  sent.length = 0;
});

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

describe('BetPanel pays into the escrow', () => {
  test("Bet DOWN sends the escrow's deposit for the round's key and side, the stake as value", async () => {
    await renderWithApp(<BetPanel round={liveRound} nowS={START + 60} />, { connectedAs: TEST_ACCOUNT });
    await userEvent.click(screen.getByRole('button', { name: 'DOWN' }));
    await userEvent.click(screen.getByRole('button', { name: 'Bet DOWN' }));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    const escrow = testAppConfig.escrow?.address;
    if (!escrow) throw new Error('the test config names an escrow');
    expect(sent[0]).toEqual(
      depositCall(getAddress(escrow), roundDepositTerms(liveRound.epoch, START + 300, 'bear'), 10n ** 16n),
    );
  });

  test('without an escrow on this server, round bets are unavailable and nothing is sent', async () => {
    await renderWithApp(<BetPanel round={liveRound} nowS={START + 60} />, {
      connectedAs: TEST_ACCOUNT,
      config: { escrow: null },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Bet UP' }));
    expect(
      await screen.findByText('Round bets are unavailable: this server has no escrow contract configured.'),
    ).toBeVisible();
    expect(sent).toEqual([]);
  });
});
