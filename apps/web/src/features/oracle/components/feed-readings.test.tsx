import type { Round } from '@pm/core/contract/oracle';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { TestI18n } from '#testing/test-i18n.tsx';
import { ConcludedRoundModal } from './concluded-round-modal.tsx';
import { RoundCard } from './round-card.tsx';

// A round shows the feed, its round ids and the times of the lock and close readings.

afterEach(cleanup);

const ended: Round = {
  epoch: 42,
  status: 'ended',
  startTime: '2025-06-01T12:00:00.000Z',
  lockTime: '2025-06-01T12:05:00.000Z',
  closeTime: '2025-06-01T12:10:00.000Z',
  lockPrice: '600.00000000',
  closePrice: '601.00000000',
  totalUpWei: '10000000000000000',
  totalDownWei: '10000000000000000',
  upCount: 1,
  downCount: 1,
  result: 'bull',
  cancelReason: null,
  priceSource: 'chainlink',
  lockPriceAt: '2025-06-01T12:04:58.000Z',
  lockFeedRoundId: '18446744073709562301',
  closePriceAt: '2025-06-01T12:09:59.000Z',
  closeFeedRoundId: '18446744073709562302',
};

const reading = (name: 'lock' | 'close') => document.querySelector(`[data-reading="${name}"]`);

describe('Feed readings', () => {
  test('The last round shows the feed, and for the lock and close prices their feed round and reading time', () => {
    render(
      <TestI18n>
        <RoundCard variant="previous" round={ended} nowS={0} />
      </TestI18n>,
    );
    expect(reading('lock')?.textContent).toMatch(
      /^Chainlink · Feed round 18446744073709562301 · \d\d:04:58( [AP]M)?$/,
    );
    expect(reading('close')?.textContent).toMatch(
      /^Chainlink · Feed round 18446744073709562302 · \d\d:09:59( [AP]M)?$/,
    );
    expect(reading('lock')?.querySelector('time')?.getAttribute('dateTime')).toBe('2025-06-01T12:04:58.000Z');
    expect(reading('lock')?.closest('div')?.querySelector('dt')?.textContent).toBe('Locked price');
  });

  test('The concluded-round dialog shows them too, in Chinese', () => {
    render(
      <TestI18n language="zh">
        <ConcludedRoundModal round={ended} onClose={() => {}} />
      </TestI18n>,
    );
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('18446744073709562301');
    expect(dialog.textContent).toContain('18446744073709562302');
    expect(reading('close')?.querySelector('time')?.getAttribute('dateTime')).toBe(
      '2025-06-01T12:09:59.000Z',
    );
  });

  test('Nothing before the lock reading exists', () => {
    render(
      <TestI18n>
        <RoundCard
          variant="current"
          round={{ ...ended, status: 'live', lockPrice: null, lockFeedRoundId: null, closeFeedRoundId: null }}
          nowS={0}
        />
      </TestI18n>,
    );
    expect(reading('lock')).toBeNull();
  });
});
