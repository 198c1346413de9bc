import { CreateMarketBodySchema, JoinMarketBodySchema } from '@pm/core/contract/markets';
import { PlaceOracleBetBodySchema } from '@pm/core/contract/oracle';
import { FlagMarketBodySchema } from '@pm/core/contract/review';
import { marketContentHash } from '@pm/core/intent';
import { depositCall } from '@pm/escrow/deposit-call';
import {
  flagBondTerms,
  marketBetTerms,
  marketCreateTerms,
  roundDepositTerms,
} from '@pm/escrow/deposit-terms';
import { parseEther } from 'viem';
import { describe, expect, test } from 'vitest';
import type { ApiRequest } from './api-transport.ts';
import { payAndPostBet } from './pay-and-post-bet.ts';
import { payAndPostFlag } from './pay-and-post-flag.ts';
import { payAndPostMarket } from './pay-and-post-market.ts';
import { payAndPostOracleBet } from './pay-and-post-oracle-bet.ts';
import type { PaymentCall } from './payer.ts';

// The driver's choices without a chain: what each payment commits to and what each request says.
// The payments themselves go to a real chain in every suite that uses the driver.

const escrow = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const;
const lockTime = 1_790_000_300;
const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;
const txHash = `0x${'ab'.repeat(32)}` as const;
/** Market 4 as GET /api/markets/4 publishes it for a deposit. */
const market4 = { marketId: 4, escrowId: `0x${'34'.repeat(32)}`, closesAt: 1_790_000_600 } as const;

function recorder() {
  const calls: PaymentCall[] = [];
  const requests: ApiRequest[] = [];
  return {
    calls,
    requests,
    clients: {
      escrow,
      payer: {
        address,
        send: async (call: PaymentCall) => {
          calls.push(call);
          return txHash;
        },
      },
      api: async (request: ApiRequest) => {
        requests.push(request);
        return request.path;
      },
    },
  } as const;
}

describe('pay and post', () => {
  test('a market is a create deposit under a fresh id and the close asked for, posted as the contract reads it', async () => {
    const { calls, requests, clients } = recorder();
    const terms = { category: 'sports', duration: 'daily', description: 'Will they win?' } as const;
    const payer = { ...clients.payer, nowS: async () => 1_790_000_000 };
    const posted = await payAndPostMarket(
      { ...clients, payer },
      { terms, prediction: 'NO', amountWei: parseEther('0.01') },
    );
    const body = CreateMarketBodySchema.parse(requests[0]?.body);
    expect(body).toMatchObject({ ...terms, creatorAddress: address, closesAt: 1_790_000_000 + 86_400 });
    expect(body.escrowId).toMatch(/^0x[0-9a-f]{64}$/);
    const deposit = marketCreateTerms({
      escrowId: body.escrowId as `0x${string}`,
      closesAt: body.closesAt,
      contentHash: marketContentHash(terms),
      prediction: 'NO',
    });
    expect(calls[0]).toEqual(depositCall(escrow, deposit, parseEther('0.01')));
    expect(posted).toMatchObject({ response: '/api/markets', txHash });
  });

  test('a market order that names its id and close deposits and posts exactly those', async () => {
    const { requests, clients } = recorder();
    const escrowId = `0x${'12'.repeat(32)}` as const;
    await payAndPostMarket(clients, {
      terms: { category: 'crypto', duration: 'hourly', description: 'Up?' },
      prediction: 'YES',
      amountWei: 1n,
      escrowId,
      closesAt: 1_790_003_600,
    });
    expect(requests[0]?.body).toMatchObject({ escrowId, closesAt: 1_790_003_600 });
  });

  test('a market bet, a round bet and a flag bond each post a body their schema accepts', async () => {
    const { calls, requests, clients } = recorder();
    await payAndPostBet(clients, { ...market4, prediction: 'YES', amountWei: 10n ** 16n });
    await payAndPostOracleBet(clients, { epoch: 9, lockTime, position: 'bear', amountWei: 10n ** 16n });
    const flag = {
      address,
      reason: 'Wrong source.',
      expiry: 1_900_000_000,
      signature: `0x${'1'.repeat(130)}`,
    } as const;
    await payAndPostFlag(clients, { ...market4, amountWei: 10n ** 16n, flag });
    // A market bet is a deposit under the market's escrow id and close, as a round bet is.
    expect(calls[0]).toEqual(depositCall(escrow, marketBetTerms(market4, 'YES'), 10n ** 16n));
    // The bond is a dispute deposit into the market's own key (decision 026): the one encoder's call.
    expect(calls[2]).toEqual(depositCall(escrow, flagBondTerms(market4), 10n ** 16n));
    // The round bet is a deposit into the escrow: the one encoder's call for the round's terms.
    expect(calls[1]).toEqual(depositCall(escrow, roundDepositTerms(9, lockTime, 'bear'), 10n ** 16n));
    expect(requests.map((request) => request.path)).toEqual([
      '/api/markets/4/bets',
      '/api/oracle/bets',
      '/api/markets/4/flags',
    ]);
    JoinMarketBodySchema.parse(requests[0]?.body);
    PlaceOracleBetBodySchema.parse(requests[1]?.body);
    FlagMarketBodySchema.parse(requests[2]?.body);
  });

  test('a given hash is posted without paying, and body overrides are sent as they are', async () => {
    const { calls, requests, clients } = recorder();
    const other = `0x${'cd'.repeat(32)}` as const;
    const posted = await payAndPostBet(
      clients,
      { ...market4, prediction: 'YES', amountWei: 1n },
      { txHash: other, body: { amountWei: '0', extra: true } },
    );
    expect(calls).toEqual([]);
    expect(posted.txHash).toBe(other);
    expect(requests[0]?.body).toMatchObject({ txHash: other, amountWei: '0', extra: true });
  });

  test('payment overrides reach the transaction and leave the body alone', async () => {
    const { calls, requests, clients } = recorder();
    await payAndPostOracleBet(
      clients,
      { epoch: 2, lockTime, position: 'bull', amountWei: 100n },
      { pay: { value: 1n, intent: null } },
    );
    expect(calls[0]).toEqual({ to: escrow, value: 1n, data: undefined });
    expect(requests[0]?.body).toMatchObject({ amountWei: '100' });
  });

  test('a round bet needs the escrow: without its address nothing is paid', async () => {
    const { calls, clients } = recorder();
    const { escrow: _escrow, ...withoutEscrow } = clients;
    await expect(
      payAndPostOracleBet(withoutEscrow, { epoch: 2, lockTime, position: 'bull', amountWei: 100n }),
    ).rejects.toThrow(/escrow/);
    expect(calls).toEqual([]);
  });
});
