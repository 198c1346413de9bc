import { type Address, encodeFunctionData, type Hex } from 'viem';
import { type DepositTerms, depositArgs } from './deposit-terms.ts';

// docs/decisions/026-app-on-the-escrow.md "One way to pay": every payment is one `deposit` call with the
// stake as its value. This is the one encoder of that call: the web's bet panel, the pay-and-post driver
// (tests, chaos, the bench, e2e) and the examples all build it here. It carries only the `deposit`
// function's ABI (a test holds it to the compiled contract's), so the web loads neither the whole ABI
// nor the bytecode.

/** `PredictionEscrow.deposit(market, closesAt, kind, side, terms, ref)`, as compiled. */
export const depositFunctionAbi = [
  {
    type: 'function',
    name: 'deposit',
    stateMutability: 'payable',
    inputs: [
      { internalType: 'bytes32', name: 'market', type: 'bytes32' },
      { internalType: 'uint40', name: 'closesAt', type: 'uint40' },
      { internalType: 'uint8', name: 'kind', type: 'uint8' },
      { internalType: 'uint8', name: 'side', type: 'uint8' },
      { internalType: 'bytes32', name: 'terms', type: 'bytes32' },
      { internalType: 'bytes32', name: 'ref', type: 'bytes32' },
    ],
    outputs: [{ internalType: 'uint256', name: 'stakeId', type: 'uint256' }],
  },
] as const;

/** One transaction's call: to the escrow, the stake as its value, the encoded `deposit` as its data. */
export type DepositCall = { to: Address; value: bigint; data: Hex };

/**
 * The call that deposits `amount` wei into `escrow` for `terms` (`ref`: a client reference the event
 * echoes, default 0). Throws RangeError for terms that cannot be a deposit (as depositArgs does) and
 * for an amount of 0 or less (the contract refuses it: `ZeroAmount`).
 */
export function depositCall(escrow: Address, terms: DepositTerms, amount: bigint, ref?: Hex): DepositCall {
  if (amount <= 0n) throw new RangeError(`a deposit must be more than 0 wei, got ${amount}`);
  const data = encodeFunctionData({
    abi: depositFunctionAbi,
    functionName: 'deposit',
    args: depositArgs(terms, ref),
  });
  return { to: escrow, value: amount, data };
}
