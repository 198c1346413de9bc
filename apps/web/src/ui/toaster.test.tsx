import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { TestI18n } from '#testing/test-i18n.tsx';
import { dismissToast, getToasts, toast } from './toast.ts';
import { Toaster } from './toaster.tsx';

function renderToaster() {
  render(
    <TestI18n>
      <Toaster />
    </TestI18n>,
  );
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  act(() => {
    for (const shown of getToasts()) dismissToast(shown.id);
  });
  cleanup();
  vi.useRealTimers();
});

describe('Toaster', () => {
  test('A success is a status and an error an alert, inside a labelled region', () => {
    renderToaster();
    act(() => {
      toast.success('Bet placed successfully!');
      toast.error('Minimum amount is 0.005 BNB');
    });
    expect(screen.getByRole('region', { name: 'Notifications' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Bet placed successfully!');
    expect(screen.getByRole('alert').textContent).toContain('Minimum amount is 0.005 BNB');
  });

  test('A toast goes after 4 s, an error after 6 s', () => {
    renderToaster();
    act(() => {
      toast.success('Copied');
      toast.error('Failed');
    });
    act(() => vi.advanceTimersByTime(4000));
    expect(screen.queryByText('Copied')).toBeNull();
    expect(screen.queryByText('Failed')).not.toBeNull();
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.queryByText('Failed')).toBeNull();
  });

  test('The pointer on a toast keeps it until it leaves', () => {
    renderToaster();
    act(() => toast.info('Read me'));
    const shown = screen.getByRole('status');
    act(() => vi.advanceTimersByTime(3000));
    fireEvent.pointerEnter(shown);
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.queryByText('Read me')).not.toBeNull();
    fireEvent.pointerLeave(shown);
    act(() => vi.advanceTimersByTime(999));
    expect(screen.queryByText('Read me')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Read me')).toBeNull();
  });

  test('Dismiss closes a toast at once', () => {
    renderToaster();
    act(() => toast.success('Address copied to clipboard'));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Address copied to clipboard')).toBeNull();
  });

  test('At most three show, the newest last, and a repeated message is not stacked twice', () => {
    renderToaster();
    act(() => {
      for (const message of ['one', 'two', 'three', 'four', 'three']) toast.info(message);
    });
    expect(screen.getAllByRole('status').map((item) => item.textContent)).toEqual(['two', 'four', 'three']);
  });
});
