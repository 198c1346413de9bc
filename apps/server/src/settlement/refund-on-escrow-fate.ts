import type { Tx } from '../db/client.ts';
import type { MarketFate } from '../db/schema.ts';
import { reverseMarketSettlement } from '../leaderboard/user-stats-repository.ts';
import { lockMarket } from '../markets/markets-repository.ts';
import { publish } from '../realtime/outbox-repository.ts';
import { recordResolutionEvent } from './resolution-events-repository.ts';
import {
  listBondedFlags,
  markMarketRefunded,
  recordFlagBondFate,
  refundEveryBet,
} from './settlement-repository.ts';

// docs/architecture.md "Following the chain", market fates: the escrow refunded a Predictions market
// on its own (the guardian vetoed its pending settlement, or nobody settled it within the escape
// delay), so every stake of it goes back in full whatever the server settled. The market is shown as
// a voided market is (settled, VOID); its bets return their stakes; each flag's bond comes back in
// full (returned_void, no reward: core's settleFlagBonds for a refunded market), a forfeit or a
// reward undone; the leaderboard takes back what the settlement added. In the caller's transaction
// (the escrow's market-fates job, which supersedes the payout list in the same one).

const FATE_DETAIL: Record<MarketFate, string> = {
  vetoed: 'The escrow guardian vetoed the settlement before its payouts opened: every stake is refunded.',
  escaped:
    'The market was not settled on the escrow within its escape delay: the escrow refunds every stake.',
};

const BOND_DETAIL = 'The market refunded every stake: the bond goes back.';

export async function refundMarketOnEscrowFate(
  tx: Tx,
  input: { marketId: number; fate: MarketFate; at: Date },
): Promise<void> {
  const { marketId, at } = input;
  const market = await lockMarket(tx, marketId);
  if (!market) throw new Error(`market ${marketId} not found`);
  // Before the bets change: what settlement counted is read from them.
  await reverseMarketSettlement(tx, marketId);
  await refundEveryBet(tx, marketId);
  await markMarketRefunded(tx, { marketId, now: at });
  await recordResolutionEvent(tx, {
    marketId,
    kind: 'settled',
    actor: 'escrow',
    result: 'VOID',
    detail: FATE_DETAIL[input.fate],
    at,
  });
  const flags = await listBondedFlags(tx, marketId);
  for (const flag of flags) {
    const bondWei = flag.amountWei ?? 0n;
    await recordFlagBondFate(tx, {
      flagId: flag.id,
      fate: 'returned_void',
      returnWei: bondWei,
      rewardWei: 0n,
    });
    if (flag.bondStatus === 'returned_void') continue;
    await recordResolutionEvent(tx, {
      marketId,
      kind: 'bond_returned_void',
      actor: flag.address,
      result: null,
      detail: BOND_DETAIL,
      amountWei: bondWei,
      rewardWei: 0n,
      at,
    });
  }
  await publish(tx, { topic: 'markets', id: marketId });
  await publish(tx, { topic: 'bets', marketId });
  if (flags.length > 0) await publish(tx, { topic: 'vault' });
}
