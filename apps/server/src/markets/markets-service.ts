import { normalizeAddress } from '@pm/core/address';
import { MARKET_CATEGORIES, SETTLED_MARKETS_LIMIT } from '@pm/core/constants';
import type { MarketOddsResponse } from '@pm/core/contract/market-odds';
import type {
  CreateMarketBody,
  JoinMarketBody,
  ListMarketsQuery,
  ListMarketsResponse,
  MarketDetailResponse,
} from '@pm/core/contract/markets';
import { MARKETS_PAGE_MAX } from '@pm/core/contract/markets';
import { decodePageCursor, encodePageCursor } from '@pm/core/contract/page-cursor';
import { USER_BETS_PAGE_DEFAULT, type UserBetsQuery, type UserBetsResponse } from '@pm/core/contract/users';
import { createMarket, type MarketsServiceDeps } from './create-market.ts';
import { joinMarket } from './join-market.ts';
import { listMarketOdds } from './market-odds.ts';
import { toBetDto, toMarketDto, toUserBetDto } from './market-serializers.ts';
import {
  countOpenMarketsByCategory,
  findMarket,
  listMarketBets,
  listOpenMarkets,
  listSettledMarkets,
  listUserBets,
} from './markets-repository.ts';
import { listResolutionEvents, toResolutionEventDto } from './resolution-events.ts';

/** docs/product.md §7 "select all": the open list's first page is the contract's largest; more by cursor. */
const OPEN_MARKETS_LIMIT = MARKETS_PAGE_MAX;
/**
 * A market page lists at most this many bets, newest first. Totals and counts on the market stay
 * exact; the list is what a participant panel can show (a 100k-bet market would be megabytes).
 */
export const MARKET_DETAIL_BETS_LIMIT = 1000;

export function createMarketsService(deps: MarketsServiceDeps) {
  const db = deps.payments.db;
  return {
    createMarket: (body: CreateMarketBody) => createMarket(deps, body),
    joinMarket: (marketId: number, body: JoinMarketBody) => joinMarket(deps, marketId, body),

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
      const bets = await listMarketBets(db, id, MARKET_DETAIL_BETS_LIMIT);
      const timeline = await listResolutionEvents(db, id);
      return {
        market: toMarketDto(market),
        bets: bets.map((bet) => toBetDto(bet, market)),
        timeline: timeline.map(toResolutionEventDto),
      };
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

/** The schema has checked the cursor already; this only turns it into its parts. */
function readCursor(raw: string | undefined) {
  return raw === undefined ? undefined : decodePageCursor(raw);
}

export type MarketsService = ReturnType<typeof createMarketsService>;
