import { hasStoredList } from '#lib/stored-list.ts';

// Kept apart from pending-oracle-bets.ts so the oracle page can tell whether anything waits without
// loading the retry code (docs/decisions/006: the route is at its JS budget).
export const PENDING_ORACLE_BETS_KEY = 'oracle:pendingBets';

/** Whether a paid round bet may be waiting to be recorded (cheap: no parsing). */
export const mayHavePendingOracleBets = (): boolean => hasStoredList(PENDING_ORACLE_BETS_KEY);
