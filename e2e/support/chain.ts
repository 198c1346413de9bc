import { createPublicClient, createTestClient, http, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
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

/** Sets what the stub AI answers the Analyze button next (see global-setup.ts). */
export async function setAiAnalysis(analysis: {
  decidable: boolean;
  problems: { kind: string; detail: string }[];
  suggestedInstructions: string;
}): Promise<void> {
  const url = process.env.E2E_AI_URL;
  if (!url) throw new Error('E2E_AI_URL is not set');
  const response = await fetch(`${url}/__analysis`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(analysis),
  });
  if (!response.ok) throw new Error(`the AI stub answered ${response.status}`);
}

/**
 * A new address no other spec has used, funded with 10 BNB and impersonated on the node (so the
 * test wallet's eth_sendTransaction works without a key; it cannot sign typed data). For a spec
 * that claims "everything claimable" and checks the amount to the wei.
 */
export async function freshAccount(): Promise<`0x${string}`> {
  const { address } = privateKeyToAccount(generatePrivateKey());
  const client = createTestClient({ mode: 'hardhat', transport: http(rpcUrl()) });
  await client.impersonateAccount({ address });
  await client.setBalance({ address, value: parseEther('10') });
  return address;
}
