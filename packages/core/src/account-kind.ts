// docs/security.md "Payments sent through contracts": a payment counts only as a
// top-level deposit call from the payer into the escrow. A contract wallet (a Safe, an ERC-4337
// account) pays through its code, so its payments are never credited; an EIP-7702 account is an
// ordinary key with delegated code, and its direct deposits count as any other.

export type AccountKind = 'key' | 'delegated-key' | 'contract';

/** EIP-7702: the code of a delegated account is 0xef0100 followed by the delegate's address. */
const DELEGATION_PREFIX = '0xef0100';

/** What kind of account the code at an address (eth_getCode) says it is. */
export function accountKind(code: string | undefined): AccountKind {
  if (!code || code === '0x') return 'key';
  const lower = code.toLowerCase();
  return lower.startsWith(DELEGATION_PREFIX) && lower.length === DELEGATION_PREFIX.length + 40
    ? 'delegated-key'
    : 'contract';
}
