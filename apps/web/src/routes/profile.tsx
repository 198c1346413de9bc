import { shortenAddress } from '@pm/core/address';
import { AddressSchema } from '@pm/core/contract/primitives';
import { CircleAlert, Inbox } from 'lucide';
import { Suspense } from 'react';
import { getAddress } from 'viem';
import { useParams } from 'wouter';
import { HistoryPanel } from '#features/my-bets/components/history-panel.tsx';
import { useTranslation } from '#i18n/use-translation.ts';
import { BackButton } from '#ui/back-button.tsx';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { Page } from '#ui/page.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { StatusMessage } from '#ui/status-message.tsx';

/** /u/{address}, a wallet's public P&L and bet history, read-only (no wallet needed). */
export function Component() {
  const { t } = useTranslation();
  const { address = '' } = useParams();
  const valid = AddressSchema.safeParse(address).success;
  // docs/architecture.md: addresses are shown checksummed, whatever case the link used.
  const shown = valid ? getAddress(address) : address;
  const short = valid ? shortenAddress(shown) : address;
  return (
    <Page
      title={t('myBets.profile.title', { address: short })}
      documentTitle={t('myBets.profile.documentTitle', { address: short })}
      before={<BackButton fallback="/leaderboard" />}
    >
      {valid ? (
        <>
          <p className="-mt-4 mb-6 font-mono text-xs break-all text-muted">{shown}</p>
          <Suspense fallback={<Skeleton className="h-48 w-full" />}>
            <HistoryPanel
              address={address}
              empty={<StatusMessage icon={<Icon node={Inbox} />}>{t('myBets.profile.empty')}</StatusMessage>}
            />
          </Suspense>
        </>
      ) : (
        <Card>
          <StatusMessage tone="error" icon={<Icon node={CircleAlert} />}>
            {t('myBets.profile.invalidAddress', { address })}
          </StatusMessage>
        </Card>
      )}
    </Page>
  );
}
