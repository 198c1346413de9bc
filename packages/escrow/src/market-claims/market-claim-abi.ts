// MarketEscrow's claim and refund functions, as compiled (test/market-claim-calls.test.ts holds each to
// the generated ABI): what the web's own claim and the server's relayer encode with.

const stakeRef = {
  internalType: 'struct MarketEscrow.StakeRef',
  name: 'stake',
  type: 'tuple',
  components: [
    { internalType: 'uint256', name: 'stakeId', type: 'uint256' },
    { internalType: 'address', name: 'owner', type: 'address' },
    { internalType: 'bytes32', name: 'market', type: 'bytes32' },
    { internalType: 'uint256', name: 'amount', type: 'uint256' },
    { internalType: 'uint8', name: 'side', type: 'uint8' },
  ],
} as const;

const claimComponents = [
  stakeRef,
  { internalType: 'uint256', name: 'payout', type: 'uint256' },
  { internalType: 'bytes32[]', name: 'proof', type: 'bytes32[]' },
] as const;

export const marketClaimAbi = [
  {
    type: 'function',
    name: 'claim',
    stateMutability: 'nonpayable',
    inputs: [
      { internalType: 'struct MarketEscrow.Claim', name: 'c', type: 'tuple', components: claimComponents },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'claimMany',
    stateMutability: 'nonpayable',
    inputs: [
      {
        internalType: 'struct MarketEscrow.Claim[]',
        name: 'batch',
        type: 'tuple[]',
        components: claimComponents,
      },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'refund',
    stateMutability: 'nonpayable',
    inputs: [{ ...stakeRef, name: 's' }],
    outputs: [],
  },
  {
    type: 'function',
    name: 'refundMany',
    stateMutability: 'nonpayable',
    inputs: [{ ...stakeRef, internalType: 'struct MarketEscrow.StakeRef[]', name: 'batch', type: 'tuple[]' }],
    outputs: [],
  },
] as const;
