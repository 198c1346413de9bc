import { ChevronRight, Trophy } from 'lucide';
import { Link } from 'wouter';
import { useTranslation } from '#i18n/use-translation.ts';
import { Badge } from '#ui/badge.tsx';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';

/** docs/product.md §2: the leaderboard link card, with daily prizes Coming Soon. */
export function LeaderboardLinkCard() {
  const { t } = useTranslation();
  return (
    <Card className="p-0">
      <Link
        to="/leaderboard"
        className="flex items-center gap-3 rounded-xl p-4 hover:bg-surface-2 sm:p-5"
        aria-label={t('oracle.leaderboardCard.link')}
      >
        <Icon node={Trophy} aria-hidden="true" className="size-6 shrink-0 text-brand" />
        <span className="flex flex-1 flex-col gap-1">
          <span className="font-semibold">{t('oracle.leaderboardCard.title')}</span>
          <span className="text-xs text-muted">{t('oracle.leaderboardCard.body')}</span>
          <Badge tone="brand" className="self-start">
            {t('oracle.leaderboardCard.dailyPrizes')}: {t('oracle.leaderboardCard.comingSoon')}
          </Badge>
        </span>
        <Icon node={ChevronRight} aria-hidden="true" className="size-5 text-muted" />
      </Link>
    </Card>
  );
}
