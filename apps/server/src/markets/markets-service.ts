import { normalizeAddress } from '@pm/core/address';
import { MARKET_CATEGORIES, SETTLED_MARKETS_LIMIT } from '@pm/core/constants';
import type { MarketEvidence } from '@pm/core/contract/evidence';
import {
  MARKET_BETS_PAGE_DEFAULT,
  type MarketBetsQuery,
  type MarketBetsResponse,
} from '@pm/core/contract/market-bets';
import type { MarketOddsResponse } from '@pm/core/contract/market-odds';
import type {
  CreateMarketBody,
  JoinMarketBody,
  ListMarketsQuery,
  ListMarketsResponse,
  MarketDetailResponse,
} from '@pm/core/contract/markets';
import { MARKETS_PAGE_DEFAULT } from '@pm/core/contract/markets';
import { decodePageCursor, encodePageCursor } from '@pm/core/contract/page-cursor';
import type { ResolutionEvent } from '@pm/core/contract/review';
import { USER_BETS_PAGE_DEFAULT, type UserBetsQuery, type UserBetsResponse } from '@pm/core/contract/users';
import { isInReview } from '@pm/core/market-rules';
import type { Hex } from 'viem';
import type { DisputeBondReader } from '../escrow/settlements/dispute-bond.ts';
import { createMarket, type MarketsServiceDeps } from './create-market.ts';
import { joinMarket } from './join-market.ts';
import { listMarketOdds } from './market-odds-repository.ts';
import { toBetDto, toMarketDto, toUserBetDto } from './market-serializers.ts';
import {
  type BetRow,
  countMarketParticipants,
  countOpenMarketsByCategory,
  findMarket,
  listMarketBets,
  listOpenMarkets,
  listSettledMarkets,
  listUserBets,
} from './markets-repository.ts';

/**
 * docs/product.md §7: the open list's first page is the board's first screen (docs/decisions/016);
 * more by cursor.
 */
const OPEN_MARKETS_LIMIT = MARKETS_PAGE_DEFAULT;
/**
 * A market page carries the first page of its bets, newest first; the rest come from
 * GET /api/markets/:id/bets by cursor (docs/decisions/016). Totals, counts and participants stay
 * exact.
 */
export const MARKET_DETAIL_BETS_LIMIT = MARKET_BETS_PAGE_DEFAULT;

export type MarketsServiceOptions = MarketsServiceDeps & {
  /**
   * The bond a flag costs, shown on a market page in review: the escrow's own
   * `disputeBond(key)` (decision 026); null without an escrow.
   */
  disputeBond: DisputeBondReader | null;
  /**
   * The timeline and evidence a market's page shows: the settlement room's records, handed in so
   * markets/ does not import it (settlement acts on markets, not the reverse: docs/architecture.md
   * "Rooms and the direction rule").
   */
  readResolutionRecord: (marketId: number) => Promise<ResolutionRecord>;
};

/** What a market's page shows of its resolution: the timeline (decision 011) and the evidence judged on (decision 019). */
export type ResolutionRecord = { timeline: ResolutionEvent[]; evidence: MarketEvidence | null };

export function createMarketsService(deps: MarketsServiceOptions) {
  const db = deps.payments.db;
  return {
    /** `stakeId`: escrow reconciliation records that one stake of the transaction (decision 026). */
    createMarket: (body: CreateMarketBody, options?: { stakeId?: bigint }) =>
      createMarket(deps, body, options),
    joinMarket: (marketId: number, body: JoinMarketBody, options?: { stakeId?: bigint }) =>
      joinMarket(deps, marketId, body, options),

    async listMarkets(query: ListMarketsQuery): Promise<ListMarketsResponse> {
      const category = query.category === 'all' ? undefined : query.category;
      const settled = query.status === 'settled';
      const limit = query.limit ?? (settled ? SETTLED_MARKETS_LIMIT : OPEN_MARKETS_LIMIT);
      // One row more than the page tells whether another page follows.
      const page = { category, betType: query.betType, limit: limit + 1, cursor: readCursor(query.cursor) };
      const rows = settled ? await listSettledMarkets(db, page) : await listOpenMarkets(db, page);
      const shown = rows.slice(0, limit);
      const last = shown.at(-1);
      const nextCursor =
        rows.length > limit && last
          ? encodePageCursor({ at: settled ? last.updatedAt : last.createdAt, id: last.id })
          : null;
      const counts: Record<string, number> = { all: 0 };
      for (const name of MARKET_CATEGORIES) counts[name] = 0;
      for (const { category: name, count } of await countOpenMarketsByCategory(db)) {
        counts[name] = count;
        counts.all = (counts.all ?? 0) + count;
      }
      return { markets: shown.map(toMarketDto), counts, nextCursor };
    },

    async getMarket(id: number): Promise<MarketDetailResponse | null> {
      const market = await findMarket(db, id);
      if (!market) return null;
      const bets = await listMarketBets(db, id, MARKET_DETAIL_BETS_LIMIT + 1);
      const participants = await countMarketParticipants(db, id);
      const { timeline, evidence } = await deps.readResolutionRecord(id);
      const dto = toMarketDto(market);
      // Decision 026: the bond a flag deposits now, read from the escrow, on the page that
      // offers the flag form; null while no dispute can be taken (no settlement pending on chain, one
      // flag already holding it) or when the chain cannot be read (the page is served all the same).
      const nowMs = deps.clock.now().getTime();
      if (
        dto.review &&
        deps.disputeBond &&
        market.escrowKey &&
        isInReview(market) &&
        market.flagCount === 0 &&
        (market.reviewEndsAt?.getTime() ?? 0) > nowMs
      ) {
        const bond = await deps.disputeBond
          .disputableBond(market.escrowKey as Hex, Math.floor(nowMs / 1000))
          .catch(() => null);
        dto.review.bondWei = bond === null ? null : bond.toString();
      }
      const page = betsPage(bets, MARKET_DETAIL_BETS_LIMIT);
      return {
        market: dto,
        bets: page.rows.map((bet) => toBetDto(bet)),
        betsNextCursor: page.nextCursor,
        participants,
        timeline,
        evidence,
      };
    },

    /** A market's bets newest first, a page at a time; null for an unknown market. */
    async listMarketBets(id: number, query: MarketBetsQuery): Promise<MarketBetsResponse | null> {
      const market = await findMarket(db, id);
      if (!market) return null;
      const limit = query.limit ?? MARKET_BETS_PAGE_DEFAULT;
      const rows = await listMarketBets(db, id, limit + 1, {
        cursor: readCursor(query.cursor),
        address: query.address === undefined ? undefined : normalizeAddress(query.address),
      });
      const page = betsPage(rows, limit);
      return { bets: page.rows.map((bet) => toBetDto(bet)), nextCursor: page.nextCursor };
    },

    async getMarketOdds(id: number): Promise<MarketOddsResponse | null> {
      const market = await findMarket(db, id);
      if (!market) return null;
      return { marketId: market.id, points: await listMarketOdds(db, market.id) };
    },

    async listUserBets(address: string, query: UserBetsQuery): Promise<UserBetsResponse> {
      const limit = query.limit ?? USER_BETS_PAGE_DEFAULT;
      const rows = await listUserBets(db, {
        address: normalizeAddress(address),
        limit: limit + 1,
        cursor: readCursor(query.cursor),
      });
      const shown = rows.slice(0, limit);
      const last = shown.at(-1)?.bet;
      return {
        bets: shown.map(({ bet, market }) => toUserBetDto(bet, market)),
        nextCursor:
          rows.length > limit && last ? encodePageCursor({ at: last.createdAt, id: last.id }) : null,
      };
    },
  };
}

/** A page of `limit` bets from `limit + 1` rows: the extra row tells whether another page follows. */
function betsPage(rows: BetRow[], limit: number): { rows: BetRow[]; nextCursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    rows: shown,
    nextCursor: rows.length > limit && last ? encodePageCursor({ at: last.createdAt, id: last.id }) : null,
  };
}

/** The schema has checked the cursor already; this only turns it into its parts. */
function readCursor(raw: string | undefined) {
  return raw === undefined ? undefined : decodePageCursor(raw);
}

export type MarketsService = ReturnType<typeof createMarketsService>;
