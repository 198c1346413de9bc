import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { expect, test } from 'vitest';
import { createInvalidator } from './realtime-queries.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 120));

test('events that arrive together refetch each query once, and later events refetch again', async () => {
  const queryClient = new QueryClient();
  let fetches = 0;
  // A mounted page's query: an active observer, which is what invalidation refetches.
  const unsubscribe = new QueryObserver(queryClient, {
    queryKey: ['oracle', 'rounds'],
    queryFn: async () => {
      fetches += 1;
      return fetches;
    },
    staleTime: Number.POSITIVE_INFINITY,
  }).subscribe(() => {});
  await settle();
  expect(fetches).toBe(1);
  const invalidate = createInvalidator(queryClient);
  // One round transition announces three epochs in one commit.
  invalidate(['oracle', 'rounds']);
  invalidate(['oracle', 'rounds']);
  invalidate(['oracle', 'rounds']);
  await settle();
  expect(fetches).toBe(2);
  invalidate(['oracle', 'rounds']);
  await settle();
  expect(fetches).toBe(3);
  unsubscribe();
});

test('an event during a query’s first fetch refetches it once that fetch is in (it may have read the old state)', async () => {
  const queryClient = new QueryClient();
  const answers: Array<(value: string) => void> = [];
  // The first read of a market page, still on its way when the server announces the market changed.
  const observer = new QueryObserver(queryClient, {
    queryKey: ['markets', 'detail', 7],
    queryFn: () => new Promise<string>((resolve) => answers.push(resolve)),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const unsubscribe = observer.subscribe(() => {});
  const invalidate = createInvalidator(queryClient);
  invalidate(['markets', 'detail']);
  invalidate(['markets', 'detail', 7]);
  await settle();
  // TanStack Query joins the fetch in flight rather than starting another.
  expect(answers).toHaveLength(1);
  answers[0]?.('before the change');
  await settle();
  // Once it is in, the query is asked again, once for the burst, and shows the change.
  expect(answers).toHaveLength(2);
  answers[1]?.('after the change');
  await settle();
  expect(observer.getCurrentResult().data).toBe('after the change');
  expect(answers).toHaveLength(2);
  unsubscribe();
});

test('a first fetch that fails is not asked again by the event (its error stays for the page to offer a retry)', async () => {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  let fetches = 0;
  let fail: (error: Error) => void = () => {};
  const unsubscribe = new QueryObserver(queryClient, {
    queryKey: ['markets', 'detail', 8],
    queryFn: () => {
      fetches += 1;
      return new Promise<string>((_resolve, reject) => {
        fail = reject;
      });
    },
  }).subscribe(() => {});
  createInvalidator(queryClient)(['markets']);
  await settle();
  fail(new Error('offline'));
  await settle();
  expect(fetches).toBe(1);
  unsubscribe();
});
