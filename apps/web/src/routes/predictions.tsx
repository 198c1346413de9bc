import { Plus } from 'lucide';
import { useState } from 'react';
import { MarketsBoard } from '#features/markets/components/markets-board.tsx';
import { useTranslation } from '#i18n/use-translation.ts';
import { Button } from '#ui/button.tsx';
import { Icon } from '#ui/icon.tsx';
import { Page } from '#ui/page.tsx';
import { CreateMarketDialog, MARKET_PARTS } from './parts/market-parts.tsx';

export function Component() {
  const { t } = useTranslation();
  const [createOpen, setCreateOpen] = useState(false);
  // In the page's header, and again on an empty board.
  const createButton = (
    <Button
      onClick={() => setCreateOpen(true)}
      onPointerEnter={CreateMarketDialog.preload}
      onFocus={CreateMarketDialog.preload}
    >
      <Icon node={Plus} aria-hidden="true" className="size-4" />
      {t('markets.createBet')}
    </Button>
  );
  return (
    <Page title={t('predictions.title')} documentTitle={t('pageTitle.predictions')} aside={createButton}>
      <MarketsBoard createAction={createButton} parts={MARKET_PARTS} />
      <CreateMarketDialog open={createOpen} onOpenChange={setCreateOpen} />
    </Page>
  );
}
