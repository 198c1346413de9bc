import { type Hex, isHex } from 'viem';

/**
 * A string the contract schemas already checked as 0x-hex (of `bytes` bytes when given: 32 for a
 * transaction hash), narrowed for viem without a cast. Throwing here means a schema let it through.
 */
export function parseHex(value: string, options: { bytes?: number } = {}): Hex {
  const sized = options.bytes === undefined || value.length === 2 + options.bytes * 2;
  if (!sized || !isHex(value, { strict: true })) throw new TypeError(`not the 0x-hex expected: ${value}`);
  return value;
}
