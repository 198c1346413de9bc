import type { DepositCall } from '@pm/escrow/deposit-call';
import { type DepositTerms, depositArgs } from '@pm/escrow/deposit-terms';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import type { Address, Hash } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { DEV_MNEMONIC } from '../../src/config/dev-accounts.ts';
import { batchAccountAbi, batchAccountBytecode } from './batch-account.gen.ts';
import type { TestChain } from './test-chain.ts';
import { deployTestEscrow } from './test-escrow.ts';

// The escrow contract (packages/escrow) and a smart-account wallet on a server test's chain.

/** Dev accounts no test pays from, for the roles a deposit never meets. */
const role = (addressIndex: number) => mnemonicToAccount(DEV_MNEMONIC, { addressIndex }).address;

type Wallet = TestChain['operator'];

/**
 * A fresh PredictionEscrow, deployed by the test chain's operator account (#0) as its admin, with
 * operator, guardian and treasury roles no test pays from, and a ten-minute payout delay.
 */
export function deployEscrow(chain: TestChain): Promise<Address> {
  return deployTestEscrow(chain, {
    operator: role(16),
    guardian: role(17),
    treasury: role(18),
    minPayoutDelay: 600,
  });
}

/** A smart account (chain/contracts/BatchAccount.sol) that `owner` drives. */
export async function deployBatchAccount(chain: TestChain, owner: Wallet): Promise<Address> {
  const hash = await owner.deployContract({
    abi: batchAccountAbi,
    bytecode: batchAccountBytecode,
    args: [owner.account.address],
  });
  return deployedAt(chain, hash);
}

/** The chain's time now: what a deposit's close is measured from. */
export async function chainNow(chain: TestChain): Promise<number> {
  return Number((await chain.publicClient.getBlock({ blockTag: 'latest' })).timestamp);
}

/** `wallet` deposits `value` into `escrow` for `terms`, as a wallet does. */
export function deposit(wallet: Wallet, escrow: Address, terms: DepositTerms, value: bigint): Promise<Hash> {
  return wallet.writeContract({
    address: escrow,
    abi: predictionEscrowAbi,
    functionName: 'deposit',
    args: depositArgs(terms),
    value,
  });
}

/** One call of a smart account's batch: a deposit of `value` into `escrow` for `terms` (the one encoder). */
export { depositCall } from '@pm/escrow/deposit-call';

/**
 * `owner` has `account` make `calls` in one transaction. `account` is a BatchAccount, or `owner`'s own
 * address delegated to one (EIP-7702): then the transaction is sent to itself.
 */
export function executeBatch(owner: Wallet, account: Address, calls: DepositCall[]): Promise<Hash> {
  return owner.writeContract({
    address: account,
    abi: batchAccountAbi,
    functionName: 'execute',
    args: [calls],
    value: calls.reduce((sum, call) => sum + call.value, 0n),
  });
}

async function deployedAt(chain: TestChain, hash: Hash): Promise<Address> {
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (!receipt.contractAddress) throw new Error(`deploy ${hash} made no contract`);
  return receipt.contractAddress;
}
