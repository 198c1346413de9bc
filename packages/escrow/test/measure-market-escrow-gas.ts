import { type Hex, hexToBytes, parseEther, type TransactionReceipt } from 'viem';
import {
  BETTORS,
  BNB,
  BTC,
  type MarketEscrowWorld,
  NO,
  OPERATOR,
  PAYOUT_DELAY,
  refOf,
  STRANGER,
  type StakeRef,
  stakeOf,
  YES,
} from './market-escrow-world.ts';

// The gas of each MarketEscrow call on the local chain (Hardhat, Prague), against its targets
// (docs/decisions/031-an-escrow-that-knows-what-it-settles.md): a bet into an open market or round and a
// claim at most 80k each; a price settlement at most 150k and the same for 2 bettors or 60; a judged
// settlement the same for any number of bettors.

export const DEPOSIT_OR_CLAIM_TARGET = 80_000n;
export const PRICE_SETTLEMENT_TARGET = 150_000n;

export type MarketGasRow = {
  name: string;
  gas: bigint;
  /** The most it may cost, when it has a target. */
  most?: bigint;
};

export type MarketGasReport = {
  rows: MarketGasRow[];
  /** Each settlement's gas beyond its calldata, for few and many bettors: equal when it does not grow. */
  flat: Array<{ name: string; few: bigint; many: bigint }>;
};

/** A transaction's gas less its calldata's (EIP-2028): what the contract does, not the bytes' luck. */
async function beyondCalldata(world: MarketEscrowWorld, receipt: TransactionReceipt): Promise<bigint> {
  const { input } = await world.publicClient.getTransaction({ hash: receipt.transactionHash });
  return receipt.gasUsed - hexToBytes(input).reduce((sum, byte) => sum + (byte === 0 ? 4n : 16n), 0n);
}

const bettor = (i: number) => BETTORS[i % BETTORS.length] ?? BETTORS[0];

/** A round with `count` bets of 0.01 BNB (alternating sides), priced up, settled by a stranger. */
async function settledRound(world: MarketEscrowWorld, count: number) {
  const round = await world.nextRound(BNB);
  await world.publish(BNB, 600_00000000n);
  const stakes: StakeRef[] = [];
  const receipts: TransactionReceipt[] = [];
  for (let i = 0; i < count; i++) {
    const receipt = await world.mined(
      world
        .as(bettor(i))
        .write.betRound([round.coin, round.lockAt, round.closeAt, i % 2 === 0 ? YES : NO, refOf(i)], {
          value: parseEther('0.01'),
        }),
    );
    receipts.push(receipt);
    stakes.push(stakeOf(receipt));
  }
  await world.publish(BNB, 600_00000000n, round.lockAt - 2);
  await world.publish(BNB, 601_00000000n, round.closeAt - 2);
  await world.travelTo(round.closeAt + 1);
  const settlement = await world.settleRound(round, STRANGER);
  return { round, stakes, receipts, settlement };
}

/** A judged market with `count` bets of 0.01 BNB, its YES side paid by the operator's list. */
async function settledJudged(world: MarketEscrowWorld, count: number) {
  const created = await world.createJudgedMarket(bettor(0), { amount: parseEther('0.01') });
  const stakes: StakeRef[] = [created.stake];
  const bets: TransactionReceipt[] = [];
  for (let i = 1; i < count; i++) {
    const receipt = await world.mined(
      world
        .as(bettor(i))
        .write.bet([created.key, i % 2 === 0 ? YES : NO, refOf(i)], { value: parseEther('0.01') }),
    );
    bets.push(receipt);
    stakes.push(stakeOf(receipt));
  }
  await world.travelTo(created.closesAt + 1);
  const winners = stakes.filter((stake) => stake.side === YES);
  const pool = parseEther('0.01') * BigInt(count);
  const share = pool / BigInt(winners.length);
  const { tree, receipt } = await world.settleJudged(
    created.key,
    winners.map((stake) => ({ stakeId: stake.stakeId, amount: share })),
  );
  return { created, stakes, winners, share, tree, bets, settlement: receipt };
}

export async function measureMarketEscrowGas(world: MarketEscrowWorld): Promise<MarketGasReport> {
  const fewRound = await settledRound(world, 2);
  const manyRound = await settledRound(world, 60);
  const fewJudged = await settledJudged(world, 2);
  const manyJudged = await settledJudged(world, 40);
  await world.travel(PAYOUT_DELAY);

  const firstClaim = await world.mined(
    world.as(STRANGER).write.claim([world.priceClaim(manyRound.stakes[0] as StakeRef)]),
  );
  const priceClaim = await world.mined(
    world.as(STRANGER).write.claim([world.priceClaim(manyRound.stakes[2] as StakeRef)]),
  );
  const lastWinner = manyRound.stakes.filter((stake) => stake.side === YES).at(-1) as StakeRef;
  const otherWinners = manyRound.stakes
    .filter((stake) => stake.side === YES && stake !== lastWinner)
    .slice(2);
  await world.mined(world.as(STRANGER).write.claimMany([otherWinners.map(world.priceClaim)]));
  const lastClaim = await world.mined(world.as(STRANGER).write.claim([world.priceClaim(lastWinner)]));
  const judgedWinner = manyJudged.winners[0] as StakeRef;
  const judgedClaim = await world.mined(
    world
      .as(STRANGER)
      .write.claim([
        { stake: judgedWinner, payout: manyJudged.share, proof: manyJudged.tree.proof(judgedWinner.stakeId) },
      ]),
  );

  const market = await world.createPriceMarket(bettor(0), { coin: BTC, target: 100_000_00000000n });
  const priceBet = await world.mined(
    world.as(bettor(1)).write.bet([market.key, NO, refOf(1)], { value: parseEther('0.01') }),
  );
  await world.publish(BTC, 100_001_00000000n, market.closesAt - 2);
  await world.travelTo(market.closesAt + 1);
  const priceMarketSettlement = await world.settlePriceMarket(market);

  // A dispute of a pending judged settlement.
  const disputed = await settledJudged(world, 2);
  const loser = disputed.stakes.find((stake) => stake.side === NO) as StakeRef;
  const dispute = (await world.dispute(loser)).receipt;
  const refundable = await world.createJudgedMarket(bettor(2), { amount: parseEther('0.01') });
  await world.mined(
    world.as(OPERATOR).write.settleAsRefund([refundable.key, 9, `0x${'00'.repeat(32)}` as Hex]),
  );
  const refund = await world.mined(world.as(STRANGER).write.refund([refundable.stake]));

  const rows: MarketGasRow[] = [
    { name: 'round bet, opening the round', gas: (fewRound.receipts[0] as TransactionReceipt).gasUsed },
    {
      name: 'round bet into an open round',
      gas: (manyRound.receipts[2] as TransactionReceipt).gasUsed,
      most: DEPOSIT_OR_CLAIM_TARGET,
    },
    { name: 'judged market creation (its first bet)', gas: fewJudged.created.receipt.gasUsed },
    { name: 'price market creation (its first bet)', gas: market.receipt.gasUsed },
    {
      name: 'bet into an open market',
      gas: (manyJudged.bets[1] as TransactionReceipt).gasUsed,
      most: DEPOSIT_OR_CLAIM_TARGET,
    },
    { name: 'bet into an open price market', gas: priceBet.gasUsed, most: DEPOSIT_OR_CLAIM_TARGET },
    { name: 'dispute (its bond)', gas: dispute.gasUsed },
    {
      name: 'round settlement, 60 bettors',
      gas: manyRound.settlement.gasUsed,
      most: PRICE_SETTLEMENT_TARGET,
    },
    { name: 'price market settlement', gas: priceMarketSettlement.gasUsed, most: PRICE_SETTLEMENT_TARGET },
    { name: 'judged settlement, 40 bettors', gas: manyJudged.settlement.gasUsed },
    { name: "claim of a round's first win", gas: firstClaim.gasUsed, most: DEPOSIT_OR_CLAIM_TARGET },
    { name: 'claim of a round win', gas: priceClaim.gasUsed, most: DEPOSIT_OR_CLAIM_TARGET },
    {
      name: "claim of a round's last win (its dust to the fee)",
      gas: lastClaim.gasUsed,
      most: DEPOSIT_OR_CLAIM_TARGET,
    },
    {
      name: "claim of a judged market's first win (40 bettors: a proof of 5)",
      gas: judgedClaim.gasUsed,
      most: DEPOSIT_OR_CLAIM_TARGET,
    },
    { name: 'refund', gas: refund.gasUsed, most: DEPOSIT_OR_CLAIM_TARGET },
  ];
  const flat = [
    {
      name: 'round settlement',
      few: await beyondCalldata(world, fewRound.settlement),
      many: await beyondCalldata(world, manyRound.settlement),
    },
    {
      name: 'judged settlement',
      few: await beyondCalldata(world, fewJudged.settlement),
      many: await beyondCalldata(world, manyJudged.settlement),
    },
  ];
  return { rows, flat };
}

export function formatMarketGasReport(report: MarketGasReport): string {
  const lines = report.rows.map(
    (row) =>
      `${row.name.padEnd(52)} ${row.gas.toLocaleString('en').padStart(8)}${row.most ? `  (≤ ${row.most.toLocaleString('en')})` : ''}`,
  );
  for (const row of report.flat) {
    lines.push(
      `${row.name} beyond calldata: ${row.few.toLocaleString('en')} (few) / ${row.many.toLocaleString('en')} (many)`,
    );
  }
  return lines.join('\n');
}
