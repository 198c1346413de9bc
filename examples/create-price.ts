import { MARKET_DURATION_S, PRICE_SYMBOLS } from '@pm/core/constants';
import { priceMarketContentHash } from '@pm/core/price-market';
import { marketCreateTerms, newMarketId } from '@pm/escrow/deposit-terms';
import { postPaid, readEscrow } from './api.ts';
import { parseAmount } from './bet.ts';
import { chainNow, openWallet, sendDeposit } from './send-deposit.ts';
import { type ExampleSettings, UsageError } from './settings.ts';

// `npm run example -- create-price <COIN> <above|below> <target> <hourly|daily> <YES|NO> <amountBNB>`:
// a Price Oracle market and its creator's first bet.
// 1. the escrow from GET /api/config; 2. a fresh escrow id and the close (the chain's time + the
// duration: the server takes a close within its tolerance of the deposit's block time and records it
// as the deadline); 3. one deposit (kind create) committing to the terms' content hash;
// 4. POST /api/markets with the terms, the id, the close and the transaction.

export async function exampleCreatePrice(
  settings: ExampleSettings,
  args: string[],
  print: (line: string) => void,
) {
  const [coinText, comparisonText, target, durationText, sideText, amountText] = args;
  const coin = oneOf(coinText, PRICE_SYMBOLS, 'COIN');
  const comparison = oneOf(comparisonText, ['above', 'below'] as const, 'the comparison');
  if (!target || !/^\d+(\.\d+)?$/.test(target))
    throw new UsageError('the target is a USD price, e.g. 100000');
  const duration = oneOf(durationText, ['hourly', 'daily'] as const, 'the duration');
  const side = oneOf(sideText, ['YES', 'NO'] as const, 'the side');
  const amountWei = parseAmount(amountText);

  const escrow = await readEscrow(settings.apiUrl);
  const wallet = openWallet(settings, escrow);
  const terms = {
    betType: 'price_prediction' as const,
    targetSymbol: coin,
    comparisonType: comparison,
    targetPrice: target,
    duration,
  };
  const escrowId = newMarketId();
  const closesAt = (await chainNow(wallet)) + MARKET_DURATION_S[duration];
  const contentHash = priceMarketContentHash(terms);
  const txHash = await sendDeposit(
    wallet,
    marketCreateTerms({ escrowId, closesAt, contentHash, prediction: side }),
    amountWei,
  );
  print(`deposit ${txHash} (${amountText} BNB on ${side}: ${coin} ${comparison} ${target}, ${duration})`);

  const recorded = await postPaid(
    settings.apiUrl,
    '/api/markets',
    {
      ...terms,
      escrowId,
      closesAt,
      txHash,
      creatorAddress: wallet.account.address,
      prediction: side,
      amountWei: amountWei.toString(),
    },
    { onPending: () => print('waiting for the deposit to be final …') },
  );
  print(JSON.stringify(recorded));
}

/** `value` if it is one of `choices`, else a usage error naming them. */
function oneOf<T extends string>(value: string | undefined, choices: readonly T[], what: string): T {
  const found = choices.find((choice) => choice === value);
  if (found === undefined) throw new UsageError(`${what} must be one of ${choices.join(', ')}`);
  return found;
}
