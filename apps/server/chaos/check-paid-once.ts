import type { InvariantContext } from './invariant-context.ts';

// Invariant 4, the operator key's side (the escrow's is check-escrow-paid-once.ts): nothing leaves it
// but gas. Every payout is the escrow's (decision 028), so any value the operator key sends is
// unexplained.

/** Invariant 4 (docs/chaos.md). */
export function checkPaidOnce(context: InvariantContext): void {
  const { outbound, check, lose, bnb } = context;
  for (const transfer of outbound) {
    if (
      !check(
        false,
        4,
        `unexplained:${transfer.hash}`,
        () =>
          `the operator key sent ${bnb(transfer.value)} to ${transfer.to} (${transfer.hash}); it pays nobody`,
      )
    )
      lose(transfer.value);
  }
}
