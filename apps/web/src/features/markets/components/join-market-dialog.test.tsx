import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { NO_MARKET_PARTS, OPERATOR, testMarket } from '#testing/market-test-kit.tsx';
import { renderWithApp } from '#testing/test-app.tsx';
import { JoinMarketDialog } from './join-market-dialog.tsx';

// The join dialog shows what decides the market before anyone pays.

afterEach(cleanup);

describe('JoinMarketDialog', () => {
  test('Before paying, the bettor sees the description and the resolution instructions', async () => {
    const market = testMarket({
      description: 'Will BNB/USD trade above $1 at the deadline?',
      resolutionInstructions: 'Resolve YES only if BNB/USD exceeds $1,000,000.',
    });
    await renderWithApp(
      <JoinMarketDialog
        market={market}
        onClose={() => {}}
        PriceMarketDescription={NO_MARKET_PARTS.PriceMarketDescription}
      />,
      { connectedAs: OPERATOR },
    );
    const dialog = await screen.findByRole('dialog');
    const criteria = within(dialog).getByRole('region', { name: 'What decides this market' });
    expect(within(criteria).getByText('Will BNB/USD trade above $1 at the deadline?')).toBeVisible();
    expect(within(criteria).getByText('Resolve YES only if BNB/USD exceeds $1,000,000.')).toBeVisible();
    // Shown above the choice and the amount, so it is read before the button that pays.
    const pay = within(dialog).getByRole('button', { name: 'Join Bet' });
    expect(criteria.compareDocumentPosition(pay) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  test("Joining deposits into the escrow (GET /api/config's escrow), not the vault", async () => {
    await renderWithApp(
      <JoinMarketDialog
        market={testMarket()}
        onClose={() => {}}
        PriceMarketDescription={NO_MARKET_PARTS.PriceMarketDescription}
      />,
      {
        connectedAs: OPERATOR,
      },
    );
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('radio', { name: 'NO' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Join Bet' }));
    const payment = await screen.findByRole('dialog', { name: 'Send Payment to Vault' }, { timeout: 5000 });
    expect(within(payment).getByText('0x5FbDB2315678afecb367f032d93F642f64180aa3')).toBeVisible();
  });

  test('A market made before the escrow (no escrow id) takes no bet: nothing is paid', async () => {
    await renderWithApp(
      <JoinMarketDialog
        market={testMarket({ escrowId: null, escrowKey: null })}
        onClose={() => {}}
        PriceMarketDescription={NO_MARKET_PARTS.PriceMarketDescription}
      />,
      { connectedAs: OPERATOR },
    );
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('radio', { name: 'YES' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Join Bet' }));
    expect(
      await screen.findByText(
        'This market has closed and is no longer accepting bets',
        {},
        { timeout: 5000 },
      ),
    ).toBeVisible();
    expect(screen.queryByRole('dialog', { name: 'Send Payment to Vault' })).toBeNull();
  });

  test('Without instructions it says the description alone decides, in Chinese too', async () => {
    await renderWithApp(
      <JoinMarketDialog
        market={testMarket()}
        onClose={() => {}}
        PriceMarketDescription={NO_MARKET_PARTS.PriceMarketDescription}
      />,
      { language: 'zh' },
    );
    const criteria = await screen.findByRole('region', { name: '本市场如何裁定' });
    expect(within(criteria).getByText('无：仅依据描述裁定。')).toBeVisible();
  });
});
