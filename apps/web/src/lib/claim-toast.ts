import type { ClaimResponse } from '@pm/core/contract/claims';
import type { TFunction } from '#i18n/translate.ts';
import { toast } from '#ui/toast.ts';
import { formatBnb, type Language } from './use-format.ts';

export type ClaimToast = { kind: 'success' | 'error'; message: string };

/**
 * What a claim answer tells the user, the same on every claim button (spec 18.26): the
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

/** Shows the toast for a claim answer. */
export function showClaimToast(answer: ClaimResponse, context: Parameters<typeof claimToast>[1]): void {
  const shown = claimToast(answer, context);
  toast[shown.kind](shown.message);
}
