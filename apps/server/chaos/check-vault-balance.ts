import type { InvariantContext } from './invariant-context.ts';

// Invariant 3: the vault's balance on chain is initial + deposits − payouts − the vault's own gas.

/** Invariant 3 (docs/chaos.md). */
export function checkVaultBalance(context: InvariantContext): void {
  const { input, inbound, outbound, check, bnb } = context;
  const deposits = inbound.reduce((total, t) => total + t.value, 0n);
  const paidOut = outbound.reduce((total, t) => total + t.value, 0n);
  const gas = input.transfers
    .filter((t) => t.from === input.vault)
    .reduce((total, t) => total + t.gasCostWei, 0n);
  const expectedBalance = input.initialBalance + deposits - paidOut - gas;
  check(
    expectedBalance === input.finalBalance,
    3,
    `balance:${input.head}`,
    () =>
      `vault balance ${bnb(input.finalBalance)} ≠ initial ${bnb(input.initialBalance)} + deposits ${bnb(deposits)} − payouts ${bnb(paidOut)} − gas ${bnb(gas)} = ${bnb(expectedBalance)}`,
  );
}
