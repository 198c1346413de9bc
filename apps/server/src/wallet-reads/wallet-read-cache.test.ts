import { describe, expect, test } from 'vitest';
import { createWalletReadCache, type WalletReadCacheOptions } from './wallet-read-cache.ts';
import type { WalletStakes } from './wallet-stakes-repository.ts';

// The wallet read cache alone (decision 032), with the database's changes handed in as the realtime
// hub hands them; apps/server/test/wallet-read-cache.test.ts drives it with the real triggers.

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';

function cacheWith(
  stakes: Record<string, WalletStakes>,
  options: Partial<WalletReadCacheOptions<string>> = {},
) {
  const stakeReads: string[] = [];
  const cache = createWalletReadCache<string>({
    ttlMs: 60_000,
    maxBytes: 1024 * 1024,
    maxWallets: 100,
    sizeOf: (value) => value.length,
    loadStakes: async (address) => {
      stakeReads.push(address);
      return stakes[address] ?? { markets: [], rounds: [] };
    },
    listening: true,
    ...options,
  });
  return { cache, stakeReads };
}

/** A loader that counts its calls: each answer names its call. */
function loader(name: string) {
  const state = { calls: 0 };
  return { state, load: async () => `${name}#${++state.calls}` };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the wallet read cache', () => {
  test('keeps each read until a change of its wallet names it, and only that read of that wallet', async () => {
    const { cache } = cacheWith({});
    const bets = loader('bets');
    const claimable = loader('claimable');
    const other = loader('other');
    expect(await cache.read('bets', A, '/a/bets', bets.load)).toBe('bets#1');
    expect(await cache.read('claimable', A, '/a/claimable', claimable.load)).toBe('claimable#1');
    expect(await cache.read('bets', B, '/b/bets', other.load)).toBe('other#1');
    await settle();
    expect(await cache.read('bets', A, '/a/bets', bets.load)).toBe('bets#1');
    expect(cache.cachedReads(A)).toEqual(['bets', 'claimable']);

    // A bet recorded (13: bets, history, P&L): A's bets go, its claimable and B's stay.
    cache.change({
      reads: 13,
      addresses: [A.toUpperCase().replace('0X', '0x')],
      joined: { markets: [7], rounds: [] },
    });
    expect(cache.cachedReads(A)).toEqual(['claimable']);
    expect(cache.cachedReads(B)).toEqual(['bets']);
    expect(await cache.read('bets', A, '/a/bets', bets.load)).toBe('bets#2');
    expect(await cache.read('claimable', A, '/a/claimable', claimable.load)).toBe('claimable#1');
  });

  test('a change naming a market drops the wallets with a stake in it, the joined ones included', async () => {
    const { cache } = cacheWith({ [A]: { markets: [1], rounds: [] }, [B]: { markets: [2], rounds: [5] } });
    await cache.read('claimable', A, '/a', loader('a').load);
    await cache.read('claimable', B, '/b', loader('b').load);
    await settle();
    cache.change({ reads: 2, markets: [2], rounds: [] });
    expect(cache.cachedReads(A)).toEqual(['claimable']);
    expect(cache.cachedReads(B)).toEqual([]);

    // A bets in market 3: the change says so, and a change of market 3 reaches A from then on.
    await cache.read('summary', A, '/a/summary', loader('s').load);
    await settle();
    cache.change({ reads: 13, addresses: [A], joined: { markets: [3], rounds: [] } });
    expect(cache.cachedReads(A)).toEqual(['claimable']);
    cache.change({ reads: 2, markets: [3], rounds: [] });
    expect(cache.cachedReads(A)).toEqual([]);

    await cache.read('history', B, '/b/history', loader('h').load);
    await settle();
    cache.change({ reads: 14, markets: [], rounds: [5] });
    expect(cache.cachedReads(B)).toEqual([]);
  });

  test('a read that began before a change is not kept, nor shared with later requests', async () => {
    const { cache } = cacheWith({});
    let release: (value: string) => void = () => {};
    const before = cache.read('bets', A, '/a', () => new Promise<string>((resolve) => (release = resolve)));
    cache.change({ reads: 1, addresses: [A], joined: { markets: [], rounds: [] } });
    const after = loader('after');
    const later = cache.read('bets', A, '/a', after.load);
    release('before');
    expect(await before).toBe('before');
    expect(await later).toBe('after#1');
    await settle();
    expect(await cache.read('bets', A, '/a', after.load)).toBe('after#1');
    expect(after.state.calls).toBe(1);

    // A change naming any market or round: whoever's stakes it touches may not be known yet.
    let slow: (value: string) => void = () => {};
    const pending = cache.read(
      'claimable',
      B,
      '/b',
      () => new Promise<string>((resolve) => (slow = resolve)),
    );
    cache.change({ reads: 2, markets: [99], rounds: [] });
    slow('old');
    expect(await pending).toBe('old');
    await settle();
    expect(cache.cachedReads(B)).toEqual([]);
  });

  test('concurrent misses share one read, and the stakes are read once per wallet', async () => {
    const { cache, stakeReads } = cacheWith({});
    const bets = loader('bets');
    const answers = await Promise.all([1, 2, 3].map(() => cache.read('bets', A, '/a', bets.load)));
    expect(answers).toEqual(['bets#1', 'bets#1', 'bets#1']);
    await cache.read('history', A, '/a/h', loader('h').load);
    await settle();
    expect(stakeReads).toEqual([A]);
  });

  test('a fresh read (the client has just written) reads afresh and keeps what it read', async () => {
    const { cache } = cacheWith({});
    const bets = loader('bets');
    await cache.read('bets', A, '/a', bets.load);
    await settle();
    expect(await cache.read('bets', A, '/a', bets.load, true)).toBe('bets#2');
    await settle();
    expect(await cache.read('bets', A, '/a', bets.load)).toBe('bets#2');
  });

  test("this instance's write drops the wallet's every read", async () => {
    const { cache } = cacheWith({});
    await cache.read('bets', A, '/a', loader('b').load);
    await cache.read('summary', A, '/a/s', loader('s').load);
    await settle();
    cache.dropWallet(A.toUpperCase().replace('0X', '0x'));
    expect(cache.cachedReads(A)).toEqual([]);
  });

  test('deaf (the changes cannot be heard), it serves and keeps nothing; hearing again, it starts empty', async () => {
    const { cache } = cacheWith({});
    const bets = loader('bets');
    await cache.read('bets', A, '/a', bets.load);
    await settle();
    cache.resync(false);
    expect(cache.cachedReads(A)).toEqual([]);
    expect(await cache.read('bets', A, '/a', bets.load)).toBe('bets#2');
    await settle();
    expect(await cache.read('bets', A, '/a', bets.load)).toBe('bets#3');
    cache.resync(true);
    expect(await cache.read('bets', A, '/a', bets.load)).toBe('bets#4');
    await settle();
    expect(await cache.read('bets', A, '/a', bets.load)).toBe('bets#4');
  });

  test('nothing is kept when its stakes cannot be read (a change of its markets could not reach it)', async () => {
    const { cache } = cacheWith(
      {},
      {
        loadStakes: async () => {
          throw new Error('database away');
        },
      },
    );
    const bets = loader('bets');
    expect(await cache.read('bets', A, '/a', bets.load)).toBe('bets#1');
    await settle();
    expect(cache.cachedReads(A)).toEqual([]);
  });

  test('an answer is served for at most the TTL, counted from when its read began', async () => {
    const { cache } = cacheWith({}, { ttlMs: 40 });
    const bets = loader('bets');
    await cache.read('bets', A, '/a', bets.load);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await cache.read('bets', A, '/a', bets.load)).toBe('bets#2');
  });

  test('memory is bounded: the least recently read wallets go first', async () => {
    const { cache } = cacheWith({}, { maxBytes: 4_000, sizeOf: (value) => value.length + 1_000 });
    const wallets = Array.from({ length: 6 }, (_, i) => `0x${String(i).padStart(40, '0')}`);
    for (const wallet of wallets) {
      await cache.read('bets', wallet, `/${wallet}`, loader(wallet).load);
      await settle();
    }
    expect(cache.size().bytes).toBeLessThanOrEqual(4_000);
    expect(cache.cachedReads(wallets[0] ?? '')).toEqual([]);
    expect(cache.cachedReads(wallets[5] ?? '')).toEqual(['bets']);
  });

  test('with a TTL of 0 it is off', async () => {
    const { cache, stakeReads } = cacheWith({}, { ttlMs: 0 });
    const bets = loader('bets');
    await cache.read('bets', A, '/a', bets.load);
    expect(await cache.read('bets', A, '/a', bets.load)).toBe('bets#2');
    expect(stakeReads).toEqual([]);
  });
});
