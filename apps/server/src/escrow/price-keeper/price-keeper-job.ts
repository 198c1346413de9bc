import { marketEscrowAbi } from '@pm/escrow/market-escrow.gen';
import { type PriceSettlementCall, priceSettlementCall } from '@pm/escrow/price-settlement-call';
import type { FastifyBaseLogger } from 'fastify';
import { type Address, encodeFunctionData, type Hex, type PublicClient } from 'viem';
import { isTransientError } from '../../errors/transient-error.ts';
import type { Job } from '../../jobs/job-runner.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import { senderOf } from '../../operator-sender/operator-sender-deps.ts';
import { findOperatorTxByKey } from '../../operator-sender/operator-transactions-repository.ts';
import { describeRevert } from '../../operator-sender/revert-reason.ts';
import { type SubmitDeps, submitOperatorAction } from '../../operator-sender/submit-operator-action.ts';

// docs/decisions/034 "Settlement: price kinds from the chain's own event": the server is the first
// keeper of MarketEscrow's rounds and price markets. Each tick, every price kind past its instant gets
// the call anyone can make (`settleRound`, `settlePriceMarket`, the feed's round ids in force found by
// priceSettlementCall), sent by the operator key's sender under one key per market and attempt, so a
// second tick or a second instance makes no second transaction. The contract decides the outcome; the server only
// pays the gas. One market's failure is logged with its key and counted, and the others go on; every
// market still open is looked at again next tick, so a passing fault is retried, never read as a refusal.

/**
 * The most gas a price settlement may use. Decision 031's table has a round at 142,780 and a price
 * market at 109,789 when each reading's next round is in its phase. A reading that is the last round of
 * the phase before the feed's current one costs RoundInForce the most reads (the phase, the round, its
 * missing next one, the phase's aggregator, its code and its latest round, the current phase's first):
 * test/price-keeper.test.ts measures a winning round whose lock is such a reading and whose close is
 * the new phase's latest at 159,276 gas on the dev feeds, and holds it, with the sender's 20 % above
 * the estimate, under this cap. (A round with both readings in the phase before reads the same
 * accounts warm and refunds, writing less.) Chainlink's proxies and access-controlled aggregators on
 * BSC cost more per read than the dev feeds; the rest of the cap is for them. The sender signs at its
 * estimate plus 20 %, never above this, and sends nothing estimated above it.
 */
export const PRICE_SETTLEMENT_GAS_CAP = 250_000n;

export type PriceKeeperDeps = {
  chain: PublicClient;
  chainId: number;
  /** MarketEscrow's address. */
  escrow: Address;
  /** The operator key's submit: its lane, its database and metrics. */
  sender: SubmitDeps;
  /** The keys of the rounds and price markets whose instant (a round's close, a market's deadline) is past at `now`, not known settled. */
  listDue(now: Date): Promise<readonly Hex[]>;
  now: () => Date;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  metrics?: Pick<Metrics, 'countSettlementFailure'>;
};

/**
 * One tick's markets by what became of them: a settlement queued now, one queued before (in the
 * outbox), already settled on chain (by anyone), waiting (its instant not past on chain, or the feed
 * has no round for it yet), or failed (logged and counted; looked at again next tick).
 */
export type PriceKeeperSummary = {
  queued: number;
  inOutbox: number;
  settled: number;
  waiting: number;
  failed: number;
};

type MarketStep = Exclude<keyof PriceKeeperSummary, 'failed'>;

/**
 * How many times a market's settlement is queued again after the sender failed it (a broadcast
 * refused, a receipt reverted for a reason the chain no longer shows): past that the keeper logs and
 * counts it every tick, and the market waits for anyone's call or its escape.
 */
export const MAX_PRICE_SETTLEMENT_ATTEMPTS = 5;

/**
 * The operator action's idempotency key of a market's price settlement: one per market and attempt,
 * so a second tick or a second instance makes no second transaction, and only a failed one is
 * followed by the next attempt.
 */
export function priceSettlementActionKey(chainId: number, escrow: Address, market: Hex, attempt = 0): string {
  return `price-settlement:${chainId}:${escrow.toLowerCase()}:${market.toLowerCase()}:${attempt}`;
}

/** One tick: every due market on its own, in the order `listDue` gives them. */
export async function keepPriceSettlements(deps: PriceKeeperDeps): Promise<PriceKeeperSummary> {
  const summary: PriceKeeperSummary = { queued: 0, inOutbox: 0, settled: 0, waiting: 0, failed: 0 };
  const due = await deps.listDue(deps.now());
  for (const market of due) {
    try {
      summary[await keepMarket(deps, market)] += 1;
    } catch (error) {
      summary.failed += 1;
      deps.metrics?.countSettlementFailure('step_failed');
      const fields = { err: error, marketKey: market, reason: describeRevert(error, marketEscrowAbi) };
      if (isTransientError(error)) {
        deps.log?.warn(
          fields,
          'price settlement could not be read or queued (a passing fault); retried next tick',
        );
      } else {
        deps.log?.error(fields, 'price settlement failed; retried next tick');
      }
    }
  }
  return summary;
}

export function createPriceKeeperJob(deps: PriceKeeperDeps, intervalMs = 2_000): Job {
  return {
    name: 'price-keeper',
    intervalMs,
    async run() {
      await keepPriceSettlements(deps);
    },
  };
}

/**
 * A market's settlement, if it can be made now: read from the chain (a market no longer open was
 * settled, by us or anyone; one whose instant the chain has not passed, or whose feed has no round in
 * force yet, waits), then queued unless the outbox has it on its way. The call is estimated first, so a
 * call that reverts is logged and tried again next tick instead of spending an attempt.
 */
async function keepMarket(deps: PriceKeeperDeps, market: Hex): Promise<MarketStep> {
  const call = await priceSettlementCall(deps.chain, deps.escrow, market);
  if (!('functionName' in call)) {
    switch (call.wait) {
      case 'not_open':
        return 'settled';
      case 'not_closed':
        return 'waiting';
      case 'no_round':
        deps.log?.warn(
          { marketKey: market, reason: call.reason },
          'price settlement waits: the feed has no round in force at its instant yet',
        );
        return 'waiting';
      case 'not_a_price_kind':
        throw new Error(`market ${market} is not a round or a price market of escrow ${deps.escrow}`);
    }
  }
  // The market is still open on chain, so every earlier action failed or is on its way.
  let key: string | undefined;
  let lastFailure: string | null = null;
  for (let attempt = 0; attempt < MAX_PRICE_SETTLEMENT_ATTEMPTS && key === undefined; attempt++) {
    const candidate = priceSettlementActionKey(deps.chainId, deps.escrow, market, attempt);
    const existing = await findOperatorTxByKey(deps.sender.db, candidate);
    if (!existing) key = candidate;
    else if (existing.status !== 'failed') return 'inOutbox';
    else lastFailure = existing.lastError ?? 'no error recorded';
  }
  if (key === undefined) {
    throw new Error(
      `its settlement failed ${MAX_PRICE_SETTLEMENT_ATTEMPTS} times (last: ${lastFailure}); the market stays open until anyone settles it`,
    );
  }

  const data = encodeSettlement(call);
  const gas = await deps.chain.estimateGas({ account: senderOf(deps.sender), to: deps.escrow, data });
  if (gas > PRICE_SETTLEMENT_GAS_CAP) {
    throw new Error(
      `its settlement is estimated at ${gas} gas, above the cap of ${PRICE_SETTLEMENT_GAS_CAP}`,
    );
  }
  const action = await submitOperatorAction(deps.sender, {
    key,
    to: deps.escrow,
    data,
    gasCap: PRICE_SETTLEMENT_GAS_CAP,
  });
  deps.log?.info(
    {
      marketKey: market,
      operatorTxId: action.id,
      call: call.functionName,
      args: call.args.slice(1).map(String),
    },
    'price settlement queued',
  );
  return 'queued';
}

function encodeSettlement(call: PriceSettlementCall): Hex {
  return call.functionName === 'settleRound'
    ? encodeFunctionData({ abi: marketEscrowAbi, functionName: 'settleRound', args: call.args })
    : encodeFunctionData({ abi: marketEscrowAbi, functionName: 'settlePriceMarket', args: call.args });
}
