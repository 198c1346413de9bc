import { createPublicClient, createTestClient, http, keccak256, parseEther, stringToHex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { rpcUrl } from './fixtures.ts';

// The local chain from a test's side: read balances, move time. The server's clock follows the
// chain's (CLOCK=chain on 31337), so moving chain time moves deadlines and rounds too.

export async function balanceOf(address: `0x${string}`): Promise<bigint> {
  return createPublicClient({ transport: http(rpcUrl()) }).getBalance({ address });
}

/** Moves chain time forward and mines a block; the server follows within a second. */
export async function advanceChainTime(seconds: number): Promise<void> {
  const client = createTestClient({ mode: 'hardhat', transport: http(rpcUrl()) });
  await client.increaseTime({ seconds });
  await client.mine({ blocks: 1 });
}

/** Sets what the stub AI judge answers next (see global-setup.ts). */
export async function setAiVerdict(verdict: {
  verdict: 'YES' | 'NO' | 'UNDECIDABLE';
  confidence: number;
  analysis: string;
}): Promise<void> {
  const url = process.env.E2E_AI_URL;
  if (!url) throw new Error('E2E_AI_URL is not set');
  const response = await fetch(`${url}/__verdict`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sources: ['https://example.com/evidence'], ...verdict }),
  });
  if (!response.ok) throw new Error(`the AI stub answered ${response.status}`);
}

/** Puts code at an address (a contract wallet), or removes it with '0x'. */
export async function setCode(address: `0x${string}`, bytecode: `0x${string}`): Promise<void> {
  await createTestClient({ mode: 'hardhat', transport: http(rpcUrl()) }).setCode({ address, bytecode });
}

/**
 * A new account of its own, funded with 100 BNB and unlocked on the node (impersonated), so a spec
 * that claims or counts bets shares no history with the specs using the 20 dev accounts.
 */
export async function fundedFreshAccount(label: string): Promise<`0x${string}`> {
  const address = privateKeyToAddress(keccak256(stringToHex(`e2e:${label}`)));
  const client = createTestClient({ mode: 'hardhat', transport: http(rpcUrl()) });
  await client.impersonateAccount({ address });
  await client.setBalance({ address, value: parseEther('100') });
  return address;
}
