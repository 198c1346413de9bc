import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { type Address, type Hex, parseEventLogs } from 'viem';
import type { ChainTools } from './chain-tools.ts';

// What the chain says happened on the escrow (decision 026): every event of the contract on the
// canonical chain, read afresh from block 0 each time (a reorg rewrites them; the local chain is
// short), with the contract's balance and liabilities, each market's state and each stake's slot.
// Every stake lives here; the operator ledger counts only the operator key's gas.

export type EscrowDeposit = {
  stakeId: bigint;
  market: string;
  owner: string;
  amount: bigint;
  txHash: string;
  kind: number;
};
/** A stake that left the contract: Claimed or Refunded (credited: its push failed, the owner's credit). */
export type EscrowStakeOut = {
  stakeId: bigint;
  market: string;
  owner: string;
  kind: 'claimed' | 'refunded';
  amount: bigint;
  credited: boolean;
  txHash: string;
};
export type EscrowSettlement = {
  market: string;
  kind: 'settled' | 'voided';
  payoutTotal: bigint;
  fee: bigint;
  txHash: string;
};
export type EscrowMarketState = {
  pool: bigint;
  state: number;
  payoutTotal: bigint;
  paid: bigint;
  fee: bigint;
};

export type EscrowView = {
  address: string;
  head: bigint;
  balance: bigint;
  liabilities: bigint;
  deposits: EscrowDeposit[];
  outs: EscrowStakeOut[];
  settlements: EscrowSettlement[];
  withdrawn: bigint;
  feesCollected: bigint;
  swept: bigint;
  /** markets(key) at the head, for every key with a deposit. */
  markets: Map<string, EscrowMarketState>;
  /** stakes(id) at the head is zero (spent), for every stake paid out or refunded. */
  spent: Map<bigint, boolean>;
};

export const ESCROW_STATE = { none: 0, open: 1, settled: 2, refunding: 3 } as const;

export function createEscrowLedger(chain: ChainTools, escrowAddress: Address) {
  const address = escrowAddress.toLowerCase();
  const contract = { address: escrowAddress, abi: predictionEscrowAbi } as const;
  const client = chain.publicClient;

  return {
    address,
    /** The escrow as of `head` (the same head the operator ledger read to). */
    async view(head: bigint): Promise<EscrowView> {
      const logs = await chain.publicClient.getLogs({ address: escrowAddress, fromBlock: 0n, toBlock: head });
      const events = parseEventLogs({ abi: predictionEscrowAbi, logs });
      const deposits: EscrowDeposit[] = [];
      const outs: EscrowStakeOut[] = [];
      const settlements: EscrowSettlement[] = [];
      const credited = new Set<string>();
      let withdrawn = 0n;
      let feesCollected = 0n;
      let swept = 0n;
      for (const event of events) {
        const txHash = (event.transactionHash ?? '').toLowerCase();
        switch (event.eventName) {
          case 'Deposited':
            deposits.push({
              stakeId: event.args.stakeId,
              market: event.args.market.toLowerCase(),
              owner: event.args.owner.toLowerCase(),
              amount: event.args.amount,
              txHash,
              kind: event.args.kind,
            });
            break;
          case 'Claimed':
          case 'Refunded':
            outs.push({
              stakeId: event.args.stakeId,
              market: event.args.market.toLowerCase(),
              owner: event.args.owner.toLowerCase(),
              kind: event.eventName === 'Claimed' ? 'claimed' : 'refunded',
              amount: event.args.amount,
              credited: false,
              txHash,
            });
            break;
          case 'Credited':
            credited.add(`${txHash}:${event.args.stakeId}`);
            break;
          case 'Withdrawn':
            withdrawn += event.args.amount;
            break;
          case 'FeeCollected':
            feesCollected += event.args.amount;
            break;
          case 'ExcessSwept':
            swept += event.args.amount;
            break;
          case 'Settled':
            settlements.push({
              market: event.args.market.toLowerCase(),
              kind: 'settled',
              payoutTotal: event.args.payoutTotal,
              fee: event.args.fee,
              txHash,
            });
            break;
          case 'Voided':
            settlements.push({
              market: event.args.market.toLowerCase(),
              kind: 'voided',
              payoutTotal: 0n,
              fee: 0n,
              txHash,
            });
            break;
          default:
            break;
        }
      }
      for (const out of outs) out.credited = credited.has(`${out.txHash}:${out.stakeId}`);

      const markets = new Map<string, EscrowMarketState>();
      for (const key of new Set(deposits.map((d) => d.market))) {
        const m = await client.readContract({
          ...contract,
          functionName: 'markets',
          args: [key as Hex],
          blockNumber: head,
        });
        markets.set(key, { pool: m[0], state: m[3], payoutTotal: m[7], paid: m[8], fee: m[9] });
      }
      const spent = new Map<bigint, boolean>();
      for (const out of outs) {
        const hash = await client.readContract({
          ...contract,
          functionName: 'stakes',
          args: [out.stakeId],
          blockNumber: head,
        });
        spent.set(out.stakeId, BigInt(hash) === 0n);
      }
      return {
        address,
        head,
        balance: await chain.publicClient.getBalance({ address: escrowAddress, blockNumber: head }),
        liabilities: await client.readContract({
          ...contract,
          functionName: 'liabilities',
          blockNumber: head,
        }),
        deposits,
        outs,
        settlements,
        withdrawn,
        feesCollected,
        swept,
        markets,
        spent,
      };
    },
  };
}

export type EscrowLedger = ReturnType<typeof createEscrowLedger>;
