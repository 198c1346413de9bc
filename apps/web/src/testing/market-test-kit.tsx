import type { MarketEvidence } from '@pm/core/contract/evidence';
import type { MarketOddsPoint } from '@pm/core/contract/market-odds';
import type { Bet, Market } from '@pm/core/contract/markets';
import type { ResolutionEvent } from '@pm/core/contract/review';
import type { MarketParts } from '#features/markets/components/market-parts.ts';
import { startTestApi } from './test-api.ts';
import { TEST_ACCOUNT } from './test-app.tsx';

// For the market components' tests: a market, and a real loopback HTTP server standing in for the
// API (the app's providers come from test-app.tsx).

/**
 * The markets feature's pages without the other features' parts, for its own tests (the composed
 * pages are tested in routes/parts/): each part shows nothing.
 */
export const NO_MARKET_PARTS: MarketParts = {
  PriceCardFacts: () => null,
  PriceMarketDescription: () => null,
  PriceMarketAnalysis: () => null,
  PriceMarketPanel: () => null,
  PriceResolutionCard: () => null,
  MarketReviewPanel: () => null,
  MarketOperatorControls: () => null,
  EvidenceSection: () => null,
};

/** The connected wallet that the market tests make an operator. */
export const OPERATOR = TEST_ACCOUNT;

export function testMarket(overrides: Partial<Market> = {}): Market {
  return {
    id: 1,
    creatorAddress: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
    title: 'Will BNB/USD trade above $1 at the deadline?',
    description: 'Will BNB/USD trade above $1 at the deadline?',
    resolutionInstructions: null,
    betType: 'custom_bet',
    category: 'crypto',
    duration: 'daily',
    targetSymbol: null,
    targetPrice: null,
    startPrice: null,
    comparisonType: null,
    startTime: '2099-06-01T12:00:00.000Z',
    deadline: '2099-06-02T12:00:00.000Z',
    status: 'active',
    totalYesWei: '10000000000000000',
    totalNoWei: '5000000000000000',
    yesCount: 1,
    noCount: 1,
    result: null,
    aiVerdict: null,
    aiConfidence: null,
    aiSources: [],
    resolver: {
      model: 'gpt-4o-mini',
      promptVersion: 'market-resolver-v1',
      contentHash: `0x${'ab'.repeat(32)}`,
    },
    // Decision 026: the market on the escrow, its close the deadline in seconds.
    escrowId: `0x${'5e'.repeat(32)}`,
    escrowKey: `0x${'6f'.repeat(32)}`,
    closesAt: Date.parse('2099-06-02T12:00:00.000Z') / 1000,
    createdAt: '2099-06-01T12:00:00.000Z',
    updatedAt: '2099-06-01T12:00:00.000Z',
    ...overrides,
  };
}

/** A bet on the test market; overrides pick the bettor and side. */
export function testBet(overrides: Partial<Bet> = {}): Bet {
  return {
    id: 1,
    marketId: 1,
    userAddress: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
    prediction: 'YES',
    amountWei: '10000000000000000',
    potentialPayoutWei: '20000000000000000',
    returnWei: null,
    profitWei: null,
    status: 'pending',
    isCreator: false,
    txHash: `0x${'cd'.repeat(32)}`,
    createdAt: '2025-06-01T10:00:00.000Z',
    ...overrides,
  };
}

/** A page of a market's bets as GET /api/markets/:id/bets answers it. */
export type TestBetsPage = { bets: Bet[]; nextCursor: string | null };

/**
 * A loopback API answering GET /api/markets/:id with `market` (the first page of its bets, its
 * participants and timeline as served), GET /api/markets/:id/bets with `betPages` by cursor (and
 * `?address=` with that wallet's bets among `bets`), GET /api/markets/:id/odds with `odds` (none by
 * default) and empty claimables; the market's `evidence` when given. `requested` lists
 * the URLs asked for.
 */
export async function startMarketApi() {
  let market = testMarket();
  let bets: Bet[] = [];
  let betsNextCursor: string | null = null;
  let betPages: Record<string, TestBetsPage> = {};
  let allBets: Bet[] = [];
  let participants: number | undefined;
  let timeline: ResolutionEvent[] = [];
  let odds: MarketOddsPoint[] = [];
  let evidence: MarketEvidence | null = null;
  const requested: string[] = [];
  const api = await startTestApi((request) => {
    const url = request.url ?? '';
    requested.push(url);
    if (/^\/api\/markets\/\d+\/odds/.test(url)) return { body: { marketId: market.id, points: odds } };
    const betsQuery = /^\/api\/markets\/\d+\/bets\?(.*)$/.exec(url)?.[1];
    if (betsQuery !== undefined) {
      const query = new URLSearchParams(betsQuery);
      const address = query.get('address')?.toLowerCase();
      if (address)
        return { body: { bets: allBets.filter((bet) => bet.userAddress === address), nextCursor: null } };
      const page = betPages[query.get('cursor') ?? ''];
      return page
        ? { body: page }
        : { status: 500, body: { error: { code: 'INTERNAL', message: 'no page' } } };
    }
    return {
      body: url.startsWith('/api/markets/')
        ? {
            market,
            bets,
            betsNextCursor,
            participants: participants ?? new Set(allBets.map((bet) => bet.userAddress)).size,
            timeline,
            evidence,
          }
        : {
            markets: { totalWei: '0', count: 0, bets: [] },
            oracle: { totalWei: '0', count: 0, bets: [] },
            bonds: { totalWei: '0', count: 0, bonds: [] },
          },
    };
  });
  return {
    serve(
      next: Market,
      more: {
        bets?: Bet[];
        timeline?: ResolutionEvent[];
        odds?: MarketOddsPoint[];
        evidence?: MarketEvidence | null;
        betsNextCursor?: string | null;
        betPages?: Record<string, TestBetsPage>;
        /** Every bet of the market, for `?address=` (default: `bets`, the first page). */
        allBets?: Bet[];
        /** The server's count of distinct bettors (default: of `allBets`). */
        participants?: number;
      } = {},
    ) {
      market = next;
      bets = more.bets ?? [];
      betsNextCursor = more.betsNextCursor ?? null;
      betPages = more.betPages ?? {};
      allBets = more.allBets ?? bets;
      participants = more.participants;
      timeline = more.timeline ?? [];
      odds = more.odds ?? [];
      evidence = more.evidence ?? null;
    },
    requested,
    close: api.close,
  };
}
