import { normalizeAddress } from '@pm/core/address';
import { MARKET_CATEGORIES, SETTLED_MARKETS_LIMIT } from '@pm/core/constants';
import type {
  CreateMarketBody,
  JoinMarketBody,
  ListMarketsQuery,
  ListMarketsResponse,
  MarketDetailResponse,
} from '@pm/core/contract/markets';
import type { UserBet } from '@pm/core/contract/users';
import { type CreatedMarket, createMarket, type MarketsServiceDeps } from './create-market.ts';
import { type JoinedMarket, joinMarket } from './join-market.ts';
import { toBetDto, toMarketDto, toUserBetDto } from './market-serializers.ts';
import {
  countOpenMarketsByCategory,
  findMarket,
  listMarketBets,
  listOpenMarkets,
  listSettledMarkets,
  listUserBets,
} from './markets-repository.ts';

/** Spec §7 "select all": the open list is bounded only by the contract's largest page. */
const OPEN_MARKETS_LIMIT = 200;
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
      const rows =
        query.status === 'settled'
          ? await listSettledMarkets(db, { category, limit: query.limit ?? SETTLED_MARKETS_LIMIT })
          : await listOpenMarkets(db, { category, limit: query.limit ?? OPEN_MARKETS_LIMIT });
      const counts: Record<string, number> = { all: 0 };
      for (const name of MARKET_CATEGORIES) counts[name] = 0;
      for (const { category: name, count } of await countOpenMarketsByCategory(db)) {
        counts[name] = count;
        counts.all = (counts.all ?? 0) + count;
      }
      return { markets: rows.map(toMarketDto), counts };
    },

    async getMarket(id: number): Promise<MarketDetailResponse | null> {
      const market = await findMarket(db, id);
      if (!market) return null;
      const bets = await listMarketBets(db, id, MARKET_DETAIL_BETS_LIMIT);
      return { market: toMarketDto(market), bets: bets.map(toBetDto) };
    },

    async listUserBets(address: string): Promise<UserBet[]> {
      const rows = await listUserBets(db, normalizeAddress(address));
      return rows.map(({ bet, market }) => toUserBetDto(bet, market));
    },
  };
}

export type MarketsService = ReturnType<typeof createMarketsService>;
export type { CreatedMarket, JoinedMarket };
