import { Plus } from 'lucide';
import { useState } from 'react';
import { CreateMarketDialog } from '#features/markets/components/lazy-parts.tsx';
import { MarketsBoard } from '#features/markets/components/markets-board.tsx';
import { useTranslation } from '#i18n/use-translation.ts';
import { Button } from '#ui/button.tsx';
import { Icon } from '#ui/icon.tsx';
import { Page } from '#ui/page.tsx';

export function Component() {
  const { t } = useTranslation();
  const [createOpen, setCreateOpen] = useState(false);
  return (
    <Page
      title={t('predictions.title')}
      documentTitle={t('pageTitle.predictions')}
      aside={
        <Button
          onClick={() => setCreateOpen(true)}
          onPointerEnter={CreateMarketDialog.preload}
          onFocus={CreateMarketDialog.preload}
        >
          <Icon node={Plus} aria-hidden="true" className="size-4" />
          {t('markets.createBet')}
        </Button>
      }
    >
      <MarketsBoard createOpen={createOpen} onCreateOpenChange={setCreateOpen} />
    </Page>
  );
}
