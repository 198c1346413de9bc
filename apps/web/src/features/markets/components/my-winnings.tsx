import { marketWinningsWei } from '@pm/core/bet-return';
import { useClaimable } from '#api/get-claimable.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';

/**
 * What the connected wallet won on this settled market: its stakes back plus its share of the
 * losing pool, from its claimable bets. Loaded only for a connected wallet (the claimable API and
 * its schemas stay off the market page for everyone else; decision 006).
 */
export function MyWinnings({ marketId, address }: { marketId: number; address: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const claimable = useClaimable(address, 'markets');
  const myWinnings = marketWinningsWei(claimable.data?.markets.bets ?? [], marketId);
  if (myWinnings === 0n) return null;
  return (
    <p className="font-semibold text-yes">
      {t('markets.detail.yourWinnings', { amount: format.bnb(myWinnings, { symbol: null }) })}
    </p>
  );
}
