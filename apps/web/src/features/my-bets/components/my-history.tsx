import { type ClaimBody, ClaimResponseSchema } from '@pm/core/contract/claims';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Inbox } from 'lucide';
import { Link } from 'wouter';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { apiPost } from '../../../lib/api-client.ts';
import { showClaimToast } from '../../../lib/claim-toast.ts';
import { apiErrorMessage } from '../../../lib/error-message.ts';
import { Icon } from '../../../ui/icon.tsx';
import { StatusMessage } from '../../../ui/status-message.tsx';
import { toast } from '../../../ui/toast.ts';
import { HistoryPanel } from './history-panel.tsx';

/** The connected wallet's history and P&L, with a claim button on each claimable bet (issue 11). */
export function MyHistory({ address }: { address: `0x${string}` }) {
  const { t, language } = useTranslation();
  const queryClient = useQueryClient();
  const claim = useMutation({
    mutationFn: (body: ClaimBody) => apiPost('/api/claims', body, ClaimResponseSchema),
    onSuccess: (answer) => showClaimToast(answer, { t, language, failed: t('myBets.claimFailed') }),
    onError: (error) => toast.error(apiErrorMessage(t, error, t('myBets.claimFailed'))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['history'] }),
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
              {t('myBets.browse')}
            </Link>
          }
        >
          {t('myBets.empty')}
        </StatusMessage>
      }
    />
  );
}
