import { Inbox } from 'lucide';
import { Link } from 'wouter';
import { useClaimWinnings } from '#api/claim-winnings.ts';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { showClaimToast } from '#lib/claim-toast.ts';
import { apiErrorMessage } from '#lib/error-message.ts';
import { Icon } from '#ui/icon.tsx';
import { StatusMessage } from '#ui/status-message.tsx';
import { toast } from '#ui/toast.ts';
import { HISTORY_QUERY_KEY } from '../api/get-history.ts';
import { HistoryPanel } from './history-panel.tsx';

/** The connected wallet's history and P&L, with a claim button on each claimable bet (issue 11). */
export function MyHistory({ address }: { address: `0x${string}` }) {
  useNamespace('history');
  const { t, language } = useTranslation();
  const claim = useClaimWinnings([HISTORY_QUERY_KEY], {
    onSuccess: (answer) => showClaimToast(answer, { t, language, failed: t('history.claimFailed') }),
    onError: (error) => toast.error(apiErrorMessage(t, error, t('history.claimFailed'))),
  });
  return (
    <HistoryPanel
      address={address}
      claiming={claim.isPending}
      // A market bet is claimed on its own; the claims API pays a wallet's round winnings together.
      onClaim={(entry) =>
        claim.mutate(
          entry.game === 'markets'
            ? { userAddress: address, scope: 'markets', betId: entry.betId }
            : { userAddress: address, scope: 'oracle' },
        )
      }
      empty={
        <StatusMessage
          icon={<Icon node={Inbox} />}
          action={
            <Link to="/predictions" className="font-semibold text-brand underline">
              {t('history.browse')}
            </Link>
          }
        >
          {t('history.empty')}
        </StatusMessage>
      }
    />
  );
}
