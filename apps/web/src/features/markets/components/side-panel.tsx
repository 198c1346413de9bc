import { shortenAddress } from '@pm/core/address';
import type { Bet, Market } from '@pm/core/contract/markets';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';
import { Badge } from '#ui/badge.tsx';
import { JoinMarketDialog } from './lazy-parts.tsx';

/** One side of a market (YES or NO): total, favourability, participants with the Creator badge. */
export function SidePanel({
  side,
  market,
  bets,
  percent,
  canJoin,
  onJoin,
}: {
  side: 'YES' | 'NO';
  market: Market;
  bets: Bet[];
  percent: number;
  canJoin: boolean;
  onJoin: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const total = side === 'YES' ? market.totalYesWei : market.totalNoWei;
  const count = side === 'YES' ? market.yesCount : market.noCount;
  const tone = side === 'YES' ? 'border-yes/50 text-yes' : 'border-no/50 text-no';
  return (
    <section aria-label={side} className={`flex flex-col gap-3 rounded-xl border bg-surface p-4 ${tone}`}>
      <div className="flex items-baseline justify-between">
        <h2 className="text-xl font-bold">{side}</h2>
        <span className="text-sm tabular-nums">{t('markets.detail.favourability', { percent })}</span>
      </div>
      <p className="text-2xl font-bold text-fg tabular-nums">{format.bnb(total)}</p>
      <p className="text-xs text-muted">{t('markets.card.bets', { count })}</p>
      {bets.length ? (
        <ul className="flex max-h-64 flex-col gap-1 overflow-y-auto text-sm text-fg">
          {bets.map((bet) => (
            <li key={bet.id} className="flex items-center justify-between gap-2">
              <span className="flex items-center gap-2 font-mono text-xs">
                {shortenAddress(bet.userAddress)}
                {bet.isCreator && <Badge tone="brand">{t('markets.detail.creator')}</Badge>}
              </span>
              <span className="tabular-nums">{format.bnb(bet.amountWei)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-muted">{t('markets.detail.noParticipants')}</p>
      )}
      <button
        type="button"
        disabled={!canJoin}
        onClick={onJoin}
        onPointerEnter={JoinMarketDialog.preload}
        onFocus={JoinMarketDialog.preload}
        className={`h-11 cursor-pointer rounded-lg font-semibold disabled:cursor-not-allowed disabled:border disabled:border-line disabled:bg-surface-2 disabled:text-muted ${side === 'YES' ? 'bg-yes text-bg' : 'bg-danger text-white'}`}
      >
        {canJoin ? `${t('markets.card.joinBet')} · ${side}` : t('markets.detail.closed')}
      </button>
    </section>
  );
}
