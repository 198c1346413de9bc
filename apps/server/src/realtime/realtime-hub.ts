import { type RealtimeMessage, RealtimeMessageSchema } from '@pm/core/contract/realtime';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/client.ts';

export const REALTIME_CHANNEL = 'pm_realtime';

/** Topic-only events: each makes a client refetch everything it shows of that topic. */
const RESYNC: RealtimeMessage[] = [
  { topic: 'markets' },
  { topic: 'rounds' },
  { topic: 'vault' },
  { topic: 'payouts' },
];

type Subscriber = (message: RealtimeMessage) => void;

const NotificationSchema = z.object({ topic: z.string(), payload: z.record(z.string(), z.unknown()) });

/**
 * Relays committed outbox events (LISTEN/NOTIFY, so every instance hears every change) to this
 * instance's WebSocket clients.
 */
export function createRealtimeHub(database: Database, logger: FastifyBaseLogger) {
  const subscribers = new Set<Subscriber>();
  let unlisten: (() => Promise<void>) | undefined;
  const deliver = (raw: string) => {
    const parsed = NotificationSchema.safeParse(safeJson(raw));
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
        // refetch what it shows, as a reconnecting client does.
        onReconnect: () => {
          logger.info('realtime listener reconnected; clients refetch');
          for (const message of RESYNC) for (const subscriber of subscribers) subscriber(message);
        },
      });
    },
    async stop() {
      await unlisten?.();
      subscribers.clear();
    },
    subscribe(subscriber: Subscriber): () => void {
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
    get size() {
      return subscribers.size;
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
