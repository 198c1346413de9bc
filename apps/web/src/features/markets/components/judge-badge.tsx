import type { Market } from '@pm/core/contract/markets';
import { useTranslation } from '#i18n/use-translation.ts';
import { Badge } from '#ui/badge.tsx';

/** The resolver recorded on markets created while no AI was configured (server resolver-prompt.ts). */
const OPERATOR_RESOLVER = 'operator';

/** A market an operator decides: created while no AI judge was configured. */
export const isOperatorJudged = (market: Market) => market.resolver.model === OPERATOR_RESOLVER;

/**
 * docs/product.md §2 badges "Price Oracle or AI Judged": a market an operator will judge
 * does not wear "AI Judged".
 */
export function JudgeBadge({ market }: { market: Market }) {
  const { t } = useTranslation();
  return (
    <Badge tone="brand">
      {market.betType === 'price_prediction'
        ? t('markets.create.priceOracle')
        : isOperatorJudged(market)
          ? t('markets.detail.operatorJudged')
          : t('markets.detail.aiJudged')}
    </Badge>
  );
}
