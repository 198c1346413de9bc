import type { ClaimResponse } from '@pm/core/contract/claims';
import type { EscrowClaim } from '@pm/core/contract/payout-lists';
import type { ClaimableOracleBet, ClaimableResponse } from '@pm/core/contract/users';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Language } from '#i18n/translate.ts';
import { startTestApi, type TestApiAnswer } from '#testing/test-api.ts';
import { renderWithApp, TEST_ACCOUNT } from '#testing/test-app.tsx';
import { startTestChain, type TestChain } from '#testing/test-chain.ts';
import { dismissToast, getToasts } from '#ui/toast.ts';
import { ClaimableCard } from './claimable-card.tsx';

// A round's payout the server's relay did not pay is offered to the wallet's own claim on the
// escrow (decision 026 "Claim"), and a credit is withdrawn. The API is a loopback stand-in; the chain is a
// loopback JSON-RPC node with the escrow (testing/test-chain.ts), which the mock wallet sends to.

const MINUTE = 60_000;
const OWNER = TEST_ACCOUNT;

let api: Awaited<ReturnType<typeof startTestApi>>;
let chain: TestChain;
let claimable: ClaimableResponse;
let claimAnswer: TestApiAnswer;
const requests: string[] = [];

beforeAll(async () => {
  api = await startTestApi((request) => {
    requests.push(`${request.method} ${request.url}`);
    if (request.method === 'POST') return claimAnswer;
    return { body: claimable };
  });
});
afterAll(() => api.close());
beforeEach(async () => {
  chain = await startTestChain();
  window.localStorage.clear();
  requests.length = 0;
  claimable = response([]);
  claimAnswer = {
    status: 500,
    body: { error: { code: 'PAYOUT_FAILED', message: 'Failed to claim winnings' } },
  };
});
afterEach(async () => {
  cleanup();
  act(() => {
    for (const shown of getToasts()) dismissToast(shown.id);
  });
  await chain.close();
});

function escrowClaim(stakeId: number, overrides: Partial<EscrowClaim> = {}): EscrowClaim {
  return {
    market: `0x${'ab'.repeat(32)}`,
    stakeId: String(stakeId),
    owner: OWNER,
    amountWei: '50000000000000000',
    payoutWei: '80000000000000000',
    proof: [`0x${'11'.repeat(32)}`],
    claimableAt: new Date(Date.now() - MINUTE).toISOString(),
    refund: false,
    ...overrides,
  };
}

function bet(id: number, epoch: number, claim: EscrowClaim | null): ClaimableOracleBet {
  return {
    id,
    epoch,
    userAddress: OWNER.toLowerCase(),
    position: 'bull',
    amountWei: claim?.amountWei ?? '50000000000000000',
    returnWei: claim?.payoutWei ?? '80000000000000000',
    profitWei: '30000000000000000',
    claimed: false,
    roundResult: 'bull',
    txHash: `0x${String(id).padStart(64, '0')}`,
    createdAt: '2026-11-26T12:00:00.000Z',
    escrowClaim: claim,
  };
}

function response(bets: ClaimableOracleBet[]): ClaimableResponse {
  const totalWei = bets.reduce((sum, each) => sum + BigInt(each.returnWei ?? '0'), 0n).toString();
  return {
    markets: { totalWei: '0', count: 0, bets: [] },
    oracle: { totalWei, count: bets.length, bets },
    bonds: { totalWei: '0', count: 0, bonds: [] },
  };
}

const claimed = (payoutStatus: ClaimResponse['payoutStatus']): TestApiAnswer => ({
  body: {
    success: true,
    totalWei: '80000000000000000',
    betsCount: 1,
    payoutTxHash: `0x${'ee'.repeat(32)}`,
    payoutStatus,
    message: 'ok',
  } satisfies ClaimResponse,
});

/** A won round whose stake `stakeId` is open on the chain and listed by the server. */
function wonRound(stakeId: number, epoch: number, overrides: Partial<EscrowClaim> = {}) {
  chain.openStakes.add(String(stakeId));
  return bet(stakeId, epoch, escrowClaim(stakeId, overrides));
}

async function renderCard(options: { language?: Language; escrow?: boolean } = {}) {
  await renderWithApp(<ClaimableCard address={OWNER} />, {
    connectedAs: OWNER,
    rpcUrl: chain.url,
    language: options.language ?? 'en',
    config: {
      serverTime: new Date().toISOString(),
      escrow: options.escrow === false ? null : { address: chain.escrow, chainId: 31337 },
    },
  });
  return screen.getByRole('region', {
    name: options.language === 'zh' ? '可领取奖金' : 'Claimable winnings',
  });
}

/** Keeps a relay of stake `stakeId` asked `agoMs` ago with `outcome`, as an earlier visit left it. */
function relayedBefore(claim: EscrowClaim, epoch: number, outcome: string, agoMs: number) {
  window.localStorage.setItem(
    `pm.relayedRoundClaims.${OWNER.toLowerCase()}`,
    JSON.stringify([{ epoch, at: Date.now() - agoMs, outcome, claim }]),
  );
}

const selfClaimButton = (epoch: number) =>
  screen.queryByRole('button', { name: new RegExp(`^Claim with my wallet: round #${epoch},`) });

// A wallet claim waits on the wallet client's receipt polling (4 s): more than the default 5 s per test
// on a busy machine.
describe('ClaimableCard: the wallet claims from the escrow itself', { timeout: 20_000 }, () => {
  test('Nothing is offered before the server was asked, however claimable the stake', async () => {
    claimable = response([wonRound(7, 101)]);
    const card = await renderCard();
    expect(await within(card).findByRole('button', { name: 'Claim' })).toBeVisible();
    // The credits read is the self-claim part's first call: it has loaded.
    await waitFor(() => expect(chain.methods).toContain('eth_call'));
    expect(selfClaimButton(101)).toBeNull();
  });

  test('After the relay fails: "Claim with my wallet" sends claim(Claim), shows its progress and refreshes the list', async () => {
    claimable = response([wonRound(7, 101)]);
    const card = await renderCard();
    await userEvent.click(await within(card).findByRole('button', { name: 'Claim' }));
    const button = await screen.findByRole('button', {
      name: 'Claim with my wallet: round #101, 0.0800 BNB',
    });
    expect(within(card).getByText(/The server has not paid these yet/)).toBeVisible();

    const receipts = chain.holdReceipts();
    const claimableReads = requests.filter((line) => line.startsWith('GET')).length;
    await userEvent.click(button);
    await waitFor(() =>
      expect(within(card).getByRole('status')).toHaveTextContent(
        'Transaction submitted. Waiting for confirmation…',
      ),
    );
    receipts.release();
    // The receipt is asked for again at the wallet client's polling interval (4 s).
    expect(
      await within(card).findByText(
        'Confirmed: 0.0800 BNB from round #101 was paid to your wallet.',
        {},
        { timeout: 15_000 },
      ),
    ).toBeVisible();
    expect(within(card).getByRole('status')).toHaveTextContent('Confirmed: 0.0800 BNB from round #101');
    // Its button is gone with the paid stake: the keyboard lands on the outcome, not on the page.
    await waitFor(() => expect(within(card).getByRole('status')).toHaveFocus());

    expect(chain.mined).toHaveLength(1);
    const [sent] = chain.mined;
    expect(sent?.functionName).toBe('claim');
    expect(sent?.args[0]).toEqual({
      stake: { stakeId: 7n, owner: OWNER, market: `0x${'ab'.repeat(32)}`, amount: 50000000000000000n },
      payout: 80000000000000000n,
      proof: [`0x${'11'.repeat(32)}`],
    });
    // The claimable list is read again, and the paid stake is no longer offered.
    await waitFor(() =>
      expect(requests.filter((line) => line.startsWith('GET')).length).toBeGreaterThan(claimableReads),
    );
    await waitFor(() => expect(selfClaimButton(101)).toBeNull());
  });

  test('Hidden until claimableAt, then offered', async () => {
    const opensAt = Date.now() + 1500;
    claimable = response([wonRound(7, 101, { claimableAt: new Date(opensAt).toISOString() })]);
    const card = await renderCard();
    await userEvent.click(await within(card).findByRole('button', { name: 'Claim' }));
    expect(await screen.findByText('Failed to claim winnings', { exact: false })).toBeVisible();
    expect(selfClaimButton(101)).toBeNull();
    expect(
      await screen.findByRole('button', { name: /^Claim with my wallet: round #101,/ }, { timeout: 4000 }),
    ).toBeVisible();
    expect(Date.now()).toBeGreaterThanOrEqual(opensAt);
  });

  test('A relay answered "on its way" is offered at once; one with no answer only 3 minutes after it was asked', async () => {
    claimable = response([wonRound(7, 101)]);
    claimAnswer = claimed('pending');
    const card = await renderCard();
    await userEvent.click(await within(card).findByRole('button', { name: 'Claim' }));
    expect(await screen.findByRole('button', { name: /^Claim with my wallet: round #101,/ })).toBeVisible();
    cleanup();

    const claim = escrowClaim(8);
    chain.openStakes.add('8');
    claimable = response([bet(8, 102, claim)]);
    relayedBefore(claim, 102, 'sent', 2 * MINUTE);
    await renderCard();
    await waitFor(() => expect(chain.methods).toContain('eth_call'));
    expect(selfClaimButton(102)).toBeNull();
    cleanup();

    relayedBefore(claim, 102, 'sent', 3 * MINUTE + 1000);
    await renderCard();
    expect(await screen.findByRole('button', { name: /^Claim with my wallet: round #102,/ })).toBeVisible();
  });

  test('A relay answered final but whose stake is still open 3 minutes later is offered; one the chain shows paid is not', async () => {
    const open = escrowClaim(8);
    chain.openStakes.add('8');
    relayedBefore(open, 102, 'confirmed', 4 * MINUTE);
    // The server no longer lists it (its relay is under way): the claim kept at the relay is used.
    claimable = response([]);
    await renderCard();
    expect(await screen.findByRole('button', { name: /^Claim with my wallet: round #102,/ })).toBeVisible();
    cleanup();

    chain.openStakes.clear();
    await renderCard();
    await waitFor(() =>
      expect(chain.methods.filter((method) => method === 'eth_call').length).toBeGreaterThan(2),
    );
    expect(selfClaimButton(102)).toBeNull();
    // Spent on chain: forgotten.
    await waitFor(() =>
      expect(window.localStorage.getItem(`pm.relayedRoundClaims.${OWNER.toLowerCase()}`)).toBe('[]'),
    );
  });

  test('Paid by someone else meanwhile: "Already paid", not a raw revert, and no transaction', async () => {
    claimable = response([wonRound(7, 101)]);
    const card = await renderCard();
    await userEvent.click(await within(card).findByRole('button', { name: 'Claim' }));
    const button = await screen.findByRole('button', { name: /^Claim with my wallet: round #101,/ });
    chain.openStakes.delete('7');
    await userEvent.click(button);
    await waitFor(() =>
      expect(within(card).getByRole('alert')).toHaveTextContent(
        'Already paid: this stake was paid out before your transaction. There is nothing more to claim.',
      ),
    );
    // The message takes focus once drawn (after its text), so a screen reader hears it.
    await waitFor(() => expect(within(card).getByRole('alert')).toHaveFocus());
    expect(chain.mined).toEqual([]);
    expect(chain.methods).not.toContain('eth_sendTransaction');
    await waitFor(() => expect(selfClaimButton(101)).toBeNull());
  });

  test('Rejected in the wallet: said so, and the claim stays offered', async () => {
    claimable = response([wonRound(7, 101)]);
    const card = await renderCard();
    await userEvent.click(await within(card).findByRole('button', { name: 'Claim' }));
    const button = await screen.findByRole('button', { name: /^Claim with my wallet: round #101,/ });
    chain.rejectNextSend();
    await userEvent.click(button);
    await waitFor(() =>
      expect(within(card).getByRole('alert')).toHaveTextContent(
        'You rejected the transaction in your wallet. Nothing was sent.',
      ),
    );
    expect(chain.mined).toEqual([]);
    const again = screen.getByRole('button', { name: /^Claim with my wallet: round #101,/ });
    expect(again).toBeEnabled();
    await waitFor(() => expect(again).toHaveFocus());
  });

  test("A voided round's stake is taken back with refund(StakeRef)", async () => {
    claimable = response([wonRound(9, 103, { refund: true, proof: [], payoutWei: '50000000000000000' })]);
    const card = await renderCard();
    await userEvent.click(await within(card).findByRole('button', { name: 'Claim' }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Claim with my wallet: round #103, 0.0500 BNB' }),
    );
    expect(await within(card).findByText(/Confirmed: 0\.0500 BNB from round #103/)).toBeVisible();
    expect(chain.mined.map((call) => call.functionName)).toEqual(['refund']);
    expect(chain.mined[0]?.args[0]).toEqual({
      stakeId: 9n,
      owner: OWNER,
      market: `0x${'ab'.repeat(32)}`,
      amount: 50000000000000000n,
    });
  });

  test('A push the wallet refuses becomes a credit, shown with Withdraw, which withdraws it to the wallet', async () => {
    claimable = response([wonRound(7, 101)]);
    chain.creditPushes(true);
    const card = await renderCard();
    expect(screen.queryByTestId('escrow-credit')).toBeNull();
    await userEvent.click(await within(card).findByRole('button', { name: 'Claim' }));
    await userEvent.click(await screen.findByRole('button', { name: /^Claim with my wallet: round #101,/ }));
    await waitFor(() =>
      expect(within(card).getByRole('status')).toHaveTextContent(
        'Confirmed, but your wallet did not take the transfer: 0.0800 BNB is now a credit in the contract.',
      ),
    );
    const credit = await within(card).findByRole('region', { name: 'Credit in the contract' });
    expect(within(credit).getByTestId('escrow-credit')).toHaveTextContent('0.0800 BNB');

    await userEvent.click(within(credit).getByRole('button', { name: 'Withdraw 0.0800 BNB to my wallet' }));
    expect(
      await within(card).findByText('Confirmed: 0.0800 BNB was withdrawn to your wallet.'),
    ).toBeVisible();
    expect(chain.mined.map((call) => [call.functionName, ...call.args])).toEqual([
      ['claim', expect.anything()],
      ['withdraw', OWNER],
    ]);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Credit in the contract' })).toBeNull());
  });

  test('Credits: shown when the contract holds some for the wallet, hidden at 0', async () => {
    chain.credits.set(OWNER.toLowerCase(), 1_234_500_000_000_000n);
    const card = await renderCard();
    const credit = await within(card).findByRole('region', { name: 'Credit in the contract' });
    expect(within(credit).getByText('0.0012 BNB')).toBeVisible();
    expect(within(credit).getByRole('button', { name: 'Withdraw 0.0012 BNB to my wallet' })).toBeEnabled();
    cleanup();

    chain.credits.clear();
    await renderCard();
    await waitFor(() => expect(chain.methods).toContain('eth_call'));
    expect(screen.queryByRole('region', { name: 'Credit in the contract' })).toBeNull();
  });

  test('Without an escrow in the config: no credits read, no claim of its own offered', async () => {
    chain.credits.set(OWNER.toLowerCase(), 1n);
    claimable = response([wonRound(7, 101)]);
    const plain = await renderCard({ escrow: false });
    await userEvent.click(await within(plain).findByRole('button', { name: 'Claim' }));
    expect(await screen.findByText('Failed to claim winnings', { exact: false })).toBeVisible();
    expect(chain.methods).toEqual([]);
    expect(selfClaimButton(101)).toBeNull();
  });

  test('In Chinese: the offer, its progress and the credit', async () => {
    claimable = response([wonRound(7, 101)]);
    chain.credits.set(OWNER.toLowerCase(), 10_000_000_000_000_000n);
    const card = await renderCard({ language: 'zh' });
    expect(await within(card).findByRole('region', { name: '合约中的余额' })).toBeVisible();
    await userEvent.click(within(card).getByRole('button', { name: '领取' }));
    await userEvent.click(
      await screen.findByRole('button', { name: '用我的钱包领取：第 101 轮，0.0800 BNB' }),
    );
    expect(await within(card).findByText('已确认：第 101 轮的 0.0800 BNB 已支付到你的钱包。')).toBeVisible();
    expect(within(card).getByRole('button', { name: '提取 0.0100 BNB 到我的钱包' })).toBeVisible();
  });
});
