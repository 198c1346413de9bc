import { describe, expect, test } from 'vitest';
import { decodePageCursor, encodePageCursor, PageCursorSchema } from './page-cursor.ts';

describe('page cursors', () => {
  test('a cursor names the sort time and id of the last item, and reads back the same', () => {
    const cursor = { at: new Date('2026-11-23T10:00:00.123Z'), id: 42 };
    const raw = encodePageCursor(cursor);
    expect(raw).toBe(`${cursor.at.getTime()}.42`);
    expect(decodePageCursor(raw)).toEqual(cursor);
    expect(PageCursorSchema.safeParse(raw).success).toBe(true);
  });

  test('anything else is refused, including ids beyond what the database stores', () => {
    for (const raw of ['', 'abc', '1.2.3', '-1.5', '1.0', `1.${2 ** 31}`, `${'9'.repeat(16)}.1`, '1e3.1']) {
      expect(PageCursorSchema.safeParse(raw).success, raw).toBe(false);
    }
  });
});
