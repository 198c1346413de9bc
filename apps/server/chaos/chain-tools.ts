import { CHAIN_ID } from '@pm/core/constants';
import type { Payer, PaymentCall } from '@pm/pay-and-post/payer';
import { createPublicClient, createTestClient, createWalletClient, defineChain, type Hash, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { DEV_PLAYERS } from '../src/config/dev-accounts.ts';
import { sleep } from './server-process.ts';

// The harness talks to the Hardhat node directly (never through the fault proxy): its own view of
// the chain is the truth the invariants are checked against.

const chaosChain = defineChain({
  id: CHAIN_ID.local,
  name: 'Local Hardhat',
  nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
});

/**
 * Sending transactions shares this lock; a reorg takes it alone, so the only payment it rewrites
 * is the one it made for that purpose.
 */
function createChainLock() {
  let readers = 0;
  let writer = false;
  const waiters: Array<() => void> = [];
  const wake = () => {
    for (const resolve of waiters.splice(0)) resolve();
  };
  return {
    async shared<T>(work: () => Promise<T>): Promise<T> {
      while (writer) await new Promise<void>((resolve) => waiters.push(resolve));
      readers += 1;
      try {
        return await work();
      } finally {
        readers -= 1;
        wake();
      }
    },
    async exclusive<T>(work: () => Promise<T>): Promise<T> {
      while (writer || readers > 0) await new Promise<void>((resolve) => waiters.push(resolve));
      writer = true;
      try {
        return await work();
      } finally {
        writer = false;
        wake();
      }
    },
  };
}

export function createChainTools(rpcUrl: string) {
  const transport = http(rpcUrl, { timeout: 30_000 });
  const publicClient = createPublicClient({ chain: chaosChain, transport });
  const testClient = createTestClient({ chain: chaosChain, mode: 'hardhat', transport });
  const lock = createChainLock();
  const players = DEV_PLAYERS.map((player) => {
    const wallet = createWalletClient({
      chain: chaosChain,
      transport,
      account: privateKeyToAccount(player.privateKey),
    });
    // One transaction at a time per wallet: nonces come from the chain, so two at once would clash.
    let queue: Promise<unknown> = Promise.resolve();
    const send = (call: PaymentCall): Promise<Hash> => {
      const run = queue.then(() =>
        lock.shared(() => wallet.sendTransaction({ account: wallet.account, ...call })),
      );
      queue = run.catch(() => {});
      return run;
    };
    /** For the reorg only, which holds the chain lock alone (so no send of this wallet is in flight). */
    const unlocked: Payer = {
      address: player.address,
      send: (call) => wallet.sendTransaction({ account: wallet.account, ...call }),
    };
    return { address: player.address, send, unlocked } satisfies Payer & { unlocked: Payer };
  });

  const rpc = async (method: string, params: unknown[] = []): Promise<unknown> => {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(30_000),
    });
    const body = z
      .object({ result: z.unknown().optional(), error: z.object({ message: z.string() }).optional() })
      .parse(await response.json());
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };

  /** Chain time now, as the server's chain clock computes it (wall time + Hardhat's offset). */
  const chainNowS = async (): Promise<number> => {
    const offset = z.coerce.number().parse(await rpc('evm_increaseTime', [0]));
    return Math.floor(Date.now() / 1000) + offset;
  };

  let tickerStopped = true;
  let tickerRun: Promise<void> = Promise.resolve();
  /**
   * Blocks keep coming, as on BSC, so payments become final (CONFIRMATIONS) without the next
   * payment. A block is mined only when the head is behind chain time, so the ticker never pushes
   * block timestamps ahead of the clock.
   */
  const startTicker = (everyMs: number) => {
    if (!tickerStopped) return;
    tickerStopped = false;
    tickerRun = (async () => {
      while (!tickerStopped) {
        await sleep(everyMs);
        await lock
          .shared(async () => {
            const head = await publicClient.getBlock({ blockTag: 'latest' });
            if (Number(head.timestamp) < (await chainNowS())) await rpc('evm_mine');
          })
          .catch(() => {});
      }
    })();
  };
  const stopTicker = async () => {
    tickerStopped = true;
    await tickerRun;
  };

  return {
    rpcUrl,
    publicClient,
    testClient,
    players,
    lock,
    rpc,
    chainNowS,
    startTicker,
    stopTicker,
    /** Moves chain time (and so the server's clock) forward and mines a block. */
    async advanceTime(seconds: number) {
      await lock.shared(async () => {
        await rpc('evm_increaseTime', [seconds]);
        await rpc('evm_mine');
      });
    },
    async mine(blocks = 1) {
      await lock.shared(async () => {
        for (let i = 0; i < blocks; i++) await rpc('evm_mine');
      });
    },
  };
}

export type ChainTools = ReturnType<typeof createChainTools>;
