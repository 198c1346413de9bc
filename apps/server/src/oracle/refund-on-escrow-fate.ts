import type { Tx } from '../db/client.ts';
import type { MarketFate } from '../db/schema.ts';
import { reverseRoundSettlement } from '../leaderboard/user-stats-repository.ts';
import { publish } from '../realtime/outbox-repository.ts';
import { refundRoundInFull } from './oracle-repository.ts';

// docs/architecture.md "Following the chain", market fates: the escrow refunded an oracle round on
// its own (the guardian vetoed its pending settlement, or it was not settled within the escape
// delay). The round is shown as a cancelled round is (every stake refunded, its reason the fate); the
// leaderboard takes back what its end added. In the caller's transaction (the escrow's market-fates
// job, which supersedes the payout list in the same one).

export async function refundRoundOnEscrowFate(
  tx: Tx,
  input: { epoch: number; fate: MarketFate },
): Promise<void> {
  // Before the round turns cancelled: what its end counted is read from its result.
  await reverseRoundSettlement(tx, input.epoch);
  await refundRoundInFull(tx, input.epoch, input.fate);
  await publish(tx, { topic: 'rounds', id: input.epoch });
}
