import { isAddress } from 'viem';

// docs/architecture.md "Money, time and identity": addresses are stored lower-case, shown checksummed, and
// looked up case-insensitively (docs/product.md §6: claimable winnings match the wallet address that way).

export class InvalidAddressError extends Error {
  override readonly name = 'InvalidAddressError';
  readonly code = 'INVALID_ADDRESS';
  readonly input: string;

  constructor(input: string) {
    super('Not a 0x-prefixed 20-byte address');
    this.input = input;
  }
}

/** docs/product.md §2/§9: first 6 and last 4 characters, '0x1234...abcd'. Short text is returned as is. */
export function shortenAddress(address: string): string {
  if (address.length <= 10) return address;
  return `${address.slice(0, 6)}...${address.slice(-4)}`;
}

/** The stored form: lower-case. Any case is accepted; checksums are not enforced on input. */
export function normalizeAddress(address: string): `0x${string}` {
  if (!isAddress(address, { strict: false })) throw new InvalidAddressError(address);
  return `0x${address.slice(2).toLowerCase()}`;
}
