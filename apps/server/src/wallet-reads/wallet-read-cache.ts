import { LRUCache } from 'lru-cache';
import {
  ALL_WALLET_READS,
  WALLET_READ_BITS,
  WALLET_READS,
  type WalletChange,
  type WalletRead,
} from './wallet-changes.ts';
import type { WalletStakes } from './wallet-stakes-repository.ts';

// docs/decisions/032: the answers of a wallet's own reads (its bets, claimable, history, P&L),
// kept per wallet until one of its events drops them. The database announces every change to a
// row those reads show (migration 0021's triggers), on the realtime channel every instance hears;
// a change names its wallets, or the markets and rounds it touched, and this cache knows the
// markets and rounds each wallet it keeps holds stakes in. Nothing stale is served:
// - an answer is kept only if no change of its read, of its wallet or of any market or round,
//   arrived while it was read (it may have read the rows before that commit);
// - while the instance cannot hear the changes (its listening connection is down), nothing is
//   served or kept, and everything is dropped when it hears again;
// - the write this instance answers drops its wallet's reads before the answer leaves, and a
//   client that has just written (the fresh-read cookie) reads afresh on every instance;
// - a TTL is the backstop for what the triggers cannot see (a NOTIFY lost in flight).
// Memory is bounded by lru-cache: whole wallets, least recently read first, by the bytes of their
// answers and stakes.

export type WalletReadOutcome = 'hit' | 'miss' | 'fresh' | 'deaf';
export type WalletDropCause = 'change' | 'write' | 'resync';

export type WalletReadCacheOptions<T> = {
  /** How long an answer may be served at most (a backstop); 0 turns the cache off. */
  ttlMs: number;
  /** The bytes of answers and stakes kept at most, all wallets together. */
  maxBytes: number;
  /** The wallets kept at most. */
  maxWallets: number;
  /** An answer's size in bytes (its body). */
  sizeOf: (value: T) => number;
  /** The markets and rounds a wallet (lower-case) holds stakes in, read from the database. */
  loadStakes: (address: string) => Promise<WalletStakes>;
  /** Whether this instance hears the changes now (its listening connection is up). */
  listening: boolean;
  onRead?: (read: WalletRead, outcome: WalletReadOutcome) => void;
  onDrop?: (cause: WalletDropCause, wallets: number) => void;
};

type Answer<T> = { value: T; read: WalletRead; startedAt: number; bytes: number };

/** What a read saw when it began; it is kept only if all of it still holds when it ends. */
type Start = { generation: number; scoped: number; epoch: number; startedAt: number };

type Flight<T> = { value: Promise<T>; read: WalletRead; start: Start };

type Wallet<T> = {
  address: string;
  answers: Map<string, Answer<T>>;
  inFlight: Map<string, Flight<T>>;
  /** Per read (WALLET_READS' order), bumped each time its answers are dropped. */
  generations: number[];
  stakes: { markets: Set<number>; rounds: Set<number> } | null;
  stakesLoad: Promise<unknown> | null;
  /** Bumped when the wallet joins a market or round while its stakes are being read. */
  stakesGeneration: number;
  bytes: number;
  /** Evicted or dropped whole: nothing more is kept in it. */
  retired: boolean;
};

/** What a wallet costs beyond its answers: the maps and counters, and 16 bytes per stake held. */
const WALLET_BYTES = 512;
const STAKE_BYTES = 16;

const readIndex = (read: WalletRead) => WALLET_READS.indexOf(read);

export type WalletReadCache<T> = ReturnType<typeof createWalletReadCache<T>>;

export function createWalletReadCache<T>(options: WalletReadCacheOptions<T>) {
  const { ttlMs } = options;
  // Boxed, so a wallet's new size is set with a new value (lru-cache keeps the old size for the
  // same value); the box replaced by a `set` is not a dropped wallet.
  const wallets = new LRUCache<string, { wallet: Wallet<T> }>({
    max: options.maxWallets,
    maxSize: options.maxBytes,
    sizeCalculation: (box) => box.wallet.bytes,
    dispose: (box, _address, reason) => {
      if (reason !== 'set') box.wallet.retired = true;
    },
  });
  let listening = options.listening;
  // Bumped by every change that names markets or rounds: a read begun before one is not kept
  // whatever its wallet (its stakes may not be known yet when it ends).
  let scoped = 0;
  // Bumped when everything is dropped.
  let epoch = 0;

  const newWallet = (address: string): Wallet<T> => ({
    address,
    answers: new Map(),
    inFlight: new Map(),
    generations: WALLET_READS.map(() => 0),
    stakes: null,
    stakesLoad: null,
    stakesGeneration: 0,
    bytes: WALLET_BYTES,
    retired: false,
  });

  const current = (address: string): Wallet<T> | undefined => wallets.peek(address)?.wallet;

  /** Sets the wallet's size again (lru-cache may evict others, or this one when it is too large). */
  const resize = (wallet: Wallet<T>) => {
    if (wallet.retired || current(wallet.address) !== wallet) return;
    let bytes = WALLET_BYTES;
    for (const answer of wallet.answers.values()) bytes += answer.bytes;
    if (wallet.stakes) bytes += STAKE_BYTES * (wallet.stakes.markets.size + wallet.stakes.rounds.size);
    wallet.bytes = bytes;
    wallets.set(wallet.address, { wallet });
  };

  /** Drops `reads` (bits) of a wallet's answers; whatever was being read of them is not kept. */
  const dropReads = (wallet: Wallet<T>, reads: number) => {
    for (const read of WALLET_READS) {
      if ((reads & WALLET_READ_BITS[read]) === 0) continue;
      const index = readIndex(read);
      wallet.generations[index] = (wallet.generations[index] ?? 0) + 1;
    }
    for (const [key, answer] of wallet.answers) {
      if ((reads & WALLET_READ_BITS[answer.read]) !== 0) wallet.answers.delete(key);
    }
    for (const [key, flight] of wallet.inFlight) {
      if ((reads & WALLET_READ_BITS[flight.read]) !== 0) wallet.inFlight.delete(key);
    }
    resize(wallet);
  };

  const dropAll = (cause: WalletDropCause) => {
    epoch += 1;
    const count = wallets.size;
    wallets.clear();
    options.onDrop?.(cause, count);
  };

  /** The wallet's stakes, read once while it is kept; a join during the read makes it read again. */
  const ensureStakes = (wallet: Wallet<T>): Promise<unknown> => {
    if (wallet.stakes) return Promise.resolve();
    if (wallet.stakesLoad) return wallet.stakesLoad;
    const generation = wallet.stakesGeneration;
    const load = options.loadStakes(wallet.address).then(
      (stakes) => {
        if (wallet.stakesLoad === load) wallet.stakesLoad = null;
        if (wallet.retired || wallet.stakesGeneration !== generation || wallet.stakes) return;
        wallet.stakes = { markets: new Set(stakes.markets), rounds: new Set(stakes.rounds) };
        resize(wallet);
      },
      (error: unknown) => {
        if (wallet.stakesLoad === load) wallet.stakesLoad = null;
        throw error;
      },
    );
    wallet.stakesLoad = load;
    return load;
  };

  const startOf = (wallet: Wallet<T>, read: WalletRead): Start => ({
    generation: wallet.generations[readIndex(read)] ?? 0,
    scoped,
    epoch,
    startedAt: performance.now(),
  });

  const stillHolds = (wallet: Wallet<T>, read: WalletRead, start: Start) =>
    !wallet.retired &&
    listening &&
    current(wallet.address) === wallet &&
    wallet.generations[readIndex(read)] === start.generation &&
    scoped === start.scoped &&
    epoch === start.epoch;

  /** Reads afresh; keeps the answer if nothing it depends on changed meanwhile. */
  const load = (
    wallet: Wallet<T>,
    read: WalletRead,
    key: string,
    loader: () => Promise<T>,
    share: boolean,
  ) => {
    const start = startOf(wallet, read);
    const stakes = ensureStakes(wallet);
    const value = loader();
    const flight = { value, read, start };
    if (share) wallet.inFlight.set(key, flight);
    const settle = () => {
      if (wallet.inFlight.get(key) === flight) wallet.inFlight.delete(key);
    };
    Promise.all([value, stakes]).then(
      ([loaded]) => {
        settle();
        if (!stillHolds(wallet, read, start) || wallet.stakes === null) return;
        wallet.answers.set(key, {
          value: loaded,
          read,
          startedAt: start.startedAt,
          bytes: options.sizeOf(loaded) + key.length,
        });
        resize(wallet);
      },
      // The request's own promise carries a failed read to its caller; a failed stakes read only
      // means nothing is kept.
      settle,
    );
    return value;
  };

  return {
    /**
     * The answer of `read` at `key` (its URL) for `address` (lower-case): kept, or `loader()`'s.
     * Concurrent misses of one key share one read; `fresh` (the client has just written) reads
     * afresh, and keeps what it read.
     */
    read(
      read: WalletRead,
      address: string,
      key: string,
      loader: () => Promise<T>,
      fresh = false,
    ): Promise<T> {
      if (ttlMs === 0) return loader();
      if (!listening) {
        options.onRead?.(read, 'deaf');
        return loader();
      }
      let wallet = wallets.get(address)?.wallet;
      if (!wallet) {
        wallet = newWallet(address);
        wallets.set(address, { wallet });
      }
      const answerKey = `${read} ${key}`;
      if (!fresh) {
        const now = performance.now();
        const answer = wallet.answers.get(answerKey);
        if (answer && now - answer.startedAt < ttlMs) {
          options.onRead?.(read, 'hit');
          return Promise.resolve(answer.value);
        }
        const flight = wallet.inFlight.get(answerKey);
        if (flight && stillHolds(wallet, read, flight.start) && now - flight.start.startedAt < ttlMs) {
          options.onRead?.(read, 'hit');
          return flight.value;
        }
      }
      options.onRead?.(read, fresh ? 'fresh' : 'miss');
      return load(wallet, read, answerKey, loader, !fresh);
    },

    /** A change the database announced (the realtime channel's `wallets` topic). */
    change(change: WalletChange): void {
      if ('addresses' in change) {
        let dropped = 0;
        for (const raw of change.addresses) {
          const wallet = current(raw.toLowerCase());
          if (!wallet) continue;
          dropped += 1;
          if (wallet.stakes) {
            for (const market of change.joined.markets) wallet.stakes.markets.add(market);
            for (const round of change.joined.rounds) wallet.stakes.rounds.add(round);
          } else if (change.joined.markets.length > 0 || change.joined.rounds.length > 0) {
            // Its stakes are being read: that read may have missed this join.
            wallet.stakesGeneration += 1;
          }
          dropReads(wallet, change.reads);
        }
        if (dropped > 0) options.onDrop?.('change', dropped);
        return;
      }
      scoped += 1;
      const markets = new Set(change.markets);
      const rounds = new Set(change.rounds);
      const touched: Wallet<T>[] = [];
      for (const { wallet } of wallets.values()) {
        const stakes = wallet.stakes;
        if (!stakes) continue;
        let holds = false;
        for (const market of markets) if (stakes.markets.has(market)) holds = true;
        for (const round of rounds) if (stakes.rounds.has(round)) holds = true;
        if (holds) touched.push(wallet);
      }
      // Dropped after the walk: dropping resizes, which reorders the cache being walked.
      for (const wallet of touched) dropReads(wallet, change.reads);
      if (touched.length > 0) options.onDrop?.('change', touched.length);
    },

    /** This instance answered a write of `address`: its reads are dropped before the answer leaves. */
    dropWallet(address: string): void {
      const wallet = current(address.toLowerCase());
      if (!wallet) return;
      dropReads(wallet, ALL_WALLET_READS);
      options.onDrop?.('write', 1);
    },

    /**
     * The changes may have been missed (the listening connection was lost) or cannot be heard
     * (`listening` false): everything is dropped, and nothing is served or kept while deaf.
     */
    resync(nowListening: boolean): void {
      listening = nowListening;
      dropAll('resync');
    },

    /** The reads kept of `address` now (tests and the operations doc's figures). */
    cachedReads(address: string): WalletRead[] {
      const wallet = current(address.toLowerCase());
      if (!wallet) return [];
      const reads = new Set<WalletRead>();
      for (const answer of wallet.answers.values()) reads.add(answer.read);
      return WALLET_READS.filter((read) => reads.has(read));
    },

    /** Wallets and bytes kept (a gauge each). */
    size(): { wallets: number; bytes: number } {
      return { wallets: wallets.size, bytes: wallets.calculatedSize };
    },
  };
}
