import { type Hex, isHex } from 'viem';

/** A string the contract schemas already checked as 0x-hex, narrowed for viem without a cast. */
export function toHex(value: string): Hex {
  if (!isHex(value, { strict: true })) throw new TypeError(`not 0x-prefixed hex: ${value}`);
  return value;
}
