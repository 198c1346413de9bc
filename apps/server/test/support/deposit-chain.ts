import type { DepositTerms } from '@pm/escrow/deposit-terms';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import {
  type Address,
  createPublicClient,
  custom,
  type Hash,
  http,
  keccak256,
  type PublicClient,
  parseEther,
  parseEventLogs,
  toHex,
} from 'viem';
import { expect } from 'vitest';
import { AppError } from '../../src/errors/app-error.ts';
import { chainNow, deployEscrow } from './escrow-contracts.ts';
import { localChain, startTestChain, type TestChain } from './test-chain.ts';

// What the escrow deposit readers' tests share (src/escrow/deposits/verify-deposit.test.ts and
// scan-deposits.test.ts): a Hardhat node with a fresh escrow, a bet's terms, and the helpers both use.

/** What each test deposits unless it says otherwise. */
export const DEPOSIT_WEI = parseEther('0.01');

export type BetTerms = Extract<DepositTerms, { kind: 'bet' }>;

export type DepositChain = {
  chain: TestChain;
  escrow: Address;
  /** A bet on "market 7", YES, closing hours after the chain's start. */
  bet: BetTerms;
};

/** A fresh node with a fresh escrow (escrow-contracts.ts's deployEscrow); the caller stops the chain. */
export async function startDepositChain(): Promise<DepositChain> {
  const chain = await startTestChain();
  const escrow = await deployEscrow(chain);
  const bet: BetTerms = {
    kind: 'bet',
    market: keccak256(toHex('market 7')),
    closesAt: (await chainNow(chain)) + 6 * 3600,
    prediction: 'YES',
  };
  return { chain, escrow, bet };
}

/** Dev player `index`'s wallet. */
export function playerOf(chain: TestChain, index: number) {
  const wallet = chain.players[index];
  if (!wallet) throw new Error(`no player ${index}`);
  return wallet;
}

/** The stake ids a transaction's receipt holds, in log order (once it is mined). */
export async function stakeIdsOf(chain: TestChain, txHash: Hash): Promise<bigint[]> {
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash: txHash, pollingInterval: 50 });
  return parseEventLogs({ abi: predictionEscrowAbi, eventName: 'Deposited', logs: receipt.logs }).map(
    (log) => log.args.stakeId,
  );
}

/** `promise` rejects with an AppError of `code`. */
export async function expectCode(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error instanceof AppError && error.code).toBe(code);
}

/** A client whose node answers `method` through `rewrite` (a node that lies); every other call as it is. */
export function nodeRewriting(
  chain: TestChain,
  method: string,
  rewrite: (answer: unknown) => unknown,
): PublicClient {
  const node = http(chain.rpcUrl)({ chain: localChain, retryCount: 0 });
  return createPublicClient({
    chain: localChain,
    transport: custom(
      {
        async request({ method: called, params }: { method: string; params?: unknown }) {
          const answer = await node.request({ method: called, params });
          return called === method ? rewrite(answer) : answer;
        },
      },
      { retryCount: 0 },
    ),
  });
}
