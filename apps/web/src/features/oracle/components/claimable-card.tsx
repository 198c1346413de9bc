import type { ClaimResponse } from '@pm/core/contract/claims';
import type { RelayedStake, RelayOutcome, SelfClaimStake } from '@pm/core/self-claim';
import { Coins } from 'lucide';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import type { Address } from 'viem';
import { useClaimWinnings } from '#api/claim-winnings.ts';
import { CLAIMABLE_QUERY_KEY } from '#api/claimable-query-key.ts';
import { useAppConfig } from '#api/get-app-config.ts';
import { useClaimable } from '#api/get-claimable.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { showClaimToast } from '#lib/claim-toast.ts';
import { apiErrorMessage } from '#lib/error-message.ts';
import { useFormat } from '#lib/use-format.ts';
import { Button } from '#ui/button.tsx';
import { CardSection } from '#ui/card-section.tsx';
import { toast } from '#ui/toast.ts';
import {
  forgetRelayedClaims,
  loadRelayedClaims,
  recordRelayOutcome,
  rememberRelay,
} from '../api/relayed-claims.ts';

// Issue 29: the wallet's own claim from the escrow and its credits, with their strings and the contract's
// ABI, load only where the deployment names an escrow.
const SelfClaim = lazy(() => import('./self-claim.tsx').then((module) => ({ default: module.SelfClaim })));

/**
 * docs/product.md §2 claimable winnings with Claim, for a connected wallet only: round winnings and refunds
 * (every 5 s, docs/product.md §9), relayed by POST /api/claims scope 'oracle'. Where the relay fails or
 * does not land, the wallet may claim from the escrow itself (SelfClaim, decision 026 "Claim").
 */
export function ClaimableCard({ address }: { address: Address }) {
  const { t, language } = useTranslation();
  const { data: config, dataUpdatedAt } = useAppConfig();
  const claimable = useClaimable(address, 'oracle');
  const claim = useClaimWinnings([CLAIMABLE_QUERY_KEY]);
  const format = useFormat();
  const oracle = claimable.data?.oracle;
  const totalWei = oracle ? BigInt(oracle.totalWei) : 0n;
  const rounds = new Set(oracle?.bets.map((bet) => bet.epoch)).size;
  const escrow = config.escrow;
  const serverOffsetMs = dataUpdatedAt > 0 ? Date.parse(config.serverTime) - dataUpdatedAt : 0;

  const listed = useMemo<SelfClaimStake[]>(
    () =>
      (oracle?.bets ?? []).flatMap((bet) =>
        bet.escrowClaim ? [{ epoch: bet.epoch, claim: bet.escrowClaim }] : [],
      ),
    [oracle],
  );
  const [relayed, setRelayed] = useRelayedClaims(address);

  const onClaim = () => {
    const at = Date.now() + serverOffsetMs;
    const remembering = escrow !== null && listed.length > 0;
    if (remembering) setRelayed(rememberRelay(address, listed, at));
    const answered = (outcome: RelayOutcome) => {
      if (remembering) setRelayed(recordRelayOutcome(address, at, outcome));
    };
    claim.mutate(
      { userAddress: address, scope: 'oracle' },
      {
        onSuccess: (answer) => {
          answered(relayOutcome(answer));
          showClaimToast(answer, { t, language, failed: t('oracle.claim.failed') });
        },
        onError: (error) => {
          answered('failed');
          toast.error(apiErrorMessage(t, error, t('oracle.claim.failed')));
        },
      },
    );
  };

  const onSpent = useCallback(
    (stakeIds: ReadonlySet<string>) => setRelayed(forgetRelayedClaims(address, stakeIds)),
    [address, setRelayed],
  );

  return (
    <CardSection title={t('oracle.claim.title')} icon={Coins}>
      <p className="text-2xl font-bold tabular-nums" data-testid="oracle-claimable">
        {format.bnb(totalWei)}
      </p>
      {totalWei > 0n ? (
        <>
          <p className="-mt-2 text-xs text-muted">{t('oracle.claim.rounds', { count: rounds })}</p>
          <Button onClick={onClaim} disabled={claim.isPending} className="w-full">
            {claim.isPending ? t('oracle.claim.claiming') : t('oracle.claim.button')}
          </Button>
        </>
      ) : (
        <p className="text-xs text-muted">{t('oracle.claim.none')}</p>
      )}
      {escrow && (
        <Suspense fallback={null}>
          <SelfClaim
            address={address}
            escrow={{ address: escrow.address as Address, chainId: escrow.chainId }}
            serverOffsetMs={serverOffsetMs}
            listed={listed}
            relayed={relayed}
            onSpent={onSpent}
          />
        </Suspense>
      )}
    </CardSection>
  );
}

/** What the server's answer says of the relay: refused, on its way, or final. */
function relayOutcome(answer: ClaimResponse): RelayOutcome {
  if (!answer.success) return 'failed';
  return answer.payoutStatus === 'confirmed' ? 'confirmed' : 'pending';
}

/** The relayed stakes kept for `address`, read again when the wallet changes. */
function useRelayedClaims(address: string) {
  const [kept, setKept] = useState(() => ({ address, relayed: loadRelayedClaims(address) }));
  const current = kept.address === address ? kept : { address, relayed: loadRelayedClaims(address) };
  if (current !== kept) setKept(current);
  const setRelayed = useCallback((relayed: RelayedStake[]) => setKept({ address, relayed }), [address]);
  return [current.relayed, setRelayed] as const;
}
