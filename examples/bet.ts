import { marketBetTerms } from '@pm/escrow/deposit-terms';
import { type Hex, parseEther } from 'viem';
import { getJson, postPaid, readEscrow } from './api.ts';
import { openWallet, sendDeposit } from './send-deposit.ts';
import { type ExampleSettings, UsageError } from './settings.ts';

// `npm run example -- bet <marketId> <YES|NO> <amountBNB>`: a bet on an open Predictions market.
// 1. the escrow from GET /api/config; 2. the market's escrowId and closesAt from GET /api/markets/:id;
// 3. one deposit (kind bet) into the escrow; 4. POST /api/markets/:id/bets with its transaction.

type MarketTerms = { id: number; status: string; escrowId: Hex | null; closesAt: number };

export async function exampleBet(settings: ExampleSettings, args: string[], print: (line: string) => void) {
  const [idText, side, amountText] = args;
  const marketId = Number(idText);
  if (!Number.isSafeInteger(marketId) || marketId <= 0)
    throw new UsageError("marketId must be a market's number");
  if (side !== 'YES' && side !== 'NO') throw new UsageError('the side must be YES or NO');
  const amountWei = parseAmount(amountText);

  const escrow = await readEscrow(settings.apiUrl);
  const { market } = (await getJson(settings.apiUrl, `/api/markets/${marketId}`)) as { market: MarketTerms };
  if (market.status !== 'active')
    throw new Error(`Market ${marketId} is ${market.status}: it takes no bets.`);
  if (!market.escrowId) throw new Error(`Market ${marketId} predates the escrow contract: it takes no bets.`);

  const wallet = openWallet(settings, escrow);
  const terms = marketBetTerms({ escrowId: market.escrowId, closesAt: market.closesAt }, side);
  const txHash = await sendDeposit(wallet, terms, amountWei);
  print(`deposit ${txHash} (${amountText} BNB on ${side}, market ${marketId}, escrow ${escrow.address})`);

  const recorded = await postPaid(
    settings.apiUrl,
    `/api/markets/${marketId}/bets`,
    { txHash, userAddress: wallet.account.address, prediction: side, amountWei: amountWei.toString() },
    { onPending: () => print('waiting for the deposit to be final …') },
  );
  print(JSON.stringify(recorded));
}

export function parseAmount(text: string | undefined): bigint {
  if (!text || !/^\d+(\.\d{1,18})?$/.test(text)) throw new UsageError('the amount is BNB, e.g. 0.01');
  const wei = parseEther(text);
  if (wei <= 0n) throw new UsageError('the amount must be more than 0');
  return wei;
}
