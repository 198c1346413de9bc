import { z } from 'zod';

// What the database announces when a row a wallet's own reads show changes (migration 0021's
// triggers, docs/decisions/032): which reads, and whose. The realtime hub hands these on from the
// realtime channel; they never reach a WebSocket client.

/** The realtime channel's topic the triggers use; the hub keeps it from the sockets. */
export const WALLET_CHANGES_TOPIC = 'wallets';

/** The four reads a wallet makes for itself, each cached per wallet until its events drop it. */
export const WALLET_READS = ['bets', 'claimable', 'history', 'summary'] as const;
export type WalletRead = (typeof WALLET_READS)[number];

/** Each read's bit in a change's `reads`: the same numbers the triggers send. */
export const WALLET_READ_BITS: Readonly<Record<WalletRead, number>> = {
  bets: 1,
  claimable: 2,
  history: 4,
  summary: 8,
};
export const ALL_WALLET_READS = 15;

const Ids = z.array(z.number().int());

/**
 * - `addresses`: these wallets' reads changed, and (`joined`) they now hold stakes in these markets
 *   and rounds (a bet, a flag);
 * - otherwise: the reads of every wallet with a stake in `markets` or `rounds` changed (a market or a
 *   round moved, or a statement over many bets).
 */
export const WalletChangeSchema = z.union([
  z.object({
    reads: z.number().int().min(1).max(ALL_WALLET_READS),
    addresses: z.array(z.string()),
    joined: z.object({ markets: Ids, rounds: Ids }),
  }),
  z.object({
    reads: z.number().int().min(1).max(ALL_WALLET_READS),
    markets: Ids,
    rounds: Ids,
  }),
]);
export type WalletChange = z.infer<typeof WalletChangeSchema>;
