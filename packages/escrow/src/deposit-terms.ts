import { encodePacked, type Hex, isHex, keccak256 } from 'viem';

// docs/decisions/026-app-on-the-escrow.md: what a `PredictionEscrow.deposit` call says, and how the
// app codes it. The contract treats kind, side, terms and ref as opaque bytes it only emits; the server
// reads them back from the `Deposited` event and holds them to today's refusal rules. This module is
// the one place the codes live: the web, the examples, the pay-and-post driver and the server all use it.

/** What a deposit pays for. 0 is never a kind, so a zeroed field reads as "unknown", not as a bet. */
export const DEPOSIT_KIND = { create: 1, bet: 2, round: 3, flag: 4 } as const;
export type DepositKind = keyof typeof DEPOSIT_KIND;

/** The side a deposit takes: YES/bull is 1, NO/bear is 2; a flag bond takes none (0). */
export const SIDE_CODE = { YES: 1, NO: 2, bull: 1, bear: 2 } as const;

const ZERO_BYTES32: Hex = `0x${'0'.repeat(64)}`;
const BYTES32 = /^0x[0-9a-f]{64}$/;

/**
 * A deposit as the app means it. `market` is the escrow id of the market (a bet's or a flag's: the one
 * its creation deposit chose, published with the market) or of the round (`roundMarketId`); `closesAt`
 * is the market's deadline or the round's lock, in unix seconds: together they make the contract's key.
 */
export type DepositTerms =
  /** A creation: `market` is a fresh id the creator picks (`newMarketId`), `contentHash` what it commits to. */
  | { kind: 'create'; market: Hex; closesAt: number; contentHash: Hex; prediction: 'YES' | 'NO' }
  | { kind: 'bet'; market: Hex; closesAt: number; prediction: 'YES' | 'NO' }
  | { kind: 'round'; market: Hex; closesAt: number; position: 'bull' | 'bear' }
  /** A flag bond: into the market's own pool, while its settlement is pending (decision 026). */
  | { kind: 'flag'; market: Hex; closesAt: number };

/** The arguments of `deposit(market, closesAt, kind, side, terms, ref)`, in order. */
export type DepositArgs = readonly [
  market: Hex,
  closesAt: number,
  kind: number,
  side: number,
  terms: Hex,
  ref: Hex,
];

/** The escrow id of oracle round `epoch`: derived, so every client computes the same one. */
export function roundMarketId(epoch: number): Hex {
  if (!Number.isSafeInteger(epoch) || epoch <= 0)
    throw new RangeError(`epoch must be a positive integer, got ${epoch}`);
  return keccak256(encodePacked(['string', 'uint64'], ['bnbpredict.round', BigInt(epoch)]));
}

/**
 * What a bet on oracle round `epoch` deposits for: the round's id, its lock (`lockTime`, unix seconds,
 * as GET /api/oracle/rounds states it) as the close, and the side. The server, the web and the
 * pay-and-post driver all build a round's terms here.
 */
export function roundDepositTerms(
  epoch: number,
  lockTime: number,
  position: 'bull' | 'bear',
): Extract<DepositTerms, { kind: 'round' }> {
  return { kind: 'round', market: roundMarketId(epoch), closesAt: lockTime, position };
}

/**
 * A market's close in unix seconds, from its deadline: the close its escrow key hashes and its deposits
 * name. Every market on the escrow stores the very close its creation deposit named (closesAt × 1000),
 * so this is exact for it. It rounds down rather than refusing a fraction: a market made before the
 * escrow may hold milliseconds, has no key to match, and its page still shows a close.
 */
export function marketClosesAt(deadline: Date): number {
  return Math.floor(deadline.getTime() / 1000);
}

/** A market as the API publishes it for a deposit: its escrow id and close (`escrowId`, `closesAt`). */
export type EscrowMarket = { escrowId: Hex; closesAt: number };

/**
 * What a flag's bond deposits for (decision 026, "Flag bonds"): kind flag, no side, into the market's own
 * key (its escrow id and deadline, as the API publishes them: `escrowId`, `closesAt`). Sent while the
 * market's settlement is pending, at least the contract's `disputeBond(key)`: the contract makes it a
 * dispute. The web, the pay-and-post driver and the server all build a flag's terms here.
 */
export function flagBondTerms(market: EscrowMarket): Extract<DepositTerms, { kind: 'flag' }> {
  return { kind: 'flag', market: bytes32(market.escrowId, 'escrowId'), closesAt: market.closesAt };
}

/**
 * What a bet on a market deposits for: the market's escrow id and close (GET /api/markets/:id's
 * `escrowId` and `closesAt`) and the side. The server, the web and the pay-and-post driver build it here.
 */
export function marketBetTerms(
  market: EscrowMarket,
  prediction: 'YES' | 'NO',
): Extract<DepositTerms, { kind: 'bet' }> {
  return { kind: 'bet', market: bytes32(market.escrowId, 'escrowId'), closesAt: market.closesAt, prediction };
}

/**
 * What a market's creation deposits for: the fresh escrow id its creator picked (`newMarketId`), the
 * close it asks for (its deadline), the content hash the market commits to and the creator's side.
 */
export function marketCreateTerms(input: {
  escrowId: Hex;
  closesAt: number;
  contentHash: Hex;
  prediction: 'YES' | 'NO';
}): Extract<DepositTerms, { kind: 'create' }> {
  return {
    kind: 'create',
    market: bytes32(input.escrowId, 'escrowId'),
    closesAt: input.closesAt,
    contentHash: bytes32(input.contentHash, 'contentHash'),
    prediction: input.prediction,
  };
}

/** A fresh escrow id for a market being created: 32 random bytes (the server refuses one already used). */
export function newMarketId(): Hex {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** The call's arguments for these terms; `ref` is a client reference the event echoes (default 0). */
export function depositArgs(terms: DepositTerms, ref: Hex = ZERO_BYTES32): DepositArgs {
  const market = bytes32(terms.market, 'market');
  if (!Number.isSafeInteger(terms.closesAt) || terms.closesAt <= 0 || terms.closesAt >= 2 ** 40) {
    throw new RangeError(`closesAt must be unix seconds, got ${terms.closesAt}`);
  }
  const reference = bytes32(ref, 'ref');
  switch (terms.kind) {
    case 'create':
      return [
        market,
        terms.closesAt,
        DEPOSIT_KIND.create,
        SIDE_CODE[terms.prediction],
        bytes32(terms.contentHash, 'contentHash'),
        reference,
      ];
    case 'bet':
      return [market, terms.closesAt, DEPOSIT_KIND.bet, SIDE_CODE[terms.prediction], ZERO_BYTES32, reference];
    case 'round':
      return [market, terms.closesAt, DEPOSIT_KIND.round, SIDE_CODE[terms.position], ZERO_BYTES32, reference];
    case 'flag':
      return [market, terms.closesAt, DEPOSIT_KIND.flag, 0, ZERO_BYTES32, reference];
  }
}

/**
 * The terms a `Deposited` event states, or null for any combination the app never sends (an unknown
 * kind or side, terms on a bet, a side on a flag): such a deposit is refused and refunded to its sender.
 * `market` here is the event's raw id, before the contract's keying; pass the deposit's own arguments.
 */
export function depositTerms(args: {
  market: Hex;
  closesAt: number;
  kind: number;
  side: number;
  terms: Hex;
}): DepositTerms | null {
  const market = args.market.toLowerCase() as Hex;
  const terms = args.terms.toLowerCase() as Hex;
  if (!BYTES32.test(market) || !BYTES32.test(terms)) return null;
  const closesAt = args.closesAt;
  const noTerms = terms === ZERO_BYTES32;
  const prediction = args.side === 1 ? 'YES' : args.side === 2 ? 'NO' : null;
  const position = args.side === 1 ? 'bull' : args.side === 2 ? 'bear' : null;
  switch (args.kind) {
    case DEPOSIT_KIND.create:
      return prediction && !noTerms
        ? { kind: 'create', market, closesAt, contentHash: terms, prediction }
        : null;
    case DEPOSIT_KIND.bet:
      return prediction && noTerms ? { kind: 'bet', market, closesAt, prediction } : null;
    case DEPOSIT_KIND.round:
      return position && noTerms ? { kind: 'round', market, closesAt, position } : null;
    case DEPOSIT_KIND.flag:
      return args.side === 0 && noTerms ? { kind: 'flag', market, closesAt } : null;
    default:
      return null;
  }
}

function bytes32(value: Hex, name: string): Hex {
  const lower = value.toLowerCase();
  if (!isHex(lower) || !BYTES32.test(lower)) throw new RangeError(`${name} must be 32 bytes of hex`);
  return lower as Hex;
}
