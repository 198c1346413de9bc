import type { SelfClaimStake } from '@pm/core/self-claim';
import { Coins } from 'lucide';
import { useMemo } from 'react';
import type { Address } from 'viem';
import { useClaimWinnings } from '#api/claim-winnings.ts';
import { CLAIMABLE_QUERY_KEY } from '#api/claimable-query-key.ts';
import { useClaimable } from '#api/get-claimable.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';
import { Button } from '#ui/button.tsx';
import { CardSection } from '#ui/card-section.tsx';
import { useSelfClaim } from '#wallet/self-claim/components/use-self-claim.tsx';

/**
 * docs/product.md §2 claimable winnings with Claim, for a connected wallet only: round winnings and refunds
 * (every 5 s, docs/product.md §9), relayed by POST /api/claims scope 'oracle'. Where the relay fails or
 * does not land, the wallet may claim from the escrow itself (wallet/self-claim, decision 026 "Claim").
 */
export function ClaimableCard({ address }: { address: Address }) {
  const { t } = useTranslation();
  const claimable = useClaimable(address, 'oracle');
  const claim = useClaimWinnings([CLAIMABLE_QUERY_KEY]);
  const format = useFormat();
  const oracle = claimable.data?.oracle;
  const totalWei = oracle ? BigInt(oracle.totalWei) : 0n;
  const rounds = new Set(oracle?.bets.map((bet) => bet.epoch)).size;

  const listed = useMemo<SelfClaimStake[]>(
    () =>
      (oracle?.bets ?? []).flatMap((bet) =>
        bet.escrowClaim ? [{ epoch: bet.epoch, claim: bet.escrowClaim }] : [],
      ),
    [oracle],
  );
  const selfClaim = useSelfClaim(address, 'oracle', listed);

  const onClaim = () =>
    claim.mutate(
      { userAddress: address, scope: 'oracle' },
      selfClaim.claimCallbacks(listed, t('oracle.claim.failed')),
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
      {selfClaim.slot}
    </CardSection>
  );
}
