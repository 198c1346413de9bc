import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import type { Address, Hex, PublicClient } from 'viem';
import { AppError } from '../../errors/app-error.ts';
import { MARKET_STATE, readEscrowMarket } from '../escrow-chain.ts';

// Decision 026, "Flag bonds": a flag's bond is a dispute deposit, and the bond is the contract's own
// (`disputeBond(key)` = max(disputeBondMin, pool × disputeBondBps / 10,000), earlier bonds in the pool
// included). The server has no bond setting of its own (FLAG_BOND_* are gone): it reads the contract.
// Core's flagBondWei is the same rule (flag-disputes.test.ts holds the two together on the local chain).

/** The contract's bond parameters: fixed at deploy (immutables). */
export type DisputeBondParams = { minWei: bigint; bps: number };

export type DisputeBondReader = {
  /**
   * The bond a flag deposits now, or null when the market's settlement is not pending on chain at
   * `nowS` (not posted yet, already disputed, or its payouts open): a deposit then reverts.
   */
  disputableBond(marketKey: Hex, nowS: number): Promise<bigint | null>;
  /** `disputeBondMin` and `disputeBondBps`, read once (they never change) for GET /api/config. */
  params(): Promise<DisputeBondParams>;
};

/** The reader of the configured escrow (ESCROW_ADDRESS), or null without one: then no flag is taken. */
export function disputeBondReaderOf(
  chain: PublicClient,
  escrow: Address | null | undefined,
): DisputeBondReader | null {
  return escrow ? createDisputeBondReader(chain, escrow) : null;
}

export function createDisputeBondReader(chain: PublicClient, escrow: Address): DisputeBondReader {
  let params: Promise<DisputeBondParams> | null = null;
  const read = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw new AppError('CHAIN_UNAVAILABLE', undefined, { cause: error });
    }
  };
  return {
    async disputableBond(marketKey, nowS) {
      const [market, bond] = await Promise.all([
        read(() => readEscrowMarket(chain, escrow, marketKey)),
        read(() =>
          chain.readContract({
            address: escrow,
            abi: predictionEscrowAbi,
            functionName: 'disputeBond',
            args: [marketKey],
          }),
        ),
      ]);
      return market.state === MARKET_STATE.settled && market.claimableAt > nowS ? bond : null;
    },
    params() {
      params ??= read(async () => {
        const at = { address: escrow, abi: predictionEscrowAbi } as const;
        const [minWei, bps] = await Promise.all([
          chain.readContract({ ...at, functionName: 'disputeBondMin' }),
          chain.readContract({ ...at, functionName: 'disputeBondBps' }),
        ]);
        return { minWei, bps };
      }).catch((error: unknown) => {
        // A failed read is tried again next time, never kept.
        params = null;
        throw error;
      });
      return params;
    },
  };
}
