import { hexToBytes, parseEther, parseEventLogs, type TransactionReceipt } from 'viem';
import { predictionEscrowAbi } from '../src/prediction-escrow.gen.ts';
import { BETTORS, type EscrowWorld, HOUR, OPERATOR, type StakeRef } from './escrow-fixture.ts';

// The gas of each money call on the local chain (Hardhat, Prague): what `test/gas-report.test.ts`
// holds to decision 025's targets and what `npm run bench` prints (docs/benchmarks.md "Escrow gas").

/** Decision 025's target for a deposit (a dispute included) and a claim. */
export const GAS_TARGET = 80_000n;

export type GasRow = {
  name: string;
  gas: bigint;
  /** `max`: at most GAS_TARGET; `flat`: a settlement, the same for 2 bettors or 100. */
  target?: 'max' | 'flat';
};

export type GasReport = {
  rows: GasRow[];
  /** A settlement's gas beyond its calldata, for 2 and 100 bettors: equal when it does not grow. */
  settleExecution: { small: bigint; large: bigint };
};

/**
 * A transaction's gas less its calldata's (EIP-2028: 4 per zero byte, 16 per other byte): the root
 * and the totals are different bytes in every settlement, so their zero bytes vary by chance and
 * with them the gas used, by a few dozen gas; what the contract does for them does not.
 */
async function gasBeyondCalldata(world: EscrowWorld, receipt: TransactionReceipt): Promise<bigint> {
  const { input } = await world.publicClient.getTransaction({ hash: receipt.transactionHash });
  const calldataGas = hexToBytes(input).reduce((sum, byte) => sum + (byte === 0 ? 4n : 16n), 0n);
  return receipt.gasUsed - calldataGas;
}

/** A closed market with `count` stakes of 0.01 BNB, alternating sides, settled so side 1 wins. */
async function settledMarket(world: EscrowWorld, name: string, count: number) {
  const market = await world.openMarket(name);
  const stakes: StakeRef[] = [];
  const depositGas: bigint[] = [];
  for (let i = 0; i < count; i++) {
    const bettor = BETTORS[i % BETTORS.length] ?? BETTORS[0];
    const hash = await world
      .as(bettor)
      .write.deposit(
        [market.id, market.closesAt, 1, (i % 2) + 1, `0x${'11'.repeat(32)}`, `0x${'22'.repeat(32)}`],
        { value: parseEther('0.01') },
      );
    const receipt = await world.mined(hash);
    const [event] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Deposited' });
    if (!event) throw new Error('no deposit');
    stakes.push(event.args);
    depositGas.push(receipt.gasUsed);
  }
  await world.travel(HOUR);
  const winners = stakes.filter((_, i) => i % 2 === 0);
  const share = (parseEther('0.01') * BigInt(count)) / BigInt(winners.length);
  const { tree, receipt } = await world.settle(
    market.key,
    winners.map((stake) => ({ stakeId: stake.stakeId, amount: share })),
  );
  await world.travel(600);
  const settleExecutionGas = await gasBeyondCalldata(world, receipt);
  return { winners, share, tree, depositGas, settleGas: receipt.gasUsed, settleExecutionGas };
}

/** Deposits, settlements of 2 and 100 bettors, claims, a refused deposit's refund and three disputes. */
export async function measureEscrowGas(world: EscrowWorld): Promise<GasReport> {
  const small = await settledMarket(world, 'gas-small', 2);
  const large = await settledMarket(world, 'gas-large', 100);
  const claimGas = async (market: typeof small, index: number) => {
    const stake = market.winners[index];
    if (!stake) throw new Error('no winner');
    const receipt = await world.mined(
      world
        .as(BETTORS[9])
        .write.claim([{ stake, payout: market.share, proof: market.tree.proof(stake.stakeId) }]),
    );
    return receipt.gasUsed;
  };
  const claimSmall = await claimGas(small, 0);
  const claimLarge = await claimGas(large, 0);
  const claimLargeNext = await claimGas(large, 1);

  const refundMarket = await world.openMarket('gas-refund');
  const refunded = await world.deposit(BETTORS[0], refundMarket, parseEther('0.01'));
  const refundGas = (await world.mined(world.as(OPERATOR).write.refundStake([refunded]))).gasUsed;

  // A flag's bond into a pending settlement (a dispute), then the market settled again, three times.
  const disputed = await world.openMarket('gas-dispute');
  const backed = await world.deposit(BETTORS[0], disputed, parseEther('0.01'));
  await world.deposit(BETTORS[1], disputed, parseEther('0.01'), 2);
  await world.travel(HOUR);
  const disputeGas: bigint[] = [];
  for (let i = 0; i < 3; i++) {
    const { pool } = await world.market(disputed.key);
    await world.settle(disputed.key, [{ stakeId: backed.stakeId, amount: pool }]);
    const bond = await world.read.disputeBond([disputed.key]);
    disputeGas.push((await world.dispute(BETTORS[2 + i] ?? BETTORS[2], disputed, bond)).receipt.gasUsed);
  }

  const [firstDeposit = 0n, secondDeposit = 0n] = large.depositGas;
  const allDeposits = [...small.depositGas, ...large.depositGas];
  const rows: GasRow[] = [
    { name: 'deposit, first of its market', gas: firstDeposit, target: 'max' },
    { name: 'deposit, later', gas: secondDeposit, target: 'max' },
    {
      name: 'deposit, largest seen',
      gas: allDeposits.reduce((max, gas) => (gas > max ? gas : max), 0n),
      target: 'max',
    },
    { name: 'settle, 2 bettors', gas: small.settleGas },
    { name: 'settle, 100 bettors', gas: large.settleGas, target: 'flat' },
    { name: 'claim, list of 1', gas: claimSmall, target: 'max' },
    { name: 'claim, list of 50 (first of the market)', gas: claimLarge, target: 'max' },
    { name: 'claim, list of 50 (later)', gas: claimLargeNext, target: 'max' },
    { name: 'refundStake (a refused deposit)', gas: refundGas },
    { name: 'deposit, a dispute (the first of its market)', gas: disputeGas[0] ?? 0n, target: 'max' },
    { name: 'deposit, a dispute (the second)', gas: disputeGas[1] ?? 0n, target: 'max' },
    { name: 'deposit, a dispute (the third)', gas: disputeGas[2] ?? 0n, target: 'max' },
  ];
  return {
    rows,
    settleExecution: { small: small.settleExecutionGas, large: large.settleExecutionGas },
  };
}

/** Whether a row meets its target (a row without one always does). */
export function gasRowMet(row: GasRow, report: GasReport): boolean {
  if (row.target === 'max') return row.gas <= GAS_TARGET;
  if (row.target === 'flat') return report.settleExecution.large === report.settleExecution.small;
  return true;
}

/** The rows as the test and the bench print them. */
export function formatGasReport(report: GasReport): string {
  return `PredictionEscrow gas:\n${report.rows
    .map((row) => `  ${row.name.padEnd(44)} ${row.gas.toString().padStart(7)}`)
    .join('\n')}`;
}
