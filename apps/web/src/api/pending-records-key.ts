import { hasStoredList } from '#lib/stored-list.ts';

// Kept apart from record-payment.ts so /predictions can tell whether a paid market bet waits to be
// recorded without loading the retry code (docs/decisions/006: the route is at its JS budget).
export const PENDING_RECORDS_KEY = 'markets:pendingRecords';

/** Whether a paid create or join may be waiting to be recorded (cheap: no parsing). */
export const mayHavePendingRecords = (): boolean => hasStoredList(PENDING_RECORDS_KEY);
