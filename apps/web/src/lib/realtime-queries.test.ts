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
