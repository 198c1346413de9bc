import { type PlaceOracleBetBody, PlaceOracleBetBodySchema } from '@pm/core/contract/oracle';
import { createPendingPayments } from '#lib/pending-payments.ts';
import { PENDING_ORACLE_BETS_KEY } from './pending-oracle-bets-key.ts';
import { placeOracleBet } from './place-oracle-bet.ts';

// A paid round bet is kept until the server has it, in the store every paid bet uses.
const pendingOracleBets = createPendingPayments({
  key: PENDING_ORACLE_BETS_KEY,
  schema: PlaceOracleBetBodySchema,
  txHashOf: (body: PlaceOracleBetBody) => body.txHash,
  post: placeOracleBet,
});

export const loadPendingOracleBets = pendingOracleBets.load;
export const savePendingOracleBet = pendingOracleBets.save;
export const recordOracleBet = pendingOracleBets.record;
export const retryPendingOracleBets = pendingOracleBets.retry;
