import { type RealtimeMessage, RealtimeMessageSchema } from '@pm/core/contract/realtime';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/client.ts';
import { WALLET_CHANGES_TOPIC } from '../wallet-reads/wallet-changes.ts';

export const REALTIME_CHANNEL = 'pm_realtime';

/** Topic-only events: each makes a client refetch everything it shows of that topic. */
const RESYNC: RealtimeMessage[] = [
  { topic: 'markets' },
  { topic: 'rounds' },
  { topic: 'vault' },
  { topic: 'payouts' },
];

type Subscriber = (message: RealtimeMessage) => void;

/**
 * Hears the database's changes to wallets' rows (the `wallets` topic of the same channel, migration
 * 0021), which no socket is sent, and whether this instance can hear them at all (docs/decisions/032).
 */
export type WalletChangesSubscriber = {
  /** A `wallets` notification's payload, as sent (the subscriber parses it). */
  change(payload: unknown): void;
  /** Notifications may have been missed; `listening`: whether they are heard again now. */
  resync(listening: boolean): void;
};

const NotificationSchema = z.object({
  topic: z.string(),
  payload: z.record(z.string(), z.unknown()),
  /** The schema a wallet change was made in (migration 0021). */
  schema: z.string().optional(),
});

/**
 * Relays committed outbox events (LISTEN/NOTIFY, so every instance hears every change) to this
 * instance's WebSocket clients.
 */
export function createRealtimeHub(database: Database, logger: FastifyBaseLogger) {
  const subscribers = new Set<Subscriber>();
  const walletSubscribers = new Set<WalletChangesSubscriber>();
  let unlisten: (() => Promise<void>) | undefined;
  let listening = false;
  const resyncWallets = (now: boolean) => {
    listening = now;
    for (const subscriber of walletSubscribers) subscriber.resync(now);
  };
  const deliver = (raw: string) => {
    const parsed = NotificationSchema.safeParse(safeJson(raw));
    // A wallet's rows changed: for the wallet read cache alone. One connection carries both in commit
    // order, and a transaction's realtime events come after its wallet changes (migration 0021), so
    // a client that refetches on an event finds the cache already dropped.
    if (parsed.success && parsed.data.topic === WALLET_CHANGES_TOPIC) {
      // Another schema's rows on the same database (a test file's) are not this instance's.
      if (database.schema !== undefined && parsed.data.schema !== database.schema) return;
      for (const subscriber of walletSubscribers) subscriber.change(parsed.data.payload);
      return;
    }
    const message = parsed.success
      ? RealtimeMessageSchema.safeParse({ ...parsed.data.payload, topic: parsed.data.topic })
      : undefined;
    if (!message?.success) {
      logger.warn({ raw }, 'dropped a malformed realtime notification');
      return;
    }
    for (const subscriber of subscribers) subscriber(message.data);
  };
  return {
    async start() {
      unlisten = await database.listen(REALTIME_CHANNEL, deliver, {
        // Events sent while the listening connection was down are lost: tell every client to
        // refetch what it shows, as a reconnecting client does (the wallet reads kept are dropped
        // first).
        onReconnect: () => {
          logger.info('realtime listener reconnected; clients refetch');
          resyncWallets(true);
          for (const message of RESYNC) for (const subscriber of subscribers) subscriber(message);
        },
        onDisconnect: () => {
          logger.warn('realtime listener lost; reconnecting');
          resyncWallets(false);
        },
      });
      resyncWallets(true);
    },
    async stop() {
      await unlisten?.();
      resyncWallets(false);
      subscribers.clear();
      walletSubscribers.clear();
    },
    subscribe(subscriber: Subscriber): () => void {
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
    /** Subscribes before `start` or after: told at once whether the changes are heard now. */
    subscribeWalletChanges(subscriber: WalletChangesSubscriber): () => void {
      walletSubscribers.add(subscriber);
      subscriber.resync(listening);
      return () => walletSubscribers.delete(subscriber);
    },
    get size() {
      return subscribers.size;
    },
    /** Whether the listening connection is up: the realtime events and the wallet changes are heard. */
    get listening() {
      return listening;
    },
  };
}

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
