import { defineConfig } from 'hardhat/config';
import chain from '../../../chain/hardhat.config.ts';

// The escrow's test chain: chain/hardhat.config.ts (chain id 31337, the public dev mnemonic) on the
// Prague hardfork, what BSC runs (Pectra set since Pascal) and what the contract is compiled for.
// EDR's default, Osaka, also caps a transaction's gas at 2^24 (EIP-7825), which its gas estimate of some
// calls trips over (it tries a limit above the block's 30M).
const node = chain.networks?.node;
if (node?.type !== 'edr-simulated') throw new Error('chain/hardhat.config.ts has no simulated node network');

export default defineConfig({ ...chain, networks: { node: { ...node, hardfork: 'prague' } } });
