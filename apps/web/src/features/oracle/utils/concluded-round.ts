// docs/product.md §4: a modal announces a concluded round when an ended epoch newer than the last one seen
// (kept in localStorage) appears; on the first visit the epoch is only stored.

export const LAST_SEEN_EPOCH_KEY = 'oracle:lastSeenEndedEpoch';

/**
 * `latestEnded` is undefined while the rounds are loading and null when none has ended yet. A first
 * visit before any round ended stores 0, so the first round that ends afterwards is announced.
 */
export function nextConcludedState(
  lastSeen: number | null,
  latestEnded: number | null | undefined,
): { store: number | null; announce: number | null } {
  if (latestEnded === undefined) return { store: null, announce: null };
  if (latestEnded === null) return { store: lastSeen === null ? 0 : null, announce: null };
  if (lastSeen === null) return { store: latestEnded, announce: null };
  if (latestEnded > lastSeen) return { store: latestEnded, announce: latestEnded };
  return { store: null, announce: null };
}

export function readLastSeenEpoch(storage: Pick<Storage, 'getItem'> | undefined): number | null {
  const raw = storage?.getItem(LAST_SEEN_EPOCH_KEY);
  if (raw === null || raw === undefined || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}
