import { defineConfig } from 'hardhat/config';

// The escrow's test chain: chain/hardhat.config.ts (chain id 31337, the public dev mnemonic) on the
// Prague hardfork, what BSC runs (Pectra set since Pascal) and what the contract is compiled for.
// EDR's default, Osaka, also caps a transaction's gas at 2^24 (EIP-7825), which its gas estimate of some
// calls trips over (it tries a limit above the block's 30M).
export default defineConfig({
  networks: {
    node: {
      type: 'edr-simulated',
      chainType: 'l1',
      chainId: 31337,
      hardfork: 'prague',
      accounts: {
        mnemonic: 'test test test test test test test test test test test junk',
        count: 20,
        accountsBalance: '10000000000000000000000',
      },
    },
  },
});
