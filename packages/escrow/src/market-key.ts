import { encodeAbiParameters, type Hex, keccak256 } from 'viem';

/**
 * The escrow's key of a market: its id with its close (`PredictionEscrow.marketKey`). The close is part
 * of the key so nobody can open a market under a guessable id with another deadline.
 */
export function marketKey(market: Hex, closesAt: number): Hex {
  return keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint40' }], [market, closesAt]));
}
