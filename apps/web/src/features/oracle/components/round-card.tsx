import { ROUND_CANCEL_REASONS, type Round } from '@pm/core/contract/oracle';
import { roundRefundReason } from '@pm/core/payouts';
import { ArrowDown, ArrowUp, Ban, Equal } from 'lucide';
import type { ReactNode } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { cx } from '#lib/cx.ts';
import { useFormat } from '#lib/use-format.ts';
import { Badge, LiveDot } from '#ui/badge.tsx';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { directionFrom, roundMultipliers, roundPools, usdChange } from '../utils/round-view.ts';
import { FeedReading } from './feed-readings.tsx';
import { RoundCountdown } from './round-countdown.tsx';

export type RoundCardVariant = 'current' | 'next' | 'previous';

/**
 * One round (docs/product.md §2 /oracle-predictions): LIVE (current), NEXT or LAST, with its prize pool, the
 * UP and DOWN pools and payout multipliers, prices and result. Green UP and red DOWN always come
 * with an arrow and a label (docs/architecture.md: never colour alone).
 */
export function RoundCard({
  variant,
  round,
  nowS,
  lastPriceUsd = null,
  children,
}: {
  variant: RoundCardVariant;
  round: Round;
  nowS: number;
  /** The latest BNB/USD price, shown against the lock price while the round is locked. */
  lastPriceUsd?: string | null;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  // docs/architecture.md: LIVE is the current round, NEXT an upcoming one (also when it is the one shown as current).
  const labelKey =
    variant === 'previous' ? 'last' : variant === 'next' || round.status === 'upcoming' ? 'next' : 'live';
  const label = t(`oracle.round.${labelKey}`);
  const epochText = t('oracle.round.epoch', { epoch: round.epoch });
  const { total } = roundPools(round);

  return (
    <Card className={cx('flex flex-col gap-4 p-4 sm:p-5', variant === 'current' && 'border-brand/50')}>
      <section aria-label={`${label} ${epochText}`} className="flex flex-col gap-4">
        <header className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex items-center gap-2">
            <Badge tone={labelKey === 'live' ? 'yes' : labelKey === 'next' ? 'brand' : 'neutral'}>
              {labelKey === 'live' && <LiveDot />}
              {label}
            </Badge>
            <span className="text-sm text-muted tabular-nums">{epochText}</span>
          </div>
          {variant === 'previous' ? (
            <ResultBadge round={round} />
          ) : (
            <RoundCountdown round={round} nowS={nowS} />
          )}
        </header>

        {variant === 'current' && round.status === 'locked' && round.lockPrice && (
          <LastPrice lockPrice={round.lockPrice} lastPrice={lastPriceUsd} />
        )}

        <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
          <Stat term={t('oracle.round.prizePool')} className="col-span-2">
            <span className="text-lg font-bold">{format.bnb(total)}</span>
          </Stat>
          {round.lockPrice && (
            <Stat term={t('oracle.round.lockedPrice')}>
              <span className="font-semibold">{format.price(round.lockPrice)}</span>
              <FeedReading round={round} reading="lock" />
            </Stat>
          )}
          {variant === 'previous' && round.closePrice && (
            <Stat term={t('oracle.round.closedPrice')}>
              <span className={cx('font-semibold', resultColour(round))}>
                {format.price(round.closePrice)}
              </span>
              <FeedReading round={round} reading="close" />
            </Stat>
          )}
          {variant !== 'previous' && !round.lockPrice && (
            <Stat term={t(round.status === 'upcoming' ? 'oracle.round.startTime' : 'oracle.round.lockTime')}>
              <TimeOfDay iso={round.status === 'upcoming' ? round.startTime : round.lockTime} />
            </Stat>
          )}
        </dl>

        <SidePools round={round} highlight={variant === 'previous' ? round.result : null} />
        {variant === 'previous' && <RefundNote round={round} />}
      </section>
      {children}
    </Card>
  );
}

function Stat({ term, className, children }: { term: string; className?: string; children: ReactNode }) {
  return (
    <div className={cx('flex flex-col gap-0.5', className)}>
      <dt className="text-xs text-muted">{term}</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}

function TimeOfDay({ iso }: { iso: string }) {
  const { language } = useTranslation();
  const text = new Date(iso).toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' });
  return <time dateTime={iso}>{text}</time>;
}

function LastPrice({ lockPrice, lastPrice }: { lockPrice: string; lastPrice: string | null }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (!lastPrice) return null;
  const direction = directionFrom(lockPrice, lastPrice);
  const arrow = direction === 'up' ? ArrowUp : direction === 'down' ? ArrowDown : Equal;
  return (
    <div className="flex flex-wrap items-end justify-between gap-2 rounded-lg bg-surface-2 px-3 py-2">
      <div className="flex flex-col">
        <span className="text-xs text-muted">{t('oracle.round.lastPrice')}</span>
        <span
          className={cx(
            'flex items-center gap-1 text-2xl font-bold tabular-nums',
            direction === 'up' ? 'text-yes' : direction === 'down' ? 'text-no' : 'text-fg',
          )}
        >
          <Icon node={arrow} aria-hidden="true" className="size-5" />
          {format.price(lastPrice)}
        </span>
      </div>
      <span className="text-sm text-muted tabular-nums">
        {t('oracle.round.priceChange', {
          change: format.price(usdChange(lockPrice, lastPrice), { signDisplay: 'exceptZero' }),
        })}
      </span>
    </div>
  );
}

function SidePools({ round, highlight }: { round: Round; highlight: Round['result'] }) {
  const { t } = useTranslation();
  const format = useFormat();
  const pools = roundPools(round);
  const multipliers = roundMultipliers(round);
  const sides = [
    {
      key: 'bull',
      label: t('oracle.round.up'),
      icon: ArrowUp,
      tone: 'yes',
      pool: pools.up,
      count: round.upCount,
      multiplier: multipliers.up,
    },
    {
      key: 'bear',
      label: t('oracle.round.down'),
      icon: ArrowDown,
      tone: 'no',
      pool: pools.down,
      count: round.downCount,
      multiplier: multipliers.down,
    },
  ] as const;
  return (
    <ul className="grid grid-cols-2 gap-2">
      {sides.map((side) => (
        <li
          key={side.key}
          data-side={side.key}
          className={cx(
            'flex flex-col gap-1 rounded-lg border px-3 py-2',
            side.tone === 'yes' ? 'border-yes/40 bg-yes/5' : 'border-no/40 bg-no/5',
            highlight === side.key && (side.tone === 'yes' ? 'ring-2 ring-yes' : 'ring-2 ring-no'),
          )}
        >
          <span
            className={cx('flex items-center gap-1 font-bold', side.tone === 'yes' ? 'text-yes' : 'text-no')}
          >
            <Icon node={side.icon} aria-hidden="true" className="size-4" />
            {side.label}
          </span>
          <span className="text-sm tabular-nums">
            <span className="font-semibold">{t('oracle.round.multiplier', { value: side.multiplier })}</span>{' '}
            <span className="text-muted">{t('oracle.round.payout')}</span>
          </span>
          <span className="text-xs text-muted tabular-nums">{format.bnb(side.pool)}</span>
          <span className="text-xs text-muted tabular-nums">
            {t('oracle.round.bets', { count: side.count })}
          </span>
        </li>
      ))}
    </ul>
  );
}

function resultColour(round: Round): string {
  if (round.result === 'bull') return 'text-yes';
  if (round.result === 'bear') return 'text-no';
  return 'text-fg';
}

/** BULL WON / BEAR WON / DRAW (docs/product.md §2), or CANCELLED when a price was missing. */
export function ResultBadge({ round }: { round: Round }) {
  const { t } = useTranslation();
  switch (round.result) {
    case 'bull':
      return (
        <Badge tone="yes">
          <Icon node={ArrowUp} aria-hidden="true" className="size-3.5" />
          {t('oracle.round.bullWon')}
        </Badge>
      );
    case 'bear':
      return (
        <Badge tone="no">
          <Icon node={ArrowDown} aria-hidden="true" className="size-3.5" />
          {t('oracle.round.bearWon')}
        </Badge>
      );
    case 'draw':
      return (
        <Badge>
          <Icon node={Equal} aria-hidden="true" className="size-3.5" />
          {t('oracle.round.draw')}
        </Badge>
      );
    case 'cancelled':
      return (
        <Badge>
          <Icon node={Ban} aria-hidden="true" className="size-3.5" />
          {t('oracle.round.cancelled')}
        </Badge>
      );
    default:
      return <Badge>{t('oracle.countdown.processing')}</Badge>;
  }
}

/** Why every stake of an ended round came back, when it did (docs/architecture.md deviation: refunds, not the house). */
function RefundNote({ round }: { round: Round }) {
  const { t } = useTranslation();
  const pools = roundPools(round);
  const reason = roundRefundReason(round.result, { bullWei: pools.up, bearWei: pools.down });
  let text: string | null = null;
  if (reason === 'cancelled') {
    const cause = ROUND_CANCEL_REASONS.find((known) => known === round.cancelReason);
    text = `${cause ? t(`oracle.round.cancelReason.${cause}`) : ''} ${t('oracle.round.refunded')}`.trim();
  } else if (reason !== null && pools.total > 0n) {
    // A draw or a round without a winning bet is explained only when something was staked.
    text = reason === 'draw' ? t('oracle.round.drawRefund') : t('oracle.round.noWinnerRefund');
  }
  return text ? <p className="text-xs text-muted">{text}</p> : null;
}
