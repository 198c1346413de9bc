import * as z from 'zod/mini';
import { betReturnShape } from './bet-return.ts';
import { ClaimResponseSchema } from './claims.ts';
import { HistorySummarySchema } from './history.ts';
import { ClaimableResponseSchema } from './users.ts';

// The OpenAPI document's descriptions of some wire fields (docs/api.md "Money words"), registered on
// the contract's own schema instances when the route table loads (routes.ts, which only the server
// loads). Not written beside the fields: the web parses answers with the same schemas, and every
// page would carry this text and zod's registry (decision 006, JS budget).

function describe(schema: z.ZodMiniType, description: string) {
  z.globalRegistry.add(schema, { description });
}

describe(
  betReturnShape.returnWei,
  'What the bet pays back, stake included: stake + winnings on a win, the stake on a refund, ' +
    '"0" on a loss; null until settled.',
);
describe(
  betReturnShape.profitWei,
  'returnWei − the stake, a signed decimal string: −stake on a loss, "0" on a refund, the winnings ' +
    'on a win (below 0 only for a round whose fee outweighs its losing pool); null until settled.',
);
describe(ClaimResponseSchema.shape.totalWei, "What this claim pays: the sum of the claimed bets' returnWei.");
// One schema for both games' totals.
describe(
  ClaimableResponseSchema.shape.markets.shape.totalWei,
  "The sum of returnWei over the game's claimable bets, all of them, listed or not.",
);
describe(
  HistorySummarySchema.shape.netWei,
  'The P&L: the sum of profitWei over decided bets and settled bonds (signed).',
);
describe(HistorySummarySchema.shape.bestWinWei, 'The largest profitWei of a won bet; null without a win.');
