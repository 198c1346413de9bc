import type { ResolutionEvent } from '@pm/core/contract/review';
import { cleanup, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { MarketDetail } from '#features/markets/components/market-detail.tsx';
import { OPERATOR, startMarketApi, testBet, testMarket } from '#testing/market-test-kit.tsx';
import { renderWithApp } from '#testing/test-app.tsx';
import { MARKET_PARTS } from './market-parts.tsx';

// A proposed verdict, its countdown, the flag form for a bettor and the timeline.

let api: Awaited<ReturnType<typeof startMarketApi>>;
beforeAll(async () => {
  api = await startMarketApi();
});
afterAll(() => api?.close());
afterEach(cleanup);

/** The first render loads the lazy parts and the strings: slow on a busy machine. */
const SLOW = { timeout: 10_000 };

const BETTOR = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

/** The test config's server time is 2025-06-01T12:00:00Z: the window below ends 10 minutes later. */
const inReview = (flagCount = 0) =>
  testMarket({
    status: 'settling',
    deadline: '2025-06-01T11:00:00.000Z',
    // Decision 026: a flag's bond is a deposit under the market's key on the escrow.
    escrowId: `0x${'ab'.repeat(32)}`,
    closesAt: Date.parse('2025-06-01T11:00:00.000Z') / 1000,
    review: {
      result: 'YES',
      model: 'gpt-4o-mini',
      promptVersion: 'market-resolver-v1',
      confidence: 92,
      analysis: 'The launch happened on time.',
      sources: ['https://example.com/launch'],
      proposedAt: '2025-06-01T11:50:00.000Z',
      endsAt: '2025-06-01T12:10:00.000Z',
      flagCount,
      bondWei: '10000000000000000',
    },
  });

const event = (overrides: Partial<ResolutionEvent>): ResolutionEvent => ({
  id: 1,
  kind: 'proposed',
  actor: 'gpt-4o-mini',
  result: 'YES',
  detail: null,
  at: '2025-06-01T11:50:00.000Z',
  ...overrides,
});

describe('The review panel', () => {
  test('shows the proposed verdict, its sources, the countdown and the In review badge', async () => {
    api.serve(inReview(), { timeline: [event({})] });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />);
    const panel = await screen.findByRole('region', { name: 'Verdict under review' }, SLOW);
    expect(within(panel).getByText('Proposed verdict: YES').textContent).toBe('Proposed verdict: YES');
    expect(within(panel).getByText('Confidence 92%').textContent).toBe('Confidence 92%');
    expect(within(panel).getByText('The launch happened on time.').textContent).toBe(
      'The launch happened on time.',
    );
    expect(within(panel).getByRole('link', { name: 'https://example.com/launch' }).getAttribute('href')).toBe(
      'https://example.com/launch',
    );
    expect(within(panel).getByRole('status').textContent).toMatch(
      /^Pays out in (10:00|9:5\d) unless a bettor flags it$/,
    );
    expect(screen.getByText('In review').textContent).toBe('In review');
    // Nobody connected: no flag form.
    expect(screen.queryByRole('form', { name: 'Flag this verdict' })).toBeNull();
  });

  test('shows the timeline: proposed, flagged with its reason, overturned, settled', async () => {
    api.serve(inReview(1), {
      timeline: [
        event({}),
        event({
          id: 2,
          kind: 'flagged',
          actor: BETTOR.toLowerCase(),
          result: null,
          detail: 'It was postponed.',
        }),
        event({ id: 3, kind: 'overturned', actor: OPERATOR.toLowerCase(), result: 'NO', detail: 'Checked.' }),
        event({ id: 4, kind: 'settled', actor: OPERATOR.toLowerCase(), result: 'NO', detail: null }),
        event({
          id: 5,
          kind: 'bond_returned',
          actor: BETTOR.toLowerCase(),
          result: null,
          detail: 'The verdict was overturned: the bond goes back with a reward out of the fee.',
          amountWei: '10200000000000000',
          rewardWei: '200000000000000',
        }),
      ],
    });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />);
    const timeline = await screen.findByRole('region', { name: 'Resolution timeline' }, SLOW);
    const items = within(timeline).getAllByRole('listitem');
    expect(items.map((item) => item.firstChild?.textContent)).toEqual([
      'Proposed YES by model gpt-4o-mini',
      'Flagged by 0x3c44...93bc',
      'Overturned to NO by operator 0x7099...79c8',
      'Settled NO by 0x7099...79c8',
      'Bond of 0x3c44...93bc returned: 0.0102 BNB, of which 0.0002 BNB reward from the fee (verdict overturned)',
    ]);
    expect(items[1]?.textContent).toContain('“It was postponed.”');
    expect(screen.getByRole('region', { name: 'Verdict under review' }).textContent).toContain(
      'Flagged by 1 bettor(s): an operator will confirm or overturn the verdict before anything is paid.',
    );
  });

  test('in Chinese too', async () => {
    api.serve(inReview(), {
      timeline: [
        event({}),
        event({
          id: 2,
          kind: 'bond_forfeited',
          actor: BETTOR.toLowerCase(),
          result: null,
          amountWei: '10000000000000000',
          rewardWei: '0',
        }),
      ],
    });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, { language: 'zh' });
    expect((await screen.findByRole('region', { name: '裁决审核中' }, SLOW)).textContent).toContain(
      '提议裁决：YES',
    );
    expect(screen.getByRole('region', { name: '裁决时间线' }).textContent).toContain(
      '模型 gpt-4o-mini 提议 YES',
    );
    expect(screen.getByRole('region', { name: '裁决时间线' }).textContent).toContain(
      '0x3c44...93bc 的保证金（0.01 BNB）已归获胜者（裁决被确认）',
    );
    expect(screen.getByText('审核中').textContent).toBe('审核中');
  });
});

describe('The flag form', () => {
  test('is offered to a connected bettor during the window, with a labelled reason limited to 280 characters', async () => {
    api.serve(inReview(), { bets: [testBet({ userAddress: BETTOR.toLowerCase() })], timeline: [event({})] });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, { connectedAs: BETTOR });
    const form = await screen.findByRole('form', { name: 'Flag this verdict' }, SLOW);
    const reason = within(form).getByLabelText('Why is the verdict wrong?');
    expect(reason.getAttribute('maxLength')).toBe('280');
    expect(
      within(form).getByRole('button', { name: 'Sign, pay the bond and flag' }).hasAttribute('disabled'),
    ).toBe(false);
    // The bond and what becomes of it.
    expect(within(form).getByText('Bond: 0.01 BNB').textContent).toBe('Bond: 0.01 BNB');
    expect(form.textContent).toContain('your bond goes to the winners');
    expect(form.textContent).toContain('a deposit into the escrow contract');
    expect(within(form).getByText('0 / 280').textContent).toBe('0 / 280');
  });

  test('is not offered to a connected wallet that did not bet, nor after the window, nor twice', async () => {
    api.serve(inReview(), { bets: [testBet({ userAddress: BETTOR.toLowerCase() })], timeline: [event({})] });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, { connectedAs: OPERATOR });
    await screen.findByRole('region', { name: 'Verdict under review' }, SLOW);
    expect(screen.queryByRole('form', { name: 'Flag this verdict' })).toBeNull();
    cleanup();

    const ended = inReview();
    api.serve(
      { ...ended, review: ended.review ? { ...ended.review, endsAt: '2025-06-01T11:59:00.000Z' } : null },
      { bets: [testBet({ userAddress: BETTOR.toLowerCase() })], timeline: [event({})] },
    );
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, { connectedAs: BETTOR });
    expect((await screen.findByRole('region', { name: 'Verdict under review' }, SLOW)).textContent).toContain(
      'The review window has ended: settling…',
    );
    expect(screen.queryByRole('form', { name: 'Flag this verdict' })).toBeNull();
    cleanup();

    api.serve(inReview(1), {
      bets: [testBet({ userAddress: BETTOR.toLowerCase() })],
      timeline: [event({}), event({ id: 2, kind: 'flagged', actor: BETTOR.toLowerCase(), result: null })],
    });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, { connectedAs: BETTOR });
    expect((await screen.findByText('You flagged this verdict.', {}, SLOW)).textContent).toBe(
      'You flagged this verdict.',
    );
    expect(screen.queryByRole('form', { name: 'Flag this verdict' })).toBeNull();
  });

  test("is not offered once another bettor's flag holds the verdict: one dispute per settlement (decision 026)", async () => {
    api.serve(inReview(1), {
      bets: [testBet({ userAddress: BETTOR.toLowerCase() })],
      timeline: [event({}), event({ id: 2, kind: 'flagged', actor: OPERATOR.toLowerCase(), result: null })],
    });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, { connectedAs: BETTOR });
    expect((await screen.findByRole('region', { name: 'Verdict under review' }, SLOW)).textContent).toContain(
      'Flagged by 1 bettor(s)',
    );
    expect(screen.queryByRole('form', { name: 'Flag this verdict' })).toBeNull();
  });

  test('is offered to a bettor whose bet is not among the newest the page shows: the server says', async () => {
    const others = Array.from({ length: 3 }, (_, i) =>
      testBet({ id: 10 + i, userAddress: `0x${String(i + 1).repeat(40)}` }),
    );
    const mine = testBet({ id: 1, userAddress: BETTOR.toLowerCase() });
    api.serve(inReview(), {
      bets: others,
      betsNextCursor: 'older',
      allBets: [...others, mine],
      timeline: [event({})],
    });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, { connectedAs: BETTOR });
    expect(await screen.findByRole('form', { name: 'Flag this verdict' }, SLOW)).toBeVisible();
    expect(api.requested).toContain(`/api/markets/1/bets?address=${BETTOR.toLowerCase()}&limit=1`);
  });

  test('an operator is offered to confirm or overturn the proposed verdict', async () => {
    api.serve(inReview(1));
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, {
      connectedAs: OPERATOR,
      config: { operatorAddresses: [OPERATOR] },
    });
    const controls = await screen.findByRole('region', { name: 'Operator' }, SLOW);
    expect(within(controls).getByText('AI proposal: YES · flags: 1').textContent).toBe(
      'AI proposal: YES · flags: 1',
    );
    expect(within(controls).getByRole('button', { name: 'Confirm YES' }).textContent).toBe('Confirm YES');
    expect(within(controls).getByRole('button', { name: 'Overturn to NO' }).textContent).toBe(
      'Overturn to NO',
    );
    expect(within(controls).getByRole('button', { name: 'Overturn to VOID' }).textContent).toBe(
      'Overturn to VOID',
    );
  });
});

describe('The operator controls on the market page', () => {
  test('An operator gets resolve and void controls; YES/NO only once betting has closed', async () => {
    api.serve(testMarket());
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, {
      connectedAs: OPERATOR,
      config: { operatorAddresses: [OPERATOR] },
    });
    const controls = await screen.findByRole('region', { name: 'Operator' }, SLOW);
    expect(within(controls).getByRole('button', { name: 'Void and refund' })).toBeVisible();
    expect(within(controls).queryByRole('button', { name: 'Resolve YES' })).toBeNull();
    expect(within(controls).getByText(/once betting has closed/)).toBeVisible();
    cleanup();

    api.serve(testMarket({ status: 'settling', deadline: '2000-01-01T00:00:00.000Z' }));
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, {
      connectedAs: OPERATOR,
      config: { operatorAddresses: [OPERATOR] },
    });
    const closed = await screen.findByRole('region', { name: 'Operator' }, SLOW);
    expect(within(closed).getByRole('button', { name: 'Resolve YES' })).toBeVisible();
    expect(within(closed).getByRole('button', { name: 'Resolve NO' })).toBeVisible();
  });

  test('Anyone else sees no operator controls', async () => {
    api.serve(testMarket({ status: 'settling', deadline: '2000-01-01T00:00:00.000Z' }));
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, {
      connectedAs: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      config: { operatorAddresses: [OPERATOR] },
    });
    await screen.findByRole('region', { name: 'Resolution instructions' }, SLOW);
    expect(screen.queryByRole('region', { name: 'Operator' })).toBeNull();
  });
});
