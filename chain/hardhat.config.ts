import { defineConfig } from 'hardhat/config';

// The local chain for dev and tests (docs/development.md "Local chain"): chain id must be set here,
// `--chain-id` on the command line is ignored by Hardhat 3.
export default defineConfig({
  networks: {
    node: {
      type: 'edr-simulated',
      chainType: 'l1',
      chainId: 31337,
      // What BSC runs (the Pectra set since its Pascal fork) and what the escrow is compiled for. EDR's
      // default, Osaka, also caps a transaction's gas at 2^24 (EIP-7825), which its gas estimate of
      // some calls trips over (it tries a limit above the block's 30M). Decision 025 "Toolchain".
      hardfork: 'prague',
      // npm start replays the saved dev chain (apps/server/src/dev/dev-chain-journal.ts): one genesis
      // time makes one genesis block, and transactions sent in their block's order are mined in it.
      ...(process.env.DEV_CHAIN_GENESIS_TIME
        ? {
            initialDate: new Date(Number(process.env.DEV_CHAIN_GENESIS_TIME) * 1000),
            mining: { mempool: { order: 'fifo' as const } },
          }
        : {}),
      accounts: {
        mnemonic: 'test test test test test test test test test test test junk',
        // #0 the escrow's operator, #1… players and test bettors, #20–#22 the escrow's admin, guardian
        // and treasury, #23 the price feeds' writer (apps/server/src/config/dev-accounts.ts).
        count: 24,
        accountsBalance: '10000000000000000000000',
      },
    },
  },
});
