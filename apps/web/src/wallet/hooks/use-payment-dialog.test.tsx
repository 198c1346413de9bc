import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ApiError } from '#lib/api-client.ts';
import { TestI18n } from '#testing/test-i18n.tsx';
import { dismissToast, getToasts } from '#ui/toast.ts';
import { usePaymentDialog } from './use-payment-dialog.ts';

const deposit = {
  to: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  value: 10n ** 16n,
  data: '0xabcdef',
} as const;
const HASH = `0x${'12'.repeat(32)}` as const;
const messages = { recorded: 'Recorded!', pending: 'Recorded once final.', failed: 'Failed to record.' };

function setUp(record: (request: { id: number }, txHash: string) => Promise<'recorded' | 'pending'>) {
  const queryClient = new QueryClient();
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  const onPaid = vi.fn();
  const onRecorded = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <TestI18n>{children}</TestI18n>
    </QueryClientProvider>
  );
  const hook = renderHook(
    () =>
      usePaymentDialog<{ id: number }>({
        recordingMessage: 'Recording…',
        onPaid,
        record,
        messages,
        invalidates: ['things'],
        onRecorded,
      }),
    { wrapper },
  );
  return { hook, invalidate, onPaid, onRecorded };
}

afterEach(() => {
  for (const shown of getToasts()) dismissToast(shown.id);
});

describe('usePaymentDialog', () => {
  test('Nothing is open until a request is paid for; then the dialog asks for its deposit', () => {
    const { hook } = setUp(async () => 'recorded');
    expect(hook.result.current.dialog).toBeNull();
    expect(hook.result.current.paying).toBeNull();
    act(() => hook.result.current.pay({ request: { id: 7 }, deposit }));
    expect(hook.result.current.paying).toEqual({ id: 7 });
    expect(hook.result.current.dialog).toMatchObject({
      open: true,
      amountWei: deposit.value,
      escrowAddress: deposit.to,
      data: deposit.data,
      recordingMessage: 'Recording…',
    });
  });

  test('The paid request is kept and posted with its hash; once recorded the form goes on and its queries refetch', async () => {
    const record = vi.fn(async () => 'recorded' as const);
    const { hook, invalidate, onPaid, onRecorded } = setUp(record);
    act(() => hook.result.current.pay({ request: { id: 7 }, deposit }));
    const dialog = hook.result.current.dialog;
    dialog?.onPaid(HASH);
    expect(onPaid).toHaveBeenCalledWith({ id: 7 }, HASH);
    expect(await dialog?.record(HASH)).toBe('recorded');
    expect(record).toHaveBeenCalledWith({ id: 7 }, HASH);
    act(() => dialog?.onRecorded('recorded'));
    expect(getToasts().map((shown) => [shown.kind, shown.message])).toEqual([['success', 'Recorded!']]);
    expect(onRecorded).toHaveBeenCalledOnce();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['things'] });
    expect(hook.result.current.dialog).toBeNull();
  });

  test('A payment the server records once final says so', () => {
    const { hook } = setUp(async () => 'pending');
    act(() => hook.result.current.pay({ request: { id: 7 }, deposit }));
    act(() => hook.result.current.dialog?.onRecorded('pending'));
    expect(getToasts().map((shown) => shown.message)).toEqual(['Recorded once final.']);
  });

  test('A failed post keeps the dialog for a retry, a final refusal closes it; closing drops the request', () => {
    const { hook } = setUp(async () => 'recorded');
    act(() => hook.result.current.pay({ request: { id: 7 }, deposit }));
    const dialog = hook.result.current.dialog;
    expect(dialog?.recordErrorMessage(new TypeError('Failed to fetch'))).toEqual({
      message: 'Failed to record.',
      close: false,
    });
    expect(dialog?.recordErrorMessage(new ApiError('MARKET_CLOSED', 'closed', 409)).close).toBe(true);
    act(() => dialog?.onOpenChange(false));
    expect(hook.result.current.dialog).toBeNull();
  });
});
