import { CHAIN_ID } from '@pm/core/constants';
import { createTestClient, createWalletClient, defineChain, http, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createChainClient } from '../../src/chain/chain-client.ts';
import { DEV_OPERATOR, DEV_PLAYERS } from '../../src/config/dev-accounts.ts';
import { startLocalChain } from '../../src/dev/local-chain.ts';

export const localChain = defineChain({
  id: CHAIN_ID.local,
  name: 'Local Hardhat',
  nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
});

/** A real Hardhat node for one test file, with clients for reading, signing and moving time. */
export async function startTestChain() {
  const chain = await startLocalChain();
  const transport = http(chain.rpcUrl);
  const publicClient = createChainClient({ id: CHAIN_ID.local, rpcUrl: chain.rpcUrl });
  const testClient = createTestClient({ chain: localChain, mode: 'hardhat', transport }).extend(
    publicActions,
  );
  const wallet = (privateKey: `0x${string}`) =>
    createWalletClient({ chain: localChain, transport, account: privateKeyToAccount(privateKey) }).extend(
      publicActions,
    );
  return {
    rpcUrl: chain.rpcUrl,
    publicClient,
    testClient,
    operator: wallet(DEV_OPERATOR.privateKey),
    players: DEV_PLAYERS.map((player) => wallet(player.privateKey)),
    /** Moves chain time forward and mines a block, so the chain-following server clock moves too. */
    async advanceTime(seconds: number) {
      await testClient.increaseTime({ seconds });
      await testClient.mine({ blocks: 1 });
    },
    stop: () => chain.stop(),
  };
}

export type TestChain = Awaited<ReturnType<typeof startTestChain>>;
