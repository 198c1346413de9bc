import type { RealtimeMessage } from '@pm/core/contract/realtime';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, test, vi } from 'vitest';
import type { Database } from '../db/client.ts';
import { createRealtimeHub, REALTIME_CHANNEL } from './realtime-hub.ts';

// The hub without a database: a stand-in `listen` hands it raw NOTIFY payloads as PostgreSQL would.

function hubWithFakeListener() {
  let notify: ((payload: string) => void) | undefined;
  let reconnect: (() => void) | undefined;
  const channels: string[] = [];
  const database = {
    async listen(
      channel: string,
      onMessage: (payload: string) => void,
      options?: { onReconnect?: () => void },
    ) {
      channels.push(channel);
      notify = onMessage;
      reconnect = options?.onReconnect;
      return async () => {};
    },
  } as unknown as Database;
  const logger = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
  const warn = vi.spyOn(logger, 'warn');
  const hub = createRealtimeHub(database, logger);
  return {
    hub,
    channels,
    warn,
    notify: (payload: string) => notify?.(payload),
    reconnect: () => reconnect?.(),
  };
}

/** The NOTIFY payload the outbox trigger sends (drizzle/0001_outbox_notify.sql). */
const row = (topic: string, payload: Record<string, unknown>) => JSON.stringify({ id: 1, topic, payload });

describe('the realtime hub', () => {
  test('listens on the realtime channel and hands each event to every subscriber once', async () => {
    const t = hubWithFakeListener();
    await t.hub.start();
    expect(t.channels).toEqual([REALTIME_CHANNEL]);
    const received: RealtimeMessage[][] = [[], [], []];
    for (const list of received) t.hub.subscribe((message) => list.push(message));
    expect(t.hub.size).toBe(3);

    t.notify(row('markets', { id: 7 }));
    t.notify(row('bets', { id: 3, marketId: 7 }));

    for (const list of received)
      expect(list).toEqual([
        { topic: 'markets', id: 7 },
        { topic: 'bets', id: 3, marketId: 7 },
      ]);
  });

  test('drops malformed notifications with a warning, and goes on with the next one', async () => {
    const t = hubWithFakeListener();
    await t.hub.start();
    const received: RealtimeMessage[] = [];
    t.hub.subscribe((message) => received.push(message));

    for (const raw of [
      'not json',
      '[]',
      JSON.stringify({ topic: 'markets' }),
      row('no-such-topic', {}),
      row('markets', { id: 'seven' }),
      row('markets', { id: 1.5 }),
    ])
      t.notify(raw);
    expect(received).toEqual([]);
    expect(t.warn).toHaveBeenCalledTimes(6);

    t.notify(row('vault', {}));
    expect(received).toEqual([{ topic: 'vault' }]);
  });

  test('a subscriber that unsubscribed hears nothing more; stop forgets them all', async () => {
    const t = hubWithFakeListener();
    await t.hub.start();
    const kept: RealtimeMessage[] = [];
    const left: RealtimeMessage[] = [];
    t.hub.subscribe((message) => kept.push(message));
    const unsubscribe = t.hub.subscribe((message) => left.push(message));
    unsubscribe();
    t.notify(row('rounds', {}));
    expect(kept).toEqual([{ topic: 'rounds' }]);
    expect(left).toEqual([]);
    await t.hub.stop();
    expect(t.hub.size).toBe(0);
  });

  test('after the listening connection is opened again, subscribers are told to refetch every topic', async () => {
    const t = hubWithFakeListener();
    await t.hub.start();
    const received: RealtimeMessage[] = [];
    t.hub.subscribe((message) => received.push(message));
    t.reconnect();
    expect(received.map((message) => message.topic).sort()).toEqual([
      'markets',
      'payouts',
      'rounds',
      'vault',
    ]);
  });
});
