import { decodeIntent, encodeIntent } from '@pm/core/intent';
import { depositCall } from '@pm/escrow/deposit-call';
import { roundDepositTerms } from '@pm/escrow/deposit-terms';
import { parseEther, stringToHex } from 'viem';
import { describe, expect, test } from 'vitest';
import { depositPaymentCall, plainTransferCall } from './payment-call.ts';

const to = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const;
const bet = { kind: 'bet', marketId: 7, prediction: 'NO' } as const;

describe('plainTransferCall', () => {
  test('a plain transfer sends its amount to its account with its intent as data', () => {
    const call = plainTransferCall({ to, intent: bet, amountWei: parseEther('0.02') });
    expect(call).toEqual({ to, value: parseEther('0.02'), data: encodeIntent(bet) });
    expect(decodeIntent(call.data)).toEqual(bet);
  });

  test('a payment without an intent is a plain transfer with no data', () => {
    expect(plainTransferCall({ to, intent: null, amountWei: 1n }).data).toBeUndefined();
  });

  test('each override changes one thing and leaves the rest as the request will claim', () => {
    const payment = { to, intent: bet, amountWei: parseEther('0.01') };
    const stranger = '0x00000000000000000000000000000000000f0a7d';
    expect(plainTransferCall(payment, { to: stranger })).toEqual({
      ...plainTransferCall(payment),
      to: stranger,
    });
    expect(plainTransferCall(payment, { value: 0n })).toEqual({ ...plainTransferCall(payment), value: 0n });
    const round = { kind: 'round', epoch: 3, position: 'bull' } as const;
    expect(decodeIntent(plainTransferCall(payment, { intent: round }).data)).toEqual(round);
    expect(plainTransferCall(payment, { intent: null }).data).toBeUndefined();
  });

  test('raw data wins over any intent, so a test can send bytes no intent encodes', () => {
    const data = stringToHex('pm1:bet:3000000000:YES');
    const call = plainTransferCall({ to, intent: bet, amountWei: 1n }, { data, intent: null });
    expect(call.data).toBe(data);
    expect(decodeIntent(call.data)).toBeNull();
  });
});

describe('depositPaymentCall', () => {
  const escrow = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const;
  const terms = roundDepositTerms(5, 1_790_000_300, 'bull');
  const deposit = { escrow, terms, amountWei: parseEther('0.01') };

  test("a round stake is the escrow's deposit call for its terms, the stake as value", () => {
    expect(depositPaymentCall(deposit)).toEqual(depositCall(escrow, terms, parseEther('0.01')));
  });

  test('each override changes one thing: payee, value, terms, raw data or no data', () => {
    const stranger = '0x00000000000000000000000000000000000f0a7d';
    const honest = depositPaymentCall(deposit);
    expect(depositPaymentCall(deposit, { to: stranger })).toEqual({ ...honest, to: stranger });
    expect(depositPaymentCall(deposit, { value: 0n })).toEqual({ ...honest, value: 0n });
    const bear = roundDepositTerms(5, 1_790_000_300, 'bear');
    expect(depositPaymentCall(deposit, { terms: bear }).data).toBe(depositCall(escrow, bear, 1n).data);
    expect(depositPaymentCall(deposit, { data: '0x1234' }).data).toBe('0x1234');
    expect(depositPaymentCall(deposit, { intent: null }).data).toBeUndefined();
  });
});
