import type { ClaimResponse } from '@pm/core/contract/claims';
import { describe, expect, test } from 'vitest';
import { createI18n } from '#i18n/i18n.ts';
import type { Language } from '#i18n/translate.ts';
import { ALL_MESSAGES } from '#testing/all-messages.ts';
import { claimToast } from './claim-toast.ts';

const answer = (overrides: Partial<ClaimResponse> = {}): ClaimResponse => ({
  success: true,
  totalWei: '1234500000000000000000',
  betsCount: 3,
  payoutTxHash: `0x${'ab'.repeat(32)}`,
  payoutStatus: 'confirmed',
  message: '',
  ...overrides,
});

function toastIn(language: Language, claim: ClaimResponse) {
  const { t } = createI18n({ language, messages: ALL_MESSAGES }).getSnapshot();
  return claimToast(claim, { t, language, failed: 'Failed to claim winnings' });
}

describe('claimToast', () => {
  test('A final payout shows the spec text with the amount grouped and the number of bets', () => {
    expect(toastIn('en', answer())).toEqual({
      kind: 'success',
      message: 'Successfully claimed 1,234.5000 BNB from 3 winning bets!',
    });
    expect(toastIn('zh', answer())).toEqual({
      kind: 'success',
      message: '已成功从 3 笔获胜下注中领取 1,234.5000 BNB！',
    });
  });

  test('A payout not final yet says it is on its way, never that it was claimed', () => {
    expect(toastIn('en', answer({ payoutStatus: 'pending' }))).toEqual({
      kind: 'success',
      message: 'Your payout is on its way.',
    });
    expect(toastIn('zh', answer({ payoutStatus: 'pending' })).message).toBe('您的奖金正在发放中。');
  });

  test('A refused claim shows the server message, else the caller’s failure text', () => {
    expect(toastIn('en', answer({ success: false, message: 'Nothing to claim' }))).toEqual({
      kind: 'error',
      message: 'Nothing to claim',
    });
    expect(toastIn('en', answer({ success: false, message: '' })).message).toBe('Failed to claim winnings');
  });
});
