import { formatBnbWithUnit } from '@pm/core/money';
import { createPublicClient, getAddress, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Config } from '../config/config.ts';
import { describeError } from '../errors/describe-error.ts';
import { type CheckOutcome, failed, passed } from './run-checks.ts';

// The chain side of the preflight (docs/operations.md "Preflight"): the RPC serves the deployment's
// chain, the vault key is the vault's, the vault is a plain account, and it holds what it owes.

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

/** VAULT_PRIVATE_KEY is the key of VAULT_ADDRESS: claims are paid from the address bets are paid to. */
export function checkVaultKey(vault: Config['vault']): CheckOutcome {
  if (!vault.privateKey) {
    return failed('VAULT_PRIVATE_KEY is not set: claims answer 503 CLAIMS_UNAVAILABLE until it is');
  }
  const derived = privateKeyToAccount(vault.privateKey).address;
  if (derived.toLowerCase() !== vault.address.toLowerCase()) {
    return failed(`the key is the key of ${derived}, not of VAULT_ADDRESS ${getAddress(vault.address)}`);
  }
  return passed();
}

/** EIP-7702: an account's code `0xef0100 ‖ address` delegates it to that address's code. */
const DELEGATION_PREFIX = '0xef0100';

/**
 * The vault is an account without code: a transfer to a contract runs that contract (it may revert
 * or forward the bet), and only a plain account's key can sign the payouts.
 */
export async function checkVaultHasNoCode(client: PublicClient, vault: `0x${string}`): Promise<CheckOutcome> {
  const code = await client.getCode({ address: vault });
  if (code === undefined || code === '0x') return passed();
  if (code.startsWith(DELEGATION_PREFIX) && code.length === DELEGATION_PREFIX.length + 40) {
    const target = getAddress(`0x${code.slice(DELEGATION_PREFIX.length)}`);
    return failed(`it is delegated to ${target} (EIP-7702): transfers to it run that code`);
  }
  return failed(`it has ${(code.length - 2) / 2} bytes of contract code: the vault must be a plain account`);
}

/** The vault's balance now is at least what is owed to bettors (`readLiabilitiesWei`). */
export async function checkVaultCoversLiabilities(
  client: PublicClient,
  vault: `0x${string}`,
  readLiabilitiesWei: () => Promise<bigint>,
): Promise<CheckOutcome> {
  const balance = await client.getBalance({ address: vault });
  let owed: bigint;
  try {
    owed = await readLiabilitiesWei();
  } catch (error) {
    return failed(`the liabilities could not be read: ${describeError(error)}`);
  }
  if (balance >= owed) return passed(`${bnb(balance)} ≥ ${bnb(owed)} owed`);
  return failed(`${bnb(balance)} is below the ${bnb(owed)} owed (short by ${bnb(owed - balance)})`);
}

/** PUBLIC_RPC_URL (what browsers' wallets read through) serves the same chain as RPC_URL. */
export async function checkPublicRpc(client: PublicClient, expected: number): Promise<CheckOutcome> {
  const served = await client.getChainId();
  if (served !== expected)
    return failed(`it serves chain ${served}, not ${expected}: wallets would pay there`);
  return passed();
}

const bnb = (wei: bigint) => formatBnbWithUnit(wei, { decimals: 18, trim: true });
