import { formatBnbWithUnit } from '@pm/core/money';
import { createPublicClient, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type CheckOutcome, failed, passed } from './run-checks.ts';

// The chain side of the preflight (docs/operations.md "Preflight"): the RPC serves the deployment's
// chain, and the operator key has gas (the escrow itself: escrow-checks.ts).

/** A client that asks once and gives up after `timeoutMs` (the server's own retries twice). */
export function doctorChainClient(rpcUrl: string, timeoutMs: number): PublicClient {
  return createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 0 }) });
}

/** `eth_chainId` answers the deployment's CHAIN_ID; the note says which block the node is at. */
export async function checkChainId(client: PublicClient, expected: number): Promise<CheckOutcome> {
  const served = await client.getChainId();
  if (served !== expected) return failed(`it serves chain ${served}, not ${expected}`);
  const block = await client.getBlockNumber();
  return passed(`at block ${block}`);
}

/**
 * The operator key (OPERATOR_PRIVATE_KEY) is set and has gas: it pays for every settlement, relayed
 * claim and refund of a refused deposit, and holds nothing else (docs/decisions/026).
 */
export async function checkOperatorGas(
  client: PublicClient,
  operatorKey: `0x${string}` | undefined,
): Promise<CheckOutcome> {
  if (!operatorKey) {
    return failed(
      'OPERATOR_PRIVATE_KEY is not set: nothing is settled on the escrow, and claims answer 503 CLAIMS_UNAVAILABLE',
    );
  }
  const address = privateKeyToAccount(operatorKey).address;
  const balance = await client.getBalance({ address });
  if (balance === 0n) return failed(`${address} has no BNB to pay gas with`);
  return passed(`${address} holds ${bnb(balance)} for gas`);
}

/** PUBLIC_RPC_URL (what browsers' wallets read through) serves the same chain as RPC_URL. */
export async function checkPublicRpc(client: PublicClient, expected: number): Promise<CheckOutcome> {
  const served = await client.getChainId();
  if (served !== expected)
    return failed(`it serves chain ${served}, not ${expected}: wallets would pay there`);
  return passed();
}

const bnb = (wei: bigint) => formatBnbWithUnit(wei, { decimals: 18, trim: true });
