import type { EscrowClaim } from '@pm/core/contract/payout-lists';
import type { ClaimableBond, ClaimableMarketBet, ClaimableResponse } from '@pm/core/contract/users';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Language } from '#i18n/translate.ts';
import { startTestApi, type TestApiAnswer } from '#testing/test-api.ts';
import { renderWithApp, TEST_ACCOUNT } from '#testing/test-app.tsx';
import { startTestChain, type TestChain } from '#testing/test-chain.ts';
import { dismissToast, getToasts } from '#ui/toast.ts';
import { ClaimablePanel } from './claimable-panel.tsx';

// A market bet's payout (or a returned flag bond) the server's relay did not pay is offered to
// the wallet's own claim on the escrow from the market page's claimable panel, with the same shared part
// as the oracle page (wallet/self-claim). The API is a loopback stand-in; the chain a loopback JSON-RPC
// node with the escrow (testing/test-chain.ts), which the mock wallet sends to.

const MINUTE = 60_000;
const OWNER = TEST_ACCOUNT;
const TITLE = 'Will it rain in Paris?';

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
    market: `0x${'cd'.repeat(32)}`,
    stakeId: String(stakeId),
    owner: OWNER,
    amountWei: '50000000000000000',
    payoutWei: '80000000000000000',
    proof: [`0x${'22'.repeat(32)}`],
    claimableAt: new Date(Date.now() - MINUTE).toISOString(),
    refund: false,
    ...overrides,
  };
}

/** A won market bet whose stake is open on the chain and listed by the server. */
function wonBet(id: number, stakeId: number): ClaimableMarketBet {
  chain.openStakes.add(String(stakeId));
  const claim = escrowClaim(stakeId);
  return {
    id,
    marketId: 7,
    userAddress: OWNER.toLowerCase(),
    prediction: 'YES',
    amountWei: claim.amountWei,
    potentialPayoutWei: '100000000000000000',
    returnWei: claim.payoutWei,
    profitWei: '30000000000000000',
    status: 'won',
    isCreator: false,
    txHash: `0x${String(id).padStart(64, '0')}`,
    createdAt: '2026-11-26T12:00:00.000Z',
    market: {
      title: TITLE,
      status: 'settled',
      result: 'YES',
      category: 'crypto',
      deadline: '2026-11-26T13:00:00.000Z',
    },
    escrowClaim: claim,
  };
}

/** A flag's bond returned on a voided market: refunded at its amount. */
function returnedBond(flagId: number, stakeId: number): ClaimableBond {
  chain.openStakes.add(String(stakeId));
  return {
    flagId,
    marketId: 7,
    marketTitle: TITLE,
    fate: 'returned_void',
    bondWei: '10000000000000000',
    returnWei: '10000000000000000',
    escrowClaim: escrowClaim(stakeId, {
      amountWei: '10000000000000000',
      payoutWei: '10000000000000000',
      proof: [],
      refund: true,
    }),
  };
}

function response(bets: ClaimableMarketBet[], bonds: ClaimableBond[] = []): ClaimableResponse {
  const sum = (values: string[]) => values.reduce((total, value) => total + BigInt(value), 0n).toString();
  return {
    markets: { totalWei: sum(bets.map((bet) => bet.returnWei ?? '0')), count: bets.length, bets },
    oracle: { totalWei: '0', count: 0, bets: [] },
    bonds: { totalWei: sum(bonds.map((bond) => bond.returnWei)), count: bonds.length, bonds },
  };
}

async function renderPanel(options: { language?: Language; betId?: number } = {}) {
  // As the market page mounts it (lazy-parts.tsx): within its own Suspense boundary.
  await renderWithApp(
    <Suspense fallback={null}>
      <ClaimablePanel betId={options.betId} />
    </Suspense>,
    {
      connectedAs: OWNER,
      rpcUrl: chain.url,
      language: options.language ?? 'en',
      config: {
        serverTime: new Date().toISOString(),
        escrow: { address: chain.escrow, chainId: 31337 },
      },
    },
  );
  return screen.findByRole('region', {
    name: options.language === 'zh' ? '可领取奖金' : 'Claimable Winnings',
  });
}

describe('ClaimablePanel: a market claim by the wallet itself', { timeout: 20_000 }, () => {
  // The file's first render of the panel never sends its claimable read in jsdom (it suspends once on
  // its lazy parts and is not retried; later renders are): one render first, so every test reads.
  beforeAll(async () => {
    const warmChain = await startTestChain();
    chain = warmChain;
    claimable = response([]);
    await renderPanel();
    await new Promise((resolve) => setTimeout(resolve, 500));
    cleanup();
    await warmChain.close();
  });

  test('Bets and returned bonds add up; nothing is offered before the server was asked', async () => {
    claimable = response([wonBet(1, 11)], [returnedBond(3, 13)]);
    const panel = await renderPanel();
    expect(await within(panel).findByText('0.0900 BNB')).toBeVisible();
    expect(within(panel).getByText('From 2 bets')).toBeVisible();
    await waitFor(() => expect(chain.methods).toContain('eth_call'));
    expect(screen.queryByRole('button', { name: /^Claim with my wallet/ })).toBeNull();
  });

  test('After the relay fails: the bet is claimed with claim(Claim), the bond taken back with refund(StakeRef)', async () => {
    claimable = response([wonBet(1, 11)], [returnedBond(3, 13)]);
    const panel = await renderPanel();
    await userEvent.click(await within(panel).findByRole('button', { name: 'Claim' }));
    const bet = await screen.findByRole('button', { name: `Claim with my wallet: ${TITLE}, 0.0800 BNB` });
    expect(
      await screen.findByRole('button', {
        name: `Claim with my wallet: your flag bond on ${TITLE}, 0.0100 BNB`,
      }),
    ).toBeVisible();
    expect(within(panel).getByText(`Flag bond: ${TITLE}`)).toBeVisible();

    await userEvent.click(bet);
    expect(
      await within(panel).findByText(
        `Confirmed: 0.0800 BNB from ${TITLE} was paid to your wallet.`,
        {},
        { timeout: 15_000 },
      ),
    ).toBeVisible();
    // The open stakes are read again once the bet is paid: the bond's button comes back with them.
    await userEvent.click(
      await screen.findByRole('button', {
        name: `Claim with my wallet: your flag bond on ${TITLE}, 0.0100 BNB`,
      }),
    );
    expect(
      await within(panel).findByText(
        /Confirmed: 0\.0100 BNB from your flag bond on/,
        {},
        { timeout: 15_000 },
      ),
    ).toBeVisible();
    expect(chain.mined.map((call) => call.functionName)).toEqual(['claim', 'refund']);
    expect(chain.mined[0]?.args[0]).toEqual({
      stake: { stakeId: 11n, owner: OWNER, market: `0x${'cd'.repeat(32)}`, amount: 50000000000000000n },
      payout: 80000000000000000n,
      proof: [`0x${'22'.repeat(32)}`],
    });
    expect(chain.mined[1]?.args[0]).toEqual({
      stakeId: 13n,
      owner: OWNER,
      market: `0x${'cd'.repeat(32)}`,
      amount: 10000000000000000n,
    });
  });

  test("A claim of one bet offers that bet's stake only, and not on the oracle page's list", async () => {
    claimable = response([wonBet(1, 11), wonBet(2, 12)]);
    const panel = await renderPanel({ betId: 2 });
    await userEvent.click(await within(panel).findByRole('button', { name: 'Claim' }));
    expect(await screen.findAllByRole('button', { name: /^Claim with my wallet:/ })).toHaveLength(1);
    const kept = JSON.parse(
      window.localStorage.getItem(`pm.relayedRoundClaims.${OWNER.toLowerCase()}`) ?? '[]',
    );
    expect(kept).toMatchObject([{ market: { id: 7, title: TITLE, bond: false }, claim: { stakeId: '12' } }]);
  });

  test('In Chinese: the offer and its label', async () => {
    claimable = response([wonBet(1, 11)]);
    const panel = await renderPanel({ language: 'zh' });
    await userEvent.click(await within(panel).findByRole('button', { name: '领取' }));
    expect(await screen.findByRole('button', { name: `用我的钱包领取：${TITLE}，0.0800 BNB` })).toBeVisible();
    expect(within(panel).getByText('用你的钱包领取')).toBeVisible();
  });
});
