import { encodeIntent } from '@pm/core/intent';
import { createWalletClient, defineChain, http, parseEther, publicActions, toHex } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { DEV_MNEMONIC, DEV_VAULT } from '../apps/server/src/config/dev-accounts.ts';

// Bets recorded per second end to end (issue 12): real transfers to the vault on the local Hardhat
// chain, each then posted to POST /api/markets/:id/bets, which verifies it on chain and records
// it. Every wallet sends its bets one after another (its nonce orders them); wallets run at once.

const WALLETS = 10;
const BETS_PER_WALLET = 20;

export async function measureEndToEndBets(input: {
  baseUrl: string;
  rpcUrl: string;
  marketId: number;
  log: (line: string) => void;
}) {
  const chain = defineChain({
    id: 31337,
    name: 'Hardhat',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [input.rpcUrl] } },
  });
  // Dev accounts #10… are never the vault (#0) nor the players the demo uses.
  const wallets = Array.from({ length: WALLETS }, (_, index) => {
    const key = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 10 + index }).getHdKey().privateKey;
    if (!key) throw new Error('no dev key');
    return createWalletClient({
      chain,
      transport: http(input.rpcUrl),
      account: privateKeyToAccount(toHex(key)),
    }).extend(publicActions);
  });
  const amountWei = parseEther('0.01');
  const data = encodeIntent({ kind: 'bet', marketId: input.marketId, prediction: 'YES' });
  let recorded = 0;
  const failures: string[] = [];
  const started = performance.now();
  await Promise.all(
    wallets.map(async (wallet) => {
      for (let bet = 0; bet < BETS_PER_WALLET; bet += 1) {
        const txHash = await wallet.sendTransaction({
          account: wallet.account,
          chain,
          to: DEV_VAULT.address,
          value: amountWei,
          data,
        });
        const response = await fetch(`${input.baseUrl}/api/markets/${input.marketId}/bets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            txHash,
            userAddress: wallet.account.address,
            prediction: 'YES',
            amountWei: amountWei.toString(),
          }),
        });
        if (response.status === 201) recorded += 1;
        else failures.push(`${response.status} ${(await response.text()).slice(0, 120)}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (failures.length > 0) input.log(`bets: ${failures.length} not recorded, first: ${failures[0]}`);
  const result = { bets: recorded, seconds, perSecond: recorded / seconds, wallets: WALLETS };
  input.log(
    `bets: ${recorded} recorded end to end in ${seconds.toFixed(1)} s (${result.perSecond.toFixed(1)}/s)`,
  );
  return result;
}
