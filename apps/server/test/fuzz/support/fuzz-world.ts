import { CreateMarketResponseSchema, JoinMarketResponseSchema } from '@pm/core/contract/markets';
import { OperatorNonceResponseSchema, operatorTypedData } from '@pm/core/contract/operator';
import { type Hash, parseEther, stringToHex } from 'viem';
import { DEV_OPERATOR, DEV_PLAYERS } from '../../../src/config/dev-accounts.ts';
import { deposit } from '../../support/escrow-contracts.ts';
import { marketHelpers } from '../../support/market-helpers.ts';
import { liveRound } from '../../support/oracle-fixtures.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { createErrorCapture } from './fuzz-report.ts';

const ROUND_INTERVAL_S = 600;

/**
 * The app a fuzz file attacks, with something real in it: a market with a creator's bet and a
 * joined bet, a live round with a bet, a price sample, an operator. The fuzzer then mixes the
 * real ids, addresses and transaction hashes into hostile requests, so requests reach past the
 * first lookup. Refused payments answer at once (PAYMENT_WAIT_MS=0).
 */
export async function startFuzzWorld() {
  const errors = createErrorCapture();
  const operator = DEV_PLAYERS[0];
  if (!operator) throw new Error('no dev player for the operator');
  const t: TestApp = await startTestApp(
    {
      PAYMENT_WAIT_MS: '0',
      OPERATOR_ADDRESSES: operator.address,
      ROUND_INTERVAL_S: String(ROUND_INTERVAL_S),
      // The whole run reads the one sample taken at the start.
      ORACLE_MAX_AGE_S: '86400',
    },
    { logger: errors.logger },
  );
  const m = marketHelpers(t);
  const stranger = () => m.extraWallet(5);

  // Just after a round boundary, so the live round stays open for the whole run.
  const live = await liveRound(t);

  const create = await m.postCreate({ title: 'Fuzz', description: 'Will the fuzzer find a 5xx?' });
  if (create.response.statusCode !== 201) throw new Error(`create answered ${create.response.body}`);
  const created = CreateMarketResponseSchema.parse(create.response.json());
  const marketId = created.market.id;
  const join = await m.postJoin(marketId, { player: 1, prediction: 'NO' });
  if (join.response.statusCode !== 201) throw new Error(`join answered ${join.response.body}`);
  const joined = JoinMarketResponseSchema.parse(join.response.json());

  const oracle = await m.postOracleBet(live.epoch, { player: 2, position: 'bull' });
  if (oracle.response.statusCode !== 201) throw new Error(`oracle bet answered ${oracle.response.body}`);
  // Round stakes are deposits into the escrow (decision 026). One refused at the door (below the
  // minimum: owed back by the escrow) and one of a kind rounds never take (a market's bet): no
  // request may ever turn either into a round bet.
  const refused = await m.postOracleBet(live.epoch, {
    wallet: m.extraWallet(7),
    position: 'bear',
    amountWei: parseEther('0.001'),
  });
  if (refused.response.statusCode !== 400)
    throw new Error(`a small round bet answered ${refused.response.body}`);
  const escrow = t.config.escrow.address;
  if (!escrow) throw new Error('the test app deploys an escrow');
  const otherKindTx = await deposit(
    stranger(),
    escrow,
    {
      kind: 'bet',
      market: live.market.id,
      closesAt: live.lockTime,
      prediction: 'YES',
    },
    parseEther('0.01'),
  );

  // Real transactions that no request may ever turn into a bet: to another address, and to the
  // vault with data that is no intent.
  const strayTx = await m.pay(stranger(), { kind: 'bet', marketId, prediction: 'YES' }, parseEther('0.01'), {
    to: m.extraWallet(6).account.address,
  });
  const noIntentTx = await m.pay(stranger(), null, parseEther('0.01'), {
    data: stringToHex('pm1:bet:1:MAYBE'),
  });

  // Operator signatures that are valid for one action, to be sent to the other one only.
  const operatorWallet = m.player(0);
  const nonceAnswer = await t.app.inject({ method: 'GET', url: '/api/admin/nonce' });
  const { nonce, expiry } = OperatorNonceResponseSchema.parse(nonceAnswer.json());
  const signatureFor = async (action: 'oracle.genesis' | 'oracle.reset') =>
    operatorWallet.signTypedData({
      account: operatorWallet.account,
      ...operatorTypedData({ chainId: t.config.chain.id, action, nonce, expiry }),
    });

  const txHashes: Hash[] = [
    create.txHash,
    join.txHash,
    oracle.txHash,
    refused.txHash,
    otherKindTx,
    strayTx,
    noIntentTx,
  ];
  const addresses = [
    ...t.chain.players.map((wallet) => wallet.account.address),
    stranger().account.address,
    DEV_OPERATOR.address,
    escrow,
  ];
  return {
    t,
    errors,
    marketId,
    epoch: live.epoch,
    betIds: [created.bet.id, joined.bet.id],
    txHashes,
    addresses,
    operator: {
      address: operator.address,
      nonce,
      expiry,
      /** Signs `genesis`: valid, but only ever sent to /reset. */
      genesisSignature: await signatureFor('oracle.genesis'),
      /** Signs `reset`: valid, but only ever sent to /genesis. */
      resetSignature: await signatureFor('oracle.reset'),
    },
    /** The bodies that were recorded: sent again as they are, they answer what was recorded. */
    replays: {
      create: create.payload,
      join: join.payload,
      oracle: oracle.payload,
    },
    close: () => t.close(),
  };
}

export type FuzzWorld = Awaited<ReturnType<typeof startFuzzWorld>>;
