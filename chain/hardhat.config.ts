import { defineConfig } from 'hardhat/config';

// The local chain for dev and tests (docs/development.md "Local chain"): chain id must be set here,
// `--chain-id` on the command line is ignored by Hardhat 3.
export default defineConfig({
  networks: {
    node: {
      type: 'edr-simulated',
      chainType: 'l1',
      chainId: 31337,
      accounts: {
        mnemonic: 'test test test test test test test test test test test junk',
        count: 20,
        accountsBalance: '10000000000000000000000',
      },
    },
  },
});
