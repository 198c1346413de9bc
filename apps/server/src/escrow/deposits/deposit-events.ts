import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { type Address, getAbiItem, type Hash, type Hex, type Log, parseEventLogs } from 'viem';

// docs/architecture.md "Payment verification", deposits: what a `Deposited` event of the escrow says, read
// the one way both the verifier (verify-deposit.ts) and the scan (scan-deposits.ts) read it.

/** The escrow's `Deposited` event, for a log filter. */
export const depositedEvent = getAbiItem({ abi: predictionEscrowAbi, name: 'Deposited' });
/** The escrow's `Disputed` event: a deposit that sent its market's pending settlement back (a flag's bond). */
export const disputedEvent = getAbiItem({ abi: predictionEscrowAbi, name: 'Disputed' });

/**
 * One deposit as its event states it. The owner and the amount are the event's: a smart account or a
 * batch deposits from inside a call, so the transaction's own sender and value say nothing about it.
 */
export type DepositEvent = {
  txHash: Hash;
  stakeId: bigint;
  /** Whoever called `deposit`: an EOA, a Safe, an EIP-7702 account. Its payouts go back to it. */
  owner: Address;
  /** The contract's market key, keccak256(abi.encode(market id, closesAt)) (`@pm/escrow/market-key`). */
  key: Hex;
  amountWei: bigint;
  /** The codes of `@pm/escrow/deposit-terms`, as sent: the contract does not check them. */
  kind: number;
  side: number;
  terms: Hex;
  blockNumber: bigint;
  blockHash: Hash;
  /** The canonical block's own timestamp: what deadlines are compared with. */
  blockTime: Date;
  logIndex: number;
  /**
   * Set when the same logs hold the escrow's `Disputed` event of this stake (decision 026, "Flag
   * bonds"): the deposit sent its market's pending settlement back; the count of disputes so far.
   * Null otherwise: an ordinary stake (or logs read without the `Disputed` events).
   */
  disputes: number | null;
};

/**
 * The deposits among `logs` that the escrow at `escrowAddress` emitted, in the order given. Only that
 * address counts: any contract can emit an event of the same shape. A log the node marks `removed`
 * (its block left the chain) is not a deposit.
 */
export function decodeDeposits(
  logs: readonly Log<bigint, number, false>[],
  escrowAddress: Address,
  blockTime: (blockNumber: bigint) => Date,
): DepositEvent[] {
  const escrow = escrowAddress.toLowerCase();
  const ours = logs.filter((log) => !log.removed && log.address.toLowerCase() === escrow);
  const disputes = new Map(
    parseEventLogs({ abi: predictionEscrowAbi, eventName: 'Disputed', logs: ours, strict: true }).map(
      (log) => [`${log.args.market.toLowerCase()}:${log.args.stakeId}`, log.args.disputes],
    ),
  );
  return parseEventLogs({ abi: predictionEscrowAbi, eventName: 'Deposited', logs: ours, strict: true }).map(
    (log) => ({
      txHash: log.transactionHash,
      stakeId: log.args.stakeId,
      owner: log.args.owner,
      key: log.args.market.toLowerCase() as Hex,
      amountWei: log.args.amount,
      kind: log.args.kind,
      side: log.args.side,
      terms: log.args.terms.toLowerCase() as Hex,
      blockNumber: log.blockNumber,
      blockHash: log.blockHash,
      blockTime: blockTime(log.blockNumber),
      logIndex: log.logIndex,
      disputes: disputes.get(`${log.args.market.toLowerCase()}:${log.args.stakeId}`) ?? null,
    }),
  );
}
