import * as z from 'zod/mini';
import { HistoryGameFilterSchema, HistoryStatusFilterSchema } from './history.ts';

// The history endpoints' query strings and cursor (decision 012): server side only, kept apart from
// ./history.ts so the web bundle, which only reads answers, does not carry them.

export const HISTORY_PAGE_DEFAULT = 20;
export const HISTORY_PAGE_MAX = 100;

/**
 * Which table a history row comes from: market bets (m), round bets (o) or flag
 * bonds (b). On rows placed in the same microsecond the order is bonds, rounds, market bets.
 */
export type HistorySource = 'markets' | 'oracle' | 'bonds';

const SOURCE_LETTER = { markets: 'm', oracle: 'o', bonds: 'b' } as const satisfies Record<
  HistorySource,
  string
>;
const LETTER_SOURCE: Record<string, HistorySource> = { m: 'markets', o: 'oracle', b: 'bonds' };

// The history interleaves three tables whose ids are numbered apart, so its cursor names the source
// of the last row too, and its time to the microsecond (oracle bets take the database's now()).
export type HistoryCursor = { atMicros: bigint; source: HistorySource; id: number };

const HISTORY_CURSOR_PATTERN = /^(\d{1,18})\.([mob])(\d{1,10})$/;
const MAX_ID = 2 ** 31 - 1;

export function decodeHistoryCursor(raw: string): HistoryCursor | undefined {
  const match = HISTORY_CURSOR_PATTERN.exec(raw);
  const source = LETTER_SOURCE[match?.[2] ?? ''];
  if (!match?.[1] || !match[3] || !source) return undefined;
  const id = Number(match[3]);
  if (id < 1 || id > MAX_ID) return undefined;
  const atMicros = BigInt(match[1]);
  // Beyond year 9999 no row was written: not a cursor this server made.
  if (atMicros > 253402300799999999n) return undefined;
  return { atMicros, source, id };
}

export function encodeHistoryCursor(cursor: HistoryCursor): string {
  return `${cursor.atMicros}.${SOURCE_LETTER[cursor.source]}${cursor.id}`;
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
