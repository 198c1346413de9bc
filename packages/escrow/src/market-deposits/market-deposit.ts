import { type Address, encodeFunctionData, getAddress, type Hex, isAddress } from 'viem';
import {
  DEPOSIT_BET,
  DEPOSIT_CREATE,
  DEPOSIT_DISPUTE,
  DEPOSIT_ROUND,
  MAX_COINS,
  MAX_ROUND_SPAN,
  MIN_MARKET_DEPOSIT,
  MIN_ROUND_DEPOSIT,
  MIN_ROUND_SPAN,
  SIDE_NO,
  SIDE_YES,
} from '../market-escrow-constants.ts';
import { createdMarketKey, roundKey } from '../market-escrow-keys.ts';
import { marketDepositAbi } from './market-deposit-abi.gen.ts';

// docs/decisions/034-the-app-on-market-escrow.md: the one place a MarketEscrow payment is described and
// encoded. The web's bet panels, the server's verifier, the examples and the pay-and-post driver all
// build a deposit here, so the call a wallet signs and the event the server then expects are one thing.

/** A stake as the contract stores it, named by a claim, a refund or a dispute. */
export type StakeRef = { stakeId: bigint; owner: Address; market: Hex; amount: bigint; side: number };

/** A payment into MarketEscrow, by the function it calls. Times are unix seconds. */
export type MarketDeposit =
  /** A bet on `coin`'s round from `lockAt` to `closeAt`; the first one opens the round. */
  | { kind: 'round'; coin: number; lockAt: number; closeAt: number; side: 'UP' | 'DOWN' }
  /** A price market's creation under the creator's fresh `id`, with its first bet. `target`: feed units. */
  | {
      kind: 'createPriceMarket';
      id: Hex;
      coin: number;
      target: bigint;
      above: boolean;
      closesAt: number;
      side: 'YES' | 'NO';
    }
  | { kind: 'createJudgedMarket'; id: Hex; closesAt: number; contentHash: Hex; side: 'YES' | 'NO' }
  /** A bet into an open market by its key (a round's key too: YES is UP, NO is DOWN). */
  | { kind: 'bet'; market: Hex; side: 'YES' | 'NO' }
  /** A dispute of a judged market's pending settlement by the owner of `stake`; value: `disputeBond`. */
  | { kind: 'dispute'; stake: StakeRef };

/** One transaction's call: to the escrow, the stake as its value. */
export type MarketDepositCall = { to: Address; value: bigint; data: Hex };

/** The contract's side code of a deposit's side. */
export const SIDE_CODE = { YES: SIDE_YES, UP: SIDE_YES, NO: SIDE_NO, DOWN: SIDE_NO } as const;

const ROUND_SIDES: readonly string[] = ['UP', 'DOWN'];
const MARKET_SIDES: readonly string[] = ['YES', 'NO'];
const ZERO_BYTES32: Hex = `0x${'0'.repeat(64)}`;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
const UINT40_LIMIT = 2 ** 40;
const INT192_MAX = 2n ** 191n - 1n;
const UINT256_MAX = 2n ** 256n - 1n;

/**
 * The call that pays `amount` wei into `escrow` for `deposit` (`ref`: a client reference its event
 * echoes, default 0). Throws RangeError, before encoding anything, for a deposit the contract can never
 * take: a time that is not uint40 seconds, a round span outside its bounds, a coin beyond MAX_COINS, an
 * id that is not 32 bytes, a target of 0 or less, an unknown side, or an amount below the deposit's
 * minimum (a round's 0.01 BNB; a creation's or a bet's 0.005 BNB, the least any market takes; a
 * dispute's more than 0, its exact bond being the market's `disputeBond`).
 */
export function marketDepositCall(
  escrow: Address,
  deposit: MarketDeposit,
  amount: bigint,
  ref: Hex = ZERO_BYTES32,
): MarketDepositCall {
  const reference = bytes32(ref, 'ref');
  const least = minimumOf(deposit);
  if (amount < least)
    throw new RangeError(`a ${deposit.kind} deposit is at least ${least} wei, got ${amount}`);
  return { to: escrow, value: amount, data: encodeDeposit(deposit, reference) };
}

/**
 * The market key the deposit's `Deposited` event carries, when `sender` sends it: a round's from its
 * terms, a creation's bound to its creator, a bet's and a dispute's the market they name.
 */
export function marketDepositKey(deposit: MarketDeposit, sender: Address): Hex {
  switch (deposit.kind) {
    case 'round':
      checkRound(deposit);
      return roundKey(deposit.coin, deposit.lockAt, deposit.closeAt);
    case 'createPriceMarket':
      return createdMarketKey('priceMarket', address(sender, 'sender'), bytes32(deposit.id, 'id'));
    case 'createJudgedMarket':
      return createdMarketKey('judged', address(sender, 'sender'), bytes32(deposit.id, 'id'));
    case 'bet':
      return bytes32(deposit.market, 'market');
    case 'dispute':
      return bytes32(deposit.stake.market, 'stake.market');
  }
}

/**
 * The `kind` codes a deposit's event may carry: a bet into a round's key is the contract's round bet
 * (`bet` picks the code by the market's kind), so a `bet` is either.
 */
export function marketDepositKinds(deposit: MarketDeposit): readonly number[] {
  switch (deposit.kind) {
    case 'round':
      return [DEPOSIT_ROUND];
    case 'createPriceMarket':
    case 'createJudgedMarket':
      return [DEPOSIT_CREATE];
    case 'bet':
      return [DEPOSIT_BET, DEPOSIT_ROUND];
    case 'dispute':
      return [DEPOSIT_DISPUTE];
  }
}

/** The side code the deposit's event carries: a dispute's bond takes none. */
export function marketDepositSide(deposit: MarketDeposit): number {
  return deposit.kind === 'dispute' ? 0 : sideCode(deposit.kind, deposit.side);
}

function minimumOf(deposit: MarketDeposit): bigint {
  switch (deposit.kind) {
    case 'round':
      return MIN_ROUND_DEPOSIT;
    case 'dispute':
      return 1n;
    default:
      return MIN_MARKET_DEPOSIT;
  }
}

function encodeDeposit(deposit: MarketDeposit, ref: Hex): Hex {
  switch (deposit.kind) {
    case 'round': {
      checkRound(deposit);
      const side = sideCode(deposit.kind, deposit.side);
      return encodeFunctionData({
        abi: marketDepositAbi,
        functionName: 'betRound',
        args: [deposit.coin, deposit.lockAt, deposit.closeAt, side, ref],
      });
    }
    case 'createPriceMarket': {
      const id = bytes32(deposit.id, 'id');
      const coin = coinOf(deposit.coin);
      if (deposit.target <= 0n || deposit.target > INT192_MAX) {
        throw new RangeError(`target must be above 0 and fit an int192, got ${deposit.target}`);
      }
      if (typeof deposit.above !== 'boolean') throw new RangeError('above must be true or false');
      const closesAt = seconds(deposit.closesAt, 'closesAt');
      const side = sideCode(deposit.kind, deposit.side);
      return encodeFunctionData({
        abi: marketDepositAbi,
        functionName: 'createPriceMarket',
        args: [id, coin, deposit.target, deposit.above, closesAt, side, ref],
      });
    }
    case 'createJudgedMarket': {
      const id = bytes32(deposit.id, 'id');
      const closesAt = seconds(deposit.closesAt, 'closesAt');
      const contentHash = bytes32(deposit.contentHash, 'contentHash');
      const side = sideCode(deposit.kind, deposit.side);
      return encodeFunctionData({
        abi: marketDepositAbi,
        functionName: 'createJudgedMarket',
        args: [id, closesAt, contentHash, side, ref],
      });
    }
    case 'bet': {
      const market = bytes32(deposit.market, 'market');
      const side = sideCode(deposit.kind, deposit.side);
      return encodeFunctionData({ abi: marketDepositAbi, functionName: 'bet', args: [market, side, ref] });
    }
    case 'dispute':
      return encodeFunctionData({
        abi: marketDepositAbi,
        functionName: 'dispute',
        args: [stakeRef(deposit.stake), ref],
      });
  }
}

/** A round's terms as the contract opens one: uint40 times, its span within the bounds, a known coin. */
function checkRound(round: Extract<MarketDeposit, { kind: 'round' }>): void {
  coinOf(round.coin);
  const lockAt = seconds(round.lockAt, 'lockAt');
  const span = BigInt(seconds(round.closeAt, 'closeAt') - lockAt);
  if (span < MIN_ROUND_SPAN || span > MAX_ROUND_SPAN) {
    throw new RangeError(
      `a round spans ${MIN_ROUND_SPAN}–${MAX_ROUND_SPAN} s from lock to close, got ${span}`,
    );
  }
}

/**
 * The stake a dispute names: an open bet of its market (side YES or NO: a bond is never one, since its
 * owner has disputed that market already), owned by the disputer.
 */
function stakeRef(stake: StakeRef): StakeRef {
  if (stake.stakeId <= 0n || stake.stakeId > UINT256_MAX)
    throw new RangeError('stake.stakeId must be a stake id');
  if (stake.amount <= 0n || stake.amount > UINT256_MAX) throw new RangeError('stake.amount must be above 0');
  if (stake.side !== SIDE_YES && stake.side !== SIDE_NO) {
    throw new RangeError(`stake.side must be ${SIDE_YES} or ${SIDE_NO}, got ${stake.side}`);
  }
  return {
    stakeId: stake.stakeId,
    owner: address(stake.owner, 'stake.owner'),
    market: bytes32(stake.market, 'stake.market'),
    amount: stake.amount,
    side: stake.side,
  };
}

/** A side's code, if the deposit's kind has that side: a round's are UP and DOWN, a market's YES and NO. */
function sideCode(kind: MarketDeposit['kind'], side: string): number {
  const sides = kind === 'round' ? ROUND_SIDES : MARKET_SIDES;
  if (!sides.includes(side) || !isSide(side)) throw new RangeError(`a ${kind} deposit has no side ${side}`);
  return SIDE_CODE[side];
}

function isSide(side: string): side is keyof typeof SIDE_CODE {
  return Object.hasOwn(SIDE_CODE, side);
}

function coinOf(coin: number): number {
  if (!Number.isSafeInteger(coin) || coin < 0 || BigInt(coin) >= MAX_COINS) {
    throw new RangeError(`coin must be a feed index below ${MAX_COINS}, got ${coin}`);
  }
  return coin;
}

function seconds(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0 || value >= UINT40_LIMIT) {
    throw new RangeError(`${name} must be unix seconds (a uint40), got ${value}`);
  }
  return value;
}

function bytes32(value: Hex, name: string): Hex {
  if (typeof value !== 'string' || !BYTES32.test(value))
    throw new RangeError(`${name} must be 32 bytes of hex`);
  return `0x${value.slice(2).toLowerCase()}`;
}

function address(value: Address, name: string): Address {
  if (typeof value !== 'string' || !isAddress(value, { strict: false })) {
    throw new RangeError(`${name} must be an address`);
  }
  return getAddress(value);
}
