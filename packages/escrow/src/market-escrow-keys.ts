import { type Address, encodeAbiParameters, type Hex, keccak256 } from 'viem';

// The keys of MarketEscrow's markets (docs/decisions/031-an-escrow-that-knows-what-it-settles.md), as
// its `roundKey` and `marketKey` compute them: every key is in its kind's namespace, a round's is its
// terms', a created market's is bound to its creator. Clients compute them here rather than asking.

/** `MarketEscrow.Kind`: what a market is, by its code on chain. */
export const MARKET_KIND = { round: 1, priceMarket: 2, judged: 3 } as const;
export type MarketKind = keyof typeof MARKET_KIND;

/** The key of `coin`'s round from `lockAt` to `closeAt` (unix seconds): the same for every bettor. */
export function roundKey(coin: number, lockAt: number, closeAt: number): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'uint8' }, { type: 'uint8' }, { type: 'uint40' }, { type: 'uint40' }],
      [MARKET_KIND.round, coin, lockAt, closeAt],
    ),
  );
}

/** The key of a market `creator` created under `id`: nobody else's creation can land on it. */
export function createdMarketKey(kind: 'priceMarket' | 'judged', creator: Address, id: Hex): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'uint8' }, { type: 'address' }, { type: 'bytes32' }],
      [MARKET_KIND[kind], creator, id],
    ),
  );
}
