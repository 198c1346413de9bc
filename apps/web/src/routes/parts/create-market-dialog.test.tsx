import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { formatDateTime } from '#lib/use-format.ts';
import { OPERATOR } from '#testing/market-test-kit.tsx';
import { startTestApi } from '#testing/test-api.ts';
import { renderWithApp } from '#testing/test-app.tsx';
import { CreateMarketDialog } from './create-market-dialog.tsx';

// The Price Oracle part of the create dialog, against a loopback API serving coin prices.

const PRICES: Record<string, string> = { BTC: '100000.00', ETH: '4000.50' };
let api: Awaited<ReturnType<typeof startTestApi>>;
beforeAll(async () => {
  api = await startTestApi((request) => {
    const symbol = /^\/api\/prices\/([A-Z]+)$/.exec(request.url ?? '')?.[1] ?? '';
    const usd = PRICES[symbol];
    return usd
      ? { body: { symbol, usd, source: 'simulated', updatedAt: '2025-06-01T12:00:00.000Z', stale: false } }
      : { status: 503, body: { error: { code: 'PRICE_UNAVAILABLE', message: 'no price' } } };
  });
});
afterAll(() => api?.close());
afterEach(cleanup);

const WAIT = { timeout: 5_000 };

async function openPriceOracle(language: 'en' | 'zh' = 'en') {
  await renderWithApp(<CreateMarketDialog open onOpenChange={() => {}} />, {
    connectedAs: OPERATOR,
    language,
  });
  const dialog = await screen.findByRole('dialog', {}, WAIT);
  fireEvent.click(
    within(dialog).getByRole('radio', { name: language === 'en' ? /Price Oracle/ : /价格预言机/ }),
  );
  return dialog;
}

// The first test loads the dialog's lazy parts: on a loaded machine that takes over 5 s.
describe('CreateMarketDialog, Price Oracle', { timeout: 20_000 }, () => {
  test('It shows the coin price, the gap to the target and the title the server will write', async () => {
    const dialog = await openPriceOracle();
    // The custom market's text fields are gone: the terms replace them.
    expect(within(dialog).getByLabelText('Bet Description')).not.toBeVisible();
    expect(await within(dialog).findByText('$100,000.0000', {}, WAIT)).toBeVisible();
    fireEvent.change(within(dialog).getByLabelText('Target price (USD)'), { target: { value: '101500' } });
    expect(within(dialog).getByTestId('target-gap').textContent).toBe(
      'Target is +1.50% from the current price',
    );
    // testAppConfig's server time is 12:00 UTC: an hourly market closes at 13:00, shown in the
    // reader's zone and language.
    const closes = (language: 'en' | 'zh') => formatDateTime('2025-06-01T13:00:00.000Z', language);
    expect(within(dialog).getByTestId('title-preview').textContent).toBe(
      `Will BTC be above $101,500.00 at ${closes('en')}?`,
    );
    fireEvent.click(within(dialog).getByRole('radio', { name: /Below/ }));
    fireEvent.click(within(dialog).getByRole('radio', { name: /ETH/ }));
    fireEvent.change(within(dialog).getByLabelText('Target price (USD)'), { target: { value: '3800' } });
    expect(await within(dialog).findByText('$4,000.5000', {}, WAIT)).toBeVisible();
    expect(within(dialog).getByTestId('target-gap').textContent).toBe(
      'Target is -5.01% from the current price',
    );
    expect(within(dialog).getByTestId('title-preview').textContent).toBe(
      `Will ETH be below $3,800.00 at ${closes('en')}?`,
    );
  });

  test('A target with more than 2 decimals is refused with a clear message, and nothing is paid', async () => {
    const dialog = await openPriceOracle();
    const target = within(dialog).getByLabelText('Target price (USD)');
    fireEvent.change(target, { target: { value: '100.123' } });
    expect(target.getAttribute('aria-invalid')).toBe('true');
    const message = 'The target price must be a positive USD amount with at most 2 decimals.';
    expect(within(dialog).getByText(message)).toBeVisible();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'YES' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect((await screen.findAllByText(message, {}, WAIT)).length).toBeGreaterThan(1);
    expect(screen.queryByRole('dialog', { name: 'Send Payment to Vault' })).toBeNull();
  });

  test('An empty target is asked for; a valid one goes on to the same payment as a custom market', async () => {
    const dialog = await openPriceOracle();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'NO' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Enter a target price.', {}, WAIT)).toBeVisible();
    fireEvent.change(within(dialog).getByLabelText('Target price (USD)'), { target: { value: '99000.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    const payment = await screen.findByRole('dialog', { name: 'Send Payment to Vault' }, WAIT);
    expect(within(payment).getByText('0.005 BNB')).toBeVisible();
    // The creation is a deposit into the escrow (decision 026), not a transfer to the vault.
    expect(within(payment).getByText('0x5FbDB2315678afecb367f032d93F642f64180aa3')).toBeVisible();
  });

  test('In Chinese the preview and the gap read in Chinese, and a missing price says so', async () => {
    const dialog = await openPriceOracle('zh');
    fireEvent.click(within(dialog).getByRole('radio', { name: /SOL/ }));
    expect(await within(dialog).findByText('价格不可用', {}, WAIT)).toBeVisible();
    fireEvent.click(within(dialog).getByRole('radio', { name: /BTC/ }));
    fireEvent.change(within(dialog).getByLabelText('目标价格（美元）'), { target: { value: '95000' } });
    expect(await within(dialog).findByText('目标价距当前价格 -5.00%', {}, WAIT)).toBeVisible();
    expect(within(dialog).getByTestId('title-preview').textContent).toBe(
      `BTC 在 ${formatDateTime('2025-06-01T13:00:00.000Z', 'zh')} 时会高于 US$95,000.00 吗？`,
    );
  });
});
