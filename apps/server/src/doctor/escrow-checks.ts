import { formatBnbWithUnit } from '@pm/core/money';
import { type EscrowStatus, expectedRuntimeCodeHash } from '@pm/escrow/deploy';
import { zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type CheckOutcome, failed, passed, warned } from './run-checks.ts';

// The escrow contract's side of the preflight (docs/operations.md "Preflight"), all read at
// one block (`readEscrowStatus`): this build's code at ESCROW_ADDRESS, the server's key as its operator
// and never its admin, a guardian and a treasury, its limits, whether it is paused, and whether the
// server decides every market before the contract's escape hatch opens.

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
  status: EscrowStatus,
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
export function checkEscrowDeployBlock(deployBlock: bigint, reading: DeployBlockReading): CheckOutcome {
  if (reading.codeAtBlock === false) {
    return failed(
      `the escrow has no code at block ${deployBlock}: it was deployed later, so ESCROW_DEPLOY_BLOCK is wrong`,
    );
  }
  if (reading.codeAtBlock === null || (deployBlock > 0n && reading.codeBefore === null)) {
    return warned(
      `block ${deployBlock}: the node keeps no state that old, so the block is not verified (an archive node can)`,
    );
  }
  if (reading.codeBefore === true) {
    return warned(
      `the escrow has code before block ${deployBlock}: reconciliation skips any deposit made before it (set the block vault:deploy printed)`,
    );
  }
  return passed(`block ${deployBlock}: reconciliation starts there`);
}
