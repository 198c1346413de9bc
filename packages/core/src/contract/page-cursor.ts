import * as z from 'zod/mini';

// Keyset pagination for lists that can grow without bound (a wallet's bets, the market board):
// a page ends with `nextCursor`, and the next request passes it back as `cursor`. The cursor names
// the last item shown (its sort time in ms and its id), so new rows arriving in between neither
// repeat nor hide items, and the database seeks instead of counting an OFFSET.

export type PageCursor = { at: Date; id: number };

/** Postgres `integer` ids stop here; a larger id in a cursor would be a 500, not a 400. */
const MAX_ID = 2 ** 31 - 1;
const CURSOR_PATTERN = /^(\d{1,15})\.(\d{1,10})$/;

/** Parses a cursor from the wire; undefined when it is not one this server wrote. */
export function decodePageCursor(raw: string): PageCursor | undefined {
  const match = CURSOR_PATTERN.exec(raw);
  if (!match) return undefined;
  const at = new Date(Number(match[1]));
  const id = Number(match[2]);
  if (Number.isNaN(at.getTime()) || id < 1 || id > MAX_ID) return undefined;
  return { at, id };
}

export function encodePageCursor(cursor: PageCursor): string {
  return `${cursor.at.getTime()}.${cursor.id}`;
}

export const PageCursorSchema = z
  .string()
  .check(z.refine((raw) => decodePageCursor(raw) !== undefined, 'must be a nextCursor from a previous page'));
