import { createRoundEngine } from '../oracle/round-engine.ts';
import type { OpsCommand, OpsContext } from './ops-commands.ts';

// Operator commands for the BNB UP/DOWN rounds (docs/architecture.md "Operators"): the same engine functions the
// signed API calls (POST /api/admin/oracle/genesis and /reset).

export const oracleCommands: OpsCommand[] = [
  {
    name: 'oracle:genesis',
    usage: 'oracle:genesis',
    summary: 'Start the genesis oracle round (and the next one)',
    async run(context) {
      const report = await engineFor(context).genesis();
      context.out(`Started rounds ${report.created.join(', ') || '(none: every candidate epoch was used)'}`);
    },
  },
  {
    name: 'oracle:reset',
    usage: 'oracle:reset',
    summary: 'Cancel and refund every open oracle round and stop until the next genesis',
    async run(context) {
      const report = await engineFor(context).reset();
      const epochs = report.ended.map((ended) => ended.epoch);
      context.out(epochs.length ? `Cancelled and refunded rounds ${epochs.join(', ')}` : 'No open rounds');
    },
  },
];

/** The engine as the server builds it, minus the job: genesis and reset run once and return. */
function engineFor({ db, clock, config }: OpsContext) {
  return createRoundEngine({
    db,
    clock,
    timings: config.rounds,
    feeBps: config.fees.oracleBps,
    maxAgeS: config.prices.maxAgeS,
    priceSource: config.prices.feed,
    autoGenesis: false,
    // A reset's cancelled rounds settle as refunds on the escrow, as the server's engine does.
    ...(config.escrow.address
      ? { escrow: { chainId: config.chain.id, address: config.escrow.address } }
      : {}),
  });
}
