import type { PlaceOracleBetBody, Round, RoundsResponse } from '@pm/core/contract/oracle';
import { pickDisplayedRounds } from '@pm/core/rounds';
import type { Clock } from '../chain/clock.ts';
import type { AcceptPaymentResult, PaymentContext } from '../payments/accept-payment.ts';
import { listRoundsForDisplay } from './oracle-repository.ts';
import { parseRoundStatus, toWireRound } from './oracle-rounds.ts';
import { type PlacedOracleBet, placeOracleBet } from './place-oracle-bet.ts';

export type OracleServiceDeps = { payments: PaymentContext; clock: Clock };

export type RoundsForDisplay = Awaited<ReturnType<typeof listRoundsForDisplay>>;
/** Reads the rounds' rows through a cache, or straight from the database (the default). */
export type ReadRoundRows = (load: () => Promise<RoundsForDisplay>) => Promise<RoundsForDisplay>;

/** What the oracle endpoints and the payment replays ask of rounds and bets (as markets-service). */
export function createOracleService(deps: OracleServiceDeps) {
  const { payments, clock } = deps;
  return {
    /** docs/product.md §7: the open rounds by start time and the latest ended ones (5 each), shown by the §4 rules. */
    async listRounds(readRows: ReadRoundRows = (load) => load()): Promise<RoundsResponse> {
      const now = clock.now();
      const { open, ended } = await readRows(() => listRoundsForDisplay(payments.db));
      const candidates = [...open, ...ended].map((row) => ({
        epoch: row.epoch,
        status: parseRoundStatus(row.status),
        startTime: row.startTime.getTime() / 1000,
        wire: toWireRound(row),
      }));
      const shown = pickDisplayedRounds(candidates, now.getTime() / 1000);
      const wire = (round: { wire: Round } | null) => round?.wire ?? null;
      return {
        current: wire(shown.current),
        next: wire(shown.next),
        previous: wire(shown.previous),
        recent: ended.map(toWireRound),
        started: open.length > 0,
        serverTime: now.toISOString(),
      };
    },

    /** `stakeId`: reconciliation records this stake of the transaction, from its own event. */
    placeBet(
      body: PlaceOracleBetBody,
      options: { stakeId?: bigint } = {},
    ): Promise<AcceptPaymentResult<PlacedOracleBet>> {
      return placeOracleBet(payments, body, options);
    },
  };
}

export type OracleService = ReturnType<typeof createOracleService>;
