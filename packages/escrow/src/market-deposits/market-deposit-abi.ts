// The five payable functions of MarketEscrow, as compiled (market-deposit-abi.test.ts holds each to the
// generated ABI): what the web encodes a deposit with, so it never loads the whole ABI or the bytecode.

const stakeRefComponents = [
  { internalType: 'uint256', name: 'stakeId', type: 'uint256' },
  { internalType: 'address', name: 'owner', type: 'address' },
  { internalType: 'bytes32', name: 'market', type: 'bytes32' },
  { internalType: 'uint256', name: 'amount', type: 'uint256' },
  { internalType: 'uint8', name: 'side', type: 'uint8' },
] as const;

export const marketDepositAbi = [
  {
    type: 'function',
    name: 'betRound',
    stateMutability: 'payable',
    inputs: [
      { internalType: 'uint8', name: 'coin', type: 'uint8' },
      { internalType: 'uint40', name: 'lockAt', type: 'uint40' },
      { internalType: 'uint40', name: 'closeAt', type: 'uint40' },
      { internalType: 'uint8', name: 'side', type: 'uint8' },
      { internalType: 'bytes32', name: 'ref', type: 'bytes32' },
    ],
    outputs: [
      { internalType: 'bytes32', name: 'key', type: 'bytes32' },
      { internalType: 'uint256', name: 'stakeId', type: 'uint256' },
    ],
  },
  {
    type: 'function',
    name: 'createPriceMarket',
    stateMutability: 'payable',
    inputs: [
      { internalType: 'bytes32', name: 'id', type: 'bytes32' },
      { internalType: 'uint8', name: 'coin', type: 'uint8' },
      { internalType: 'int192', name: 'target', type: 'int192' },
      { internalType: 'bool', name: 'above', type: 'bool' },
      { internalType: 'uint40', name: 'closesAt', type: 'uint40' },
      { internalType: 'uint8', name: 'side', type: 'uint8' },
      { internalType: 'bytes32', name: 'ref', type: 'bytes32' },
    ],
    outputs: [
      { internalType: 'bytes32', name: 'key', type: 'bytes32' },
      { internalType: 'uint256', name: 'stakeId', type: 'uint256' },
    ],
  },
  {
    type: 'function',
    name: 'createJudgedMarket',
    stateMutability: 'payable',
    inputs: [
      { internalType: 'bytes32', name: 'id', type: 'bytes32' },
      { internalType: 'uint40', name: 'closesAt', type: 'uint40' },
      { internalType: 'bytes32', name: 'contentHash', type: 'bytes32' },
      { internalType: 'uint8', name: 'side', type: 'uint8' },
      { internalType: 'bytes32', name: 'ref', type: 'bytes32' },
    ],
    outputs: [
      { internalType: 'bytes32', name: 'key', type: 'bytes32' },
      { internalType: 'uint256', name: 'stakeId', type: 'uint256' },
    ],
  },
  {
    type: 'function',
    name: 'bet',
    stateMutability: 'payable',
    inputs: [
      { internalType: 'bytes32', name: 'market', type: 'bytes32' },
      { internalType: 'uint8', name: 'side', type: 'uint8' },
      { internalType: 'bytes32', name: 'ref', type: 'bytes32' },
    ],
    outputs: [{ internalType: 'uint256', name: 'stakeId', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'dispute',
    stateMutability: 'payable',
    inputs: [
      {
        internalType: 'struct MarketEscrow.StakeRef',
        name: 'stake',
        type: 'tuple',
        components: stakeRefComponents,
      },
      { internalType: 'bytes32', name: 'ref', type: 'bytes32' },
    ],
    outputs: [{ internalType: 'uint256', name: 'stakeId', type: 'uint256' }],
  },
] as const;
