import * as z from 'zod/mini';
import { type HistoryGame, HistoryGameFilterSchema, HistoryStatusFilterSchema } from './history.ts';

// The history endpoints' query strings and cursor (decision 012): server side only, kept apart from
// ./history.ts so the web bundle, which only reads answers, does not carry them.

export const HISTORY_PAGE_DEFAULT = 20;
export const HISTORY_PAGE_MAX = 100;

// The history interleaves two tables whose ids are numbered apart, so its cursor names the game of
// the last row too, and its time to the microsecond (oracle bets take the database's now()).
export type HistoryCursor = { atMicros: bigint; game: HistoryGame; id: number };

const HISTORY_CURSOR_PATTERN = /^(\d{1,18})\.([mo])(\d{1,10})$/;
const MAX_ID = 2 ** 31 - 1;

export function decodeHistoryCursor(raw: string): HistoryCursor | undefined {
  const match = HISTORY_CURSOR_PATTERN.exec(raw);
  if (!match?.[1] || !match[3]) return undefined;
  const id = Number(match[3]);
  if (id < 1 || id > MAX_ID) return undefined;
  const atMicros = BigInt(match[1]);
  // Beyond year 9999 no row was written: not a cursor this server made.
  if (atMicros > 253402300799999999n) return undefined;
  return { atMicros, game: match[2] === 'm' ? 'markets' : 'oracle', id };
}

export function encodeHistoryCursor(cursor: HistoryCursor): string {
  return `${cursor.atMicros}.${cursor.game === 'markets' ? 'm' : 'o'}${cursor.id}`;
}

export const HistoryCursorSchema = z
  .string()
  .check(
    z.refine((raw) => decodeHistoryCursor(raw) !== undefined, 'must be a nextCursor from a previous page'),
  );

export const HistoryQuerySchema = z.strictObject({
  game: z.optional(HistoryGameFilterSchema),
  status: z.optional(HistoryStatusFilterSchema),
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(HISTORY_PAGE_MAX))),
  /** The `nextCursor` of the page before. */
  cursor: z.optional(HistoryCursorSchema),
});
export type HistoryQuery = z.infer<typeof HistoryQuerySchema>;

export const HistorySummaryQuerySchema = z.strictObject({ game: z.optional(HistoryGameFilterSchema) });
