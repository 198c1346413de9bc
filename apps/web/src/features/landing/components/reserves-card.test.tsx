import type { SolvencyResponse } from '@pm/core/contract/solvency';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { startTestApi } from '#testing/test-api.ts';
import { TestI18n } from '#testing/test-i18n.tsx';
import { ReservesCard } from './reserves-card.tsx';

// The landing page's vault card reads GET /api/solvency (a loopback stand-in here).

let api: Awaited<ReturnType<typeof startTestApi>>;
let answer: { status: number; body: unknown } = { status: 200, body: {} };
const requests: string[] = [];

beforeAll(async () => {
  api = await startTestApi((request) => {
    requests.push(request.url ?? '');
    return answer;
  });
});
afterAll(() => api.close());
afterEach(() => {
  cleanup();
  requests.length = 0;
});

const report = (overrides: Partial<SolvencyResponse> = {}): SolvencyResponse => ({
  escrowAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  blockNumber: '1234567',
  balanceWei: '12500000000000000000',
  liabilitiesWei: '3250000000000000000',
  excessWei: '9250000000000000000',
  reserveRatioBps: '38461',
  covered: true,
  shortfallWei: '0',
  checkedAt: '2026-11-25T12:00:00.000Z',
  ...overrides,
});

function renderCard(language: 'en' | 'zh' = 'en') {
  render(
    <TestI18n language={language}>
      <ReservesCard />
    </TestI18n>,
  );
}

describe('ReservesCard', () => {
  test('A covered vault: "Reserves X BNB ≥ owed Y BNB at block N" and a written status', async () => {
    answer = { status: 200, body: report() };
    renderCard();
    expect(screen.getByRole('status')).toHaveTextContent("Checking the vault's reserves…");
    const line = await screen.findByText('Reserves 12.5000 BNB ≥ owed 3.2500 BNB at block 1234567');
    expect(line).not.toHaveClass('text-no');
    expect(screen.getByText('Fully reserved')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Vault reserves' })).toBeVisible();
    expect(screen.getByRole('link', { name: /See the figures/ })).toHaveAttribute('href', '/api/solvency');
    expect(requests).toEqual(['/api/solvency']);
  });

  test('A short vault: < and red, and the shortfall in words', async () => {
    answer = {
      status: 200,
      body: report({
        balanceWei: '1000000000000000000',
        excessWei: '0',
        covered: false,
        shortfallWei: '2250000000000000000',
        reserveRatioBps: '3076',
      }),
    };
    renderCard();
    const line = await screen.findByText('Reserves 1.0000 BNB < owed 3.2500 BNB at block 1234567');
    expect(line).toHaveClass('text-no');
    expect(screen.getByText('Under-reserved: short by 2.2500 BNB')).toBeVisible();
  });

  test('In Chinese', async () => {
    answer = { status: 200, body: report() };
    renderCard('zh');
    expect(await screen.findByText('储备 12.5000 BNB ≥ 应付 3.2500 BNB，截至区块 1234567')).toBeVisible();
    expect(screen.getByText('储备充足')).toBeVisible();
  });

  test('A failed read says so and tries again on request', async () => {
    answer = {
      status: 503,
      body: { error: { code: 'CHAIN_UNAVAILABLE', message: 'The chain could not be reached.' } },
    };
    renderCard();
    expect(await screen.findByText('The reserves could not be checked right now.')).toBeVisible();
    answer = { status: 200, body: report() };
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Reserves 12.5000 BNB ≥ owed 3.2500 BNB at block 1234567')).toBeVisible();
    expect(requests).toEqual(['/api/solvency', '/api/solvency']);
  });

  test('A server that has not checked the reserves yet keeps the card "checking" and is asked again shortly', async () => {
    answer = {
      status: 503,
      body: { error: { code: 'RESERVES_NOT_CHECKED', message: 'Not checked yet.' } },
    };
    renderCard();
    await vi.waitFor(() => expect(requests).toEqual(['/api/solvency']));
    expect(screen.getByRole('status')).toHaveTextContent("Checking the vault's reserves…");
    expect(screen.queryByText('The reserves could not be checked right now.')).toBeNull();
    answer = { status: 200, body: report() };
    expect(
      await screen.findByText(
        'Reserves 12.5000 BNB ≥ owed 3.2500 BNB at block 1234567',
        {},
        { timeout: 4000 },
      ),
    ).toBeVisible();
    expect(requests).toEqual(['/api/solvency', '/api/solvency']);
  });

  test('An answer off the contract is a failure, not figures', async () => {
    answer = { status: 200, body: { ...report(), balanceWei: '1.5' } };
    renderCard();
    expect(await screen.findByText('The reserves could not be checked right now.')).toBeVisible();
  });

  test('Below the fold, nothing of the figures is fetched until the card comes into view', async () => {
    answer = { status: 200, body: report() };
    let enter: (() => void) | undefined;
    class FakeObserver {
      constructor(callback: (entries: Array<{ isIntersecting: boolean }>) => void) {
        enter = () => callback([{ isIntersecting: true }]);
      }
      observe() {}
      disconnect() {}
    }
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    try {
      renderCard();
      expect(screen.getByRole('heading', { name: 'Vault reserves' })).toBeVisible();
      expect(screen.getByRole('status')).toHaveTextContent("Checking the vault's reserves…");
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(requests).toEqual([]);
      act(() => enter?.());
      expect(
        await screen.findByText('Reserves 12.5000 BNB ≥ owed 3.2500 BNB at block 1234567'),
      ).toBeVisible();
      expect(requests).toEqual(['/api/solvency']);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
