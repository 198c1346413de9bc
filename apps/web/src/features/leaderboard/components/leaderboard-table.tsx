import { shortenAddress } from '@pm/core/address';
import type { LeaderboardEntry } from '@pm/core/contract/leaderboard';
import { Trophy } from 'lucide';
import { Link } from 'wouter';
import { useTranslation } from '#i18n/use-translation.ts';
import { cx } from '#lib/cx.ts';
import { useFormat } from '#lib/use-format.ts';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { LoadFailed } from '#ui/load-failed.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { StatusMessage } from '#ui/status-message.tsx';
import { useLeaderboard } from '../api/get-leaderboard.ts';

const SKELETON_ROWS = 8;
const PODIUM_COLORS = ['text-brand', 'text-[#c0c7d0]', 'text-[#d79b6b]'];

/** docs/product.md §2 /leaderboard: the top-100 table with its loading, error and empty states. */
export function LeaderboardTable() {
  const { t } = useTranslation();
  const leaderboard = useLeaderboard();

  if (leaderboard.isPending) {
    return (
      <Card aria-busy="true" className="p-4">
        <span className="sr-only">{t('leaderboard.loading')}</span>
        <div className="flex flex-col gap-4" data-testid="leaderboard-skeleton">
          {Array.from({ length: SKELETON_ROWS }, (_, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity.
            <div key={row} className="flex items-center gap-4">
              <Skeleton className="h-5 w-8" />
              <Skeleton className="h-5 flex-1" />
              <Skeleton className="h-5 w-20" />
              <Skeleton className="hidden h-5 w-12 sm:block" />
            </div>
          ))}
        </div>
      </Card>
    );
  }

  if (leaderboard.isError) {
    return <LoadFailed query={leaderboard}>{t('leaderboard.loadFailed')}</LoadFailed>;
  }

  const { entries } = leaderboard.data;
  if (entries.length === 0) {
    return (
      <Card>
        <StatusMessage icon={<Icon node={Trophy} />}>{t('leaderboard.empty')}</StatusMessage>
      </Card>
    );
  }

  return (
    <Card className="overflow-hidden">
      <div className="overflow-x-auto">
        <table className="w-full text-sm tabular-nums">
          <caption className="sr-only">{t('leaderboard.caption', { count: entries.length })}</caption>
          <thead className="border-b border-line text-xs tracking-wide text-muted uppercase">
            <tr>
              <th scope="col" className="py-3 pr-2 pl-4 text-left font-semibold">
                {t('leaderboard.rank')}
              </th>
              <th scope="col" className="px-2 py-3 text-left font-semibold">
                {t('leaderboard.address')}
              </th>
              <th scope="col" className="py-3 pr-4 pl-2 text-right font-semibold sm:pr-2">
                {t('leaderboard.totalWinnings')}
              </th>
              <th scope="col" className="hidden px-2 py-3 text-right font-semibold sm:table-cell">
                {t('leaderboard.totalBets')}
              </th>
              <th scope="col" className="hidden py-3 pr-4 pl-2 text-right font-semibold sm:table-cell">
                {t('leaderboard.winRate')}
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry, index) => (
              <LeaderboardRow key={entry.address} entry={entry} rank={index + 1} />
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function LeaderboardRow({ entry, rank }: { entry: LeaderboardEntry; rank: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const podiumColor = PODIUM_COLORS[rank - 1];
  const winRate = format.percent(entry.winRate, { decimals: 1 });
  return (
    <tr className="border-b border-line last:border-b-0 hover:bg-surface-2">
      <td className="py-3 pr-2 pl-4 align-top sm:align-middle">
        <span className={cx('inline-flex items-center gap-1 font-semibold', podiumColor)}>
          {podiumColor && <Icon node={Trophy} aria-hidden="true" className="size-4" />}
          {rank}
        </span>
      </td>
      <td className="px-2 py-3">
        {/* Each player's public profile (summary and history). */}
        <Link
          to={`/u/${entry.address}`}
          className="font-mono underline-offset-2 hover:text-brand hover:underline"
          title={entry.address}
          aria-label={t('leaderboard.profileLink', { address: shortenAddress(entry.address) })}
        >
          {shortenAddress(entry.address)}
        </Link>
        {/* Narrow screens: bets and win rate move under the address instead of two more columns. */}
        <span className="mt-0.5 block text-xs text-muted sm:hidden">
          {t('leaderboard.betsAndWinRate', { count: entry.totalBets, winRate })}
        </span>
      </td>
      <td className="py-3 pr-4 pl-2 text-right align-top font-semibold whitespace-nowrap text-yes sm:pr-2 sm:align-middle">
        {format.bnb(entry.totalWinningsWei)}
      </td>
      <td className="hidden px-2 py-3 text-right sm:table-cell">{format.count(entry.totalBets)}</td>
      <td className="hidden py-3 pr-4 pl-2 text-right sm:table-cell">{winRate}</td>
    </tr>
  );
}
