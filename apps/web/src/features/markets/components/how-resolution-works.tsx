import type { Market } from '@pm/core/contract/markets';
import { Gavel } from 'lucide';
import { useAppConfig } from '../../../api/get-app-config.ts';
import { useNamespace } from '../../../i18n/use-namespace.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { Card } from '../../../ui/card.tsx';
import { Icon } from '../../../ui/icon.tsx';

/**
 * docs/product.md §2 side card "How resolution works", with the deployment's real settings (issue
 * 18): the model(s) fixed in the market at creation, how many pages are read and from where
 * (search, or only the links the creator wrote), how many sites the quotes must come from and the
 * confidence a verdict needs (GET /api/config `resolution`). Never a number that is not true: a
 * market without an AI judge says an operator decides. `operatorJudged` comes from the page, which
 * has the rule already (judge-badge.tsx): one module shared by the page and this lazy chunk would be a
 * chunk of its own on every market page (docs/decisions/006).
 */
export function HowResolutionWorks({ market, operatorJudged }: { market: Market; operatorJudged: boolean }) {
  useNamespace('evidence');
  const { t } = useTranslation();
  const { data: config } = useAppConfig();
  const settings = config.resolution;
  const values = {
    models: market.resolver.model,
    pages: settings.maxPages,
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
          <p>{t('evidence.how.operator')}</p>
        ) : (
          <>
            <p>
              {settings.searchProvider
                ? t('evidence.how.search', values)
                : t('evidence.how.noSearch', values)}
            </p>
            <p>{t('evidence.how.otherwise')}</p>
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
