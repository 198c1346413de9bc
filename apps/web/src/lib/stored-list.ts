/**
 * Whether localStorage holds a non-empty list under `key`, without parsing it. The pages call it on
 * load to decide whether to fetch the code that retries paid-but-unrecorded bets,
 * which most visits never need (docs/decisions/006, JS budget).
 */
export function hasStoredList(key: string): boolean {
  try {
    return (window.localStorage.getItem(key) ?? '[]') !== '[]';
  } catch {
    return false;
  }
}
