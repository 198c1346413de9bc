import { Coins } from 'lucide';
import { useMemo } from 'react';
import type { Address } from 'viem';
import { useClaimWinnings } from '#api/claim-winnings.ts';
import { CLAIMABLE_QUERY_KEY } from '#api/claimable-query-key.ts';
import { useClaimable } from '#api/get-claimable.ts';
import { MARKETS_QUERY_KEY } from '#api/market-query-keys.ts';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';
import { Button } from '#ui/button.tsx';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { useWallet } from '#wallet/hooks/use-wallet.ts';
import { marketSelfClaimStakes, useSelfClaim } from '#wallet/self-claim/components/use-self-claim.tsx';

/**
 * docs/product.md §2 Claimable Winnings (connected wallets only): total, Claim, the spec's toasts. A
 * market's bets and returned flag bonds on the escrow are relayed by the claim; where the relay fails
 * or does not land, the wallet may claim from the escrow itself (wallet/self-claim, decision 026).
 */
export function ClaimablePanel({ betId }: { betId?: number }) {
  const wallet = useWallet();
  if (!wallet.isConnected || !wallet.address) return null;
  return <ClaimableMarkets address={wallet.address} betId={betId} />;
}

function ClaimableMarkets({ address, betId }: { address: Address; betId: number | undefined }) {
  useNamespace('marketActions');
  const { t } = useTranslation();
  const claimable = useClaimable(address, 'markets');
  const format = useFormat();
  const claim = useClaimWinnings([CLAIMABLE_QUERY_KEY, MARKETS_QUERY_KEY]);
  const stakes = useMemo(
    () => (claimable.data ? marketSelfClaimStakes(claimable.data) : []),
    [claimable.data],
  );
  const listed = useMemo(() => stakes.map(({ betId: _betId, ...stake }) => stake), [stakes]);
  const selfClaim = useSelfClaim(address, 'markets', listed);
  const data = claimable.data;
  const total = BigInt(data?.markets.totalWei ?? '0') + BigInt(data?.bonds.totalWei ?? '0');
  const count = (data?.markets.count ?? 0) + (data?.bonds.count ?? 0);

  const onClaim = () => {
    // A claim of one bet relays that bet's stake only; a claim of all, every listed stake.
    const asked = betId === undefined ? stakes : stakes.filter((stake) => stake.betId === betId);
    claim.mutate(
      { userAddress: address, scope: 'markets', ...(betId ? { betId } : {}) },
      selfClaim.claimCallbacks(
        asked.map(({ betId: _betId, ...stake }) => stake),
        t('marketActions.claimable.failed'),
      ),
    );
  };

  return (
    <Card className="p-4">
      <section aria-labelledby="claimable-title" className="flex flex-col gap-2">
        <h2 id="claimable-title" className="flex items-center gap-2 text-sm font-semibold text-muted">
          <Icon node={Coins} aria-hidden="true" className="size-4 text-brand" />
          {t('marketActions.claimable.title')}
        </h2>
        <p className="text-2xl font-bold tabular-nums">{format.bnb(total)}</p>
        <p className="text-xs text-muted">
          {total > 0n ? t('marketActions.claimable.bets', { count }) : t('marketActions.claimable.none')}
        </p>
        {total > 0n && (
          <Button disabled={claim.isPending} onClick={onClaim}>
            {claim.isPending ? t('marketActions.claimable.claiming') : t('marketActions.claimable.claim')}
          </Button>
        )}
        {selfClaim.slot}
      </section>
    </Card>
  );
}
