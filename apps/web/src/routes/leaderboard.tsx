import { Gift } from 'lucide';
import { LeaderboardTable } from '#features/leaderboard/components/leaderboard-table.tsx';
import { useTranslation } from '#i18n/use-translation.ts';
import { BackButton } from '#ui/back-button.tsx';
import { Badge } from '#ui/badge.tsx';
import { Icon } from '#ui/icon.tsx';
import { Page } from '#ui/page.tsx';

export function Component() {
  const { t } = useTranslation();
  return (
    <Page
      title={t('leaderboard.title')}
      documentTitle={t('pageTitle.leaderboard')}
      before={<BackButton />}
      aside={
        <Badge tone="brand" className="px-3 py-1 text-sm">
          <Icon node={Gift} aria-hidden="true" className="size-4" />
          {t('leaderboard.dailyPrizes')}: {t('leaderboard.comingSoon')}
        </Badge>
      }
    >
      <p className="-mt-4 mb-6 text-muted">{t('leaderboard.subtitle')}</p>
      <LeaderboardTable />
    </Page>
  );
}
