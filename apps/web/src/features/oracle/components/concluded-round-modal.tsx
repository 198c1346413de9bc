import type { Round } from '@pm/core/contract/oracle';
import { Dialog } from 'radix-ui';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';
import { Button } from '#ui/button.tsx';
import { roundPools } from '../utils/round-view.ts';
import { FeedReading } from './feed-readings.tsx';
import { ResultBadge } from './round-card.tsx';

/** docs/product.md §2/§4: a round concluded and its payouts are calculated; shown once per new ended epoch. */
export function ConcludedRoundModal({ round, onClose }: { round: Round | null; onClose: () => void }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Dialog.Root open={round !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70" />
        <Dialog.Content className="fixed inset-x-4 top-1/2 z-50 mx-auto flex max-w-sm -translate-y-1/2 flex-col gap-4 rounded-xl border border-line bg-surface p-5 shadow-2xl">
          {round && (
            <>
              <div className="flex items-center justify-between gap-3">
                <Dialog.Title className="text-lg font-bold">
                  {t('oracle.modal.title', { epoch: round.epoch })}
                </Dialog.Title>
                <ResultBadge round={round} />
              </div>
              <Dialog.Description className="text-sm text-muted">{t('oracle.modal.body')}</Dialog.Description>
              <p className="text-sm tabular-nums">
                {t('oracle.round.prizePool')}: {format.bnb(roundPools(round).total)}
              </p>
              {(['lock', 'close'] as const).map((reading) => {
                const price = reading === 'lock' ? round.lockPrice : round.closePrice;
                return price === null ? null : (
                  <p key={reading} className="text-sm tabular-nums">
                    {t(reading === 'lock' ? 'oracle.round.lockedPrice' : 'oracle.round.closedPrice')}:{' '}
                    {format.price(price)}
                    <FeedReading round={round} reading={reading} />
                  </p>
                );
              })}
              <p className="text-xs text-muted">{t('oracle.modal.claimHint')}</p>
              <Dialog.Close asChild>
                <Button className="w-full">{t('oracle.modal.close')}</Button>
              </Dialog.Close>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
