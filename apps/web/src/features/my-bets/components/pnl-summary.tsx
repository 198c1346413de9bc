import { CircleAlert } from 'lucide';
import { useTranslation } from '#i18n/use-translation.ts';
import { cx } from '#lib/cx.ts';
import { formatBnb, formatPercent } from '#lib/use-format.ts';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { StatusMessage } from '#ui/status-message.tsx';
import { useHistorySummary } from '../api/get-history.ts';

/**
 * The P&L card (as PancakeSwap's history panel): net P&L, win rate, best win and total
 * wagered over both games. Definitions: docs/decisions/012-history-and-pnl.md.
 */
export function PnlSummary({ address }: { address: string }) {
  const { t, language } = useTranslation();
  const summary = useHistorySummary(address);
  const titleId = 'pnl-summary-title';
  return (
    <Card aria-labelledby={titleId} role="region" className="mb-4 p-4">
      <h2 id={titleId} className="mb-3 text-sm font-semibold tracking-wide text-muted uppercase">
        {t('history.summary.title')}
      </h2>
      {summary.isPending ? (
        <div aria-busy="true" className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          {[0, 1, 2, 3].map((cell) => (
            <Skeleton key={cell} className="h-10" />
          ))}
        </div>
      ) : summary.isError ? (
        <StatusMessage tone="error" icon={<Icon node={CircleAlert} />}>
          {t('history.summary.loadFailed')}
        </StatusMessage>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-4 tabular-nums sm:grid-cols-4">
            <Figure
              label={t('history.summary.net')}
              value={formatBnb(summary.data.netWei, { language, signDisplay: 'exceptZero' })}
              tone={toneOf(BigInt(summary.data.netWei))}
            />
            <Figure
              label={t('history.summary.winRate')}
              value={
                summary.data.winRate === null
                  ? t('history.summary.none')
                  : formatPercent(summary.data.winRate, { language, decimals: 1 })
              }
            />
            <Figure
              label={t('history.summary.bestWin')}
              value={
                summary.data.bestWinWei === null
                  ? t('history.summary.none')
                  : formatBnb(summary.data.bestWinWei, { language, signDisplay: 'exceptZero' })
              }
              tone={summary.data.bestWinWei === null ? undefined : toneOf(BigInt(summary.data.bestWinWei))}
            />
            <Figure
              label={t('history.summary.totalWagered')}
              value={formatBnb(summary.data.totalWageredWei, { language })}
            />
          </dl>
          <p className="mt-3 text-xs text-muted">
            {t('history.summary.counts', { ...summary.data.counts, count: summary.data.counts.total })}
          </p>
        </>
      )}
    </Card>
  );
}

function toneOf(wei: bigint): 'up' | 'down' | undefined {
  return wei > 0n ? 'up' : wei < 0n ? 'down' : undefined;
}

function Figure({ label, value, tone }: { label: string; value: string; tone?: 'up' | 'down' | undefined }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted">{label}</dt>
      <dd
        className={cx(
          'text-base font-semibold break-words sm:text-lg',
          tone === 'up' && 'text-yes',
          tone === 'down' && 'text-no',
        )}
      >
        {value}
      </dd>
    </div>
  );
}
