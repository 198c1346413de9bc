import type { FastifyRequest } from 'fastify';
import { expect, test } from 'vitest';
import { createResponseCache } from './response-cache.ts';

/** A loader that counts its calls and answers what `value` holds when called. */
function counter(initial: string) {
  const state = { value: initial, calls: 0 };
  return { state, load: async () => `${state.value}#${++state.calls}` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function requestWithCookie(cookie: string): Pick<FastifyRequest, 'headers'> {
  return { headers: { cookie } };
}

test('a read is loaded once and served from memory until its topic is invalidated', async () => {
  const cache = createResponseCache({ ttlMs: 60_000 });
  const store = cache.store<string>({ topics: ['markets'], maxEntries: 10 });
  const { load } = counter('a');
  expect(await store.read('k', load)).toBe('a#1');
  expect(await store.read('k', load)).toBe('a#1');
  cache.invalidate('rounds');
  expect(await store.read('k', load)).toBe('a#1');
  cache.invalidate('markets');
  expect(await store.read('k', load)).toBe('a#2');
  cache.invalidateAll();
  expect(await store.read('k', load)).toBe('a#3');
});

test('a copy is served for at most the TTL, counted from when its read began', async () => {
  const cache = createResponseCache({ ttlMs: 80 });
  const store = cache.store<string>({ topics: ['markets'], maxEntries: 10 });
  let calls = 0;
  const slowLoad = async () => {
    calls += 1;
    await sleep(60);
    return `v${calls}`;
  };
  expect(await store.read('k', slowLoad)).toBe('v1');
  // The read began 60 ms ago: 20 ms of the 80 are left.
  await sleep(30);
  expect(await store.read('k', slowLoad)).toBe('v2');
});

test('concurrent misses share one load', async () => {
  const cache = createResponseCache({ ttlMs: 60_000 });
  const store = cache.store<string>({ topics: ['markets'], maxEntries: 10 });
  const { state, load } = counter('a');
  const answers = await Promise.all([store.read('k', load), store.read('k', load), store.read('k', load)]);
  expect(answers).toEqual(['a#1', 'a#1', 'a#1']);
  expect(state.calls).toBe(1);
});

test('a read that began before an invalidation is neither kept nor shared with later requests', async () => {
  const cache = createResponseCache({ ttlMs: 60_000 });
  const store = cache.store<string>({ topics: ['bets'], maxEntries: 10 });
  let release: (value: string) => void = () => {};
  const before = store.read('k', () => new Promise<string>((resolve) => (release = resolve)));
  cache.invalidate('bets');
  const after = store.read('k', async () => 'after the commit');
  release('before the commit');
  expect(await before).toBe('before the commit');
  expect(await after).toBe('after the commit');
  expect(await store.read('k', async () => 'a third read')).toBe('after the commit');
});

test('a client that has just written always reads afresh', async () => {
  const cache = createResponseCache({ ttlMs: 60_000 });
  const store = cache.store<string>({ topics: ['markets'], maxEntries: 10 });
  const { load } = counter('a');
  expect(await store.read('k', load)).toBe('a#1');
  expect(await store.read('k', load, requestWithCookie('theme=dark; pm_fresh=1'))).toBe('a#2');
  expect(await store.read('k', load, requestWithCookie('not_pm_fresh=1'))).toBe('a#2');
});

test('failures are not kept, and a TTL of 0 turns the cache off', async () => {
  const cache = createResponseCache({ ttlMs: 60_000 });
  const store = cache.store<string>({ topics: ['prices'], maxEntries: 10 });
  await expect(store.read('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
  expect(await store.read('k', async () => 'up')).toBe('up');

  const off = createResponseCache({ ttlMs: 0 }).store<string>({ topics: ['prices'], maxEntries: 10 });
  const { load } = counter('a');
  expect(await off.read('k', load)).toBe('a#1');
  expect(await off.read('k', load)).toBe('a#2');
});

test('large answers are bounded by size', async () => {
  const cache = createResponseCache({ ttlMs: 60_000 });
  const store = cache.store<string>({
    topics: ['markets'],
    maxEntries: 100,
    maxSize: 10,
    sizeOf: (value) => value.length,
  });
  await store.read('a', async () => '123456');
  await store.read('b', async () => '123456');
  // 'a' was evicted to make room for 'b'.
  expect(await store.read('a', async () => 'reloaded')).toBe('reloaded');
});
