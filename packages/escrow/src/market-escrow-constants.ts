// The public constants of contracts/MarketEscrow.sol (docs/decisions/031), for code that must agree with
// the contract before it calls it: a deposit's minimum and latest close, a round's span, a batch's gas,
// the codes its events carry. Mirrored, not read from the chain, so pure code and the web use them;
// test/market-escrow-constants.test.ts holds every one to a deployed contract. Wei, seconds and gas as
// the contract counts them; its uint8 codes as numbers (viem reads them so), the rest as bigints.

/** Most a settlement may keep as fee, in basis points of the pool: 10 %. */
export const MAX_FEE_BPS = 1000n;
/** The least stake of a judged or price market's bet or creation: 0.005 BNB. */
export const MIN_MARKET_DEPOSIT = 5n * 10n ** 15n;
/** The least stake of a round bet: 0.01 BNB. */
export const MIN_ROUND_DEPOSIT = 10n ** 16n;
/** A market unsettled this long after its deposits close refunds every stake, on anyone's call. */
export const ESCAPE_DELAY = 7n * 86_400n;
/** Latest close a deposit may name, from its block. */
export const MAX_BETTING_PERIOD = 2n * 86_400n;
/** Bounds of a round's span from its lock to its close. */
export const MIN_ROUND_SPAN = 60n;
export const MAX_ROUND_SPAN = 86_400n;
/** Gas forwarded with a pushed payout; a push that fails becomes a credit. */
export const PAYOUT_GAS_CAP = 50_000n;
/** Gas a batch must have left per item before its first (`claimMany`, `refundMany`). */
export const BATCH_ITEM_GAS = 170_793n;
/** Bounds of the delay between a judged settlement and its first payout (the review window). */
export const MIN_PAYOUT_DELAY = 60n;
export const MAX_PAYOUT_DELAY = 7n * 86_400n;
/** A dispute leaves the operator at least this long to answer. */
export const ANSWER_WINDOW = 86_400n;
/** Bounds of the settlement rate limit's capacity, in wei. */
export const MIN_SETTLEMENT_CAPACITY = 10n ** 17n;
export const MAX_SETTLEMENT_CAPACITY = 10_000n * 10n ** 18n;
/** Bounds of the dispute bond's floor (`disputeBondMin`, fixed at deploy), in wei. */
export const MIN_DISPUTE_BOND_MIN = 10n ** 15n;
export const MAX_DISPUTE_BOND_MIN = 10n * 10n ** 18n;
/** Most of a market's stakes a dispute bond may ask (`disputeBondBps`, fixed at deploy): 20 %. */
export const MAX_DISPUTE_BOND_BPS = 2000n;
/** Bounds of the age a feed's price may have at the instant it decides (`maxPriceAge`). */
export const MIN_PRICE_AGE = 10n;
export const MAX_PRICE_AGE = 86_400n;
/** Most coins a deployment has feeds for. */
export const MAX_COINS = 16n;

/** Sides a bet takes: YES (a round's UP) and NO (DOWN). A dispute bond takes none (0). */
export const SIDE_YES = 1;
export const SIDE_NO = 2;
/** What a `Deposited` event pays for (its `kind`). */
export const DEPOSIT_CREATE = 1;
export const DEPOSIT_BET = 2;
export const DEPOSIT_ROUND = 3;
export const DEPOSIT_DISPUTE = 4;
/** A price kind's outcome besides a winning side: why every stake is refunded. */
export const REFUND_DRAW = 3;
export const REFUND_NO_WINNER = 4;
export const REFUND_STALE = 5;
export const REFUND_NOT_POSITIVE = 6;
