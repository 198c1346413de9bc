import type { Market } from '@pm/core/contract/markets';
import { Gavel } from 'lucide';
import { useAppConfig } from '#api/get-app-config.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';

/**
 * docs/product.md §2 side card "How resolution works", with the deployment's real settings
 * (decision 019): the model(s) fixed in the market at creation, how many pages are read and from where
 * (search, or only the links the creator wrote), how many sites the quotes must come from and the
 * confidence a verdict needs (GET /api/config `resolution`). Never a number that is not true: a
 * market without an AI judge (`operatorJudged`, judge-badge.tsx) says an operator decides. Part of
 * the page, its strings in the markets namespace: as a lazy chunk with a namespace of its own it
 * cost ~2 kB on every market page (docs/decisions/006).
 */
export function HowResolutionWorks({ market, operatorJudged }: { market: Market; operatorJudged: boolean }) {
  const { t } = useTranslation();
  const { data: config } = useAppConfig();
  const settings = config.resolution;
  const values = {
    models: market.resolver.model,
    pages: settings.maxPages,
    creatorPages: settings.maxCreatorPages,
    count: settings.minSources,
    confidence: settings.minConfidence,
    provider: settings.searchProvider ?? '',
  };
  return (
    <Card className="p-4">
      <section aria-labelledby="how-title" className="flex flex-col gap-2 text-sm">
        <h2 id="how-title" className="flex items-center gap-2 font-semibold text-muted">
          <Icon node={Gavel} aria-hidden="true" className="size-4 text-brand" />
          {t('markets.detail.howTitle')}
        </h2>
        {operatorJudged ? (
          <p>{t('markets.how.operator')}</p>
        ) : (
          <>
            <p>
              {settings.searchProvider ? t('markets.how.search', values) : t('markets.how.noSearch', values)}
            </p>
            <p>{t('markets.how.otherwise')}</p>
          </>
        )}
        <p className="text-xs text-muted">
          {t('markets.detail.resolver', {
            model: market.resolver.model,
            version: market.resolver.promptVersion,
          })}
        </p>
        <p className="break-all text-xs text-muted">
          {t('markets.detail.contentHash')}: <code>{market.resolver.contentHash}</code>
        </p>
      </section>
    </Card>
  );
}
