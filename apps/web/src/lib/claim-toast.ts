import type { ClaimResponse } from '@pm/core/contract/claims';
import type { TFunction } from '../i18n/translate.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { toast } from '../ui/toast.ts';
import { apiErrorMessage } from './error-message.ts';
import { formatBnb, type Language } from './format.ts';

export type ClaimToast = { kind: 'success' | 'error'; message: string };

/**
 * What a claim answer tells the user, the same on every claim button (issue 11; spec 18.26): the
 * spec's "Successfully claimed …" only once the payout is final on chain, "Your payout is on its
 * way." while it is still being sent, and the server's message (else `failed`) when refused.
 */
export function claimToast(
  answer: ClaimResponse,
  { t, language, failed }: { t: TFunction; language: Language; failed: string },
): ClaimToast {
  if (!answer.success) return { kind: 'error', message: answer.message || failed };
  if (answer.payoutStatus !== 'confirmed') return { kind: 'success', message: t('claim.pending') };
  return {
    kind: 'success',
    message: t('claim.success', {
      amount: formatBnb(answer.totalWei, { language, symbol: null }),
      count: answer.betsCount,
    }),
  };
}

/** The toasts of a claim mutation: `onSuccess` for its answer, `onError` for a failed request. */
export function useClaimToasts(failed: string) {
  const { t, language } = useTranslation();
  return {
    onSuccess: (answer: ClaimResponse) => {
      const shown = claimToast(answer, { t, language, failed });
      toast[shown.kind](shown.message);
    },
    onError: (error: unknown) => toast.error(apiErrorMessage(t, error, failed)),
  };
}
