import type { RelayedStake, SelfClaimStake } from '@pm/core/self-claim';
import { selfClaimOffer } from '@pm/core/self-claim';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LoaderCircle, Wallet } from 'lucide';
import { useEffect, useId, useReducer, useRef, useState } from 'react';
import type { Address } from 'viem';
import { useConfig } from 'wagmi';
import { CLAIMABLE_QUERY_KEY } from '#api/claimable-query-key.ts';
import type { TFunction } from '#i18n/translate.ts';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';
import { Button } from '#ui/button.tsx';
import { Icon } from '#ui/icon.tsx';
import { useWallet } from '#wallet/hooks/use-wallet.ts';
import { useWalletContext } from '#wallet/wallet-context.ts';
import { escrowQueryKey } from '../api/escrow-query-key.ts';
import { creditsQueryOptions } from '../api/get-credits.ts';
import { openStakesQueryOptions } from '../api/get-open-stakes.ts';
import type { EscrowTarget } from '../escrow/escrow-reads.ts';
import type { EscrowFailure } from '../escrow/escrow-writes.ts';

// Decision 026 "Claim": a payout the server's relay did not pay (a round's, a market bet's or a
// returned flag bond's), taken from the escrow by the wallet itself with the published proof, and a credit
// (a payout whose push failed) withdrawn. Loaded with its strings for a connected wallet on the oracle
// page, a market page and My Bets when the deployment names an escrow; the contract-write code loads on
// the first click.

const loadWrites = () => import('../escrow/escrow-writes.ts');

type Action = { kind: 'claim'; stake: SelfClaimStake } | { kind: 'withdraw'; amountWei: bigint };
type Stage = 'confirm' | 'submitted';
/** What came of the last call; `focus` when its button is gone (paid, withdrawn), so the keyboard lands here. */
type Notice = { tone: 'status' | 'error'; text: string; focus?: boolean };

export function SelfClaim({
  address,
  escrow,
  serverOffsetMs,
  listed,
  relayed,
  onSpent,
}: {
  address: Address;
  escrow: EscrowTarget;
  /** The server's clock less the browser's: claimableAt is the server's (and the chain's) time. */
  serverOffsetMs: number;
  /** The server's claimable stakes (of the page's game) with their escrow claims. */
  listed: SelfClaimStake[];
  /** The stakes this browser asked the server to relay. */
  relayed: RelayedStake[];
  /** Stakes the chain shows spent: forget them. */
  onSpent: (stakeIds: ReadonlySet<string>) => void;
}) {
  useNamespace('selfClaim');
  const { t } = useTranslation();
  const format = useFormat();
  const config = useConfig();
  const wallet = useWallet();
  const { chain } = useWalletContext();
  const queryClient = useQueryClient();
  const titleId = useId();
  const creditsTitleId = useId();
  const [action, setAction] = useState<Action | null>(null);
  const [stage, setStage] = useState<Stage>('confirm');
  const [notice, setNotice] = useState<Notice | null>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (notice?.focus) (notice.tone === 'error' ? alertRef : statusRef).current?.focus();
  }, [notice]);

  const nowMs = Date.now() + serverOffsetMs;
  const offer = selfClaimOffer(listed, relayed, nowMs);
  useRenderAt(offer.nextAtMs === null ? null : offer.nextAtMs - serverOffsetMs);

  const offeredIds = offer.offered.map((stake) => stake.claim.stakeId);
  const openStakes = useQuery(openStakesQueryOptions(config, escrow, offeredIds));
  const credits = useQuery(creditsQueryOptions(config, escrow, address));

  // A relayed stake the chain shows spent was paid (by the relay or by anyone): nothing to offer, ever.
  const open = openStakes.data;
  const spentIds = open ? offeredIds.filter((stakeId) => !open.has(stakeId)) : [];
  const spentKey = spentIds.join();
  useEffect(() => {
    if (spentKey) onSpent(new Set(spentKey.split(',')));
  }, [spentKey, onSpent]);

  const shown = open ? offer.offered.filter((stake) => open.has(stake.claim.stakeId)) : [];
  const creditWei = credits.data ?? 0n;
  const onChain = wallet.chainId === escrow.chainId;
  const busy = action !== null;

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: CLAIMABLE_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: escrowQueryKey(escrow.address) }),
    ]);

  const run = async (next: Action) => {
    setAction(next);
    setStage('confirm');
    setNotice(null);
    let failure: EscrowFailure | null = null;
    try {
      const writes = await loadWrites();
      try {
        const request = { escrow, account: address, onSubmitted: () => setStage('submitted') };
        if (next.kind === 'claim') {
          const sent = await writes.sendSelfClaim(config, { ...request, claim: next.stake.claim });
          onSpent(new Set([next.stake.claim.stakeId]));
          setNotice({
            tone: 'status',
            text: claimedText(t, format.bnb, next.stake, sent.creditedWei),
            focus: true,
          });
        } else {
          await writes.sendWithdraw(config, request);
          setNotice({
            tone: 'status',
            text: t('selfClaim.progress.withdrawn', { amount: format.bnb(next.amountWei) }),
            focus: true,
          });
        }
      } catch (error) {
        failure = writes.classifyEscrowFailure(error);
      }
    } catch {
      failure = { kind: 'other' };
    }
    if (failure) {
      // Paid already, or nothing left to withdraw: the button goes with the next read.
      const gone = failure.kind === 'already-paid' || failure.kind === 'nothing-to-withdraw';
      if (failure.kind === 'already-paid' && next.kind === 'claim')
        onSpent(new Set([next.stake.claim.stakeId]));
      setNotice({ tone: 'error', text: failureText(t, failure), focus: gone });
    }
    setAction(null);
    await refresh();
  };

  const progress =
    action === null
      ? null
      : stage === 'confirm'
        ? t('selfClaim.progress.confirm')
        : t('selfClaim.progress.submitted');

  return (
    <div className="flex flex-col gap-3">
      {shown.length > 0 && (
        <section aria-labelledby={titleId} className="flex flex-col gap-2 border-t border-line pt-3">
          <h3 id={titleId} className="flex items-center gap-2 text-sm font-semibold">
            <Icon node={Wallet} aria-hidden="true" className="size-4 text-brand" />
            {t('selfClaim.title')}
          </h3>
          <p className="text-xs text-muted">{t('selfClaim.explain')}</p>
          <ul className="flex flex-col gap-3">
            {shown.map((stake) => {
              const amount = format.bnb(BigInt(stake.claim.payoutWei));
              const what = stakeLabel(t, stake);
              const active = action?.kind === 'claim' && action.stake.claim.stakeId === stake.claim.stakeId;
              return (
                <li key={stake.claim.stakeId} className="flex flex-col gap-2">
                  <p className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
                    <span>
                      {what}
                      {stake.claim.refund && <span className="text-muted"> · {t('selfClaim.refund')}</span>}
                    </span>
                    <span className="font-semibold tabular-nums">{amount}</span>
                  </p>
                  <Button
                    variant="outline"
                    className="w-full"
                    disabled={busy || !onChain}
                    aria-label={t('selfClaim.claimLabel', { what: stakeLabel(t, stake, true), amount })}
                    onClick={() => void run({ kind: 'claim', stake })}
                  >
                    {active && <Spinner />}
                    {t('selfClaim.claim')}
                  </Button>
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {creditWei > 0n && (
        <section aria-labelledby={creditsTitleId} className="flex flex-col gap-2 border-t border-line pt-3">
          <h3 id={creditsTitleId} className="text-sm font-semibold">
            {t('selfClaim.credits.title')}
          </h3>
          <p className="text-xl font-bold tabular-nums" data-testid="escrow-credit">
            {format.bnb(creditWei)}
          </p>
          <p className="text-xs text-muted">{t('selfClaim.credits.explain')}</p>
          <Button
            className="w-full"
            disabled={busy || !onChain}
            aria-label={t('selfClaim.credits.withdrawLabel', { amount: format.bnb(creditWei) })}
            onClick={() => void run({ kind: 'withdraw', amountWei: creditWei })}
          >
            {action?.kind === 'withdraw' && <Spinner />}
            {t('selfClaim.credits.withdraw')}
          </Button>
        </section>
      )}
      {(shown.length > 0 || creditWei > 0n) && !onChain && (
        <p className="text-xs text-no">{t('selfClaim.wrongChain', { chain: chain.name })}</p>
      )}
      {/* Always mounted, so assistive technology hears each step of the wallet's progress. */}
      <p ref={statusRef} tabIndex={-1} role="status" className="text-sm outline-none empty:hidden">
        {progress ?? (notice?.tone === 'status' ? notice.text : null)}
      </p>
      <p ref={alertRef} tabIndex={-1} role="alert" className="text-sm text-no outline-none empty:hidden">
        {notice?.tone === 'error' ? notice.text : null}
      </p>
    </div>
  );
}

function Spinner() {
  return <Icon node={LoaderCircle} aria-hidden="true" className="size-4 motion-safe:animate-spin" />;
}

function claimedText(t: TFunction, bnb: (wei: bigint) => string, stake: SelfClaimStake, creditedWei: bigint) {
  if (creditedWei > 0n) return t('selfClaim.progress.credited', { amount: bnb(creditedWei) });
  return t('selfClaim.progress.claimed', {
    amount: bnb(BigInt(stake.claim.payoutWei)),
    what: stakeLabel(t, stake, true),
  });
}

/** What a stake is, in words: its round, its market's title, or its market's flag bond (`inline`: within a sentence). */
function stakeLabel(t: TFunction, stake: SelfClaimStake, inline = false): string {
  if (stake.market) {
    if (!stake.market.bond) return stake.market.title;
    return t(inline ? 'selfClaim.bondInline' : 'selfClaim.bond', { title: stake.market.title });
  }
  return t(inline ? 'selfClaim.roundInline' : 'selfClaim.round', { epoch: stake.epoch ?? 0 });
}

function failureText(t: TFunction, failure: EscrowFailure): string {
  switch (failure.kind) {
    case 'rejected':
      return t('selfClaim.errors.rejected');
    case 'already-paid':
      return t('selfClaim.errors.alreadyPaid');
    case 'not-yet':
      return t('selfClaim.errors.notYet');
    case 'nothing-to-withdraw':
      return t('selfClaim.errors.nothingToWithdraw');
    case 'reverted':
      return failure.detail
        ? t('selfClaim.errors.revertedWith', { reason: failure.detail })
        : t('selfClaim.errors.reverted');
    case 'other':
      return failure.detail
        ? t('selfClaim.errors.failedWith', { reason: failure.detail })
        : t('selfClaim.errors.failed');
  }
}

/** Renders again at `atMs` (the browser's clock), when the next offer opens. */
function useRenderAt(atMs: number | null): void {
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    if (atMs === null) return;
    // setTimeout's longest wait is 2^31 − 1 ms; a later time is simply waited for in steps.
    const timer = setTimeout(rerender, Math.min(Math.max(0, atMs - Date.now()) + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [atMs]);
}
