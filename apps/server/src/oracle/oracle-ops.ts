import type { Clock } from '../chain/clock.ts';
import type { Config } from '../config/config.ts';
import type { Db } from '../db/client.ts';
import { createRoundEngine, type EngineReport } from './round-engine.ts';

// Operator actions for the ops CLI (DESIGN "Operators"): the same engine functions the signed API
// calls. `npm run ops -- oracle:genesis` / `oracle:reset` once the CLI's command table lists them.

export type OracleOpsDeps = { config: Config; db: Db; clock: Clock };

function engineFor(deps: OracleOpsDeps) {
  return createRoundEngine({
    db: deps.db,
    clock: deps.clock,
    timings: deps.config.rounds,
    feeBps: deps.config.fees.oracleBps,
    maxAgeS: deps.config.prices.maxAgeS,
    priceSource: deps.config.prices.feed,
    autoGenesis: false,
  });
}

/** Starts the rounds: the current round if still open for bets, and the next. Refused while running. */
export async function startGenesisRound(deps: OracleOpsDeps): Promise<EngineReport> {
  return engineFor(deps).genesis();
}

/** Cancels and refunds every open round; rounds stay stopped until the next genesis. */
export async function resetRounds(deps: OracleOpsDeps): Promise<EngineReport> {
  return engineFor(deps).reset();
}

/** The commands, for the ops CLI's table: name, one-line help, and what it runs. */
export const ORACLE_OPS_COMMANDS = [
  {
    name: 'oracle:genesis',
    help: 'Start the genesis oracle round (and the next one)',
    run: async (deps: OracleOpsDeps) => {
      const report = await startGenesisRound(deps);
      return `Started rounds ${report.created.join(', ') || '(none: every candidate epoch was used)'}`;
    },
  },
  {
    name: 'oracle:reset',
    help: 'Cancel and refund every open oracle round and stop until the next genesis',
    run: async (deps: OracleOpsDeps) => {
      const report = await resetRounds(deps);
      const epochs = report.ended.map((ended) => ended.epoch);
      return epochs.length ? `Cancelled and refunded rounds ${epochs.join(', ')}` : 'No open rounds';
    },
  },
] as const;
