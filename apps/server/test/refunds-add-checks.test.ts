import { eq } from 'drizzle-orm';
import { type Hash, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { payments } from '../src/db/schema.ts';
import { paymentsCommands } from '../src/ops/payments-commands.ts';
import { runOps } from './support/ops-helpers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Security review 2, N9: `refunds:add` checked only that the transaction succeeded, so an operator
// (or whoever talked one into it) could owe a refund for a transfer that went elsewhere, for more
// than arrived, or for one not final yet. Three confirmations here, so finality can be waited for.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CONFIRMATIONS: '3' });
});
afterAll(() => t?.close());

const ops = (...argv: string[]) => runOps(t, paymentsCommands, ...argv);
const payer = () => {
  const wallet = t.chain.players[1];
  if (!wallet) throw new Error('no player');
  return wallet;
};

async function send(to: `0x${string}`, value: bigint): Promise<Hash> {
  const wallet = payer();
  const hash = await wallet.sendTransaction({ account: wallet.account, chain: wallet.chain, to, value });
  await t.chain.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}
const finalize = () => t.chain.testClient.mine({ blocks: 3 });
const row = async (hash: Hash) => (await t.db.select().from(payments).where(eq(payments.txHash, hash)))[0];
/** `refunds:add <hash> <payer> <amount> --reason <reason>`, plus any flags. */
const addRefund = (hash: Hash, amountWei: bigint, reason = 'x', ...flags: string[]) =>
  ops('refunds:add', hash, payer().account.address, amountWei.toString(), '--reason', reason, ...flags);

describe('refunds:add checks the transfer it owes back', () => {
  test('a transfer that went to another address is refused', async () => {
    const hash = await send(t.chain.players[2]?.account.address ?? '0x', parseEther('0.02'));
    await finalize();
    const result = await addRefund(hash, parseEther('0.02'));
    expect(result.code).toBe(64);
    expect(result.output).toMatch(/the vault received nothing in it/);
    expect(await row(hash)).toBeUndefined();
  });

  test('more than the vault received is refused; --force owes it anyway, said on the row', async () => {
    const hash = await send(t.config.vault.address, parseEther('0.01'));
    await finalize();
    const tooMuch = parseEther('0.5');
    const refused = await addRefund(hash, tooMuch);
    expect(refused.code).toBe(64);
    expect(refused.output).toMatch(
      /500000000000000000 wei is more than the vault received in it \(10000000000000000 wei\)/,
    );
    expect(await row(hash)).toBeUndefined();

    const forced = await addRefund(hash, tooMuch, 'checked by hand', '--force');
    expect(forced.code).toBe(0);
    expect(forced.output).toMatch(/^Forced past: .*more than the vault received/);
    expect(await row(hash)).toMatchObject({
      status: 'refund_due',
      refundReason: 'OPERATOR (forced): checked by hand',
    });
  });

  test('a transfer not final yet is refused until it is', async () => {
    const hash = await send(t.config.vault.address, parseEther('0.01'));
    const early = await addRefund(hash, parseEther('0.01'));
    expect(early.code).toBe(64);
    expect(early.output).toMatch(/is not final yet/);
    await finalize();
    const final = await addRefund(hash, parseEther('0.01'));
    expect(final.code).toBe(0);
    expect(await row(hash)).toMatchObject({
      status: 'refund_due',
      amount: parseEther('0.01'),
      refundReason: 'OPERATOR: x',
    });
  });
});
