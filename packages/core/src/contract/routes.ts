import type * as z from 'zod/mini';
import { AnalyzeMarketBodySchema, AnalyzeMarketResponseSchema } from './analyze.ts';
import { ClaimBodySchema, ClaimResponseSchema } from './claims.ts';
import { ConfigResponseSchema } from './config.ts';
import { ErrorBodySchema } from './errors.ts';
import { HealthResponseSchema } from './health.ts';
import { HistoryResponseSchema, HistorySummarySchema } from './history.ts';
import { HistoryQuerySchema, HistorySummaryQuerySchema } from './history-query.ts';
import { LeaderboardQuerySchema, LeaderboardResponseSchema } from './leaderboard.ts';
import { MarketBetsQuerySchema, MarketBetsResponseSchema } from './market-bets.ts';
import { MarketOddsResponseSchema } from './market-odds.ts';
import {
  CreateMarketBodySchema,
  CreateMarketResponseSchema,
  JoinMarketBodySchema,
  JoinMarketResponseSchema,
  ListMarketsQuerySchema,
  ListMarketsResponseSchema,
  MarketDetailResponseSchema,
  MarketIdParamsSchema,
  PendingPaymentResponseSchema,
} from './markets.ts';
import {
  MarketOperatorResponseSchema,
  OperatorActionBodySchema,
  OperatorActionResponseSchema,
  OperatorNonceResponseSchema,
  ResolveMarketBodySchema,
  VoidMarketBodySchema,
} from './operator.ts';
import { PlaceOracleBetBodySchema, PlaceOracleBetResponseSchema, RoundsResponseSchema } from './oracle.ts';
import { PayoutListParamsSchema, PayoutListQuerySchema, PayoutListSchema } from './payout-lists.ts';
import { FlagMarketBodySchema, FlagMarketResponseSchema } from './review.ts';
import { SolvencyResponseSchema } from './solvency.ts';
import {
  ClaimableResponseSchema,
  UserBetsQuerySchema,
  UserBetsResponseSchema,
  UserParamsSchema,
} from './users.ts';
import {
  PriceHistoryQuerySchema,
  PriceHistoryResponseSchema,
  PriceParamsSchema,
  PriceResponseSchema,
  PricesResponseSchema,
  VaultResponseSchema,
} from './vault.ts';

// The field descriptions of the OpenAPI document, which is built from this table (server only).
import './openapi-descriptions.ts';

export type RouteSpec = {
  method: 'GET' | 'POST';
  /** Fastify-style path (`:id`); the OpenAPI document rewrites it to `{id}`. */
  path: string;
  summary: string;
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  responses: Record<number, z.ZodMiniType>;
};

const paymentErrors = { 400: ErrorBodySchema, 409: ErrorBodySchema, 429: ErrorBodySchema };

/** Every HTTP endpoint of docs/api.md, the one list the OpenAPI document is built from. */
export const ROUTES = {
  health: {
    method: 'GET',
    path: '/api/health',
    summary: 'Liveness',
    responses: { 200: HealthResponseSchema },
  },
  config: {
    method: 'GET',
    path: '/api/config',
    summary: 'Deployment settings',
    responses: { 200: ConfigResponseSchema },
  },
  listMarkets: {
    method: 'GET',
    path: '/api/markets',
    summary: 'Open or settled markets, a page at a time',
    query: ListMarketsQuerySchema,
    responses: { 200: ListMarketsResponseSchema, 400: ErrorBodySchema },
  },
  analyzeMarket: {
    method: 'POST',
    path: '/api/markets/analyze',
    summary: 'Ask the judge whether a question can be decided from public sources by its deadline',
    body: AnalyzeMarketBodySchema,
    responses: {
      200: AnalyzeMarketResponseSchema,
      400: ErrorBodySchema,
      429: ErrorBodySchema,
      503: ErrorBodySchema,
    },
  },
  getMarket: {
    method: 'GET',
    path: '/api/markets/:id',
    summary:
      'One market with the first page of its bets (newest first), the cursor of the next page and the number of distinct bettors',
    params: MarketIdParamsSchema,
    responses: { 200: MarketDetailResponseSchema, 404: ErrorBodySchema },
  },
  marketBets: {
    method: 'GET',
    path: '/api/markets/:id/bets',
    summary:
      "A market's bets, newest first, a page at a time; with ?address= only that wallet's (a private read, never from a shared cache)",
    params: MarketIdParamsSchema,
    query: MarketBetsQuerySchema,
    responses: { 200: MarketBetsResponseSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
  },
  marketOdds: {
    method: 'GET',
    path: '/api/markets/:id/odds',
    summary: "A market's YES share of the pool over time (at most 200 points)",
    params: MarketIdParamsSchema,
    responses: { 200: MarketOddsResponseSchema, 404: ErrorBodySchema },
  },
  createMarket: {
    method: 'POST',
    path: '/api/markets',
    summary: 'Create a market from a verified payment',
    body: CreateMarketBodySchema,
    responses: { 201: CreateMarketResponseSchema, 202: PendingPaymentResponseSchema, ...paymentErrors },
  },
  joinMarket: {
    method: 'POST',
    path: '/api/markets/:id/bets',
    summary: 'Join a market from a verified payment',
    params: MarketIdParamsSchema,
    body: JoinMarketBodySchema,
    responses: {
      201: JoinMarketResponseSchema,
      202: PendingPaymentResponseSchema,
      404: ErrorBodySchema,
      ...paymentErrors,
    },
  },
  userBets: {
    method: 'GET',
    path: '/api/users/:address/bets',
    summary: "A wallet's market bets, newest first, a page at a time",
    params: UserParamsSchema,
    query: UserBetsQuerySchema,
    responses: { 200: UserBetsResponseSchema, 400: ErrorBodySchema },
  },
  userHistory: {
    method: 'GET',
    path: '/api/users/:address/history',
    summary:
      "A wallet's bets in both games and its flag bonds (kind bond), newest first, a page at a time: stake, result, return (stake included) and profit (return − stake)",
    params: UserParamsSchema,
    query: HistoryQuerySchema,
    responses: { 200: HistoryResponseSchema, 400: ErrorBodySchema },
  },
  userSummary: {
    method: 'GET',
    path: '/api/users/:address/summary',
    summary: "A wallet's P&L: net, win rate (won / decided), best win, total wagered and counts",
    params: UserParamsSchema,
    query: HistorySummaryQuerySchema,
    responses: { 200: HistorySummarySchema, 400: ErrorBodySchema },
  },
  userClaimable: {
    method: 'GET',
    path: '/api/users/:address/claimable',
    summary: "A wallet's claimable winnings and refunds",
    params: UserParamsSchema,
    responses: { 200: ClaimableResponseSchema, 400: ErrorBodySchema },
  },
  claim: {
    method: 'POST',
    path: '/api/claims',
    summary:
      "Pay claimable winnings, refunds and returned bonds from the escrow contract, relayed by the operator key (claimMany; a refunded round's or market's stakes refundMany)",
    body: ClaimBodySchema,
    responses: { 200: ClaimResponseSchema, 400: ErrorBodySchema, 503: ErrorBodySchema },
  },
  payoutList: {
    method: 'GET',
    path: '/api/payout-lists/:key',
    summary:
      "A market's published payout list on the escrow contract (by its market key: an oracle round's or a Predictions market's escrowKey): the settlement's outcome, verdict hash, root, total and fee, every leaf with its stake and Merkle proof, and OpenZeppelin's tree dump; ?download=1 answers it as a file. 404 before it is published, and for a market refunded in full (no list: every stake refunds)",
    params: PayoutListParamsSchema,
    query: PayoutListQuerySchema,
    responses: { 200: PayoutListSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
  },
  rounds: {
    method: 'GET',
    path: '/api/oracle/rounds',
    summary: 'Current, next, previous and recent rounds',
    responses: { 200: RoundsResponseSchema },
  },
  placeOracleBet: {
    method: 'POST',
    path: '/api/oracle/bets',
    summary: 'Bet on a live round from a verified payment',
    body: PlaceOracleBetBodySchema,
    responses: {
      201: PlaceOracleBetResponseSchema,
      202: PendingPaymentResponseSchema,
      404: ErrorBodySchema,
      ...paymentErrors,
    },
  },
  operatorNonce: {
    method: 'GET',
    path: '/api/admin/nonce',
    summary:
      'A single-use nonce for an operator signature (EIP-712 typed data: domain {name "BNB Predict", version "1", chainId}, OperatorAction {action, marketId, result, reason, nonce, expiry}); rate-limited',
    responses: { 200: OperatorNonceResponseSchema, 429: ErrorBodySchema },
  },
  oracleGenesis: {
    method: 'POST',
    path: '/api/oracle/admin/genesis',
    summary: 'Start the genesis round (operator signature)',
    body: OperatorActionBodySchema,
    responses: {
      200: OperatorActionResponseSchema,
      400: ErrorBodySchema,
      401: ErrorBodySchema,
      409: ErrorBodySchema,
    },
  },
  oracleReset: {
    method: 'POST',
    path: '/api/oracle/admin/reset',
    summary: 'Cancel and refund every open round and stop (operator signature)',
    body: OperatorActionBodySchema,
    responses: { 200: OperatorActionResponseSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
  },
  resolveMarket: {
    method: 'POST',
    path: '/api/markets/:id/admin/resolve',
    summary: 'Settle a closed market YES or NO (operator signature)',
    params: MarketIdParamsSchema,
    body: ResolveMarketBodySchema,
    responses: {
      200: MarketOperatorResponseSchema,
      400: ErrorBodySchema,
      401: ErrorBodySchema,
      404: ErrorBodySchema,
    },
  },
  voidMarket: {
    method: 'POST',
    path: '/api/markets/:id/admin/void',
    summary: 'Void a market that is not settled and refund every stake (operator signature)',
    params: MarketIdParamsSchema,
    body: VoidMarketBodySchema,
    responses: {
      200: MarketOperatorResponseSchema,
      400: ErrorBodySchema,
      401: ErrorBodySchema,
      404: ErrorBodySchema,
    },
  },
  flagMarket: {
    method: 'POST',
    path: '/api/markets/:id/flags',
    summary:
      'Flag a proposed verdict during its review window with a bond deposited into the escrow contract (a dispute deposit of exactly review.bondWei) and a bettor\'s EIP-712 signature: domain {name "BNB Predict", version "1", chainId}, FlagMarket {marketId, reason, expiry}',
    params: MarketIdParamsSchema,
    body: FlagMarketBodySchema,
    responses: {
      201: FlagMarketResponseSchema,
      202: PendingPaymentResponseSchema,
      401: ErrorBodySchema,
      403: ErrorBodySchema,
      404: ErrorBodySchema,
      ...paymentErrors,
    },
  },
  leaderboard: {
    method: 'GET',
    path: '/api/leaderboard',
    summary: 'Top winners',
    query: LeaderboardQuerySchema,
    responses: { 200: LeaderboardResponseSchema },
  },
  vault: {
    method: 'GET',
    path: '/api/vault',
    summary:
      "The escrow contract that holds the stakes (PredictionEscrow), every figure read at one block (blockNumber): its address, chain id and ABI; its roles (owner = the admin, pendingOwner, operator, guardian, treasury); pause; balance, liabilities (open pools, unclaimed payouts, credits and uncollected fees: the contract counts fees inside them) and the excess above them; the settlement rate limit (capacity, hourly refill, what can be drawn now), the minimum payout delay, the dispute bond and the contract's constants (MAX_FEE_BPS, ESCAPE_DELAY in seconds, PAYOUT_GAS_CAP, MAX_DISPUTES, …). Read at most every 2 s per instance. 503 ESCROW_NOT_CONFIGURED when the server has no escrow, CHAIN_UNAVAILABLE when the chain cannot be read",
    responses: { 200: VaultResponseSchema, 503: ErrorBodySchema },
  },
  solvency: {
    method: 'GET',
    path: '/api/solvency',
    summary:
      "Proof of reserves: the escrow contract's balance at a block against everything it owes there (its liabilities(): pools of open and refunding markets and rounds, unclaimed payouts, credits, fees not yet sent), with the ratio, as the reserves check last read it",
    responses: { 200: SolvencyResponseSchema, 503: ErrorBodySchema },
  },
  prices: {
    method: 'GET',
    path: '/api/prices',
    summary: 'The latest USD price of every coin',
    responses: { 200: PricesResponseSchema },
  },
  price: {
    method: 'GET',
    path: '/api/prices/:symbol',
    summary: "One coin's USD price",
    params: PriceParamsSchema,
    responses: { 200: PriceResponseSchema, 400: ErrorBodySchema, 503: ErrorBodySchema },
  },
  priceHistory: {
    method: 'GET',
    path: '/api/prices/:symbol/history',
    summary: "One coin's USD samples since a time (default the last hour, at most 24 h)",
    params: PriceParamsSchema,
    query: PriceHistoryQuerySchema,
    responses: { 200: PriceHistoryResponseSchema, 400: ErrorBodySchema },
  },
} as const satisfies Record<string, RouteSpec>;
