import { encodeAbiParameters, type Hex, keccak256, sha256, stringToBytes } from 'viem';

// docs/decisions/026-app-on-the-escrow.md "Settlement, claims and refunds", for Predictions markets
// (judged and price markets): what the operator posts as a market's `outcome` and `verdictHash`, so
// anyone holding the market's public record (GET /api/markets/:id: its escrow key, result, the
// Evidence panel's page hashes and the verdict's analysis) recomputes the commitment on chain.

/** A market's `outcome` code on chain. YES and NO match the deposits' side codes (SIDE_CODE). */
export const MARKET_OUTCOME = { YES: 1, NO: 2, VOID: 4 } as const;
export type MarketOutcomeName = keyof typeof MARKET_OUTCOME;

/** The domain of a market's verdict hash: a market's verdict can never be read as anything else's. */
export const MARKET_VERDICT_DOMAIN = 'bnbpredict.market.verdict.v1';

const BYTES32 = /^0x[0-9a-f]{64}$/;

/** What a market's verdict commits to, as the market's record shows it. */
export type MarketVerdict = {
  /** The market's escrow key (`marketKey(escrowId, closesAt)`), 0x-hex. */
  marketKey: Hex;
  result: MarketOutcomeName;
  /**
   * The sha256 of each page the Evidence panel shows as read (its `contentSha256`, in the panel's
   * order); none for a market judged without evidence, a price market or an operator's verdict alone.
   */
  evidenceSha256: readonly string[];
  /** The verdict's analysis text (the judge's, the operator's or the price reading's), hashed here. */
  analysis: string;
};

/** sha256 of the analysis text as UTF-8: what a reader hashes to check it (`sha256sum`). */
export function analysisHash(analysis: string): Hex {
  return sha256(stringToBytes(analysis));
}

/**
 * `verdictHash` of a market: keccak256(abi.encode(string MARKET_VERDICT_DOMAIN, bytes32 marketKey,
 * uint8 outcome, bytes32[] evidenceSha256, bytes32 sha256(analysis))).
 */
export function marketVerdictHash(verdict: MarketVerdict): Hex {
  const key = verdict.marketKey.toLowerCase();
  if (!BYTES32.test(key)) throw new RangeError(`the market key must be 32 bytes of 0x-hex, got ${key}`);
  const outcome = MARKET_OUTCOME[verdict.result];
  if (outcome === undefined)
    throw new RangeError(`a market's result is YES, NO or VOID, got ${verdict.result}`);
  const pages = verdict.evidenceSha256.map((hash) => {
    const hex = (hash.startsWith('0x') ? hash : `0x${hash}`).toLowerCase();
    if (!BYTES32.test(hex)) throw new RangeError(`an evidence page hash is a sha256 (32 bytes), got ${hash}`);
    return hex as Hex;
  });
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'string' },
        { type: 'bytes32' },
        { type: 'uint8' },
        { type: 'bytes32[]' },
        { type: 'bytes32' },
      ],
      [MARKET_VERDICT_DOMAIN, key as Hex, outcome, pages, analysisHash(verdict.analysis)],
    ),
  );
}
