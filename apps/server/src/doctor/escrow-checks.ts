import { PRICE_SYMBOLS } from '@pm/core/constants';
import { formatBnbWithUnit } from '@pm/core/money';
import { type EscrowStatus, expectedRuntimeCodeHash } from '@pm/escrow/deploy';
import { marketEscrowRuntimeCodeHash } from '@pm/escrow/deploy-market-escrow';
import { type Address, getAddress, type Hex, zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type CheckOutcome, failed, passed, warned } from './run-checks.ts';

// The escrow contract's side of the preflight (docs/operations.md "Preflight"), all read at
// one block (`readEscrowStatus`): this build's code at ESCROW_ADDRESS, the server's key as its operator
// and never its admin, a guardian and a treasury, its limits, whether it is paused, and whether the
// server decides every market before the contract's escape hatch opens. With MARKET_ESCROW_ADDRESS,
// MarketEscrow's too (docs/decisions/034): this build's code, its deployment block, the server's key as
// its operator, and the fees, price age and per-coin feeds it fixed for good equal to the settings'.

/** The code at the address is this build's PredictionEscrow (its immutables aside: the treasury). */
export function checkEscrowCode(status: EscrowStatus): CheckOutcome {
  const expected = expectedRuntimeCodeHash();
  if (status.codeHash !== expected) {
    return failed(
      `its code (hash ${status.codeHash}) is not this build's PredictionEscrow (${expected}): another version, or another contract`,
    );
  }
  return passed(
    `at block ${status.blockNumber}: holds ${bnb(status.balance)}, owes ${bnb(status.liabilities)}`,
  );
}

/**
 * The server's key (OPERATOR_PRIVATE_KEY: it posts settlements and relays claims) is the escrow's
 * operator, and neither its admin nor the admin-to-be of a pending transfer: a hot key on a server must
 * never hold the role that names the operator and sets the limits.
 */
export function checkEscrowOperator(
  status: Pick<EscrowStatus, 'owner' | 'pendingOwner' | 'operator'>,
  serverKey: `0x${string}` | undefined,
): CheckOutcome {
  if (!serverKey) return failed('OPERATOR_PRIVATE_KEY is not set: the server could not act as the operator');
  const server = privateKeyToAccount(serverKey).address;
  if (server === status.owner) {
    return failed(
      `OPERATOR_PRIVATE_KEY is the key of ${server}, the escrow's admin: the admin must be kept off the server (a Safe)`,
    );
  }
  if (server === status.pendingOwner) {
    return failed(
      `OPERATOR_PRIVATE_KEY is the key of ${server}, to which the escrow's admin role is being transferred`,
    );
  }
  if (server !== status.operator) {
    return failed(`the operator is ${status.operator}; OPERATOR_PRIVATE_KEY is the key of ${server}`);
  }
  return passed(server);
}

/**
 * The escrow holds at least what it owes (its balance against its own liabilities at one block): the
 * contract keeps it so by construction, and /api/solvency publishes the same figures.
 */
export function checkEscrowCoversLiabilities(status: EscrowStatus): CheckOutcome {
  const { balance, liabilities } = status;
  if (balance >= liabilities)
    return passed(`${bnb(balance)} ≥ ${bnb(liabilities)} owed at block ${status.blockNumber}`);
  return failed(
    `${bnb(balance)} is below the ${bnb(liabilities)} owed at block ${status.blockNumber} (short by ${bnb(liabilities - balance)})`,
  );
}

/** A guardian (not the operator: it must be able to stop a stolen operator key) and a treasury. */
export function checkEscrowRoles(status: EscrowStatus): CheckOutcome {
  if (status.guardian === zeroAddress) return failed('no guardian: nobody can veto a settlement');
  if (status.treasury === zeroAddress) return failed('no treasury: fees would have nowhere to go');
  if (status.guardian === status.operator) {
    return failed(
      `the guardian is the operator (${status.operator}): a stolen operator key could not be stopped`,
    );
  }
  return passed(`guardian ${status.guardian}, treasury ${status.treasury}`);
}

/** The settlement bucket, the shortest payout delay and the dispute bond, as they stand. */
export function checkEscrowLimits(status: EscrowStatus): CheckOutcome {
  return passed(
    `settlements draw at most ${bnb(status.settlementCapacity)}, refilled ${bnb(status.settlementRefillPerHour)} an hour (${bnb(status.settlementAllowance)} now); payouts open at least ${status.minPayoutDelay} s after a settlement; a dispute's bond is the larger of ${bnb(status.disputeBondMin)} and ${status.disputeBondBps} bps of the pool`,
  );
}

/** Paused, the escrow refuses deposits and settlements: a warning, as it is the guardian's to do. */
export function checkEscrowNotPaused(status: EscrowStatus): CheckOutcome {
  if (!status.paused) return passed();
  return warned(
    'it is paused: deposits and settlements are refused until the admin unpauses it (npm run ops -- vault:unpause)',
  );
}

/**
 * Every market is decided (a verdict, or void at MARKET_RESOLUTION_TIMEOUT_S) and past its review window
 * before ESCAPE_DELAY after its close: after it, the contract takes no settlement and refunds anyone who
 * asks, whatever the verdict (decision 026 "Timeouts").
 */
export function checkEscrowEscapeDelay(
  status: EscrowStatus,
  timeouts: { resolutionTimeoutS: number; reviewWindowS: number },
): CheckOutcome {
  const escapeDelayS = status.constants.ESCAPE_DELAY;
  const decidedS = BigInt(timeouts.resolutionTimeoutS + timeouts.reviewWindowS);
  const what = `MARKET_RESOLUTION_TIMEOUT_S + RESOLUTION_REVIEW_WINDOW_S = ${decidedS} s`;
  if (decidedS >= escapeDelayS) {
    return failed(
      `${what} is not below the escrow's ESCAPE_DELAY (${escapeDelayS} s): a slow verdict would meet the escape hatch`,
    );
  }
  return passed(`${what}, below ESCAPE_DELAY ${escapeDelayS} s`);
}

const bnb = (wei: bigint) => formatBnbWithUnit(wei, { decimals: 18, trim: true });

/** What the node holds at ESCROW_DEPLOY_BLOCK and the block before it (null: it cannot say). */
export type DeployBlockReading = { codeAtBlock: boolean | null; codeBefore: boolean | null };

/**
 * ESCROW_DEPLOY_BLOCK is the escrow's deployment block: its code is there at that block and not at the
 * one before. Reconciliation's first run starts there, so a later block would skip deposits for good;
 * an earlier one only costs reads. A node that keeps no state that old cannot say: a warning.
 */
export function checkEscrowDeployBlock(
  deployBlock: bigint,
  reading: DeployBlockReading,
  /** Which contract and setting (MarketEscrow's, MARKET_ESCROW_DEPLOY_BLOCK); the escrow's by default. */
  of: { contract: string; setting: string } = { contract: 'the escrow', setting: 'ESCROW_DEPLOY_BLOCK' },
): CheckOutcome {
  if (reading.codeAtBlock === false) {
    return failed(
      `${of.contract} has no code at block ${deployBlock}: it was deployed later, so ${of.setting} is wrong`,
    );
  }
  if (reading.codeAtBlock === null || (deployBlock > 0n && reading.codeBefore === null)) {
    return warned(
      `block ${deployBlock}: the node keeps no state that old, so the block is not verified (an archive node can)`,
    );
  }
  if (reading.codeBefore === true) {
    return warned(
      `${of.contract} has code before block ${deployBlock}: reconciliation skips any deposit made before it (set the block vault:deploy printed)`,
    );
  }
  return passed(`block ${deployBlock}: reconciliation starts there`);
}

/** MarketEscrow at MARKET_ESCROW_ADDRESS, read at one block (null code hash: no contract there). */
export type MarketEscrowReading = {
  blockNumber: bigint;
  /** Its runtime code's hash with the immutables zeroed (marketEscrowCodeHash). */
  codeHash: Hex;
  owner: Address;
  pendingOwner: Address | null;
  operator: Address;
  roundFeeBps: number;
  priceMarketFeeBps: number;
  maxPriceAge: number;
  /** `feeds(coin)` for each of its `coinCount` coins. */
  feeds: readonly Address[];
};

/** The code at MARKET_ESCROW_ADDRESS is this build's MarketEscrow (its immutables aside: fees, age, treasury). */
export function checkMarketEscrowCode(
  reading: Pick<MarketEscrowReading, 'codeHash' | 'blockNumber'>,
): CheckOutcome {
  const expected = marketEscrowRuntimeCodeHash();
  if (reading.codeHash !== expected) {
    return failed(
      `its code (hash ${reading.codeHash}) is not this build's MarketEscrow (${expected}): another version, or another contract`,
    );
  }
  return passed(`at block ${reading.blockNumber}`);
}

/**
 * The fees and price age MarketEscrow fixed for good are the server's: ORACLE_FEE_BPS (a round's),
 * MARKET_FEE_BPS (a price market's), ORACLE_MAX_AGE_S. Apart, the server would show one payout and the
 * contract pay another, or the server wait for a price the contract refuses as stale.
 */
export function checkMarketEscrowFees(
  reading: Pick<MarketEscrowReading, 'roundFeeBps' | 'priceMarketFeeBps' | 'maxPriceAge'>,
  expected: Pick<MarketEscrowReading, 'roundFeeBps' | 'priceMarketFeeBps' | 'maxPriceAge'>,
): CheckOutcome {
  const pairs = [
    ['roundFeeBps', 'ORACLE_FEE_BPS', reading.roundFeeBps, expected.roundFeeBps],
    ['priceMarketFeeBps', 'MARKET_FEE_BPS', reading.priceMarketFeeBps, expected.priceMarketFeeBps],
    ['maxPriceAge', 'ORACLE_MAX_AGE_S', reading.maxPriceAge, expected.maxPriceAge],
  ] as const;
  const apart = pairs.filter(([, , onChain, setting]) => onChain !== setting);
  if (apart.length > 0) {
    return failed(
      `${apart.map(([name, setting, onChain, value]) => `its ${name} is ${onChain}, ${setting} is ${value}`).join('; ')}: it is fixed for good, so deploy another (vault:deploy) or set the settings to it`,
    );
  }
  return passed(
    `rounds ${reading.roundFeeBps} bps, price markets ${reading.priceMarketFeeBps} bps, prices at most ${reading.maxPriceAge} s old`,
  );
}

/**
 * MarketEscrow reads each coin (its place in PRICE_SYMBOLS) from the feed the server reads it from
 * (the Chainlink proxies of CHAINLINK_FEED_ADDRESS and CHAINLINK_FEED_ADDRESSES; the dev feeds on the
 * local chain without them), and has no coin more or fewer: a swapped feed would decide one coin's
 * rounds by another's price.
 */
export function checkMarketEscrowFeeds(
  onChain: readonly Address[],
  expected: readonly Address[],
): CheckOutcome {
  if (onChain.length !== PRICE_SYMBOLS.length) {
    return failed(
      `it has ${onChain.length} coins; the server has ${PRICE_SYMBOLS.length} (${PRICE_SYMBOLS.join(', ')})`,
    );
  }
  const apart = PRICE_SYMBOLS.flatMap((symbol, coin) => {
    const contract = onChain[coin];
    const setting = expected[coin];
    if (!contract || !setting || getAddress(contract) === getAddress(setting)) return [];
    return [
      `${symbol} (coin ${coin}) reads ${getAddress(contract)}, the settings name ${getAddress(setting)}`,
    ];
  });
  if (apart.length > 0) return failed(`${apart.join('; ')}: its feeds are fixed for good`);
  return passed(`all ${PRICE_SYMBOLS.length} coins`);
}
