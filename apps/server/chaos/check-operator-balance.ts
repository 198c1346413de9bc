import type { InvariantContext } from './invariant-context.ts';

// Invariant 3, the operator key's side (the escrow's is check-escrow-ledger.ts): its balance on chain is
// initial + transfers in − transfers out − its own gas. The app pays nobody from it (decision 028: every
// stake and payout is the escrow's), so only its gas moves it; a transfer out shows in invariant 4.

/** Invariant 3 (docs/chaos.md). */
export function checkOperatorBalance(context: InvariantContext): void {
  const { input, inbound, outbound, check, bnb } = context;
  const received = inbound.reduce((total, t) => total + t.value, 0n);
  const sent = outbound.reduce((total, t) => total + t.value, 0n);
  const gas = input.transfers
    .filter((t) => t.from === input.operator)
    .reduce((total, t) => total + t.gasCostWei, 0n);
  const expectedBalance = input.initialBalance + received - sent - gas;
  check(
    expectedBalance === input.finalBalance,
    3,
    `balance:${input.head}`,
    () =>
      `operator key balance ${bnb(input.finalBalance)} ≠ initial ${bnb(input.initialBalance)} + in ${bnb(received)} − out ${bnb(sent)} − gas ${bnb(gas)} = ${bnb(expectedBalance)}`,
  );
}
